"""Time the exact Fortress Fight Kingdom puzzles: the hand-made set of tests/ (one line
per puzzle, each the median of several runs), then real positions: every turn start of
greedy self-play games, solved for a win this turn and for a forced win within two turns.

    .venv/bin/python -m bench.bench_ffk_puzzles [--repeat 5] [--games 2] [--seconds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path

from service.arguments import add_progress, progress_bar
from solver.budget import Budget
from solver.ffkingdom import CardTable, apply, load, load_cards, new_game
from solver.ffkingdom.policies import greedy_action
from solver.ffkingdom.puzzles import solve_puzzle

PUZZLES = Path(__file__).resolve().parent.parent / "tests" / "ffkingdom" / "puzzles"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", type=int, default=2, help="self-play games for positions")
    parser.add_argument("--seconds", type=float, default=5.0, help="budget per forced win")
    add_progress(parser)
    args = parser.parse_args()
    rules = load_cards()
    hand_made(rules, args.repeat)
    real_positions(rules, args.games, args.seconds, args.progress)


def hand_made(rules: CardTable, repeat: int) -> None:
    medians = []
    print(f"{'puzzle':45} {'turns':>5} {'verdict':>10} {'actions':>7} {'nodes':>7} {'median s':>9}")
    for path in sorted(PUZZLES.glob("*.json")):
        puzzle = json.loads(path.read_text(encoding="utf-8"))
        state = load(puzzle["position"], rules).state
        runs = [solve_puzzle(state, puzzle["turns"], Budget(seconds=60, table_entries=None))
                for _ in range(repeat)]
        seconds = statistics.median(run.stats.seconds for run in runs)
        medians.append(seconds)
        answer = runs[0]
        print(f"{path.stem:45} {puzzle['turns']:>5} {answer.status.value:>10} "
              f"{len(answer.line):>7} {answer.stats.nodes:>7} {seconds:>9.4f}")
    print(f"{len(medians)} puzzles: median {statistics.median(medians):.4f} s, "
          f"slowest {max(medians):.4f} s (each the median of {repeat} runs)")


def real_positions(rules: CardTable, games: int, seconds: float, progress: bool) -> None:
    positions = []
    for seed in range(1, games + 1):
        state = new_game(rules, seed)
        while state.winner is None:
            if state.actions_left == 1:
                positions.append(state)
            state = apply(state, greedy_action(state))
    if not positions:
        return
    print(f"\n{len(positions)} turn starts of {games} greedy games (9 cards in hand)")
    for turns, budget in ((1, Budget(seconds=60, table_entries=None)),
                          (2, Budget(seconds=seconds, table_entries=None))):
        answers = [solve_puzzle(state, turns, budget) for state in progress_bar(
            positions, total=len(positions), desc=f"within {turns}", unit="puzzle",
            forced=progress)]
        times = sorted(answer.stats.seconds for answer in answers)
        verdicts = Counter(answer.status.value for answer in answers)
        print(f"within {turns} turn{'s' * (turns > 1)}: "
              + ", ".join(f"{n} {v}" for v, n in sorted(verdicts.items()))
              + f"; seconds median {statistics.median(times):.4f}, "
              f"p90 {times[int(0.9 * (len(times) - 1))]:.4f}, max {times[-1]:.4f}")


if __name__ == "__main__":
    main()
