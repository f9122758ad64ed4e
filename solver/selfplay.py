"""Self-play bookkeeping shared by the games: who sits where, and who won how often.

Two bots meet over many games. They swap seats every game and each deal is played twice,
once from each side, so that neither bot has the better cards; with more seats than
bots, the two alternate around the table.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

S = TypeVar("S")
A = TypeVar("A")


def seatings(bots: tuple[str, str], games: int, seed: int,
             players: int = 2) -> list[tuple[tuple[str, ...], int]]:
    """(the bot in each seat, deal seed) for each game."""
    return [(tuple(bots[(g + k) % 2] for k in range(players)), seed + g // 2)
            for g in range(games)]


def tally(bots: tuple[str, str], winners: list[int | None]) -> dict[str, int]:
    """Wins per bot from the winning seat of each game, in the order of `seatings`; two
    copies of one bot count as `name` and `name-2`."""
    names = bots if bots[0] != bots[1] else (bots[0], f"{bots[1]}-2")
    wins = dict.fromkeys(names, 0)
    for g, seat in enumerate(winners):
        if seat is not None:
            wins[names[(g + seat) % 2]] += 1
    return wins


BOTS = ("random", "greedy", "hint")
BLIND = "hint-blind"  # a game's hint that forgets what it was shown, beside its hint


class Bots(Generic[S, A]):
    """A game's three bots (four with `blind_hint`: BLIND), choosing for the seat to move,
    with the hint bots' time kept.

    `hint` (and `blind_hint`) answers a state and a seed with an action, or None when out
    of budget (the greedy choice is then played)."""

    def __init__(self, seed: int, random_action: Callable[[S, random.Random], A],
                 greedy_action: Callable[[S], A], hint: Callable[[S, int], A | None],
                 blind_hint: Callable[[S, int], A | None] | None = None) -> None:
        self.rng = random.Random(seed)
        self.random_action = random_action
        self.greedy_action = greedy_action
        self.hint = hint
        self.blind_hint = blind_hint
        self.hints = 0
        self.hint_seconds = 0.0

    @staticmethod
    def check(seats: Sequence[str], names: Sequence[str] = BOTS) -> None:
        for name in seats:
            if name not in names:
                raise ValueError(f"no bot is called {name!r} (bots: {', '.join(names)})")

    def choose(self, state: S, name: str) -> A:
        if name == "random":
            return self.random_action(state, self.rng)
        if name == "greedy":
            return self.greedy_action(state)
        hint = self.blind_hint if name == BLIND and self.blind_hint is not None else self.hint
        started = time.perf_counter()
        action = hint(state, self.rng.getrandbits(32))
        self.hints += 1
        self.hint_seconds += time.perf_counter() - started
        return action if action is not None else self.greedy_action(state)
