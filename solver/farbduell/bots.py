"""Bots and self-play for Farbduell, to measure the hints: random, greedy (the dearest
playable card), hint, and hint-blind (the hint that forgets what its seat has seen or
deduced, for comparison). Every bot acts on what its seat knows: the hint bots resample
everything hidden from them before they search (around what the seat knows,
solver/farbduell/knowledge.py; hint-blind around nothing but its hand)."""

from __future__ import annotations

from dataclasses import dataclass

from solver.farbduell.data import Table
from solver.farbduell.hints import Settings, hint
from solver.farbduell.policies import greedy_action, random_action
from solver.farbduell.rules import apply, new_game
from solver.selfplay import BLIND, Bots
from solver.selfplay import BOTS as SHARED

BOTS = (*SHARED, BLIND)  # the shared three and the knowledge-blind hint
BLIND_HINT = Settings(knowing=False)
MAX_ACTIONS = 3000  # a game still running then counts as a draw


@dataclass(frozen=True)
class GameResult:
    seats: tuple[str, ...]
    winner: int | None       # the winning seat; None for a draw at MAX_ACTIONS
    actions: int
    hints: int               # actions the hint bots chose
    hint_seconds: float      # time they spent choosing them


def play_game(seats: tuple[str, ...], seed: int, table: Table) -> GameResult:
    """One game from the deal of `seed`, seat 0 first."""
    Bots.check(seats, BOTS)
    bots = Bots(seed, random_action, greedy_action,
                lambda state, seed: hint(state, seed=seed).action,
                lambda state, seed: hint(state, settings=BLIND_HINT, seed=seed).action)
    state = new_game(table, len(seats), seed, first=0)
    actions = 0
    while state.winner is None and actions < MAX_ACTIONS:
        state = apply(state, bots.choose(state, seats[state.to_move]))
        actions += 1
    return GameResult(seats, state.winner, actions, bots.hints, bots.hint_seconds)
