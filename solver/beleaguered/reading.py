"""Reading the JSON of a position of Beleaguered Fortress's family: the wire schema
(shape, types and lengths, solver/beleaguered/schema.py), then the variant's checks, every
fault named at once.

After the schema the cards in all are counted, so that no more than a deck's are read;
then each text is read as a card (any spelling `Card.parse` reads: "10" for T, suit
symbols, lower case, spaces), missing piles are empty ones, and omitted foundations are
inferred from the cards not in play; last, the cards plus the foundations must make one
whole deck. A text that is no card is named with its place in the game's notation
("tableau:3: 'XX' is not a card"), and the deck's faults of the cards that could be read
are named beside it.
"""

from __future__ import annotations

from typing import Any

from solver.beleaguered.position import Position, deck_faults
from solver.beleaguered.schema import MAX_CARDS, PositionSchema
from solver.beleaguered.variant import MAX_CELLS, MAX_PILES, MAX_RESERVE, Variant, find_variant
from solver.cards import FULL_DECK, Card, Suit
from solver.errors import InvalidInput
from solver.reading import check

# The texts positions are written in ("TS", as `to_json` and deals write them), read by a
# look-up: parsing each card was most of a read's time. Other spellings are parsed.
_WRITTEN = {str(card): card for card in FULL_DECK}


def read(data: Any, variant: Variant | None = None) -> Position:
    """The position of a JSON value, or InvalidInput naming every fault. Its `variant`
    key names its rules (absent: `variant`, or else beleaguered-fortress); a position
    that names another variant than `variant` is refused."""
    most = places(data.get("variant") if isinstance(data, dict) else None, variant)
    wire = check(PositionSchema, data, most)
    rules = _variant(wire.variant, variant)
    for field, given in (("tableau", len(wire.tableau)), ("reserve", len(wire.reserve)),
                         ("cells", len(wire.cells))):
        if given > most[field]:  # worded as the schema's faults: its bound, for this variant
            raise InvalidInput(f"{field}: has {given} items, at most {most[field]}")
    held = (sum(map(len, wire.tableau)) + sum(text is not None for text in wire.reserve)
            + sum(text is not None for text in wire.cells))
    if held > MAX_CARDS:
        raise InvalidInput(f"position holds {held} cards, at most {MAX_CARDS}")
    problems: list[str] = []
    tableau = tuple(_pile(texts, f"tableau:{i}", problems)
                    for i, texts in enumerate(wire.tableau))
    tableau += ((),) * (len(rules.piles) - len(tableau))  # missing piles are empty piles
    reserve = tuple(None if text is None else _card(text, f"reserve:{slot}", problems)
                    for slot, text in enumerate(wire.reserve))
    cells = tuple(None if text is None else _card(text, f"cell:{slot}", problems)
                  for slot, text in enumerate(wire.cells))
    cells += (None,) * (rules.cells - len(cells))  # missing cells are empty cells
    if wire.foundations is None:
        foundations = _inferred(tableau, reserve + cells)
    else:
        foundations = _foundations(wire.foundations, problems)
    if problems:  # add what the readable cards get wrong, so every fault shows at once
        raise InvalidInput(problems + deck_faults(tableau, reserve, foundations, cells, rules))
    return Position(tableau, reserve, foundations, cells, rules)


def places(named: Any, variant: Variant | None) -> dict[str, int]:
    """The most piles, reserve slots and cells a position may hold, by its field: those
    of its variant (the one it names, else `variant`, else the default). The schema
    bounds them by what any variant has; a fault says the variant's count all the same
    (FreeCell's 9 cells, as its 5, "at most 4"). A position that names no variant known,
    or another than `variant`, has the schema's bounds: that fault is named besides."""
    wire = {"tableau": MAX_PILES, "reserve": MAX_RESERVE, "cells": MAX_CELLS}
    if named is not None and not isinstance(named, str):
        return wire
    try:
        rules = _variant(named, variant)
    except InvalidInput:
        return wire
    return {"tableau": len(rules.piles), "reserve": rules.reserve, "cells": rules.cells}


def _variant(named: str | None, expected: Variant | None) -> Variant:
    """The variant a position names, which must be the one expected of it, if any."""
    if named is None:
        return expected or find_variant(None)
    if expected is not None and named != expected.name:
        raise InvalidInput(f"this is a {named} position, not {expected.name}: give "
                           f"--variant {named}, or a {expected.name} position")
    return expected or find_variant(named)


def _pile(texts: list[str], where: str, problems: list[str]) -> tuple[Card, ...]:
    """The cards of a pile's texts that are cards; each other is a fault."""
    cards = (_card(text, where, problems) for text in texts)
    return tuple(card for card in cards if card is not None)


def _card(text: str, where: str, problems: list[str]) -> Card | None:
    """The card `text` names, or None and a fault."""
    card = _WRITTEN.get(text)
    if card is not None:
        return card
    try:
        return Card.parse(text)
    except ValueError:
        problems.append(f"{where}: {_shown(text)} is not a card")
        return None


def _foundations(tops: dict[str, int], problems: list[str]) -> tuple[int, int, int, int]:
    """The top of each suit named (others are empty); a key that is no suit is a fault."""
    named = [0, 0, 0, 0]
    for name, top in tops.items():
        try:
            named[Suit.parse(name).index] = top
        except ValueError:
            problems.append(f"foundations: {_shown(name)} is not a suit")
    return named[0], named[1], named[2], named[3]


def _inferred(tableau: tuple[tuple[Card, ...], ...],
              reserve: tuple[Card | None, ...]) -> tuple[int, int, int, int]:
    """Each suit's foundation when omitted: the cards from its Ace up that are not in play."""
    in_play = {card.index for pile in tableau for card in pile}
    in_play.update(card.index for card in reserve if card is not None)
    tops = [0, 0, 0, 0]
    for suit in range(4):  # a card's index is (rank - 1) * 4 + its suit's, see Card
        while tops[suit] < 13 and tops[suit] * 4 + suit not in in_play:
            tops[suit] += 1
    return tops[0], tops[1], tops[2], tops[3]


def _shown(value: str) -> str:
    """A text as a fault quotes it, cut short: a fault is one short line."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
