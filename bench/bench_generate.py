"""Timing `generate` past the shipped census, where every deal is searched: ten Streets and
Alleys deals of 92-98 moves (the tail of its optimal lengths, median about 88) from deal
10001, as a user runs it,

    fortress-solver generate --variant streets-and-alleys --count 10 --min-length 92
        --max-length 98 --deals 10001-2000000000

`runs` times that command on two checkouts (each with its kernel built), in turn (A B,
B A, A B, ...) so that the machine's noise falls on both, and prints each run (wall
time, the CPU seconds of the command and its workers, the deals found, its status line)
and each checkout's medians. The searches' budgets are wall-clock seconds, so a loaded
machine gives each search less work: the load average is printed with every run.

`first-pass` asks what a first pass in verdict mode would cost: over a range of deals,
the seconds the plan's first rung (an optimal search of 0.25 s) takes, beside a verdict
search of the same budget first, the optimal one only for the deals the verdict leaves
in play (winnable, its line not below the band, or undecided), and how many deals the
optimal rung sets aside that the verdict proves unwinnable.

    .venv/bin/python -m bench.bench_generate runs --before DIR --after DIR [--repeats 3]
    .venv/bin/python -m bench.bench_generate first-pass [--deals 10001-10200]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

COMMAND = ["generate", "--variant", "streets-and-alleys", "--count", "10", "--min-length",
           "92", "--max-length", "98", "--deals", "10001-2000000000"]
LOW = 92  # the band's bottom: a line below it puts a deal out


@dataclass(frozen=True)
class Run:
    label: str
    wall: float
    cpu: float  # user and system seconds of the command and its workers
    found: int
    code: int
    status: str  # its line on standard error, if any
    load: float  # the one-minute load average as it started


def timed(label: str, checkout: Path, extra: list[str]) -> Run:
    """One run of the command from `checkout` (its own code and kernel)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "service.cli", *COMMAND, *extra],
                          cwd=checkout, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(label, wall, cpu, len(done.stdout.splitlines()), done.returncode,
               done.stderr.strip(), load)


def runs(args: argparse.Namespace) -> None:
    checkouts = {"before": args.before, "after": args.after}
    print(f"$ fortress-solver {' '.join(COMMAND + args.extra)}")
    done: list[Run] = []
    for repeat in range(args.repeats):
        order = list(checkouts) if repeat % 2 == 0 else list(reversed(checkouts))
        for label in order:
            run = timed(label, checkouts[label], args.extra)
            done.append(run)
            print(f"{run.label:6} wall {run.wall:6.1f} s  cpu {run.cpu:6.1f} s  "
                  f"found {run.found}  exit {run.code}  load {run.load:.1f}  {run.status}",
                  flush=True)
    for label in checkouts:
        mine = [run for run in done if run.label == label]
        print(f"{label:6} median wall {statistics.median(r.wall for r in mine):.1f} s, "
              f"cpu {statistics.median(r.cpu for r in mine):.1f} s over {len(mine)} runs")


def first_pass(args: argparse.Namespace) -> None:
    from solver.beleaguered import Mode, deal, solve
    from solver.beleaguered.generation import FIRST_RUNG
    from solver.beleaguered.variant import find_variant
    from solver.budget import DEFAULT_BUDGET, Status

    variant = find_variant("streets-and-alleys")
    budget = replace(DEFAULT_BUDGET, seconds=FIRST_RUNG)
    first, last = (int(n) for n in args.deals.split("-"))
    optimal_alone = verdict_first = 0.0
    left_out = unwinnable_set_aside = 0
    for number in range(first, last + 1):
        position = deal(number, variant)
        began = time.perf_counter()
        verdict = solve(position, Mode.VERDICT, budget=budget)
        verdict_seconds = time.perf_counter() - began
        began = time.perf_counter()
        optimal = solve(position, Mode.OPTIMAL, budget=budget)
        optimal_seconds = time.perf_counter() - began
        out = verdict.status is Status.UNSOLVABLE or (
            verdict.status is Status.SOLVED and (verdict.length or 0) < LOW)
        optimal_alone += optimal_seconds
        verdict_first += verdict_seconds + (0.0 if out else optimal_seconds)
        left_out += out
        unwinnable_set_aside += (verdict.status is Status.UNSOLVABLE
                                 and optimal.status is Status.UNKNOWN)
    deals = last - first + 1
    print(f"streets-and-alleys deals {args.deals} ({deals}), first rung {FIRST_RUNG:g} s: "
          f"optimal alone {optimal_alone:.1f} s; verdict first {verdict_first:.1f} s "
          f"({verdict_first / optimal_alone - 1:+.0%}), the verdict leaving out {left_out} "
          f"deals; set aside by the optimal rung but proven unwinnable by the verdict: "
          f"{unwinnable_set_aside}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(required=True)
    timing = commands.add_parser("runs", help="time the command on two checkouts in turn")
    timing.add_argument("--before", type=Path, required=True, help="a checkout, built")
    timing.add_argument("--after", type=Path, required=True, help="a checkout, built")
    timing.add_argument("--repeats", type=int, default=3)
    timing.add_argument("extra", nargs="*", help="more flags for the command (after --)")
    timing.set_defaults(run=runs)
    passes = commands.add_parser("first-pass", help="the first rung's seconds, verdict first")
    passes.add_argument("--deals", default="10001-10200", metavar="A-B")
    passes.set_defaults(run=first_pass)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
