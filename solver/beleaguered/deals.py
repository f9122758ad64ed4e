"""Deal numbers: deal N is the Microsoft FreeCell shuffle of N laid out for this game."""

from __future__ import annotations

from solver.beleaguered.position import Position
from solver.beleaguered.schema import PILES
from solver.cards import Card
from solver.errors import OutOfRange

MAX_DEAL = 2**31 - 1


def shuffled_deck(number: int) -> list[Card]:
    """The 52 cards in dealing order for deal `number` (the FreeCell LCG shuffle)."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_DEAL:
        raise OutOfRange(f"deal number {number!r} is out of range 1..{MAX_DEAL}")
    seed = number
    deck = list(range(52))
    dealt = []
    while deck:
        seed = (seed * 214013 + 2531011) & 0x7FFFFFFF
        r = (seed >> 16) % len(deck)
        deck[r], deck[-1] = deck[-1], deck[r]
        dealt.append(Card.from_index(deck.pop()))
    return dealt


def deal(number: int) -> Position:
    """First 40 cards row by row into the 8 piles (bottom to top), last 12 into the reserve."""
    cards = shuffled_deck(number)
    tableau = tuple(tuple(cards[k:40:PILES]) for k in range(PILES))
    return Position(tableau, tuple(cards[40:]), (0, 0, 0, 0))
