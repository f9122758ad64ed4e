"""make bench-freecell: the FreeCell family beside Freecell Solver's default preset for
each game, on the same deals in the same run.

It exists so that one table says how our solver stands against an established one on
the games that solver was written for: verdicts (with every deal where they differ
listed, not averaged away), total time, and solution lengths counted both ways, as
moves (a run moved as one sequence move counts one, as fc-solve prints it) and as
single-card moves (written out), since each solver is short in one and long in the other.

One search at a time, on one core: ours in this process, fc-solve as a child process.
Per variant the deals go in turns (--turn, 20): our `any` search on each deal of the
turn, then fc-solve on the same deals, the one going first alternating by turn so that
machine noise falls on both; with --optimal, then `optimal` mode on the turn's deals
`any` won, timed on its own. Every line of both is replayed by our plain rules
(solver.beleaguered.rules.replay): ours as the search returns it, fc-solve's as printed
(its runs as our sequence moves) and written out in single cards (bench/fcsolve.py).

    .venv/bin/python -m bench.bench_freecell [--deals 1-1000] [--variants a,b]
        [--seconds 10] [--turn 20] [--optimal] [--json out.json]
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

from bench import fcsolve
from bench.bench_family import (
    INSTALL_HINT,
    SOLVED,
    UNKNOWN,
    UNSOLVABLE,
    Record,
    differ,
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


def ours_record(position: Position, seconds: float) -> Record:
    """Our `any` search; the clock covers solve() only, and the line is replayed here
    so that the figure does not rest on the search's own check."""
    started = time.perf_counter()
    solution = solve(position, Mode.ANY, budget=Budget(seconds=seconds))
    elapsed = time.perf_counter() - started
    if solution.moves and not replay(position, solution.moves).is_won:
        raise AssertionError(f"our line does not win from {position}")
    return {"status": solution.status.value, "moves": solution.length,
            "single_cards": solution.single_card_moves, "seconds": elapsed}


def fc_record(position: Position, number: int, game: str, seconds: float,
              executable: str, atomic: bool = False) -> Record:
    """fc-solve on our deal `number`, its line read through our rules (fcsolve.run)."""
    result = fcsolve.run(position, game, seconds, executable, atomic)
    line = result.line
    return {"status": result.status.value, "seconds": result.seconds,
            "timed_out": result.timed_out,
            "moves": None if line is None else len(line.printed),
            "single_cards": None if line is None else len(line.single_cards),
            "same_cards": fcsolve.same_cards(position, game, number)}


def run_variant(rules: Variant, numbers: Sequence[int], seconds: float, turn: int,
                optimal: bool, executable: str, progress: bool) -> list[Record]:
    """A record per deal: `any` (ours), `fc`, and `optimal` when asked and `any` won;
    where both decided differently, fc-solve's verdict again from single-card moves
    only (`-to 01ABCDE`), the move set its docs give for a board it wrongly calls
    unsolvable."""
    from service.arguments import progress_bar

    game = fcsolve.FREECELL_GAMES[rules.name]
    records: list[Record] = []
    with progress_bar(desc=rules.name, total=len(numbers) * (2 + optimal), unit="search",
                      forced=progress) as bar:
        for k, start in enumerate(range(0, len(numbers), turn)):
            part: list[Record] = [{"deal": n, "position": deal(n, rules)}
                                  for n in numbers[start:start + turn]]
            for side in ("any", "fc") if k % 2 == 0 else ("fc", "any"):
                for record in part:
                    position, number = record["position"], record["deal"]
                    record[side] = (ours_record(position, seconds) if side == "any" else
                                    fc_record(position, number, game, seconds, executable))
                    bar.update()
            for record in part:
                position = record.pop("position")
                if differ(record):
                    record["fc"]["atomic"] = fc_record(position, record["deal"], game, seconds,
                                                       executable, atomic=True)["status"]
                if optimal:
                    if record["any"]["status"] == SOLVED:
                        record["optimal"] = solve_timed(position, Mode.OPTIMAL,
                                                        Algorithm.ASTAR, seconds)
                    bar.update()
            records += part
    return records


def verdicts(found: Sequence[Record]) -> list[int]:
    """How many won, proved unwinnable, left undecided."""
    return [sum(f["status"] == status for f in found) for status in (SOLVED, UNSOLVABLE, UNKNOWN)]


def summarise(records: Sequence[Record]) -> Record:
    """A variant's figures, ours beside fc-solve's: verdicts, total time (a timeout at
    the full limit), medians of both measures over the deals both won, and the share of
    our wins proven optimal; deals where the verdicts differ, where fc-solve's line is
    shorter than a proven optimum (a fault of ours), or where its deal is not ours."""
    ours, fc = [r["any"] for r in records], [r["fc"] for r in records]
    both = [r for r in records if r["any"]["status"] == r["fc"]["status"] == SOLVED]
    medians = {f"{key}_{side}": median(r[side][key] for r in both)
               for key in ("moves", "single_cards") for side in ("any", "fc")}
    optimal = [r for r in records if "optimal" in r]
    proven = [r for r in optimal if r["optimal"]["status"] == SOLVED and r["optimal"]["optimal"]]
    best = [_best(r) for r in both if "optimal" in r]
    medians |= {"moves_best": median(moves for moves, _ in best),
                "single_cards_best": median(cards for _, cards in best)}
    seconds_ours, seconds_fc = sum(o["seconds"] for o in ours), sum(f["seconds"] for f in fc)
    return {
        "deals": len(records), "verdicts_ours": verdicts(ours), "verdicts_fc": verdicts(fc),
        "fc_timeouts": sum(f["timed_out"] for f in fc),
        "disagreements": [f"{r['deal']} (ours {r['any']['status']}, fc-solve "
                          f"{r['fc']['status']}, with -to 01ABCDE {r['fc']['atomic']})"
                          for r in records if differ(r)],
        "seconds_ours": seconds_ours, "seconds_fc": seconds_fc,
        "time_ratio_fc_over_ours": ratio(seconds_fc, seconds_ours),
        "both_won": len(both), **medians,
        "moves_ratio_fc_over_ours": ratio(medians["moves_fc"], medians["moves_any"]),
        "single_cards_ratio_fc_over_ours": ratio(medians["single_cards_fc"],
                                                  medians["single_cards_any"]),
        "optimal_searched": len(optimal), "proven_optimal": len(proven),
        "proven_optimal_share": len(proven) / len(optimal) if optimal else None,
        "optimal_seconds": sum(r["optimal"]["seconds"] for r in optimal),
        "moves_ratio_best_over_fc": ratio(medians["moves_best"], medians["moves_fc"]),
        "single_cards_ratio_best_over_fc": ratio(medians["single_cards_best"],
                                                 medians["single_cards_fc"]),
        "below_proven_optimum": [f"{r['deal']} (fc-solve {r['fc']['moves']} moves, proven "
                                 f"optimum {r['optimal']['length']})" for r in proven
                                 if r["fc"]["status"] == SOLVED
                                 and r["fc"]["moves"] < r["optimal"]["length"]],
        "cards_differ": [r["deal"] for r in records if r["fc"]["same_cards"] is False],
    }


def _best(record: Record) -> tuple[int, int]:
    """Our shorter line in moves, `any` mode's or `optimal` mode's, with its single cards."""
    lines = [(record["any"]["moves"], record["any"]["single_cards"])]
    if record["optimal"]["status"] == SOLVED:
        lines.append((record["optimal"]["length"], record["optimal"]["single_cards"]))
    return min(lines)


VERDICT_HEADER = ["variant", "deals", "ours won/unw/unk", "fc won/unw/unk", "differ",
                  "s ours", "s fc", "s fc/ours"]
LENGTH_HEADER = ["variant", "both won", "moves ours", "moves fc", "fc/ours", "cards ours",
                 "cards fc", "fc/ours", "proven opt"]


def verdict_row(name: str, s: Record) -> list[str]:
    return [name, str(s["deals"]), "/".join(map(str, s["verdicts_ours"])),
            "/".join(map(str, s["verdicts_fc"])), str(len(s["disagreements"])),
            num(s["seconds_ours"], 1), num(s["seconds_fc"], 1),
            num(s["time_ratio_fc_over_ours"], 2)]


def length_row(name: str, s: Record) -> list[str]:
    return [name, str(s["both_won"]), num(s["moves_any"], 1), num(s["moves_fc"], 1),
            num(s["moves_ratio_fc_over_ours"], 2), num(s["single_cards_any"], 1),
            num(s["single_cards_fc"], 1), num(s["single_cards_ratio_fc_over_ours"], 2),
            pct(s["proven_optimal_share"])]


BEST_HEADER = ["variant", "moves best", "moves fc", "best/fc", "cards best", "cards fc",
               "best/fc"]


def best_row(name: str, s: Record) -> list[str]:
    return [name, num(s["moves_best"], 1), num(s["moves_fc"], 1),
            num(s["moves_ratio_best_over_fc"], 2), num(s["single_cards_best"], 1),
            num(s["single_cards_fc"], 1), num(s["single_cards_ratio_best_over_fc"], 2)]


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
                        help="deals per turn of each solver (default 20)")
    parser.add_argument("--optimal", action="store_true",
                        help="also `optimal` mode (same budget) on the deals `any` won")
    parser.add_argument("--fc-solve", default=fcsolve.EXECUTABLE, metavar="PATH",
                        help="the fc-solve executable (default: fc-solve on PATH)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    add_progress(parser)
    args = parser.parse_args(argv)
    seconds: float = args.seconds
    if seconds <= 0 or args.turn <= 0:
        parser.error("--seconds and --turn must be positive")
    chosen = args.variants or tuple(map(find_variant, fcsolve.FREECELL_GAMES))
    executable = shutil.which(args.fc_solve)
    if executable is None:
        sys.exit(f"bench-freecell: fc-solve ({args.fc_solve!r}) is not on PATH; install it "
                 f"with `{INSTALL_HINT}`")

    started = datetime.now().astimezone()
    results: dict[str, Record] = {}
    for rules in chosen:
        deals: range = args.deals or deal_range(DEFAULT_DEALS.get(rules.name, OTHER_DEALS))
        records = run_variant(rules, deals, seconds, args.turn, args.optimal, executable,
                              args.progress)
        results[rules.name] = {"deals": [deals.start, deals.stop - 1],
                               "summary": summarise(records), "records": records}

    command_line = shlex.join(["python", "-m", "bench.bench_freecell",
                               *(sys.argv[1:] if argv is None else argv)])
    commands = {rules.name: fcsolve.command(fcsolve.FREECELL_GAMES[rules.name],
                                            len(rules.piles), rules.cells, executable)
                for rules in chosen}
    fc_info = {"version": fcsolve.version(executable), "commands": commands}
    print(f"{started:%Y-%m-%d %H:%M %Z}: {command_line}")
    print(f"Freecell Solver ({fc_info['version']}), its default preset per game, as in "
          f"{shlex.join(commands[chosen[0].name])}")
    print(f"{seconds:g} s per deal per solver, one core each, in turns of {args.turn} deals; "
          "deals " + ", ".join(f"{name} {r['deals'][0]}-{r['deals'][1]}"
                               for name, r in results.items()) + "\n")
    summaries = {name: r["summary"] for name, r in results.items()}
    print(render("verdicts and time (`any` mode)", VERDICT_HEADER,
                 [verdict_row(name, s) for name, s in summaries.items()]))
    print("s: total wall clock, fc-solve's with its process start and a timeout counted in "
          "full; its unwinnable is its move set exhausted\n")
    print(render("lengths, medians over the deals both won", LENGTH_HEADER,
                 [length_row(name, s) for name, s in summaries.items()]))
    print("moves: a run moved as one counts one (fc-solve's as printed); cards: written out "
          "in single-card moves;\nboth replayed by our rules; proven opt: share of our wins "
          "`optimal` mode proved in the budget (--optimal)")
    if any(s["optimal_searched"] for s in summaries.values()):
        print(render("with --optimal: our best line (any or optimal mode's, the shorter in "
                     "moves) over fc-solve's, medians", BEST_HEADER,
                     [best_row(name, s) for name, s in summaries.items()]))
    for name, s in summaries.items():
        for label, listed in (("verdicts differ", s["disagreements"]),
                              ("fc-solve below a proven optimum", s["below_proven_optimum"]),
                              ("cards differ from pysol-cards", s["cards_differ"])):
            if listed:
                print(f"  {name}, {label}: {', '.join(map(str, listed))}")
    if not any(s["disagreements"] for s in summaries.values()):
        print("  verdicts differ on no deal")

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"date": started.isoformat(timespec="seconds"), "command": command_line,
                       "seconds": seconds, "turn": args.turn, "optimal": args.optimal,
                       "fc_solve": fc_info, "variants": results}, out, indent=1)


if __name__ == "__main__":
    main()
