"""Admissible lower bounds on the moves left, over the compact search state.

Cards are ints 0..51 (rank*4 + suit), so a card's suit is `c & 3` and its same-suit
neighbours are `c - 4` and `c + 4`.
"""

from __future__ import annotations

from functools import lru_cache

Pile = tuple[int, ...]


@lru_cache(maxsize=1 << 18)
def blocked_cards(pile: Pile) -> int:
    """Cards lying above a lower card of their own suit in the pile.

    Such a card cannot go home before that lower card, which cannot leave before it:
    it must first move elsewhere, so it needs at least two moves, not one.
    """
    lowest = [99, 99, 99, 99]
    blocked = 0
    for card in pile:
        suit = card & 3
        if lowest[suit] < card:
            blocked += 1
        else:
            lowest[suit] = card
    return blocked


def moves_left_bound(piles: tuple[Pile, ...], home: int) -> int:
    """One move per card not home, plus one per blocked card."""
    return 52 - home + sum(blocked_cards(pile) for pile in piles)
