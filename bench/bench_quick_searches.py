"""What quick Python searches cost, for several trees of this project: the same batch of
quick questions of every game (the Fortress Fight Kingdom puzzles of
tests/ffkingdom/puzzles, two-player Farbduell puzzles and hints, the patience reference's
quick solves, a Stronghold search), asked in one process per tree and round, the trees
taking turns round after round so that each sees the same machine. Prints each tree's
median batch over the rounds (each round's batch the median of its repeats).

    .venv/bin/python -m bench.bench_quick_searches TREE [TREE...] [--rounds 11]

A TREE is a checkout of some commit (`git worktree add ../COMMIT COMMIT`); its batch
runs with `PYTHONPATH` set to it. The batch calls only the library's long-standing
functions, so that older trees run it too."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# One tree's batch: warmed once, then timed `repeats` times; prints the median seconds.
BATCH = """
import json, statistics, sys, time
from pathlib import Path
from solver.beleaguered import Engine, Mode, deal, solve, using
from solver.beleaguered.variant import find_variant
from solver.budget import Budget
from solver.farbduell.data import load_tables
from solver.farbduell.hints import hint as farbduell_hint
from solver.farbduell.puzzles import solve_puzzle as farbduell_puzzle
from solver.farbduell.rules import new_game
from solver.ffkingdom import load
from solver.ffkingdom.puzzles import solve_puzzle as ffk_puzzle
from solver.stronghold.position import Position
from solver.stronghold.policies import passive
from solver.stronghold.search import fewest_turns

puzzles = [json.loads(path.read_text()) for path in
           sorted(Path(sys.argv[2], "tests/ffkingdom/puzzles").glob("*.json"))]
ffk = [(load(p["position"]).state, p["turns"]) for p in puzzles]
classic = load_tables()["classic"]
games = [new_game(classic, 2, seed) for seed in range(1, 11)]
deals = [deal(n, find_variant(v)) for v, numbers in
         (("beleaguered-castle", (1, 2, 3, 4)), ("freecell", (2, 3, 4, 7)),
          ("streets-and-alleys", (1, 4, 6))) for n in numbers]
siege = Position.from_json({"mode": "1v3", "units": [
    {"id": "r1", "owner": "D", "might": 1, "loc": "O1"},
    {"id": "r2", "owner": "D", "might": 1, "loc": "O2"},
    {"id": "a", "owner": "A1", "might": 2}, {"id": "b", "owner": "A2", "might": 2},
    {"id": "c", "owner": "A3", "might": 2}]})
budget = Budget(seconds=None)

def batch():
    for state, turns in ffk:
        ffk_puzzle(state, turns, budget)
    for state in games:
        farbduell_puzzle(state, 2, budget)
        farbduell_hint(state)
    with using(Engine.PYTHON):
        for position in deals:
            solve(position, Mode.ANY, budget=budget)
    fewest_turns(siege, passive, budget)

batch()
times = []
for _ in range(int(sys.argv[1])):
    started = time.perf_counter()
    batch()
    times.append(time.perf_counter() - started)
print(statistics.median(times))
"""


def run(tree: Path, repeats: int) -> float:
    done = subprocess.run([sys.executable, "-c", BATCH, str(repeats), str(ROOT)],
                          capture_output=True, text=True, check=True, cwd=tree,
                          env={**os.environ, "PYTHONPATH": str(tree)})
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="+", type=Path, metavar="TREE")
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--repeats", type=int, default=3, help="batches timed a round")
    args = parser.parse_args()
    trees = [tree.resolve() for tree in args.trees]
    found: dict[Path, list[float]] = {tree: [] for tree in trees}
    for n in range(args.rounds):
        for tree in trees[n % len(trees):] + trees[:n % len(trees)]:
            found[tree].append(run(tree, args.repeats))
    first = statistics.quantiles(found[trees[0]], n=4)[1]
    print(f"quick Python searches, {args.rounds} rounds of {args.repeats} batches a tree")
    print("| tree | median batch s | quartiles | against the first |")
    print("|---|---:|---|---:|")
    for tree, times in found.items():
        q1, median, q3 = statistics.quantiles(times, n=4)
        print(f"| {tree} | {median:.3f} | {q1:.3f}-{q3:.3f} | "
              f"{100 * (median / first - 1):+.1f} % |")


if __name__ == "__main__":
    main()
