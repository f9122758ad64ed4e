"""The Fortress Fight Kingdom hint's time, knowing against knowledge-blind, side by side:
every position of hint-against-greedy games is hinted by both (process time), the order
alternating, so that both meet the same load.

    .venv/bin/python -m bench.bench_ffk_hints [--games 6]
"""

from __future__ import annotations

import argparse
import statistics
import time

from solver.ffkingdom.data import shipped_cards
from solver.ffkingdom.hints import Settings, hint
from solver.ffkingdom.policies import greedy_action
from solver.ffkingdom.rules import apply, new_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games, seeds 1..GAMES")
    args = parser.parse_args()
    rules = shipped_cards()
    seconds: dict[bool, list[float]] = {True: [], False: []}
    positions = 0
    for seed in range(1, args.games + 1):
        state = new_game(rules, seed)
        while state.winner is None:
            answers = {}
            for knowing in ((True, False) if positions % 2 else (False, True)):
                began = time.process_time()
                answers[knowing] = hint(state, settings=Settings(knowing=knowing), seed=positions)
                seconds[knowing].append(time.process_time() - began)
            positions += 1
            mine = answers[True].action
            state = apply(state, mine if state.to_move == 0 and mine else greedy_action(state))
    for knowing, times in seconds.items():
        print(f"{'knowing' if knowing else 'blind'} hint: {len(times)} positions, mean "
              f"{1000 * statistics.mean(times):.1f} ms, median "
              f"{1000 * statistics.median(times):.1f} ms (process time)")


if __name__ == "__main__":
    main()
