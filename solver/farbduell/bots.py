"""Bots and self-play for Farbduell, to measure the hints: random, greedy (the dearest
playable card) and hint. Every bot acts on what its seat can see: the hint bot resamples
everything hidden from it before it searches."""

from __future__ import annotations

from dataclasses import dataclass

from solver.farbduell.hints import hint
from solver.farbduell.policies import greedy_action, random_action
from solver.farbduell.rules import apply, new_game
from solver.farbduell.tables import Table
from solver.selfplay import BOTS as BOTS  # the game's bots are the shared three
from solver.selfplay import Bots

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
    Bots.check(seats)
    bots = Bots(seed, random_action, greedy_action,
                lambda state, seed: hint(state, seed=seed).action)
    state = new_game(table, len(seats), seed, first=0)
    actions = 0
    while state.winner is None and actions < MAX_ACTIONS:
        state = apply(state, bots.choose(state, seats[state.to_move]))
        actions += 1
    return GameResult(seats, state.winner, actions, bots.hints, bots.hint_seconds)
