"""Small Beleaguered Fortress positions for checking the pruned solver against the plain rules:
a deal near its end, and the top ranks scattered at random."""

from __future__ import annotations

import random

from solver.beleaguered import Position, deal
from solver.cards import Card, Rank, Suit

SUITS = tuple(Suit)


def endgame(number: int, cards_left: int, rng: random.Random) -> Position:
    """Deal `number` with all but `cards_left` cards already home, the rest where dealt."""
    heights = [13, 13, 13, 13]
    for _ in range(cards_left):
        suit = rng.choice([s for s in range(4) if heights[s] > 0])
        heights[suit] -= 1
    home = {Card(Rank(r), SUITS[s]) for s in range(4) for r in range(1, heights[s] + 1)}
    start = deal(number)
    tableau = tuple(tuple(c for c in pile if c not in home) for pile in start.tableau)
    reserve = tuple(None if c in home else c for c in start.reserve)
    return Position(tableau, reserve, tuple(heights))  # type: ignore[arg-type]


def scattered(cards_left: int, rng: random.Random) -> Position:
    """The top `cards_left` ranks spread at random over piles and reserve."""
    heights = [13, 13, 13, 13]
    for _ in range(cards_left):
        suit = rng.choice([s for s in range(4) if heights[s] > 0])
        heights[suit] -= 1
    cards = [Card(Rank(r), SUITS[s]) for s in range(4) for r in range(heights[s] + 1, 14)]
    rng.shuffle(cards)
    in_reserve = rng.randint(0, min(4, len(cards)))
    reserve = tuple(cards[:in_reserve]) + (None,) * rng.randint(0, 3)
    piles: list[list[Card]] = [[] for _ in range(8)]
    for card in cards[in_reserve:]:
        piles[rng.randrange(rng.randint(3, 8))].append(card)
    return Position(tuple(map(tuple, piles)), reserve, tuple(heights))  # type: ignore[arg-type]
