"""How short a line `optimal` mode answers when its budget stops it, and how many deals it
proves: each deal's best line against the deal's optimal length, for one checkout or
for several side by side (issue 49).

    .venv/bin/python -m bench.bench_anytime [--variants freecell] [--deals 1-1000]
        [--seconds 0.25] [--optima FILE ...] [--against TREE ...]

Each deal is solved in `optimal` mode (moves metric) with the budget given, by a worker
process per checkout: this one, and each TREE of --against (a checkout of another
commit: `git worktree add ../before COMMIT`, its kernel built), the checkouts taking
turns deal by deal so that machine noise falls on all alike.

A deal's optimal length comes from its variant's shipped census (solver/beleaguered/
censuses/, where it is proven), from FILEs of lines with "deal", "optimal" and "length"
(what `fortress-solver batch --out` writes: a longer budget's proofs), or from any
checkout's proof in this run (a proof that disagrees with another is counted and
shown). A line's excess is its length less the optimal; a deal answered without a line
counts as the largest excess; deals whose optimal length no one knows are left out of
the excess and counted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from solver.beleaguered.census import shipped
from solver.beleaguered.variant import find_variant

ROOT = Path(__file__).resolve().parents[1]
NO_LINE = 999  # the excess of a deal answered without a line

# One checkout's worker: a line "variant deal seconds" in, the answer as JSON out. It
# calls only solve() and the answer's fields, so that older checkouts run it too.
WORKER = """
import json, sys
from solver.beleaguered import Mode, deal, solve
from solver.beleaguered.variant import find_variant
from solver.budget import Budget
for line in sys.stdin:
    name, number, seconds = line.split()
    answer = solve(deal(int(number), find_variant(name)), Mode.OPTIMAL,
                   budget=Budget(seconds=float(seconds)))
    print(json.dumps({"status": answer.status.value, "optimal": answer.optimal,
                      "length": answer.length, "lower_bound": answer.lower_bound,
                      "nodes": answer.stats.nodes, "seconds": answer.stats.seconds,
                      "line_seconds": getattr(answer.stats, "line_seconds", None)}),
          flush=True)
"""


class Worker:
    """A checkout's solving process."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER], cwd=tree, text=True, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(tree)})

    def solve(self, variant: str, number: int, seconds: float) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{variant} {number} {seconds}\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


@dataclass
class Tally:
    """One checkout's answers for one variant."""

    answers: dict[int, dict[str, Any]] = field(default_factory=dict)

    def excesses(self, optima: dict[int, int]) -> list[int]:
        return [NO_LINE if a["length"] is None else a["length"] - optima[n]
                for n, a in self.answers.items() if n in optima]

    def proven(self) -> int:
        return sum(a["optimal"] for a in self.answers.values())

    def no_line(self) -> int:
        return sum(a["length"] is None and a["status"] != "unsolvable"
                   for a in self.answers.values())


def percentile(values: list[int], share: float) -> int:
    """The nearest-rank percentile: the least value at least `share` of them are at."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def census_optima(variant: str) -> dict[int, int]:
    census = shipped(find_variant(variant))
    if census is None:
        return {}
    return {info.deal: info.length for info in census
            if info.optimal and info.length is not None}


def file_optima(paths: list[Path]) -> dict[int, int]:
    optima: dict[int, int] = {}
    for path in paths:
        for text in path.read_text().splitlines():
            line = json.loads(text)
            if line.get("optimal") and line.get("length") is not None:
                optima[line["deal"]] = line["length"]
    return optima


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", default="freecell",
                        help="variants by name, comma-separated (default freecell)")
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-1000"))
    parser.add_argument("--seconds", type=float, default=0.25, help="a deal's budget")
    parser.add_argument("--optima", type=Path, nargs="*", default=[],
                        help="files of lines whose proven lengths add to the census's "
                             "(one variant's)")
    parser.add_argument("--against", type=Path, nargs="*", default=[], metavar="TREE",
                        help="other checkouts, solving the same deals in turn")
    args = parser.parse_args()
    variants = args.variants.split(",")
    if args.optima and len(variants) > 1:
        parser.error("--optima are one variant's: give one variant with them")
    trees = [ROOT, *(tree.resolve() for tree in args.against)]
    workers = [Worker(tree) for tree in trees]
    known_files = file_optima(args.optima)
    print(f"optimal mode, {args.seconds:g} s a deal, deals {args.deals.start}-"
          f"{args.deals.stop - 1}")
    print("| variant | checkout | proven | no line | optimum known | excess median | p90 "
          "| p95 | max | lengths differ |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    try:
        for variant in variants:
            tallies = [Tally() for _ in trees]
            for number in args.deals:
                turn = number % len(workers)
                for at in [*range(turn, len(workers)), *range(turn)]:
                    tallies[at].answers[number] = workers[at].solve(variant, number,
                                                                    args.seconds)
            _report(variant, trees, tallies, census_optima(variant) | known_files)
    finally:
        for worker in workers:
            worker.close()


def _report(variant: str, trees: list[Path], tallies: list[Tally],
            optima: dict[int, int]) -> None:
    """One row a checkout; a proof of this run adds its length to what is known, and one
    that disagrees with it is counted."""
    known = dict(optima)
    differ = [0] * len(tallies)
    for at, tally in enumerate(tallies):
        for number, answer in tally.answers.items():
            if not answer["optimal"]:
                continue
            if known.setdefault(number, answer["length"]) != answer["length"]:
                differ[at] += 1
    for tree, tally, wrong in zip(trees, tallies, differ, strict=True):
        excess = tally.excesses(known)
        figures = (["-"] * 4 if not excess else
                   [percentile(excess, 0.5), percentile(excess, 0.9),
                    percentile(excess, 0.95), max(excess)])
        print(f"| {variant} | {tree.name} | {tally.proven()} of {len(tally.answers)} | "
              f"{tally.no_line()} | {len(excess)} | " + " | ".join(map(str, figures)) +
              f" | {wrong} |")


if __name__ == "__main__":
    main()
