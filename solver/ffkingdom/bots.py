"""Bots and self-play, to measure the hints: random, greedy (one action ahead) and hint.

Every bot acts on what its seat can see: the greedy bot reads the board and its own
hand, the hint bot resamples everything hidden from it before it searches.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from solver.ffkingdom.actions import Action
from solver.ffkingdom.engine import apply, new_game
from solver.ffkingdom.hints import hint
from solver.ffkingdom.policies import greedy_action, random_action
from solver.ffkingdom.rules import Rules
from solver.ffkingdom.state import State
from solver.selfplay import seatings
from solver.selfplay import tally as count_wins

BOTS = ("random", "greedy", "hint")
MAX_ROUNDS = 300  # a game still running then counts as a draw (none has been seen)


@dataclass(frozen=True)
class GameResult:
    seats: tuple[str, str]   # the bot in seat 0 (which starts) and seat 1
    winner: int | None       # the winning seat; None for a draw at MAX_ROUNDS
    rounds: int
    hints: int               # actions the hint bot chose
    hint_seconds: float      # time it spent choosing them


def play_game(seats: tuple[str, str], seed: int, rules: Rules) -> GameResult:
    """One game from the deal of `seed`, seat 0 first."""
    for name in seats:
        if name not in BOTS:
            raise ValueError(f"no bot is called {name!r} (bots: {', '.join(BOTS)})")
    rng = random.Random(seed)
    hints = 0
    hint_seconds = 0.0

    def choose(state: State, name: str) -> Action:
        nonlocal hints, hint_seconds
        if name == "random":
            return random_action(state, rng)
        if name == "greedy":
            return greedy_action(state)
        started = time.perf_counter()
        answer = hint(state, seed=rng.getrandbits(32))
        hints += 1
        hint_seconds += time.perf_counter() - started
        return answer.action if answer.action is not None else greedy_action(state)

    state = new_game(rules, seed, first_player=0)
    while state.winner is None and state.round <= MAX_ROUNDS:
        state = apply(state, choose(state, seats[state.to_move]))
    return GameResult(seats, state.winner, state.round, hints, hint_seconds)


def pairing_games(bots: tuple[str, str], games: int,
                  seed: int) -> list[tuple[tuple[str, str], int]]:
    """(seats, deal seed) for each game (see solver.selfplay)."""
    return seatings(bots, games, seed)  # type: ignore[return-value]


def tally(results: list[GameResult], bots: tuple[str, str]) -> dict[str, int]:
    """Wins per bot, from the results in the order of `pairing_games`."""
    return count_wins(bots, [result.winner for result in results])
