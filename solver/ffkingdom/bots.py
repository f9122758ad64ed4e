"""Bots and self-play, to measure the hints: random, greedy (one action ahead), hint, and
hint-blind (the hint that forgets what it was shown or deduced, for comparison).

Every bot acts on what its seat can see: the greedy bot reads the board and its own
hand, the hint bots resample everything hidden from them before they search (around
what the seat knows, solver/ffkingdom/knowledge.py; hint-blind around nothing).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.ffkingdom.data import CardTable
from solver.ffkingdom.hints import Settings, hint
from solver.ffkingdom.policies import greedy_action, random_action
from solver.ffkingdom.rules import apply, new_game
from solver.selfplay import BLIND, Bots, seatings
from solver.selfplay import BOTS as SHARED
from solver.selfplay import tally as count_wins

BOTS = (*SHARED, BLIND)  # the shared three and the knowledge-blind hint
BLIND_HINT = Settings(knowing=False)
MAX_ROUNDS = 300  # a game still running then counts as a draw (none has been seen)


@dataclass(frozen=True)
class GameResult:
    seats: tuple[str, str]   # the bot in seat 0 (which starts) and seat 1
    winner: int | None       # the winning seat; None for a draw at MAX_ROUNDS
    rounds: int
    hints: int               # actions the hint bot chose
    hint_seconds: float      # time it spent choosing them


def play_game(seats: tuple[str, str], seed: int, rules: CardTable) -> GameResult:
    """One game from the deal of `seed`, seat 0 first."""
    Bots.check(seats, BOTS)
    bots = Bots(seed, random_action, greedy_action,
                lambda state, seed: hint(state, seed=seed).action,
                lambda state, seed: hint(state, settings=BLIND_HINT, seed=seed).action)
    state = new_game(rules, seed, first_player=0)
    while state.winner is None and state.round <= MAX_ROUNDS:
        state = apply(state, bots.choose(state, seats[state.to_move]))
    return GameResult(seats, state.winner, state.round, bots.hints, bots.hint_seconds)


def pairing_games(bots: tuple[str, str], games: int,
                  seed: int) -> list[tuple[tuple[str, str], int]]:
    """(seats, deal seed) for each game (see solver.selfplay)."""
    return seatings(bots, games, seed)  # type: ignore[return-value]


def tally(results: list[GameResult], bots: tuple[str, str]) -> dict[str, int]:
    """Wins per bot, from the results in the order of `pairing_games`."""
    return count_wins(bots, [result.winner for result in results])
