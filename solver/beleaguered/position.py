"""A position of Beleaguered Fortress or a variant of its family: tableau piles, open
reserve slots, free cells and 4 foundations, under the variant's rules.

Positions are immutable values; `to_json` writes the layout of the wire schema
(solver/beleaguered/schema.py), which `from_json` reads through the game's reader
(solver/beleaguered/reading.py), and `str()`/`parse()` give and read the same JSON as one
canonical line. A position is one whole deck: the constructor refuses any other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from solver.beleaguered.variant import Variant, beleaguered_fortress
from solver.cards import FULL_DECK, Card, Rank, Suit
from solver.errors import InvalidInput
from solver.json_text import json_of

NAME = "patience"  # the game, the "game" key of its positions' JSON
FORMER_NAME = "beleaguered-fortress"  # the game's name before 2026-12, read still
SUITS = tuple(Suit)


@dataclass(frozen=True)
class Position:
    tableau: tuple[tuple[Card, ...], ...]
    reserve: tuple[Card | None, ...]
    foundations: tuple[int, int, int, int]  # top rank per suit in order C D H S, 0 = empty
    cells: tuple[Card | None, ...] = ()  # free cells, None when empty; one per cell
    variant: Variant = field(default_factory=beleaguered_fortress)

    def __post_init__(self) -> None:
        problems = deck_faults(self.tableau, self.reserve, self.foundations, self.cells,
                               self.variant)
        if problems:
            raise InvalidInput(problems)

    def after_move(self, tableau: tuple[tuple[Card, ...], ...],
                   reserve: tuple[Card | None, ...], foundations: tuple[int, int, int, int],
                   cells: tuple[Card | None, ...]) -> Position:
        """The position one legal move makes of this valid one, which keeps every card
        once: not counted again, as replaying a solution makes one per move."""
        position = object.__new__(Position)
        object.__setattr__(position, "tableau", tableau)
        object.__setattr__(position, "reserve", reserve)
        object.__setattr__(position, "foundations", foundations)
        object.__setattr__(position, "cells", cells)
        object.__setattr__(position, "variant", self.variant)
        return position

    @property
    def is_won(self) -> bool:
        return all(top == Rank.KING for top in self.foundations)

    def foundation_top(self, suit: Suit) -> int:
        return self.foundations[suit.index]

    def cards_left(self) -> int:
        return 52 - sum(self.foundations)

    def to_json(self) -> dict[str, Any]:
        """The layout of the wire schema; a Beleaguered Fortress position is written as
        before variants were, without `variant` and `cells`."""
        data: dict[str, Any] = {"game": NAME}
        if self.variant.name != beleaguered_fortress().name:
            data["variant"] = self.variant.name
        data["tableau"] = [[str(card) for card in pile] for pile in self.tableau]
        if self.variant.reserve or self.reserve:
            data["reserve"] = [None if card is None else str(card) for card in self.reserve]
        if self.variant.cells:
            data["cells"] = [None if card is None else str(card) for card in self.cells]
        data["foundations"] = {str(suit): self.foundations[suit.index] for suit in SUITS}
        return data

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """A position from its JSON, every fault named (solver/beleaguered/reading.py)."""
        from solver.beleaguered.reading import read  # it builds Positions: import it late
        return read(data)

    def __str__(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def parse(cls, text: str) -> Position:
        return cls.from_json(json_of(text.encode(), "position"))


def deck_faults(
    tableau: tuple[tuple[Card, ...], ...],
    reserve: tuple[Card | None, ...],
    foundations: tuple[int, int, int, int],
    cells: tuple[Card | None, ...] = (),
    variant: Variant | None = None,
) -> list[str]:
    """Every way the cards fail to be one whole deck, or the shape fails the variant: the
    constructor's checks, which the reader adds to its own faults to name them all."""
    rules = variant or beleaguered_fortress()
    problems = []
    if len(tableau) != len(rules.piles):
        problems.append(f"tableau has {len(tableau)} piles, expected {len(rules.piles)}")
    if len(reserve) > rules.reserve:
        problems.append(f"reserve has {len(reserve)} slots, at most {rules.reserve} allowed")
    if len(cells) != rules.cells:
        problems.append(f"{rules.name} has {rules.cells} free cells, not {len(cells)}")
    copies = [0] * 52
    for pile in tableau:
        for card in pile:
            copies[card.index] += 1
    for held in (*reserve, *cells):
        if held is not None:
            copies[held.index] += 1
    for index, n in enumerate(copies):  # index = rank-1 << 2 | suit, see Card
        home = (index >> 2) < foundations[index & 3]
        if n == 1 and not home:
            continue
        card = FULL_DECK[index]
        if n > 1:
            problems.append(f"position holds {card} twice" if n == 2
                            else f"position holds {card} {n} times")
        if n and home:
            problems.append(f"{card} is in play but the {card.suit} foundation is built to "
                            f"{Rank(foundations[index & 3])}")
    missing = [str(FULL_DECK[i]) for i, n in enumerate(copies)
               if not n and (i >> 2) >= foundations[i & 3]]
    if missing:
        problems.append("position lacks " + " ".join(missing))
    return problems
