"""Deal numbers: deal N of a variant is deck N, by the variant's numbering, laid out by its
rules (docs/family-deals.md).

The "freecell" numbering, Beleaguered Fortress's own, is the Microsoft FreeCell shuffle of
seed N. The "pysol" numbering is PySolFC's game number N, so that a deal here can be
played and checked in PySolFC: PySolFC shuffles numbers below 32000 with that same
FreeCell shuffle and larger ones with Python's Mersenne Twister
(pysollib/pysolrandom.py, `construct_random`). Both are reproduced here rather than
taken from the pysol-cards package: a deal then costs tens of microseconds, and number
32000 comes out as PySolFC deals it (pysol-cards gives 32000 the FreeCell shuffle).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import islice
from typing import Any

from solver.beleaguered.position import Position
from solver.beleaguered.variant import Numbering, Variant, beleaguered_fortress
from solver.cards import FULL_DECK, Card
from solver.errors import OutOfRange

# The largest deal number of each numbering. The FreeCell shuffle keeps 31 bits of its
# seed (deal N + 2**31 would be deal N again). PySolFC numbers its games up to 10**20; the
# wire's deal numbers are int64, so the "pysol" numbering stops at int64's largest.
MAX_DEAL = 2**31 - 1  # Beleaguered Fortress's own numbering
MAX_DEALS = {Numbering.FREECELL: MAX_DEAL, Numbering.PYSOL: 2**63 - 1}
LARGEST_DEAL = max(MAX_DEALS.values())  # of any numbering: what a deal number may be
# each numbering's deal numbers, as a refusal says them to a person
NUMBERED = {Numbering.FREECELL: "1 to 2147483647 (2^31 - 1)", Numbering.PYSOL: "1 to 2^63 - 1"}
PYSOL_TWISTER_FROM = 32000  # PySolFC's first game number shuffled by the Mersenne Twister

# PySolFC's unshuffled deck: its suits in its order C S H D, each Ace to King.
_PYSOL_DECK = tuple(Card.from_index(rank * 4 + suit) for suit in (0, 3, 2, 1)
                    for rank in range(13))


def shuffled_deck(number: int, numbering: Numbering = Numbering.FREECELL) -> list[Card]:
    """The 52 cards in dealing order for deal `number`: by default the FreeCell LCG
    shuffle; with `Numbering.PYSOL`, the order PySolFC deals its game `number` from the
    talon, before any variant moves its aces."""
    if not _dealt(number, numbering):
        raise OutOfRange(f"deal number {number!r} is out of range: the {numbering} "
                         f"numbering's deals are {NUMBERED[numbering]}")
    if numbering == Numbering.PYSOL and number >= PYSOL_TWISTER_FROM:
        return _pysol_twister_deck(number)
    # PySolFC's LCG deals (below 32000) are this very order: it shuffles the same
    # rank-major deck by the same picks, filling its list from the end, and its talon
    # deals from the end.
    seed = number
    deck = list(FULL_DECK)  # in index order (rank - 1) * 4 + suit
    dealt = []
    while deck:
        seed = (seed * 214013 + 2531011) & 0x7FFFFFFF
        r = (seed >> 16) % len(deck)
        deck[r], deck[-1] = deck[-1], deck[r]
        dealt.append(deck.pop())
    return dealt


def _dealt(number: int, numbering: Numbering) -> bool:
    """Whether `number` is a deal number of `numbering`."""
    return (isinstance(number, int) and not isinstance(number, bool)
            and 1 <= number <= MAX_DEALS[numbering])


def numbered(variant: Variant) -> str:
    """The deal numbers of a variant, as a refusal says them: "FreeCell deals are
    numbered 1 to 2147483647 (2^31 - 1)"."""
    return f"{variant.title} deals are numbered {NUMBERED[variant.numbering]}"


def check_deals(first: int, last: int, variant: Variant | None = None) -> None:
    """OutOfRange unless first..last are deal numbers of `variant` (None: Beleaguered
    Fortress), in order."""
    rules = beleaguered_fortress() if variant is None else variant
    if first > last:
        raise OutOfRange(f"deal range {first}-{last} runs backwards")
    for number in (first, last):
        if not _dealt(number, rules.numbering):
            raise OutOfRange(f"deal range {first}-{last} is out of range: {numbered(rules)}")


def _pysol_twister_deck(number: int) -> list[Card]:
    """PySolFC's `RandomBase.shuffle` driven by `random.Random(number)`, read from the
    end as its talon deals (the last card of the list is the talon's top)."""
    import random  # only PySolFC's numbering draws from it: a command's start does without

    draw = random.Random(number).random  # a fresh generator: deals may run in threads
    cards = list(_PYSOL_DECK)
    for n in range(51, 0, -1):
        j = int(draw() * (n + 1))
        cards[n], cards[j] = cards[j], cards[n]
    cards.reverse()
    return cards


@lru_cache(maxsize=64)
def layout(variant: Variant) -> dict[str, Any]:
    """Where `deal` puts each card of the shuffled deck, for the kernel, which deals
    ranges of numbers itself (_kernel.cpp `deal_board`, held to `deal` by the tests): per
    card in dealing order (the aces left out when `aces_first`), the pile, then the
    reserve slot (after the piles), then the free cell (after those); what it does by the
    card's identity (the aces home first, a Citadel deal's cards home as they fit); and
    the first deal number of PySolFC's Twister (0: none in this numbering)."""
    piles = len(variant.piles)
    to = [pile for row in range(max(variant.piles))
          for pile, count in enumerate(variant.piles) if row < count]
    to += [piles + slot for slot in range(variant.reserve)]
    to += [piles + variant.reserve + cell for cell in variant.dealt_cells]
    return {"to": to, "reserve": variant.reserve, "aces_first": variant.aces_first,
            "citadel": variant.citadel_deal,
            "twister_from": PYSOL_TWISTER_FROM if variant.numbering == Numbering.PYSOL else 0}


@lru_cache(maxsize=256)
def deal(number: int, variant: Variant | None = None) -> Position:
    """Deal `number` of `variant` (None: Beleaguered Fortress), laid out by its rules;
    the last few dealt are kept, since a position is a value and a server is asked of
    the same deals again and again (a hint from its cache costs less than a deal).

    This is how PySolFC's `startGame` methods deal the family: the aces first to the
    foundations when `aces_first` (the other cards keep their order); then row by row, one
    card to each pile still short of its count, in pile order, a card that fits its
    foundation going there instead under `citadel_deal` (its slot is used up); then the
    reserve slots; then the free cells of `dealt_cells`, in that order.
    """
    rules = beleaguered_fortress() if variant is None else variant
    if not _dealt(number, rules.numbering):
        raise OutOfRange(f"deal {number!r} is out of range: {numbered(rules)}")
    cards = shuffled_deck(number, rules.numbering)
    tops = [0, 0, 0, 0]  # C D H S, as Card.index & 3
    if rules.aces_first:
        cards = [card for card in cards if card.index >= 4]  # index < 4: an ace
        tops = [1, 1, 1, 1]
    dealt = iter(cards)
    piles: list[list[Card]] = [[] for _ in rules.piles]
    for row in range(max(rules.piles)):
        for pile, count in zip(piles, rules.piles, strict=True):
            if row < count:
                card = next(dealt)
                suit, rank = card.index & 3, (card.index >> 2) + 1
                if rules.citadel_deal and tops[suit] == rank - 1:
                    tops[suit] = rank
                else:
                    pile.append(card)
    reserve = tuple(islice(dealt, rules.reserve))
    cells: list[Card | None] = [None] * rules.cells
    for cell, card in zip(rules.dealt_cells, dealt, strict=True):  # the variant's check
        cells[cell] = card
    return Position(tuple(tuple(pile) for pile in piles), reserve,
                    (tops[0], tops[1], tops[2], tops[3]), cells=tuple(cells), variant=rules)
