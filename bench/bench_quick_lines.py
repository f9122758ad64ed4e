"""How long a quick line is: each deal solved within a short budget (`optimal` mode, 0.25 s
by default: the best line found when the proof takes longer), its length beside the
optimal length the shipped census proves.

It exists to put a figure on what a fast first answer costs in moves: for each deal the
census proves the optimum of, the line's length minus that optimum (median, p95, max),
and how many lines the search itself proved optimal. FreeCell (Microsoft's deals) and
the castle variants by default, each with its census (solver/beleaguered/census.py: a
deal's length is optimal where the census says so, else the best line found, with a
proven lower bound). Where the optimum is not proven but a lower bound is, the line's
length minus that bound is given too: an upper bound on the excess. Every line is
replayed by our plain rules; a line shorter than a proven optimum, or a deal the census
proves winnable called unwinnable, is listed as a fault.

    .venv/bin/python -m bench.bench_quick_lines [--deals 1-1000] [--variants a,b]
        [--mode optimal] [--seconds 0.25] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import datetime

from bench.bench_beleaguered import nearest_rank
from bench.bench_family import Record, num, render, variant_list
from solver.beleaguered.census import shipped
from solver.beleaguered.deals import deal
from solver.beleaguered.rules import replay
from solver.beleaguered.solve import Mode, solve
from solver.beleaguered.variant import Variant, find_variant, variants
from solver.budget import Budget, Status

DEFAULT_SECONDS = 0.25


def default_variants() -> tuple[Variant, ...]:
    """FreeCell and every castle variant (no sequence moves) that ships a census."""
    castle = [rules for rules in variants()
              if rules.sequence_moves == "none" and shipped(rules) is not None]
    return (find_variant("freecell"), *castle)


def with_census(text: str) -> tuple[Variant, ...]:
    """--variants: those that ship a census (the optima come from it)."""
    chosen = variant_list(text)
    missing = [rules.name for rules in chosen if shipped(rules) is None]
    if not chosen or missing:
        raise argparse.ArgumentTypeError(f"no census shipped for {', '.join(missing) or text}")
    return chosen


def run_variant(rules: Variant, numbers: Sequence[int], mode: Mode, seconds: float,
                progress: bool) -> list[Record]:
    """A record per deal: our verdict, line length, whether proven, time; the census's."""
    from service.arguments import progress_bar

    census = shipped(rules)
    assert census is not None
    records = []
    for number in progress_bar(numbers, total=len(numbers), unit="deal", desc=rules.name,
                               forced=progress):
        position = deal(number, rules)
        started = time.perf_counter()
        solution = solve(position, mode, budget=Budget(seconds=seconds))
        elapsed = time.perf_counter() - started
        if solution.moves and not replay(position, solution.moves).is_won:
            raise AssertionError(f"{rules.name} deal {number}: our line does not win")
        known = census.info(number)
        records.append({
            "deal": number, "status": solution.status.value, "length": solution.length,
            "optimal": solution.optimal, "seconds": elapsed,
            "census": None if known is None else {
                "status": known.status.value, "length": known.length,
                "optimal": known.optimal, "lower_bound": known.lower_bound}})
    return records


def summarise(records: Sequence[Record]) -> Record:
    """Excess over the census's proven optima (median, p95, max), over its lower bounds
    where no optimum is proven, our own proofs, times, and the faults listed."""
    won = [r for r in records if r["length"] is not None]
    census = [(r, r["census"]) for r in won if r["census"] is not None]
    excess = [r["length"] - c["length"] for r, c in census if c["optimal"]]
    above = [r["length"] - c["lower_bound"] for r, c in census
             if not c["optimal"] and c["lower_bound"] is not None]
    times = [r["seconds"] for r in records]
    faults = [f"{r['deal']} (ours {r['length']}, census optimum {c['length']})"
              for r, c in census if c["optimal"] and r["length"] < c["length"]]
    faults += [f"{r['deal']} (ours unsolvable, census winnable)" for r in records
               if r["status"] == Status.UNSOLVABLE.value and r["census"] is not None
               and r["census"]["status"] == Status.SOLVED.value]
    return {
        "deals": len(records), "lines": len(won), "proven_by_us": sum(r["optimal"] for r in won),
        "unsolvable": sum(r["status"] == Status.UNSOLVABLE.value for r in records),
        "unknown": sum(r["status"] == Status.UNKNOWN.value for r in records),
        "census_proven": len(excess), "excess_median": _median(excess),
        "excess_p95": nearest_rank(excess, 95), "excess_max": max(excess, default=None),
        "excess_zero": excess.count(0),
        "bounded": len(above), "above_bound_median": _median(above),
        "above_bound_max": max(above, default=None),
        "seconds_median": _median(times), "seconds_p95": nearest_rank(times, 95),
        "seconds_max": max(times, default=None), "faults": faults,
    }


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


HEADER = ["variant", "deals", "lines", "proven by us", "unw", "unk", "census proven",
          "excess med", "p95", "max", "excess 0", "bounded", "above bound med", "max",
          "s med", "s p95", "s max"]


def row(name: str, s: Record) -> list[str]:
    return [name, str(s["deals"]), str(s["lines"]), str(s["proven_by_us"]),
            str(s["unsolvable"]), str(s["unknown"]), str(s["census_proven"]),
            num(s["excess_median"], 1), num(s["excess_p95"]), num(s["excess_max"]),
            str(s["excess_zero"]), str(s["bounded"]), num(s["above_bound_median"], 1),
            num(s["above_bound_max"]), num(s["seconds_median"], 3),
            num(s["seconds_p95"], 3), num(s["seconds_max"], 3)]


def main(argv: Sequence[str] | None = None) -> None:
    from service.arguments import add_progress
    from service.beleaguered.commands import deal_range

    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-1000"),
                        metavar="A-B", help="deal numbers of every variant (default 1-1000)")
    parser.add_argument("--variants", type=with_census, metavar="A,B",
                        help="variants with a shipped census (default: freecell and the "
                             "castle variants)")
    parser.add_argument("--mode", type=Mode, choices=list(Mode), default=Mode.OPTIMAL,
                        help="our search (default optimal)")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                        help=f"budget per deal (default {DEFAULT_SECONDS:g})")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    add_progress(parser)
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    deals: range = args.deals
    chosen: tuple[Variant, ...] = args.variants or default_variants()

    started = datetime.now().astimezone()
    results: dict[str, Record] = {}
    for rules in chosen:
        records = run_variant(rules, deals, args.mode, args.seconds, args.progress)
        results[rules.name] = {"summary": summarise(records), "records": records}

    command_line = shlex.join(["python", "-m", "bench.bench_quick_lines",
                               *(sys.argv[1:] if argv is None else argv)])
    print(f"{started:%Y-%m-%d %H:%M %Z}: {command_line}")
    print(f"deals {deals.start}-{deals.stop - 1}, `{args.mode}` mode, {args.seconds:g} s a "
          "deal, one search at a time; lengths in moves (a run moved as one counts one)\n")
    print(render("quick lines beside the census's optima", HEADER,
                 [row(name, r["summary"]) for name, r in results.items()]))
    print("lines: deals a line was found for; census proven: of those, the deals whose "
          "optimum the census proves;\nexcess: line - that optimum; bounded: the other "
          "lines with a census lower bound, above bound: line - bound (>= the excess)")
    faults = [f"  {name}, faults: {', '.join(r['summary']['faults'])}"
              for name, r in results.items() if r["summary"]["faults"]]
    print("\n".join(faults) or "  no line shorter than a proven optimum, no winnable deal "
                               "called unwinnable")

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"date": started.isoformat(timespec="seconds"), "command": command_line,
                       "mode": args.mode, "seconds": args.seconds, "variants": results},
                      out, indent=1)


if __name__ == "__main__":
    main()
