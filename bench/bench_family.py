"""make bench-family: every variant of the family over the same deal numbers, our `any` and
`verdict` modes a line each, and Freecell Solver (its default search and its `-l lg`
preset) on the three down-building ones in the same run.

It exists so that one table says what the solver does on each variant within a fixed
budget (how many deals it decides, how many are winnable, how long it takes, how long
its solutions are and how often it proves them optimal), and how it stands against an
established solver on the games that solver plays, with the evidence (deals where the
verdicts differ) listed rather than averaged away.

One search at a time, on one core: ours in this process, fc-solve as a child process.
Per variant the deals go in chunks; in each chunk every side (our modes, --modes;
fc-solve's presets, --presets) runs on every deal, the sides' order rotated by one a
chunk (bench/sides.py), so that machine noise falls on all; then the chunk's deals one
of our modes solved are solved in `optimal` mode, timed on their own. fc-solve gets our
board (bench/fcsolve.py), checked card for card against pysol-cards' deal of that
number; every line, ours and fc-solve's, is replayed by our plain rules (a line of
fc-solve's they refuse is listed).

    .venv/bin/python -m bench.bench_family [--deals 1-1000] [--variants a,b] [--seconds 10]
        [--modes any,verdict] [--presets default,lg] [--quick] [--json out.json]
        [--fortress-share 10000]
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

from bench import fcsolve, sides
from solver.beleaguered.deals import deal
from solver.beleaguered.position import Position
from solver.beleaguered.rules import replay
from solver.beleaguered.solve import Algorithm, Mode, solve
from solver.beleaguered.variant import Variant, find_variant, variants
from solver.budget import Budget, Status
from solver.errors import InvalidInput

Record = dict[str, Any]
SOLVED, UNSOLVABLE, UNKNOWN = (s.value for s in Status)
PUBLISHED_FORTRESS = ("202,396 of the first million Politaire Fortress deals won (20.2 %), "
                      "a different dealer")
INSTALL_HINT = "apt-get install -y freecell-solver-bin"


def solve_timed(position: Position, mode: Mode, algorithm: Algorithm, seconds: float) -> Record:
    """One search; the clock covers solve() only, set-up included, not dealing. Its line
    is replayed by our plain rules here, so that no figure rests on the search's own
    check."""
    started = time.perf_counter()
    solution = solve(position, mode, algorithm, Budget(seconds=seconds))
    elapsed = time.perf_counter() - started
    if solution.moves and not replay(position, solution.moves).is_won:
        raise AssertionError(f"our {mode} line does not win from {position}")
    return {"status": solution.status.value, "length": solution.length,
            "optimal": solution.optimal, "lower_bound": solution.lower_bound,
            "single_cards": solution.single_card_moves, "seconds": elapsed}


def fc_record(position: Position, number: int, seconds: float, fc: tuple[str, str],
              atomic: bool = False, preset: str = fcsolve.DEFAULT_PRESET) -> Record:
    """fc-solve (`fc`: its executable and game; `preset`) on our deal `number`."""
    result = fcsolve.run(position, fc[1], seconds, fc[0], atomic, preset)
    length = None if result.moves is None else len(result.moves)
    return {**sides.fc_entry(result), "length": length,
            "same_cards": fcsolve.same_cards(position, fc[1], number)}


def run_variant(rules: Variant, numbers: Sequence[int], seconds: float, algorithm: Algorithm,
                chunk: int, fc_solve: str | None, progress: bool,
                optimal_seconds: float | None = None, modes: Sequence[Mode] = (Mode.ANY,),
                presets: Sequence[str] = (fcsolve.DEFAULT_PRESET,)) -> list[Record]:
    """A record per deal: one entry a side (bench/sides.py: our `modes`, and fc-solve's
    `presets` when it plays this variant), and `optimal` when one of our modes solved it;
    where one of our modes and an fc-solve side decided differently, that side's
    `atomic`: fc-solve's verdict again from single-card moves only (its default search)."""
    from service.arguments import progress_bar

    game = fcsolve.GAMES.get(rules.name)
    fc = None if fc_solve is None or game is None else (fc_solve, game)
    preset_of = {} if fc is None else {sides.fc_side(p): p for p in presets}
    everyone = [*modes, *preset_of]
    records: list[Record] = []
    with progress_bar(desc=rules.name, total=len(numbers) * (len(everyone) + 1),
                      unit="search", forced=progress) as bar:
        for k, start in enumerate(range(0, len(numbers), chunk)):
            part: list[Record] = [{"deal": n, "position": deal(n, rules)}
                                  for n in numbers[start:start + chunk]]
            for side in sides.turn_order(everyone, k):
                for record in part:
                    position, number = record["position"], record["deal"]
                    if side in preset_of:
                        assert fc is not None
                        record[side] = fc_record(position, number, seconds, fc,
                                                 preset=preset_of[side])
                    else:
                        record[side] = solve_timed(position, Mode(side), algorithm, seconds)
                    bar.update()
            for record in part:
                position = record.pop("position")
                differing = [s for s in preset_of
                             if any(sides.differ(record, m, s) for m in modes)]
                if differing:
                    assert fc is not None
                    atomic = fc_record(position, record["deal"], seconds, fc, atomic=True)
                    for side in differing:
                        record[side]["atomic"] = atomic["status"]
                if any(record[m]["status"] == SOLVED for m in modes):
                    record["optimal"] = solve_timed(position, Mode.OPTIMAL, algorithm,
                                                    optimal_seconds or seconds)
                bar.update()
            records += part
    return records


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of k successes in n (95 % for z = 1.96)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def median(values: Iterable[float]) -> float | None:
    listed = list(values)
    return statistics.median(listed) if listed else None


def summarise(records: Sequence[Record], mode: str = Mode.ANY) -> Record:
    """A variant's figures in `mode`: its verdicts and times; the lengths of it and of
    `optimal`; of the deals it won, how many `optimal` proved, and on the others the gap
    between the shortest line found and the best proven lower bound."""
    n = len(records)
    found = [r[mode] for r in records]
    won = sum(a["status"] == SOLVED for a in found)
    unsolvable = sum(a["status"] == UNSOLVABLE for a in found)
    times = [a["seconds"] for a in found]
    optimal = [r["optimal"] for r in records if "optimal" in r]
    proven = [o for o in optimal if o["status"] == SOLVED and o["optimal"]]
    gaps = []
    for r in records:
        o = r.get("optimal")
        if o is None or (o["status"] == SOLVED and o["optimal"]):
            continue
        bounds = [x["lower_bound"] for x in (o, r[mode]) if x["lower_bound"] is not None]
        if bounds:  # both modes' bounds are proven: the larger holds
            best = min(x for x in (o["length"], r[mode]["length"]) if x is not None)
            gaps.append(best - max(bounds))
    low, high = wilson(won, n)
    return {
        "deals": n, "solved": won, "unsolvable": unsolvable, "unknown": n - won - unsolvable,
        "decided_share": (won + unsolvable) / n if n else None,
        "winnable_share": won / n if n else None, "winnable_wilson95": [low, high],
        "seconds_total": sum(times), "seconds_median": median(times),
        "seconds_p90": nearest_rank(times, 90), "seconds_max": max(times, default=None),
        "length_any_median": median(a["length"] for a in found if a["status"] == SOLVED),
        "length_optimal_median": median(o["length"] for o in optimal
                                        if o["status"] == SOLVED),
        "optimal_seconds_median": median(o["seconds"] for o in optimal),
        "proven_optimal": len(proven), "proven_optimal_share": len(proven) / won if won else None,
        "not_proven": won - len(proven), "bounded": len(gaps), "gap_median": median(gaps),
    }


def compare_fc(records: Sequence[Record], mode: str = Mode.ANY, side: str = "fc") -> Record:
    """Ours (`mode`) beside an fc-solve side (bench/sides.py) on the same deals: verdicts
    where both decide, total time (a timeout counts as the full budget), and median
    single-card lengths on the deals both solved; a proven optimum that fc-solve beat is
    listed as a fault."""
    fc = [r[side] for r in records]
    agreed = sides.agreement(records, mode, side)
    won = [r for r in records if r[side]["status"] == SOLVED]
    both = [(r[mode]["length"], r[side]["length"]) for r in won
            if r[mode]["status"] == SOLVED]
    proven = [(r["optimal"]["length"], r[side]["length"]) for r in won
              if r.get("optimal", {}).get("optimal")]
    below = [f"{r['deal']} ({sides.title(side)} {r[side]['length']} single-card moves, "
             f"proven optimum {r['optimal']['length']})" for r in won
             if r.get("optimal", {}).get("optimal")
             and r[side]["length"] < r["optimal"]["length"]]
    ours_seconds = sum(r[mode]["seconds"] for r in records)
    fc_seconds = sum(f["seconds"] for f in fc)
    return {
        "mode": mode, "side": side, "deals": len(records), "fc_solved": len(won),
        "fc_unsolvable": sum(f["status"] == UNSOLVABLE for f in fc),
        "fc_timeouts": sum(f["timed_out"] for f in fc),
        "fc_refused": sum(f["status"] == sides.REFUSED for f in fc),
        "both_decided": agreed["both_decided"], "agree": agreed["agree"],
        "disagreements": agreed["disagreements"], "below_proven_optimum": below,
        "seconds_ours": ours_seconds, "seconds_fc": fc_seconds,
        "time_ratio_fc_over_ours": ratio(fc_seconds, ours_seconds),
        "both_solved": len(both),
        "length_fc_median": median(f for _, f in both),
        "length_ours_median": median(a for a, _ in both),
        "length_ratio_fc_over_ours": ratio(median(f for _, f in both),
                                           median(a for a, _ in both)),
        "length_ratio_fc_over_optimal": ratio(median(f for _, f in proven),
                                               median(o for o, _ in proven)),
        "cards_checked": sum(f["same_cards"] is not None for f in fc),
        "cards_differ": [r["deal"] for r in records if r[side]["same_cards"] is False],
    }


def ratio(top: float | None, bottom: float | None) -> float | None:
    return top / bottom if top is not None and bottom else None


def nearest_rank(values: Sequence[float], percent: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(percent / 100 * len(ordered)) - 1)]


def render(title: str, header: list[str], rows: list[list[str]]) -> str:
    """A plain-text table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True)))
    head = line(header)
    return "\n".join([title, head, "-" * len(head), *map(line, rows)])


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def num(x: float | None, digits: int = 0) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def variant_row(name: str, mode: str, s: Record) -> list[str]:
    low, high = s["winnable_wilson95"]
    return [name, mode, str(s["deals"]), pct(s["decided_share"]),
            f"{pct(s['winnable_share'])} [{100 * low:.1f}-{100 * high:.1f}]",
            num(s["seconds_median"], 3), num(s["seconds_p90"], 3), num(s["seconds_max"], 2),
            num(s["length_any_median"], 1), num(s["length_optimal_median"], 1),
            pct(s["proven_optimal_share"]), str(s["not_proven"]),
            num(s["gap_median"], 1) + (f" ({s['bounded']})" if s["bounded"] else "")]


VARIANT_HEADER = ["variant", "mode", "deals", "decided", "winnable [Wilson 95%]", "s med",
                  "s p90", "s max", "len mode", "len opt", "proven opt", "unproven",
                  "gap med (n)"]
FC_HEADER = ["variant", "ours", "beside", "deals", "both decided", "agree", "differ",
             "fc timeouts", "fc refused", "time fc/ours", "len fc", "len ours", "len fc/ours",
             "len fc/opt", "cards same"]


def fc_row(name: str, c: Record) -> list[str]:
    cards = f"{c['cards_checked'] - len(c['cards_differ'])}/{c['cards_checked']}"
    return [name, c["mode"], sides.title(c["side"]), str(c["deals"]), str(c["both_decided"]),
            str(c["agree"]), str(len(c["disagreements"])), str(c["fc_timeouts"]),
            str(c["fc_refused"]),
            num(c["time_ratio_fc_over_ours"], 2), num(c["length_fc_median"], 1),
            num(c["length_ours_median"], 1), num(c["length_ratio_fc_over_ours"], 2),
            num(c["length_ratio_fc_over_optimal"], 2), cards]


def fortress_share(count: int, seconds: float, progress: bool) -> Record:
    """Fortress deals 1..count in `any` mode: the winnable share, beside the published
    figure (another dealer's deals, so comparable only as a rate)."""
    from service.arguments import progress_bar

    rules = find_variant("fortress")
    statuses = [solve_timed(deal(n, rules), Mode.ANY, Algorithm.ASTAR, seconds)["status"]
                for n in progress_bar(range(1, count + 1), total=count, unit="deal",
                                      desc="fortress share", forced=progress)]
    won, unsolvable = statuses.count(SOLVED), statuses.count(UNSOLVABLE)
    low, high = wilson(won, count)
    return {"deals": count, "seconds": seconds, "solved": won, "unsolvable": unsolvable,
            "unknown": count - won - unsolvable, "winnable_share": won / count,
            "winnable_wilson95": [low, high], "published": PUBLISHED_FORTRESS}


def find_fc_solve(executable: str) -> str | None:
    """fc-solve's path, or None after saying on stderr why the comparison is skipped."""
    path = shutil.which(executable)
    if path is None:
        print(f"bench-family: fc-solve ({executable!r}) is not on PATH, so the comparison "
              f"with Freecell Solver is SKIPPED; install it with `{INSTALL_HINT}`",
              file=sys.stderr)
    return path


def variant_list(text: str) -> tuple[Variant, ...]:
    if text == "none":
        return ()
    try:
        return tuple(find_variant(name.strip()) for name in text.split(","))
    except InvalidInput as err:  # it names the known variants
        raise argparse.ArgumentTypeError(str(err)) from None


def main(argv: Sequence[str] | None = None) -> None:
    from service.arguments import add_progress
    from service.beleaguered.commands import deal_range

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=deal_range, metavar="A-B",
                        help="deal numbers (default 1-1000; --quick: 1-50)")
    parser.add_argument("--variants", type=variant_list, metavar="A,B",
                        default=None, help="variants to run (default all; none: only "
                                           "--fortress-share)")
    parser.add_argument("--seconds", type=float,
                        help="budget per search and fc-solve timeout (default 10; --quick: 2)")
    parser.add_argument("--optimal-seconds", type=float, metavar="SECONDS",
                        help="optimal mode's budget per deal (default: --seconds)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 1-50, 2 s")
    parser.add_argument("--algorithm", type=Algorithm, default=Algorithm.ASTAR,
                        choices=list(Algorithm), help="optimal mode's search (default astar)")
    parser.add_argument("--chunk", type=int, default=20, help="deals per turn (default 20)")
    parser.add_argument("--fc-solve", default=fcsolve.EXECUTABLE, metavar="PATH",
                        help="the fc-solve executable (default: fc-solve on PATH)")
    parser.add_argument("--modes", type=sides.mode_list, default=sides.MODES, metavar="A,B",
                        help=f"our modes, each a side (default {','.join(sides.MODES)})")
    parser.add_argument("--presets", type=sides.preset_list, default=sides.PRESETS,
                        metavar="A,B",
                        help=f"fc-solve's presets, each a side: `default` its own search, "
                             f"else `-l NAME`; `none` for no fc-solve run (default "
                             f"{','.join(sides.PRESETS)})")
    parser.add_argument("--fortress-share", type=int, metavar="N",
                        help="also Fortress's winnable share over deals 1..N (`any` mode)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    add_progress(parser)
    args = parser.parse_args(argv)
    if args.deals is None:
        args.deals = deal_range("1-50" if args.quick else "1-1000")
    if args.seconds is None:
        args.seconds = 2.0 if args.quick else 10.0
    deals: range = args.deals
    seconds: float = args.seconds
    castle = tuple(rules for rules in variants() if rules.sequence_moves == "none")
    chosen: tuple[Variant, ...] = castle if args.variants is None else args.variants
    if seconds <= 0 or args.chunk <= 0 or (args.fortress_share or 1) <= 0:
        parser.error("--seconds, --chunk and --fortress-share must be positive")
    modes = [str(m) for m in args.modes]
    presets: tuple[str, ...] = args.presets

    wanted = bool(presets) and any(rules.name in fcsolve.GAMES for rules in chosen)
    fc_solve = find_fc_solve(args.fc_solve) if wanted else None
    if fc_solve is not None and sides.unknown_presets(presets, fc_solve):
        parser.error(f"fc-solve has no preset "
                     f"{', '.join(sides.unknown_presets(presets, fc_solve))}")
    fc_info: Record | None = None if fc_solve is None else {
        "version": fcsolve.version(fc_solve),
        "commands": {sides.fc_side(p): fcsolve.command("<game>", 8, 0, fc_solve, preset=p)
                     for p in presets}}

    results: dict[str, Record] = {}
    for rules in chosen:
        records = run_variant(rules, deals, seconds, args.algorithm, args.chunk, fc_solve,
                              args.progress, args.optimal_seconds, args.modes, presets)
        fc_sides = [sides.fc_side(p) for p in presets if fc_solve and rules.name in fcsolve.GAMES]
        results[rules.name] = {"summary": {m: summarise(records, m) for m in modes},
                               "sides": sides.summary(records, [*modes, *fc_sides]),
                               "records": records}
        if fc_sides:
            results[rules.name]["fc_solve"] = [compare_fc(records, m, side)
                                               for side in fc_sides for m in modes]

    if results:
        print(f"Deals {deals.start}-{deals.stop - 1} ({len(deals)}), {seconds:g} s per search; "
              f"modes {', '.join(modes)} for verdicts and times, `optimal` ({args.algorithm}, "
              f"{args.optimal_seconds or seconds:g} s) on the deals one of them won; one "
              f"search at a time\n")
        print(render("variants", VARIANT_HEADER,
                     [variant_row(name, m, s) for name, r in results.items()
                      for m, s in r["summary"].items()]))
        print("decided, winnable (undecided deals count as not won) and seconds: the mode's; "
              "len: medians of solved deals;\nproven opt: share of the won deals; gap: "
              "shortest line found - proven lower bound, on the unproven deals\n")
        print(render("sides: verdicts and time", sides.SIDES_HEADER,
                     [row for name, r in results.items()
                      for row in sides.side_rows(name, r["sides"])]) + "\n")
        print(render("verdicts side by side, on the deals both decided", sides.PAIRS_HEADER,
                     [row for name, r in results.items()
                      for row in sides.pair_rows(name, r["sides"])]))
        listed = [line for name, r in results.items()
                  for line in sides.findings(name, r["sides"])]
        print("\n".join(listed) or "  verdicts differ on no deal, no line refused")
    compared = {name: r["fc_solve"] for name, r in results.items() if "fc_solve" in r}
    if compared and fc_info is not None:
        print(f"\nFreecell Solver ({fc_info['version']}), {seconds:g} s timeout, the same deals "
              f"interleaved in turns of {args.chunk}: "
              + "; ".join(" ".join(words) for words in fc_info["commands"].values()))
        print("lengths are single-card moves (its sequence moves expanded and replayed by "
              "our rules), medians over the deals both solved;\ntime: fc-solve's wall "
              "clock, process start included, a timeout counted in full; its `unsolvable` "
              "is its move set exhausted,\nwhich its docs warn can miss a win\n")
        print(render("ours vs fc-solve", FC_HEADER,
                     [fc_row(name, c) for name, listed in compared.items() for c in listed]))
        for name, listed in compared.items():
            for c in listed:
                for label, found in (("below a proven optimum", c["below_proven_optimum"]),
                                     ("cards differ from pysol-cards", c["cards_differ"])):
                    if found and c["mode"] == modes[0]:
                        print(f"  {name}, {sides.title(c['side'])} {label}: "
                              f"{', '.join(map(str, found))}")
    elif wanted:
        print(f"\nFreecell Solver: SKIPPED, fc-solve not found ({INSTALL_HINT})")

    share = None
    if args.fortress_share:
        share = fortress_share(args.fortress_share, seconds, args.progress)
        low, high = share["winnable_wilson95"]
        if results:
            print()
        print(f"Fortress, deals 1-{share['deals']}, `any` mode, {seconds:g} s each: "
              f"{share['solved']:,} won ({pct(share['winnable_share'])}, Wilson 95% "
              f"{100 * low:.1f}-{100 * high:.1f}%), {share['unsolvable']:,} unsolvable, "
              f"{share['unknown']:,} undecided\n  published: {PUBLISHED_FORTRESS}")

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"deals": [deals.start, deals.stop - 1], "seconds": seconds,
                       "algorithm": args.algorithm, "chunk": args.chunk, "fc_solve": fc_info,
                       "variants": results, "fortress_share": share}, out, indent=1)


if __name__ == "__main__":
    main()
