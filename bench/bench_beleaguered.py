"""Benchmark the Beleaguered Fortress solver's two engines over a range of deal numbers.

It exists to give one comparable table of how fast `any` mode reaches verdicts, what
proving optimality costs with A* and with IDA*, whether the engines and the algorithms
agree, and how much memory all of that took, for the compiled kernel and the pure-Python
reference side by side, so that solver changes can be judged on figures rather than
impressions.

To measure both engines alike, each runs in a worker process of its own, started afresh
for each phase (so its peak RSS is that engine's peak in that phase); the deals go to
the workers in chunks, to one worker at a time, and the engine that goes first alternates
from chunk to chunk, so that machine noise falls on both.

    .venv/bin/python bench/bench_beleaguered.py --deals 1-1000 [--engines native,python]
        [--chunk 25] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from typing import Any

from solver.beleaguered import Algorithm, Engine, Mode, deal, engines, solve
from solver.budget import Budget, Status

# service.cli and service.arguments (and tqdm) are imported where they are used: a spawned
# worker re-imports this module, and service.cli's imports alone would add some 70 MiB to
# each worker's RSS.

Record = dict[str, Any]
Run = dict[str, Any]        # one engine's phase: its records and its worker's RSS
Summary = dict[str, float | None]
Check = tuple[int, list[str]]   # deals compared, and a description of each that differs


def solve_one(number: int, mode: Mode, algorithm: Algorithm, budget: Budget) -> Record:
    """Solve one deal with this process's engine; the clock covers solve() only, set-up
    included, not dealing."""
    position = deal(number)
    started = time.perf_counter()
    solution = solve(position, mode, algorithm, budget)
    seconds = time.perf_counter() - started
    return {"deal": number, "status": solution.status.value, "optimal": solution.optimal,
            "length": solution.length, "seconds": seconds,
            "search_seconds": solution.stats.seconds, "nodes": solution.stats.nodes,
            "table_entries": solution.stats.table_entries}


def peak_mib() -> float:
    """This process's peak RSS since its exec (VmHWM), in MiB. Not ru_maxrss: Linux carries
    into that the RSS the process had before its exec, a copy of its parent's."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
    raise RuntimeError("/proc/self/status has no VmHWM line")


def serve(engine: Engine, conn: Connection) -> None:
    """A worker's life: its RSS before any solve, then a record per deal of each chunk it
    is sent, then, once sent None, its peak RSS."""
    engines.use(engine)
    conn.send(peak_mib())
    while (chunk := conn.recv()) is not None:
        numbers, mode, algorithm, budget = chunk
        for number in numbers:
            conn.send(solve_one(number, mode, algorithm, budget))
    conn.send(peak_mib())


class Worker:
    """One engine in a spawned process, which shares no memory with this one."""

    def __init__(self, engine: Engine) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, theirs = context.Pipe()
        self._process = context.Process(target=serve, args=(engine, theirs), daemon=True)
        self._process.start()
        theirs.close()
        self.idle_mib: float = self._conn.recv()

    def solve(self, numbers: Sequence[int], mode: Mode, algorithm: Algorithm,
              budget: Budget) -> Iterator[Record]:
        self._conn.send((numbers, mode, algorithm, budget))
        for _ in numbers:
            yield self._conn.recv()

    def stop(self) -> float:
        """The worker's peak RSS in MiB; it has ended when this returns."""
        self._conn.send(None)
        peak: float = self._conn.recv()
        self._process.join()
        return peak


def run_phase(name: str, numbers: Sequence[int], mode: Mode, algorithm: Algorithm,
              budget: Budget, engines: Sequence[Engine], chunk: int,
              progress: bool = False) -> dict[Engine, Run]:
    """Each engine's records in deal order, and its worker's RSS before solving and at peak;
    a bar on stderr when it is a terminal or `progress` (--progress) asks for one."""
    from service.arguments import progress_bar

    workers = {engine: Worker(engine) for engine in engines}
    records: dict[Engine, list[Record]] = {engine: [] for engine in engines}
    with progress_bar(desc=name, total=len(numbers) * len(engines), unit="solve",
                      forced=progress) as bar:
        for k, start in enumerate(range(0, len(numbers), chunk)):
            part = numbers[start:start + chunk]
            for engine in engines if k % 2 == 0 else engines[::-1]:
                for record in workers[engine].solve(part, mode, algorithm, budget):
                    records[engine].append(record)
                    bar.update()
    return {engine: {"records": records[engine], "idle_rss_mib": worker.idle_mib,
                     "peak_rss_mib": worker.stop()} for engine, worker in workers.items()}


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def nearest_rank(values: Sequence[float], percent: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(percent / 100 * len(ordered)) - 1)]


def summarise(run: Run) -> Summary:
    """One engine's figures for a phase; None where there is nothing to summarise."""
    records = run["records"]
    statuses = [r["status"] for r in records]
    seconds = [r["seconds"] for r in records]
    nodes = [r["nodes"] for r in records]
    return {
        "deals": len(records),
        **{status.value: statuses.count(status.value) for status in Status},
        "optimal": sum(r["status"] == Status.SOLVED.value and r["optimal"] for r in records),
        "seconds_total": sum(seconds),
        "seconds_median": median(seconds),
        "seconds_p90": nearest_rank(seconds, 90),
        "seconds_max": max(seconds, default=None),
        "nodes_total": sum(nodes),
        "nodes_per_second": sum(nodes) / sum(seconds) if sum(seconds) else None,
        "nodes_median": median(nodes),
        "idle_rss_mib": run["idle_rss_mib"],
        "peak_rss_mib": run["peak_rss_mib"],
    }


def secs(x: float) -> str:
    return f"{x:.4f}"


def count(x: float) -> str:
    return f"{x:,.0f}"


def mib(x: float) -> str:
    return f"{x:.1f}"


SLOWER = (Engine.PYTHON, Engine.NATIVE)    # the ratio column's python/native
FASTER = (Engine.NATIVE, Engine.PYTHON)
ROWS: list[tuple[str, str, Callable[[float], str], tuple[Engine, Engine] | None]] = [
    ("deals run", "deals", count, None),
    ("solved", Status.SOLVED.value, count, None),
    ("unsolvable", Status.UNSOLVABLE.value, count, None),
    ("unknown", Status.UNKNOWN.value, count, None),
    ("proven optimal", "optimal", count, None),
    ("seconds, total of solves", "seconds_total", secs, SLOWER),
    ("seconds per deal, median", "seconds_median", secs, SLOWER),
    ("seconds per deal, p90", "seconds_p90", secs, SLOWER),
    ("seconds per deal, max", "seconds_max", secs, SLOWER),
    ("nodes, total", "nodes_total", count, SLOWER),
    ("nodes/s (ratio native/python)", "nodes_per_second", count, FASTER),
    ("nodes per deal, median", "nodes_median", count, SLOWER),
    ("RSS before solving, worker (MiB)", "idle_rss_mib", mib, None),
    ("peak RSS, worker (MiB)", "peak_rss_mib", mib, SLOWER),
]


def ratio(summaries: dict[Engine, Summary], key: str, over: tuple[Engine, Engine] | None) -> str:
    if over is None or not all(engine in summaries for engine in over):
        return "-"
    top, bottom = (summaries[engine][key] for engine in over)
    return "-" if top is None or not bottom else f"{top / bottom:.2f}"


def phase_rows(summaries: dict[Engine, Summary]) -> list[list[str]]:
    return [[label, *("-" if s[key] is None else fmt(s[key]) for s in summaries.values()),
             ratio(summaries, key, over)] for label, key, fmt, over in ROWS]


def compare(a: list[Record], b: list[Record], names: Sequence[str], key: str) -> Check:
    """Two runs of the same deals, compared on `key`: "status" on every deal, "length" on
    the deals both proved optimal."""
    pairs = list(zip(a, b, strict=True))
    if key == "length":
        pairs = [(x, y) for x, y in pairs if x["optimal"] and y["optimal"]]
    return len(pairs), [f"{x['deal']} ({names[0]} {x[key]}, {names[1]} {y[key]})"
                        for x, y in pairs if x[key] != y[key]]


def agreement(results: dict[str, dict[Engine, Run]], engines: Sequence[Engine]
              ) -> tuple[dict[str, Check], dict[Engine, dict[int, float]]]:
    """Whether the engines agree in every phase and A* and IDA* on optimal lengths, and
    IDA*'s seconds over A*'s per deal for each engine."""
    checks: dict[str, Check] = {}
    if len(engines) == 2:
        versus = f"{engines[0]} vs {engines[1]}"
        for name, runs in results.items():
            first, second = (runs[engine]["records"] for engine in engines)
            checks[f"{name}: verdicts, {versus}"] = compare(first, second, engines, "status")
            if name != "any":
                checks[f"{name}: optimal lengths, {versus}"] = compare(
                    first, second, engines, "length")
    ida_over_astar: dict[Engine, dict[int, float]] = {}
    if "optimal IDA*" in results:
        for engine in engines:
            astar = results["optimal A*"][engine]["records"]
            ida = results["optimal IDA*"][engine]["records"]
            checks[f"optimal lengths, IDA* vs A*, {engine}"] = compare(
                astar, ida, ["A*", "IDA*"], "length")
            ida_over_astar[engine] = {a["deal"]: b["seconds"] / a["seconds"]
                                      for a, b in zip(astar, ida, strict=True)}
    return checks, ida_over_astar


def agreement_tables(checks: dict[str, Check], ida_over_astar: dict[Engine, dict[int, float]],
                     engines: Sequence[Engine]) -> list[str]:
    tables = []
    if checks:
        differing = [f"  {label}: {', '.join(differ)}"
                     for label, (_, differ) in checks.items() if differ]
        listing = ["deals that differ:", *differing] if differing else ["deals that differ: none"]
        tables.append("\n".join([render("agreement", ["", "differ", "compared"], [
            [label, str(len(differ)), str(compared)]
            for label, (compared, differ) in checks.items()]), *listing]))
    if ida_over_astar:
        ratios = [list(ida_over_astar[engine].values()) for engine in engines]
        tables.append(render("IDA*/A* seconds per deal", ["", *engines], [
            [label, *("-" if not r else f"{pick(r):.2f}" for r in ratios)]
            for label, pick in [("median", statistics.median), ("max", max)]]))
    return tables


def render(title: str, header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [title, "  ".join(h.ljust(w) if i == 0 else h.rjust(w)
                              for i, (h, w) in enumerate(zip(header, widths, strict=True)))]
    lines.append("-" * len(lines[-1]))
    for row in rows:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(row, widths, strict=True))))
    return "\n".join(lines)


def engine_list(text: str) -> tuple[Engine, ...]:
    try:
        engines = tuple(Engine(name.strip()) for name in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"engines {text!r}: each must be one of {', '.join(Engine)}") from None
    if len(set(engines)) < len(engines):
        raise argparse.ArgumentTypeError(f"engines {text!r} names one twice")
    return engines


def main(argv: Sequence[str] | None = None) -> None:
    from service.arguments import add_progress
    from service.beleaguered.commands import deal_range

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-1000"), metavar="A-B")
    parser.add_argument("--seconds", type=float, default=30.0, help="budget per solve, all phases")
    parser.add_argument("--table-entries", type=int, default=1_000_000, help="IDA* table cap")
    parser.add_argument("--engines", type=engine_list, default=(Engine.NATIVE, Engine.PYTHON),
                        metavar="E,E", help="engines to run (default native,python)")
    parser.add_argument("--chunk", type=int, default=25,
                        help="deals per turn of a worker (default 25)")
    parser.add_argument("--skip-idastar", action="store_true")
    parser.add_argument("--json", metavar="FILE", help="also write per-deal figures here")
    add_progress(parser)
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.table_entries <= 0 or args.chunk <= 0:
        parser.error("--seconds, --table-entries and --chunk must be positive")

    default = Budget(seconds=args.seconds)
    capped = Budget(seconds=args.seconds, table_entries=args.table_entries)
    plan = [("any", Mode.ANY, Algorithm.ASTAR, default),
            ("optimal A*", Mode.OPTIMAL, Algorithm.ASTAR, default)]
    if not args.skip_idastar:
        plan.append(("optimal IDA*", Mode.OPTIMAL, Algorithm.IDASTAR, capped))

    engines: tuple[Engine, ...] = args.engines
    deals: Sequence[int] = args.deals
    results: dict[str, dict[Engine, Run]] = {}
    summaries: dict[str, dict[Engine, Summary]] = {}
    tables: list[str] = []
    for name, mode, algorithm, budget in plan:
        results[name] = run_phase(name, deals, mode, algorithm, budget, engines, args.chunk,
                                  args.progress)
        summaries[name] = {engine: summarise(run) for engine, run in results[name].items()}
        scope = "every deal of the range" if name == "any" else "the deals `any` solved"
        tables.append(render(f"{name}: {scope} ({len(deals)})", ["", *engines, "python/native"],
                             phase_rows(summaries[name])))
        if name == "any":   # the optimal phases take every deal either engine solved
            deals = sorted({r["deal"] for run in results[name].values() for r in run["records"]
                            if r["status"] == Status.SOLVED.value})

    checks, ida_over_astar = agreement(results, engines)
    tables += agreement_tables(checks, ida_over_astar, engines)

    print(f"Beleaguered Fortress: deals {args.deals.start}-{args.deals.stop - 1} "
          f"({len(args.deals)}), budget {args.seconds:g} s/solve, IDA* table cap "
          f"{args.table_entries:,}; engines {', '.join(engines)}, each in a worker process "
          f"of its own, taking turns of up to {args.chunk} deals\n")
    print("\n\n".join(tables))

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"deals": [args.deals.start, args.deals.stop - 1], "seconds": args.seconds,
                       "table_entries": args.table_entries, "engines": engines,
                       "chunk": args.chunk, "phases": results, "summary": summaries,
                       "agreement": {label: {"compared": compared, "differ": differ}
                                     for label, (compared, differ) in checks.items()},
                       "idastar_over_astar_seconds": ida_over_astar}, out, indent=1)


if __name__ == "__main__":
    main()
