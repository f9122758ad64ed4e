"""Time random Fortress Fight Kingdom playouts: games from fixed seeds, both players the
random policy, in playouts and actions per second (the median of several repeats over
the same games, each repeat timed on its own), by the clock and by the process's CPU time
(steadier when other work shares the cores).

    .venv/bin/python -m bench.bench_ffk_playouts [--games 200] [--repeat 5] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import time

from solver.ffkingdom import CardTable, apply, load_cards, new_game
from solver.ffkingdom.bots import MAX_ROUNDS
from solver.ffkingdom.policies import random_action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per repeat")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--profile", action="store_true",
                        help="profile one repeat instead, and print the costliest calls")
    args = parser.parse_args()
    rules = load_cards()
    if args.profile:
        profile(rules, args.games, args.seed)
        return
    playouts(rules, 10, args.seed)  # warm up
    runs = [playouts(rules, args.games, args.seed) for _ in range(args.repeat)]
    actions = runs[0][2]
    wall = statistics.median(seconds for seconds, _, _ in runs)
    cpu = statistics.median(seconds for _, seconds, _ in runs)
    print(f"random playouts: {args.games / wall:.1f} playouts/s, {actions / wall:.0f} "
          f"actions/s (CPU time: {args.games / cpu:.1f} playouts/s); median of "
          f"{args.repeat} repeats of {args.games} games, seeds {args.seed}.."
          f"{args.seed + args.games - 1}, {actions / args.games:.1f} actions a game")


def playouts(rules: CardTable, games: int, seed: int) -> tuple[float, float, int]:
    """Seconds by the clock and of CPU time, and actions, for `games` random games from
    consecutive seeds."""
    actions = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for deal in range(seed, seed + games):
        state = new_game(rules, deal, first_player=0)
        rng = random.Random(deal)
        while state.winner is None and state.round <= MAX_ROUNDS:
            state = apply(state, random_action(state, rng))
            actions += 1
    return time.perf_counter() - started, time.process_time() - cpu_started, actions


def profile(rules: CardTable, games: int, seed: int) -> None:
    profiler = cProfile.Profile()
    profiler.runcall(playouts, rules, games, seed)
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(25)
    stats.sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
