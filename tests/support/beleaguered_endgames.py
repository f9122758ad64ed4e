"""Small positions of Beleaguered Fortress (or a variant of its family) for checking the
pruned solver against the plain rules: a deal near its end, and the top ranks scattered
at random over the piles, reserve and free cells."""

from __future__ import annotations

import random

from solver.beleaguered import Position, deal
from solver.beleaguered.variant import Variant, beleaguered_fortress
from solver.cards import Card, Rank, Suit

SUITS = tuple(Suit)


def _heights(cards_left: int, rng: random.Random) -> list[int]:
    """Foundation tops per suit with `cards_left` cards in all above them."""
    heights = [13, 13, 13, 13]
    for _ in range(cards_left):
        suit = rng.choice([s for s in range(4) if heights[s] > 0])
        heights[suit] -= 1
    return heights


def endgame(number: int, cards_left: int, rng: random.Random,
            variant: Variant | None = None) -> Position:
    """Deal `number` (of `variant`, None: Beleaguered Fortress) with all but about
    `cards_left` cards already home, the rest where dealt (a deal that put cards home
    keeps them there, which can leave fewer)."""
    heights = _heights(cards_left, rng)
    start = deal(number) if variant is None else deal(number, variant)
    heights = [max(height, top) for height, top in zip(heights, start.foundations, strict=True)]
    home = {Card(Rank(r), SUITS[s]) for s in range(4) for r in range(1, heights[s] + 1)}
    tableau = tuple(tuple(c for c in pile if c not in home) for pile in start.tableau)
    reserve = tuple(None if c in home else c for c in start.reserve)
    cells = tuple(None if c is None or c in home else c for c in start.cells)
    return Position(tableau, reserve, tuple(heights),  # type: ignore[arg-type]
                    cells=cells, variant=start.variant)


def scattered(cards_left: int, rng: random.Random, variant: Variant | None = None) -> Position:
    """The top `cards_left` ranks spread at random over piles, reserve and free cells, as
    many of each as `variant` (None: Beleaguered Fortress) has. For Beleaguered Fortress
    the same seed gives the same position whether or not `variant` is given."""
    rules = beleaguered_fortress() if variant is None else variant
    heights = _heights(cards_left, rng)
    cards = [Card(Rank(r), SUITS[s]) for s in range(4) for r in range(heights[s] + 1, 14)]
    rng.shuffle(cards)
    in_reserve = rng.randint(0, min(4, len(cards), rules.reserve))
    reserve = tuple(cards[:in_reserve]) + (None,) * rng.randint(
        0, min(3, rules.reserve - in_reserve))
    cells: list[Card | None] = [None] * rules.cells
    in_cells = rng.randint(0, min(rules.cells, len(cards) - in_reserve)) if rules.cells else 0
    for card, cell in zip(cards[in_reserve:in_reserve + in_cells],
                          rng.sample(range(rules.cells), in_cells), strict=True):
        cells[cell] = card
    n = len(rules.piles)
    piles: list[list[Card]] = [[] for _ in range(n)]
    for card in cards[in_reserve + in_cells:]:
        piles[rng.randrange(rng.randint(min(3, n), n))].append(card)
    return Position(tuple(map(tuple, piles)), reserve, tuple(heights),  # type: ignore[arg-type]
                    cells=tuple(cells), variant=rules)
