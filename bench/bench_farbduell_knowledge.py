"""What the Farbduell hint gains from what the mover knows, where it knows something: two-
player positions just after the draw pile ran out (every card a player does not see is
then in the opponent's hand; reached by greedy play from seeded deals), each played on
twice by the hint against the knowledge-blind hint, seats swapped. Over whole games the
two differ only in the few that come this far (solver/farbduell/knowledge.py).

    .venv/bin/python -m bench.bench_farbduell_knowledge [--positions 100] [--table classic]
"""

from __future__ import annotations

import argparse
import random
import time

from service.arguments import add_progress, progress_bar
from solver.farbduell.data import Table, default_tables
from solver.farbduell.hints import Settings, hint
from solver.farbduell.policies import greedy_action
from solver.farbduell.position import Position
from solver.farbduell.rules import apply, new_game
from solver.intervals import wilson_interval

MAX_ACTIONS = 3000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100, help="positions, two games each")
    parser.add_argument("--table", choices=sorted(default_tables()), default="classic")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    add_progress(parser)
    args = parser.parse_args()
    starts, tried = emptied(default_tables()[args.table], args.positions, args.seed)
    print(f"{len(starts)} positions with the draw pile run out, from {tried} deals of greedy "
          "play")
    rng = random.Random(args.seed)
    won, hints, spent = 0, 0, 0.0
    games = [(start, seat) for start in starts for seat in (0, 1)]
    for start, knowing in progress_bar(games, total=len(games), unit="game",
                                       forced=args.progress):
        state, actions = start, 0
        while state.winner is None and actions < MAX_ACTIONS:
            settings = Settings(knowing=state.to_move == knowing)
            started = time.perf_counter()
            action = hint(state, settings=settings, seed=rng.getrandbits(32)).action
            spent += time.perf_counter() - started
            hints += 1
            state = apply(state, action or greedy_action(state))
            actions += 1
        won += state.winner == knowing
    low, high = wilson_interval(won, len(games))
    print(f"hint vs hint-blind: {won} - {len(games) - won} of {len(games)} games "
          f"({won / len(games):.1%}, 95 % interval {low:.1%}-{high:.1%}); "
          f"{spent / max(hints, 1) * 1000:.1f} ms per hint")


def emptied(table: Table, count: int, seed: int) -> tuple[list[Position], int]:
    """Positions of two-player greedy games the moment their draw pile is empty, game
    not over; and how many deals it took."""
    found: list[Position] = []
    tried = 0
    while len(found) < count:
        state = new_game(table, 2, seed + tried, first=0)
        tried += 1
        while state.winner is None and state.draw_pile:
            state = apply(state, greedy_action(state))
        if state.winner is None:
            found.append(state)
    return found, tried


if __name__ == "__main__":
    main()
