"""A Beleaguered Fortress position: 8 tableau piles, 12 reserve slots, 4 foundations.

Positions are immutable values; `to_json` writes the layout of the wire schema
(solver/beleaguered/schema.py), which `from_json` reads through the game's reader
(solver/beleaguered/reading.py), and `str()`/`parse()` give and read the same JSON as one
canonical line. A position is one whole deck: the constructor refuses any other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from solver.beleaguered.schema import NAME, PILES, RESERVE_SLOTS
from solver.cards import FULL_DECK, Card, Rank, Suit
from solver.errors import InvalidInput

SUITS = tuple(Suit)


@dataclass(frozen=True)
class Position:
    tableau: tuple[tuple[Card, ...], ...]
    reserve: tuple[Card | None, ...]
    foundations: tuple[int, int, int, int]  # top rank per suit in order C D H S, 0 = empty

    def __post_init__(self) -> None:
        problems = deck_faults(self.tableau, self.reserve, self.foundations)
        if problems:
            raise InvalidInput(problems)

    @classmethod
    def after_move(cls, tableau: tuple[tuple[Card, ...], ...], reserve: tuple[Card | None, ...],
                   foundations: tuple[int, int, int, int]) -> Position:
        """A position made from a valid one by one legal move, which keeps every card
        once: not counted again, as replaying a solution makes one per move."""
        position = object.__new__(cls)
        object.__setattr__(position, "tableau", tableau)
        object.__setattr__(position, "reserve", reserve)
        object.__setattr__(position, "foundations", foundations)
        return position

    @property
    def is_won(self) -> bool:
        return all(top == Rank.KING for top in self.foundations)

    def foundation_top(self, suit: Suit) -> int:
        return self.foundations[suit.index]

    def cards_left(self) -> int:
        return 52 - sum(self.foundations)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "tableau": [[str(card) for card in pile] for pile in self.tableau],
            "reserve": [None if card is None else str(card) for card in self.reserve],
            "foundations": {str(suit): self.foundations[suit.index] for suit in SUITS},
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """A position from its JSON, every fault named (solver/beleaguered/reading.py)."""
        from solver.beleaguered.reading import read  # it builds Positions: import it late
        return read(data)

    def __str__(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def parse(cls, text: str) -> Position:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise InvalidInput(f"position is not valid JSON: {err}") from None
        return cls.from_json(data)


def deck_faults(
    tableau: tuple[tuple[Card, ...], ...],
    reserve: tuple[Card | None, ...],
    foundations: tuple[int, int, int, int],
) -> list[str]:
    """Every way the cards fail to be one whole deck, or the shape fails the game: the
    constructor's checks, which the reader adds to its own faults to name them all."""
    problems = []
    if len(tableau) != PILES:
        problems.append(f"tableau has {len(tableau)} piles, expected {PILES}")
    if len(reserve) > RESERVE_SLOTS:
        problems.append(f"reserve has {len(reserve)} slots, at most {RESERVE_SLOTS} allowed")
    copies = [0] * 52
    for pile in tableau:
        for card in pile:
            copies[card.index] += 1
    for held in reserve:
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
