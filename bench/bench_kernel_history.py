"""The compiled kernel today beside itself as it was at an earlier commit, on Beleaguered
Fortress: the family's rules switches must not slow the seed game down.

The old kernel's source is taken from git (`git show COMMIT:solver/beleaguered/_kernel.cpp`)
and built into a scratch folder with the same flags as setup.py; both kernels then search
the same deals in one process, one deal at a time, the kernel that goes first alternating
from deal to deal so that machine noise falls on both. Each search's own clock (the
kernel's `seconds`) is compared, and so are the verdicts and, in optimal mode, the lengths.

    .venv/bin/python -m bench.bench_kernel_history --commit 0195506 --deals 1-1000
        [--mode any|optimal] [--rounds 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from solver.beleaguered import _kernel, native
from solver.beleaguered.deals import deal
from solver.beleaguered.variant import beleaguered_fortress

_STATUS = ("solved", "unsolvable", "unknown")


def build_old_kernel(commit: str, folder: Path) -> ModuleType:
    """The kernel of `commit`, compiled into `folder` and loaded under its own name."""
    source = subprocess.run(["git", "show", f"{commit}:solver/beleaguered/_kernel.cpp"],
                            check=True, capture_output=True, text=True).stdout
    (folder / "_kernel.cpp").write_text(source)
    (folder / "setup.py").write_text(
        "from pybind11.setup_helpers import Pybind11Extension\n"
        "from setuptools import setup\n"
        "setup(name='old', ext_modules=[Pybind11Extension('_kernel', ['_kernel.cpp'],"
        " cxx_std=17, extra_compile_args=['-O2'])])\n")
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=folder,
                   check=True, capture_output=True)
    built = next(folder.glob("_kernel*.so"))
    spec = importlib.util.spec_from_file_location("_kernel", built)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(old: ModuleType, numbers: range, kind: str) -> dict[str, Any]:
    rules = native.rules_of(beleaguered_fortress())
    times: dict[str, list[float]] = {"old": [], "new": []}
    differ = []
    for number in numbers:
        position = deal(number)
        piles = [[card.index for card in pile] for pile in position.tableau]
        slots = [-1 if card is None else card.index for card in position.reserve]
        home = list(position.foundations)
        answers = {}
        order = ("old", "new") if number % 2 else ("new", "old")
        for which in order:
            if which == "old":
                got = old.solve(piles, slots, home, kind, 0.0, 0, 0, None)
            else:
                got = _kernel.solve(piles, slots, [], home, rules, kind, 0.0, 0, 0, None)
            times[which].append(got[4])
            answers[which] = (_STATUS[got[0]], len(got[1]) if kind != "greedy" else None)
        if answers["old"] != answers["new"]:
            differ.append((number, answers))
    return {"times": times, "differ": differ}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="0195506")
    parser.add_argument("--deals", default="1-1000", metavar="A-B")
    parser.add_argument("--mode", choices=("any", "optimal"), default="any")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the deals")
    args = parser.parse_args()
    first, last = map(int, args.deals.split("-"))
    kind = "greedy" if args.mode == "any" else "astar"
    with tempfile.TemporaryDirectory() as scratch:
        old = build_old_kernel(args.commit, Path(scratch))
        totals: dict[str, list[float]] = {"old": [], "new": []}
        for round_ in range(args.rounds):
            result = run(old, range(first, last + 1), kind)
            for which in totals:
                totals[which].append(sum(result["times"][which]))
            print(f"round {round_ + 1}: kernel of {args.commit} {totals['old'][-1]:.3f} s, "
                  f"today's {totals['new'][-1]:.3f} s, ratio "
                  f"{totals['new'][-1] / totals['old'][-1]:.3f}; verdicts"
                  f"{' and lengths' if kind != 'greedy' else ''} differ on "
                  f"{len(result['differ'])} deals {result['differ'][:5]}")
    old_median, new_median = statistics.median(totals["old"]), statistics.median(totals["new"])
    print(f"{args.mode} mode, Beleaguered Fortress deals {args.deals}, {args.rounds} rounds: "
          f"median total {old_median:.3f} s (kernel of {args.commit}) vs {new_median:.3f} s "
          f"(today's): ratio {new_median / old_median:.3f}")


if __name__ == "__main__":
    main()
