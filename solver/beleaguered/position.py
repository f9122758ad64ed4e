"""A Beleaguered Fortress position: 8 tableau piles, 12 reserve slots, 4 foundations.

Positions are immutable values; `to_json`/`from_json` use the layout of the wire schema
(solver/beleaguered/wire.py) and `str()`/`parse()` give and read the same JSON as one
canonical line. The reader checks what the schema publishes, field by field, in the
game's words ("tableau:2: 'XX' is not a card", "position holds 7H twice"); what holds more
than the game has (piles, slots, cards) is counted before any card is read.
"""

from __future__ import annotations

import json
from collections.abc import Sequence, Sized
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from solver.beleaguered.wire import (
    GAME,
    MAX_CARDS,
    MAX_SUIT_KEYS,
    MAX_TEXT,
    PILES,
    RESERVE_SLOTS,
)
from solver.cards import FULL_DECK, Card, Rank, Suit
from solver.errors import InvalidInput
from solver.reading import MAX_UNKNOWN_KEYS

SUITS = tuple(Suit)
FIELDS = ("game", "tableau", "reserve", "foundations")
MAX_FIELDS = len(FIELDS) + MAX_UNKNOWN_KEYS


@dataclass(frozen=True)
class Position:
    tableau: tuple[tuple[Card, ...], ...]
    reserve: tuple[Card | None, ...]
    foundations: tuple[int, int, int, int]  # top rank per suit in order C D H S, 0 = empty

    def __post_init__(self) -> None:
        problems = _problems(self.tableau, self.reserve, self.foundations)
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
            "game": GAME,
            "tableau": [[str(card) for card in pile] for pile in self.tableau],
            "reserve": [None if card is None else str(card) for card in self.reserve],
            "foundations": {str(suit): self.foundations[suit.index] for suit in SUITS},
        }

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read a position, listing every fault at once (bad cards, duplicates, gaps, ...);
        more cards than the deck's are refused by their count alone, before any is read."""
        if not isinstance(data, dict):
            raise InvalidInput("a position must be a JSON object")
        if len(data) > MAX_FIELDS:
            raise InvalidInput(f"position has {len(data)} fields, at most {MAX_FIELDS}")
        problems: list[str] = []
        unknown = sorted(set(data) - set(FIELDS))
        problems += [f"unknown field {_shown(name)}" for name in unknown]
        if data.get("game", GAME) != GAME:
            problems.append(f"game is {_shown(data['game'])}, expected {GAME!r}")
        sent_piles = _piles(data.get("tableau"), problems)
        sent_slots = _slots(data.get("reserve", []), problems)
        problems += shape_faults(len(sent_piles or ()), len(sent_slots))
        piles = None if sent_piles is None else sent_piles[:PILES]
        slots = sent_slots[:RESERVE_SLOTS]
        too_big = oversized(piles or (), sum(text is not None for text in slots))
        if too_big:
            raise InvalidInput(problems + too_big)
        tableau = _read_tableau(piles, problems)
        reserve = tuple(None if text is None else _read_card(text, f"reserve:{slot}", problems)
                        for slot, text in enumerate(slots))
        foundations = _read_foundations(data.get("foundations"), tableau, reserve, problems)
        if problems:  # add what the readable cards get wrong, so every fault shows at once
            if tableau:
                problems += _problems(tableau, reserve[:RESERVE_SLOTS], foundations)
            raise InvalidInput(problems)
        return cls(tableau, reserve, foundations)

    def __str__(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def parse(cls, text: str) -> Position:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise InvalidInput(f"position is not valid JSON: {err}") from None
        return cls.from_json(data)


def shape_faults(piles: int, slots: int) -> list[str]:
    """More piles or reserve slots than the game has; only the first PILES piles and
    RESERVE_SLOTS slots are read."""
    faults = []
    if piles > PILES:
        faults.append(f"tableau has {piles} piles, at most {PILES} allowed")
    if slots > RESERVE_SLOTS:
        faults.append(f"reserve has {slots} slots, at most {RESERVE_SLOTS} allowed")
    return faults


def oversized(piles: Sequence[Sized], held: int) -> list[str]:
    """Each pile that holds more cards than the deck, or else the position, when the
    piles and the `held` reserve cards do: counted before any card is read, so that a
    pile of 200,000 cards is refused at the cost of one of 52."""
    faults = [f"tableau:{i} holds {len(pile)} cards, at most {MAX_CARDS}"
              for i, pile in enumerate(piles) if len(pile) > MAX_CARDS]
    total = sum(len(pile) for pile in piles) + held
    if not faults and total > MAX_CARDS:
        faults.append(f"position holds {total} cards, at most {MAX_CARDS}")
    return faults


def _shown(value: Any) -> str:
    """A value as a fault quotes it, cut short: a fault is one short line."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _read_card(text: Any, where: str, problems: list[str]) -> Card | None:
    """The card `text` names, or None and a fault; a text longer than any card's is not
    parsed."""
    if isinstance(text, str) and len(text) <= MAX_TEXT:
        with suppress(ValueError):
            return Card.parse(text)
    problems.append(f"{where}: {_shown(text)} is not a card")
    return None


def _suit(name: Any) -> Suit | None:
    """The suit a foundations key names, or None; a key longer than any suit's is not
    parsed."""
    if isinstance(name, str) and len(name) <= MAX_TEXT:
        with suppress(ValueError):
            return Suit.parse(name)
    return None


def _piles(raw: Any, problems: list[str]) -> list[Any] | None:
    """The tableau's piles, each a list, or None (and a fault) when it has none."""
    if raw is None:
        problems.append("tableau is missing")
        return None
    if not isinstance(raw, list) or not all(isinstance(pile, list) for pile in raw[:PILES]):
        problems.append("tableau must be a list of piles, each a list of cards")
        return None
    return raw


def _slots(raw: Any, problems: list[str]) -> list[Any]:
    """The reserve's slots, or none (and a fault) when it is not a list."""
    if not isinstance(raw, list):
        problems.append("reserve must be a list of cards or nulls")
        return []
    return raw


def _read_tableau(piles: list[list[Any]] | None,
                  problems: list[str]) -> tuple[tuple[Card, ...], ...]:
    if piles is None:
        return ()
    tableau = []
    for i, pile in enumerate(piles):
        cards = (_read_card(text, f"tableau:{i}", problems) for text in pile)
        tableau.append(tuple(card for card in cards if card is not None))
    tableau += [()] * (PILES - len(tableau))  # missing piles are empty piles
    return tuple(tableau)


def _read_foundations(
    raw: Any,
    tableau: tuple[tuple[Card, ...], ...],
    reserve: tuple[Card | None, ...],
    problems: list[str],
) -> tuple[int, int, int, int]:
    """Read the foundations, or infer them from the cards not in play when omitted."""
    if raw is None:
        in_play = {card for pile in tableau for card in pile} | set(reserve)
        tops = []
        for suit in SUITS:
            top = 0
            while top < 13 and Card(Rank(top + 1), suit) not in in_play:
                top += 1
            tops.append(top)
        return tuple(tops)  # type: ignore[return-value]
    if not isinstance(raw, dict):
        problems.append('foundations must be an object like {"C": 0, "D": 3, "H": 0, "S": 1}')
        return (0, 0, 0, 0)
    if len(raw) > MAX_SUIT_KEYS:
        problems.append(f"foundations has {len(raw)} keys, at most {MAX_SUIT_KEYS}")
        return (0, 0, 0, 0)
    tops = [0, 0, 0, 0]
    for name, top in raw.items():
        named = _suit(name)
        if named is None:
            problems.append(f"foundations: {_shown(name)} is not a suit")
            continue
        if isinstance(top, bool) or not isinstance(top, int) or not 0 <= top <= 13:
            problems.append(f"foundation {named}: {_shown(top)} is not a rank count 0..13")
            continue
        tops[named.index] = top
    return tuple(tops)  # type: ignore[return-value]


def _problems(
    tableau: tuple[tuple[Card, ...], ...],
    reserve: tuple[Card | None, ...],
    foundations: tuple[int, int, int, int],
) -> list[str]:
    """Every way the cards fail to be one whole deck, or the shape fails the game."""
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
