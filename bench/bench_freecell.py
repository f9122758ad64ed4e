"""make bench-freecell: the FreeCell family beside Freecell Solver, its default search and
its `-l lg` preset, our `any` and `verdict` modes, on the same deals in the same run.

It exists so that one table says how our solver stands against an established one on
the games that solver was written for: verdicts (with every deal where two sides differ
listed, not averaged away), total and median time, and solution lengths counted both
ways, as moves (a run moved as one sequence move counts one, as fc-solve prints it) and
as single-card moves (written out), since each solver is short in one and long in the
other.

One search at a time, on one core: ours in this process, fc-solve as a child process.
Per variant the deals go in turns (--turn, 20): each side (--modes, --presets) on each
deal of the turn, the sides' order rotated by one a turn (bench/sides.py) so that
machine noise falls on all; with --optimal, then `optimal` mode on the turn's deals one
of our modes won, timed on its own. Every line of every side is replayed by our plain
rules (solver.beleaguered.rules.replay): ours as the search returns it, fc-solve's as
printed (its runs as our sequence moves) and written out in single cards
(bench/fcsolve.py); a line of fc-solve's our rules refuse is listed.

    .venv/bin/python -m bench.bench_freecell [--deals 1-1000] [--variants a,b]
        [--seconds 10] [--turn 20] [--modes any,verdict] [--presets default,lg]
        [--optimal] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
import time
from collections.abc import Sequence
from datetime import datetime

from bench import fcsolve, sides
from bench.bench_family import (
    INSTALL_HINT,
    SOLVED,
    Record,
    median,
    num,
    pct,
    ratio,
    render,
    solve_timed,
    variant_list,
)
from solver.beleaguered.deals import deal
from solver.beleaguered.position import Position
from solver.beleaguered.rules import replay
from solver.beleaguered.solve import Algorithm, Mode, solve
from solver.beleaguered.variant import Variant, find_variant
from solver.budget import Budget

# Deals per variant unless --deals says: FreeCell's are Microsoft's, its best-known range.
DEFAULT_DEALS = {"freecell": "1-1000"}
OTHER_DEALS = "1-300"


def ours_record(position: Position, seconds: float, mode: Mode = Mode.ANY) -> Record:
    """Our search in `mode`; the clock covers solve() only, and the line is replayed here
    so that the figure does not rest on the search's own check."""
    started = time.perf_counter()
    solution = solve(position, mode, budget=Budget(seconds=seconds))
    elapsed = time.perf_counter() - started
    if solution.moves and not replay(position, solution.moves).is_won:
        raise AssertionError(f"our {mode} line does not win from {position}")
    return {"status": solution.status.value, "moves": solution.length,
            "single_cards": solution.single_card_moves, "seconds": elapsed}


def fc_record(position: Position, game: str, seconds: float, executable: str,
              atomic: bool = False, preset: str = fcsolve.DEFAULT_PRESET) -> Record:
    """fc-solve (`preset`) on our deal, its line read through our rules (fcsolve.run)."""
    result = fcsolve.run(position, game, seconds, executable, atomic, preset)
    line = result.line
    return {**sides.fc_entry(result),
            "moves": None if line is None else len(line.printed),
            "single_cards": None if line is None else len(line.single_cards)}


def run_variant(rules: Variant, numbers: Sequence[int], seconds: float, turn: int,
                optimal: bool, executable: str, progress: bool,
                modes: Sequence[Mode] = (Mode.ANY,),
                presets: Sequence[str] = (fcsolve.DEFAULT_PRESET,)) -> list[Record]:
    """A record per deal: one entry a side (bench/sides.py), `optimal` when asked and one
    of our modes won, `same_cards` (our deal against pysol-cards'); where one of our modes
    and an fc-solve side decided differently, that side's `atomic`: fc-solve's verdict
    again from single-card moves only (`-to 01ABCDE`, its default search), the move set
    its docs give for a board it wrongly calls unsolvable."""
    from service.arguments import progress_bar

    game = fcsolve.FREECELL_GAMES[rules.name]
    preset_of = {sides.fc_side(p): p for p in presets}
    everyone = [*modes, *preset_of]
    records: list[Record] = []
    with progress_bar(desc=rules.name, total=len(numbers) * (len(everyone) + optimal),
                      unit="search", forced=progress) as bar:
        for k, start in enumerate(range(0, len(numbers), turn)):
            part: list[Record] = [{"deal": n, "position": deal(n, rules)}
                                  for n in numbers[start:start + turn]]
            for side in sides.turn_order(everyone, k):
                for record in part:
                    position = record["position"]
                    record[side] = (fc_record(position, game, seconds, executable,
                                              preset=preset_of[side]) if side in preset_of
                                    else ours_record(position, seconds, Mode(side)))
                    bar.update()
            for record in part:
                position = record.pop("position")
                if preset_of:
                    record["same_cards"] = fcsolve.same_cards(position, game, record["deal"])
                differing = [s for s in preset_of
                             if any(sides.differ(record, m, s) for m in modes)]
                if differing:
                    atomic = fc_record(position, game, seconds, executable, atomic=True)
                    for side in differing:
                        record[side]["atomic"] = atomic["status"]
                if optimal:
                    if any(record[m]["status"] == SOLVED for m in modes):
                        record["optimal"] = solve_timed(position, Mode.OPTIMAL,
                                                        Algorithm.ASTAR, seconds)
                    bar.update()
            records += part
    return records


def summarise(records: Sequence[Record], modes: Sequence[str],
              fc_sides: Sequence[str]) -> Record:
    """A variant's figures: every side's verdicts and times and every pair's agreement
    (bench/sides.py); each side's median lengths over the deals every side won; of the
    deals `optimal` searched, the share proven, and per fc-solve side our best line (our
    modes' and `optimal`'s, the shortest in moves) beside its line, and the deals where
    its line is shorter than a proven optimum (a fault of ours) or its deal not ours."""
    everyone = [*modes, *fc_sides]
    all_won = [r for r in records if all(r[s]["status"] == SOLVED for s in everyone)]
    lengths = {side: {key: median(r[side][key] for r in all_won)
                      for key in ("moves", "single_cards")} for side in everyone}
    optimal = [r for r in records if "optimal" in r]
    proven = [r for r in optimal if r["optimal"]["status"] == SOLVED and r["optimal"]["optimal"]]
    proven_deals = {r["deal"] for r in proven}
    best = {}
    for side in fc_sides:
        both = [r for r in optimal if r[side]["status"] == SOLVED]
        lines = [(_best(r, modes), (r[side]["moves"], r[side]["single_cards"])) for r in both]
        best[side] = {"both_won": len(both),
                      **{f"{key}_{who}": median(line[w][k] for line in lines)
                         for k, key in enumerate(("moves", "single_cards"))
                         for w, who in enumerate(("best", "fc"))},
                      "below_proven_optimum": [
                          f"{r['deal']} ({sides.title(side)} {r[side]['moves']} moves, proven "
                          f"optimum {r['optimal']['length']})" for r in both
                          if r["deal"] in proven_deals
                          and r[side]["moves"] < r["optimal"]["length"]]}
    return {
        "deals": len(records), **sides.summary(records, everyone),
        "all_won": len(all_won), "lengths": lengths,
        "optimal_searched": len(optimal), "proven_optimal": len(proven),
        "proven_optimal_share": len(proven) / len(optimal) if optimal else None,
        "optimal_seconds": sum(r["optimal"]["seconds"] for r in optimal),
        "best": best,
        "cards_differ": [r["deal"] for r in records if r.get("same_cards") is False],
    }


def _best(record: Record, modes: Sequence[str]) -> tuple[int, int]:
    """Our shortest line in moves, of our modes' and `optimal` mode's, with its single
    cards."""
    lines = [(record[m]["moves"], record[m]["single_cards"]) for m in modes
             if record[m]["status"] == SOLVED]
    if record["optimal"]["status"] == SOLVED:
        lines.append((record["optimal"]["length"], record["optimal"]["single_cards"]))
    return min(lines)


LENGTH_HEADER = ["variant", "side", "all won", "moves", "/ first", "cards", "/ first"]
BEST_HEADER = ["variant", "proven opt", "beside", "both won", "moves best", "moves fc",
               "best/fc", "cards best", "cards fc", "best/fc"]


def length_rows(name: str, s: Record) -> list[list[str]]:
    first = next(iter(s["lengths"].values()))
    return [[name, sides.title(side), str(s["all_won"]), num(found["moves"], 1),
             num(ratio(found["moves"], first["moves"]), 2), num(found["single_cards"], 1),
             num(ratio(found["single_cards"], first["single_cards"]), 2)]
            for side, found in s["lengths"].items()]


def best_rows(name: str, s: Record) -> list[list[str]]:
    return [[name, pct(s["proven_optimal_share"]), sides.title(side), str(b["both_won"]),
             num(b["moves_best"], 1), num(b["moves_fc"], 1),
             num(ratio(b["moves_best"], b["moves_fc"]), 2), num(b["single_cards_best"], 1),
             num(b["single_cards_fc"], 1),
             num(ratio(b["single_cards_best"], b["single_cards_fc"]), 2)]
            for side, b in s["best"].items()]


def freecell_variants(text: str) -> tuple[Variant, ...]:
    """--variants: the family's names only (fc-solve has a preset for each)."""
    chosen = variant_list(text)
    others = [rules.name for rules in chosen if rules.name not in fcsolve.FREECELL_GAMES]
    if not chosen or others:
        raise argparse.ArgumentTypeError(
            f"not of the FreeCell family: {', '.join(others) or text}; choose from "
            f"{', '.join(fcsolve.FREECELL_GAMES)}")
    return chosen


def main(argv: Sequence[str] | None = None) -> None:
    from service.arguments import add_progress
    from service.beleaguered.commands import deal_range

    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--deals", type=deal_range, metavar="A-B",
                        help=f"deal numbers of every variant (default: FreeCell "
                             f"{DEFAULT_DEALS['freecell']}, the others {OTHER_DEALS})")
    parser.add_argument("--variants", type=freecell_variants, metavar="A,B",
                        help=f"variants to run (default all: {','.join(fcsolve.FREECELL_GAMES)})")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="our budget per search and fc-solve's timeout (default 10)")
    parser.add_argument("--turn", type=int, default=20,
                        help="deals per turn of each side (default 20)")
    parser.add_argument("--modes", type=sides.mode_list, default=sides.MODES, metavar="A,B",
                        help=f"our modes, each a side (default {','.join(sides.MODES)})")
    parser.add_argument("--presets", type=sides.preset_list, default=sides.PRESETS,
                        metavar="A,B",
                        help=f"fc-solve's presets, each a side: `default` its own search, "
                             f"else `-l NAME`; `none` for no fc-solve run (default "
                             f"{','.join(sides.PRESETS)})")
    parser.add_argument("--optimal", action="store_true",
                        help="also `optimal` mode (same budget) on the deals a mode of "
                             "ours won")
    parser.add_argument("--fc-solve", default=fcsolve.EXECUTABLE, metavar="PATH",
                        help="the fc-solve executable (default: fc-solve on PATH)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    add_progress(parser)
    args = parser.parse_args(argv)
    seconds: float = args.seconds
    if seconds <= 0 or args.turn <= 0:
        parser.error("--seconds and --turn must be positive")
    chosen = args.variants or tuple(map(find_variant, fcsolve.FREECELL_GAMES))
    presets: tuple[str, ...] = args.presets
    executable = shutil.which(args.fc_solve) if presets else args.fc_solve
    if executable is None:
        sys.exit(f"bench-freecell: fc-solve ({args.fc_solve!r}) is not on PATH; install it "
                 f"with `{INSTALL_HINT}`, or give --presets none")
    unknown = sides.unknown_presets(presets, executable)
    if unknown:
        parser.error(f"fc-solve has no preset {', '.join(unknown)} (`fc-solve -l NAME` fails)")
    modes = [str(m) for m in args.modes]
    fc_sides = [sides.fc_side(p) for p in presets]

    started = datetime.now().astimezone()
    results: dict[str, Record] = {}
    for rules in chosen:
        deals: range = args.deals or deal_range(DEFAULT_DEALS.get(rules.name, OTHER_DEALS))
        records = run_variant(rules, deals, seconds, args.turn, args.optimal, executable,
                              args.progress, args.modes, presets)
        results[rules.name] = {"deals": [deals.start, deals.stop - 1],
                               "summary": summarise(records, modes, fc_sides),
                               "records": records}

    command_line = shlex.join(["python", "-m", "bench.bench_freecell",
                               *(sys.argv[1:] if argv is None else argv)])
    first = chosen[0]
    commands = {sides.fc_side(p): fcsolve.command(fcsolve.FREECELL_GAMES[first.name],
                                                  len(first.piles), first.cells, executable,
                                                  preset=p) for p in presets}
    fc_info = {"version": fcsolve.version(executable) if presets else None,
               "commands": commands}
    print(f"{started:%Y-%m-%d %H:%M %Z}: {command_line}")
    for side, words in commands.items():
        print(f"{sides.title(side)} ({fc_info['version']}), as in {shlex.join(words)}")
    print(f"{seconds:g} s per deal per side, one core each, in turns of {args.turn} deals; "
          "deals " + ", ".join(f"{name} {r['deals'][0]}-{r['deals'][1]}"
                               for name, r in results.items()) + "\n")
    summaries = {name: r["summary"] for name, r in results.items()}
    print(render("verdicts and time", sides.SIDES_HEADER,
                 [row for name, s in summaries.items() for row in sides.side_rows(name, s)]))
    print("s: wall clock a deal, fc-solve's with its process start and a timeout counted in "
          "full; its unwinnable is its move set exhausted;\nrefused: a win it claimed whose "
          "line our rules refuse; total / first: over the first side's total\n")
    print(render("verdicts side by side, on the deals both decided", sides.PAIRS_HEADER,
                 [row for name, s in summaries.items() for row in sides.pair_rows(name, s)]))
    print()
    print(render("lengths, medians over the deals every side won", LENGTH_HEADER,
                 [row for name, s in summaries.items() for row in length_rows(name, s)]))
    print("moves: a run moved as one counts one (fc-solve's as printed); cards: written out "
          "in single-card moves; all replayed by our rules")
    if any(s["optimal_searched"] for s in summaries.values()):
        print()
        print(render("with --optimal: the share of the searched deals proven optimal, and "
                     "our best line (our modes' or optimal's, the shortest in moves) beside "
                     "fc-solve's, medians", BEST_HEADER,
                     [row for name, s in summaries.items() for row in best_rows(name, s)]))
    listed = [line for name, s in summaries.items() for line in sides.findings(name, s)]
    for name, s in summaries.items():
        listed += [f"  {name}, {sides.title(side)} below a proven optimum: "
                   f"{', '.join(b['below_proven_optimum'])}"
                   for side, b in s["best"].items() if b["below_proven_optimum"]]
        if s["cards_differ"]:
            listed.append(f"  {name}, cards differ from pysol-cards: "
                          f"{', '.join(map(str, s['cards_differ']))}")
    print("\n".join(listed) or "  verdicts differ on no deal, no line refused")

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"date": started.isoformat(timespec="seconds"), "command": command_line,
                       "seconds": seconds, "turn": args.turn, "optimal": args.optimal,
                       "modes": modes, "presets": list(presets), "fc_solve": fc_info,
                       "variants": results}, out, indent=1)


if __name__ == "__main__":
    main()
