"""Benchmark the Beleaguered Fortress solver over a range of deal numbers.

It exists to give one comparable table of how fast `any` mode reaches verdicts, what
proving optimality costs with A* and with IDA*, whether the two agree on optimal
lengths, and how much memory all of that took, so that solver changes can be judged
on figures rather than impressions.

    .venv/bin/python bench/bench_beleaguered.py --deals 1-1000 [--jobs 4] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from typing import Any

from tqdm import tqdm

from service.cli import deal_range
from solver.beleaguered import Algorithm, Mode, deal, solve
from solver.budget import Budget, Status

Task = tuple[int, Mode, Algorithm, Budget]
Record = dict[str, Any]


def run(task: Task) -> Record:
    """Solve one deal; the clock covers solve() only, set-up included, not dealing."""
    number, mode, algorithm, budget = task
    position = deal(number)
    started = time.perf_counter()
    solution = solve(position, mode, algorithm, budget)
    seconds = time.perf_counter() - started
    return {"deal": number, "status": solution.status.value, "optimal": solution.optimal,
            "length": solution.length, "seconds": seconds, "nodes": solution.stats.nodes,
            "table_entries": solution.stats.table_entries}


def phase(name: str, tasks: Sequence[Task], jobs: int) -> tuple[list[Record], float]:
    """Per-deal records in deal order and the phase's wall time."""
    started = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            records = list(tqdm(pool.imap(run, tasks), name, total=len(tasks), unit="deal"))
            pool.close()
            pool.join()
    else:
        records = [run(task) for task in tqdm(tasks, name, unit="deal")]
    return records, time.perf_counter() - started


def peak_mib(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # Linux reports KiB


def nearest_rank(values: Sequence[float], percent: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(percent / 100 * len(ordered)) - 1)]


def spread(values: Sequence[float], fmt: Callable[[float], str]) -> list[str]:
    """Median, p90 and max, or dashes when there is nothing to summarise."""
    if not values:
        return ["-"] * 3
    return [fmt(statistics.median(values)), fmt(nearest_rank(values, 90)), fmt(max(values))]


def secs(x: float) -> str:
    return f"{x:.4f}"


def count(x: float) -> str:
    return f"{x:,.0f}"


def column(records: list[Record], wall: float, budget: Budget) -> list[str]:
    statuses = [r["status"] for r in records]
    return [
        str(len(records)),
        *(str(statuses.count(s.value)) for s in Status),
        str(sum(r["status"] == Status.SOLVED.value and r["optimal"] for r in records)),
        f"{wall:.2f}",
        f"{len(records) / wall:.1f}" if wall else "-",
        *spread([r["seconds"] for r in records], secs),
        *spread([r["nodes"] for r in records], count),
        count(budget.table_entries) if budget.table_entries else "none",
    ]


LABELS = ["deals run", "solved", "unsolvable", "unknown", "proven optimal", "phase wall (s)",
          "deals/s (wall)", "seconds median", "seconds p90", "seconds max", "nodes median",
          "nodes p90", "nodes max", "table cap (entries)"]


def render(title: str, header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [title, "  ".join(h.ljust(w) if i == 0 else h.rjust(w)
                              for i, (h, w) in enumerate(zip(header, widths, strict=True)))]
    lines.append("-" * len(lines[-1]))
    for row in rows:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(row, widths, strict=True))))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-1000"), metavar="A-B")
    parser.add_argument("--seconds", type=float, default=30.0, help="budget per solve, all phases")
    parser.add_argument("--table-entries", type=int, default=1_000_000, help="IDA* table cap")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1: sequential)")
    parser.add_argument("--skip-idastar", action="store_true")
    parser.add_argument("--json", metavar="FILE", help="also write per-deal figures here")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")

    default = Budget(seconds=args.seconds)
    capped = Budget(seconds=args.seconds, table_entries=args.table_entries)
    plan = [("any", Mode.ANY, Algorithm.ASTAR, default),
            ("optimal A*", Mode.OPTIMAL, Algorithm.ASTAR, default)]
    if not args.skip_idastar:
        plan.append(("optimal IDA*", Mode.OPTIMAL, Algorithm.IDASTAR, capped))

    deals: Sequence[int] = args.deals
    results: dict[str, list[Record]] = {}
    columns: list[list[str]] = []
    for name, mode, algorithm, budget in plan:
        records, wall = phase(name, [(n, mode, algorithm, budget) for n in deals], args.jobs)
        results[name] = records
        columns.append(column(records, wall, budget))
        columns[-1] += [f"{peak_mib(resource.RUSAGE_SELF):.1f}",
                        f"{peak_mib(resource.RUSAGE_CHILDREN):.1f}" if args.jobs > 1 else "-"]
        if name == "any":
            deals = [r["deal"] for r in records if r["status"] == Status.SOLVED.value]

    labels = [*LABELS, "peak RSS so far, main (MiB)", "peak RSS so far, worker (MiB)"]
    rows = [[label, *(col[i] for col in columns)] for i, label in enumerate(labels)]
    comparison: dict[str, Any] = {}
    if not args.skip_idastar:
        astar_runs, ida_runs = results["optimal A*"], results["optimal IDA*"]
        both = [(a, b) for a, b in zip(astar_runs, ida_runs, strict=True)
                if a["optimal"] and b["optimal"]]
        mismatches = [a["deal"] for a, b in both if a["length"] != b["length"]]
        ratios = [b["seconds"] / a["seconds"] for a, b in zip(astar_runs, ida_runs, strict=True)]
        comparison = {"compared": len(both), "length_mismatch_deals": mismatches,
                      "seconds_ratio": dict(zip(map(str, deals), ratios, strict=True))}
        ratio = spread(ratios, lambda x: f"{x:.2f}")
        for label, value in [("IDA* length mismatches vs A*", f"{len(mismatches)} of {len(both)}"),
                             ("IDA*/A* seconds, median", ratio[0]),
                             ("IDA*/A* seconds, max", ratio[2])]:
            rows.append([label, "-", "-", value])

    mode = f"{args.jobs} jobs (Pool)" if args.jobs > 1 else "1 job (sequential)"
    title = (f"Beleaguered Fortress: deals {args.deals.start}-{args.deals.stop - 1} "
             f"({len(args.deals)}), budget {args.seconds:g} s/solve, {mode}; "
             "optimal phases run on the deals `any` solved")
    print(render(title, ["", *(name for name, *_ in plan)], rows))

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"deals": [args.deals.start, args.deals.stop - 1], "seconds": args.seconds,
                       "table_entries": args.table_entries, "jobs": args.jobs,
                       "peak_rss_mib": {"main": peak_mib(resource.RUSAGE_SELF),
                                        "workers": peak_mib(resource.RUSAGE_CHILDREN)},
                       "phases": results, "idastar_vs_astar": comparison}, out, indent=1)


if __name__ == "__main__":
    main()
