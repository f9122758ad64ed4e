"""Start-up time of the quick commands against a bare interpreter of the same venv: each
command run RUNS times, interleaved (one run of each in turn, so that a busy moment of the
machine falls on all of them alike), then the median of each and its ratio to the bare
interpreter's. One run of each first, not counted, writes the bytecode caches as a
user's first run does (PYTHONDONTWRITEBYTECODE is left out of the commands' environment).

    .venv/bin/python -m bench.bench_startup [--runs 15] [--command "deal 2" ...]
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
COMMANDS = ("--version", "--help", "deal 1", "show --deal 1",
            "apply --deal 2 'AS reserve:8 foundation'")


ENVIRONMENT = {key: value for key, value in os.environ.items()
               if key != "PYTHONDONTWRITEBYTECODE"}


def once(argv: list[str]) -> float:
    """The wall-clock seconds of one run, which must succeed."""
    started = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=ENVIRONMENT)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command")
    parser.add_argument("--command", action="append", metavar="WORDS",
                        help="the words after fortress-solver, instead of the usual "
                             f"ones ({', '.join(COMMANDS)}); repeat for more")
    args = parser.parse_args()
    runs: dict[str, list[str]] = {"python -c pass": [str(BIN / "python"), "-c", "pass"]}
    for words in args.command or COMMANDS:
        runs[f"fortress-solver {words}"] = [str(BIN / "fortress-solver"), *shlex.split(words)]
    for argv in runs.values():
        once(argv)
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.runs):
        for name, argv in runs.items():
            times[name].append(once(argv))
    bare = statistics.median(times["python -c pass"])
    width = max(map(len, runs))
    print(f"{'command':<{width}}  median   ratio  ({args.runs} interleaved runs each)")
    for name, seconds in times.items():
        median = statistics.median(seconds)
        print(f"{name:<{width}}  {median:.3f} s  {median / bare:4.1f}x")


if __name__ == "__main__":
    main()
