"""Bots and self-play for Farbduell, to measure the hints: random, greedy (the dearest
playable card) and hint. Every bot acts on what its seat can see: the hint bot resamples
everything hidden from it before it searches."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from solver.farbduell.engine import Action, State, apply, new_game
from solver.farbduell.hints import hint
from solver.farbduell.policies import greedy_action, random_action
from solver.farbduell.tables import Table

BOTS = ("random", "greedy", "hint")
MAX_ACTIONS = 3000  # a game still running then counts as a draw


@dataclass(frozen=True)
class GameResult:
    seats: tuple[str, ...]
    winner: int | None       # the winning seat; None for a draw at MAX_ACTIONS
    actions: int
    hints: int               # actions the hint bot chose
    hint_seconds: float      # time it spent choosing them


def play_game(seats: tuple[str, ...], seed: int, table: Table) -> GameResult:
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

    state = new_game(table, len(seats), seed, first=0)
    actions = 0
    while state.winner is None and actions < MAX_ACTIONS:
        state = apply(state, choose(state, seats[state.to_move]))
        actions += 1
    return GameResult(seats, state.winner, actions, hints, hint_seconds)
