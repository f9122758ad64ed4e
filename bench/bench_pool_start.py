"""How soon a server's worker pool answers: the seconds from making a pool of N workers
(with the modules a server's workers import) to every worker having answered a quick
search, and from a worker's death to its replacement's answer. Each run in a fresh
interpreter, as a server starts; the median of RUNS.

    .venv/bin/python -m bench.bench_pool_start [--workers 2 8] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from service.frontends import search_modules
from service.pool import Job, WorkerPool
from solver.beleaguered import Mode, deal
from solver.beleaguered.game import SOLVE, SolveOptions
from solver.budget import Budget


def quick(number: int) -> Job:
    return Job(SOLVE, deal(number), SolveOptions(mode=Mode.ANY), Budget(seconds=30))


def once(workers: int) -> None:
    """One pool: print the seconds until all answered, then until a replacement did."""
    started = time.perf_counter()
    pool = WorkerPool(workers, workers, search_modules(), max_per_owner=workers)
    try:
        with ThreadPoolExecutor(workers) as threads:  # one job each, all at once
            list(threads.map(lambda k: pool.run(quick(k + 1), lambda: False, owner=str(k)),
                             range(workers)))
        ready = time.perf_counter() - started
        for worker in pool._all:  # every worker dies, so the next job meets a new one
            worker.process.kill()
            worker.process.join()
        died = time.perf_counter()
        pool.run(quick(1), lambda: False)
        print(ready, time.perf_counter() - died)
    finally:
        pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 8])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--once", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.once:
        once(args.once)
        return
    print(f"workers  all answered  a replacement answered  (medians of {args.runs} runs)")
    for workers in args.workers:
        runs = [subprocess.run([sys.executable, "-m", "bench.bench_pool_start", "--once",
                                str(workers)], check=True, capture_output=True,
                               text=True).stdout.split() for _ in range(args.runs)]
        ready, again = (statistics.median(float(run[k]) for run in runs) for k in (0, 1))
        print(f"{workers:7}  {ready:10.3f} s  {again:20.3f} s")


if __name__ == "__main__":
    main()
