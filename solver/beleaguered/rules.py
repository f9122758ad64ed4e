"""Moves of Beleaguered Fortress's family and the rules that say which are legal.

This module is the plain reading of the rules, kept simple so it can be trusted:
every solution is replayed through it, and the exhaustive reference search uses it.
What differs between variants (how piles build, what fills an empty pile, free cells,
worrying back, sequence moves) is read from the position's variant, never from its name.

A move names one card. Where the variant allows sequence moves, a move from a pile to a
pile may name a card below the pile's top: that card and the built run on it move
together, as one move (`7H tableau:2 tableau:5` moves 7H and every card above it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from solver.beleaguered.position import SUITS, Position
from solver.beleaguered.variant import Build, Fill, SequenceMoves, Variant
from solver.cards import Card, Rank
from solver.errors import IllegalMove, InvalidInput

TABLEAU = "tableau"
RESERVE = "reserve"
CELL = "cell"
FOUNDATION = "foundation"


@dataclass(frozen=True)
class Location:
    """`tableau:<pile>`, `reserve:<slot>`, `cell:<cell>` (0-based) or `foundation`."""

    kind: str
    index: int | None = None

    def __str__(self) -> str:
        return self.kind if self.index is None else f"{self.kind}:{self.index}"

    def __reduce__(self) -> tuple[Callable[[str, int | None], Location],
                                  tuple[str, int | None]]:
        return place, (self.kind, self.index)  # a line's places, pickled as their fields

    @classmethod
    def parse(cls, text: Any) -> Location:
        match = re.fullmatch(r"(tableau|reserve|cell):([0-9]{1,3})|(foundation)",
                             str(text).strip().lower())
        if not isinstance(text, str) or match is None:
            raise InvalidInput(f"{str(text)[:40]!r} is not a location (tableau:<pile>, "
                               "reserve:<slot>, cell:<cell> or foundation)")
        if match.group(3):
            return cls(FOUNDATION)
        return cls(match.group(1), int(match.group(2)))


_STEP = re.compile(r"^\s*[0-9]+\.\s")  # "  12. ", a step's number as `solve` prints it


@cache
def place(kind: str, index: int | None = None) -> Location:
    """The one Location of each place: the moves of a line share them, so that a line
    pickled (on its way from a worker) holds each place once, not twice a move."""
    return Location(kind, index)


@dataclass(frozen=True)
class Move:
    """One card from one place to another, with the run on it when it is not its pile's
    top (a sequence move); `str()` reads like `7H tableau:2 foundation`."""

    card: Card
    source: Location
    target: Location

    def __str__(self) -> str:
        return f"{self.card} {self.source} {self.target}"

    def __reduce__(self) -> tuple[type[Move], tuple[Card, Location, Location]]:
        return Move, (self.card, self.source, self.target)  # a line's moves, as fields

    @classmethod
    def parse(cls, text: str) -> Move:
        """`7H tableau:2 foundation`, and the move as the project prints it elsewhere: with
        an arrow to its target (`->` as `solve` prints it, `→` as the playground does),
        after its step number (`12.`)."""
        parts = _STEP.sub("", text).replace("->", " ").replace("→", " ").split()
        if len(parts) != 3:
            raise InvalidInput(f"{text!r} is not a move (card source target), such as "
                               "'7H tableau:2 foundation' or 'AS reserve:8 -> foundation'")
        return cls(_card(parts[0]), Location.parse(parts[1]), Location.parse(parts[2]))

    def to_json(self) -> dict[str, str]:
        return {"card": str(self.card), "from": str(self.source), "to": str(self.target)}

    @classmethod
    def from_json(cls, data: Any) -> Move:
        """The JSON `to_json` writes, or the RPCs' (`source` and `target` for `from` and
        `to`)."""
        keys = set(data) if isinstance(data, dict) else set()
        for source, target in (("from", "to"), ("source", "target")):
            if {"card", source, target} <= keys:
                return cls(_card(data["card"]), Location.parse(data[source]),
                           Location.parse(data[target]))
        raise InvalidInput(f"{str(data)[:80]!r} is not a move: expected card, from and to "
                           "(or card, source and target)")


def _card(text: Any) -> Card:
    try:
        return Card.parse(text)
    except ValueError as err:
        raise InvalidInput(str(err)) from None


def builds_on(rule: Build, card: Card, top: Card) -> bool:
    """Whether `card` may go onto a pile whose top card is `top`."""
    if rule is Build.SAME_SUIT_UP_OR_DOWN:
        return top.suit == card.suit and abs(top.rank - card.rank) == 1
    if top.rank != card.rank + 1:
        return False
    if rule is Build.SAME_SUIT_DOWN:
        return top.suit == card.suit
    if rule is Build.ALTERNATE_COLOURS_DOWN:
        return top.suit.is_red != card.suit.is_red
    return True  # any suit down


def accepts(pile: Sequence[Card], card: Card, variant: Variant) -> bool:
    """Whether a tableau pile takes `card`: its top by the build rule, or, when empty, by
    what may fill an empty pile."""
    if pile:
        return builds_on(variant.build, card, pile[-1])
    return variant.empty is Fill.ANY or (variant.empty is Fill.KINGS and card.rank == Rank.KING)


def is_built(run: Sequence[Card], variant: Variant) -> bool:
    """Whether each card of `run` (bottom to top) builds on the one below it."""
    return all(builds_on(variant.build, card, below)
               for below, card in zip(run, run[1:], strict=False))


def capacity(position: Position, to_empty: bool) -> int:
    """How many cards one move from pile to pile may carry: one without sequence moves;
    with them, as many as the empty cells and empty piles could carry one card at a time,
    (empty cells + 1) x 2^(empty piles), an empty target pile not counted; where only
    kings (or nothing) may fill an empty pile, it cannot hold the run's other cards, so
    empty cells + 1."""
    if position.variant.sequence_moves is SequenceMoves.NONE:
        return 1
    carried = 1 + sum(card is None for card in position.cells)
    if position.variant.empty is not Fill.ANY:
        return carried
    empty = sum(not pile for pile in position.tableau) - to_empty
    return carried << max(empty, 0)


def can_go_home(position: Position, card: Card) -> bool:
    return position.foundation_top(card.suit) == card.rank - 1


def movable_cards(position: Position) -> Iterable[tuple[Card, Location]]:
    """Every card that may move now: pile tops, all reserve and cell cards, and the
    foundation tops where worrying back is allowed."""
    for i, pile in enumerate(position.tableau):
        if pile:
            yield pile[-1], Location(TABLEAU, i)
    for slot, card in enumerate(position.reserve):
        if card is not None:
            yield card, Location(RESERVE, slot)
    for slot, card in enumerate(position.cells):
        if card is not None:
            yield card, Location(CELL, slot)
    if position.variant.worrying_back:
        for suit_index, top in enumerate(position.foundations):
            if top:
                yield Card(Rank(top), SUITS[suit_index]), Location(FOUNDATION)


def legal_moves(position: Position) -> list[Move]:
    """Every legal move; into free cells only the first empty one, as the others are the
    same move under another number."""
    moves = []
    free_cell = next((Location(CELL, k) for k, card in enumerate(position.cells)
                      if card is None), None)
    for card, source in movable_cards(position):
        if source.kind != FOUNDATION and can_go_home(position, card):
            moves.append(Move(card, source, Location(FOUNDATION)))
        for i, pile in enumerate(position.tableau):
            if source != Location(TABLEAU, i) and accepts(pile, card, position.variant):
                moves.append(Move(card, source, Location(TABLEAU, i)))
        if free_cell is not None and source.kind in (TABLEAU, RESERVE):
            moves.append(Move(card, source, free_cell))
    return moves + _sequence_moves(position)


def _sequence_moves(position: Position) -> list[Move]:
    """The moves of two or more cards, from pile to pile."""
    if position.variant.sequence_moves is SequenceMoves.NONE:
        return []
    moves = []
    for i, pile in enumerate(position.tableau):
        for depth in range(2, len(pile) + 1):
            if not is_built(pile[-depth:], position.variant):
                break
            for j, other in enumerate(position.tableau):
                if (j != i and accepts(other, pile[-depth], position.variant)
                        and depth <= capacity(position, not other)):
                    moves.append(Move(pile[-depth], Location(TABLEAU, i), Location(TABLEAU, j)))
    return moves


def apply(position: Position, move: Move) -> Position:
    """The position after `move`; IllegalMove names the rule it breaks."""
    card, source, target = move.card, move.source, move.target
    tableau = list(position.tableau)
    reserve = list(position.reserve)
    cells = list(position.cells)
    foundations = list(position.foundations)
    run: tuple[Card, ...] = (card,)
    if source.kind == TABLEAU:
        if (source.index is None or not 0 <= source.index < len(tableau)
                or not tableau[source.index]):
            raise IllegalMove(f"{move}: {source} has no card")
        pile = tableau[source.index]
        if pile[-1] != card:
            run = _run(position, move, pile)
        tableau[source.index] = pile[:-len(run)]
    elif source.kind in (RESERVE, CELL):
        held = reserve if source.kind == RESERVE else cells
        if source.index is None or not 0 <= source.index < len(held) or held[source.index] != card:
            raise IllegalMove(f"{move}: {card} is not in {source}")
        held[source.index] = None
    else:
        if not position.variant.worrying_back:
            raise IllegalMove(f"{move}: in {position.variant.name} a card never leaves "
                              "its foundation")
        if foundations[card.suit.index] != card.rank:
            raise IllegalMove(f"{move}: {card} is not the top of its foundation")
        foundations[card.suit.index] -= 1
    if target.kind == FOUNDATION:
        if source.kind == FOUNDATION or foundations[card.suit.index] != card.rank - 1:
            raise IllegalMove(f"{move}: {card} does not follow its foundation's top")
        foundations[card.suit.index] += 1
    elif target.kind == TABLEAU:
        if target.index is None or not 0 <= target.index < len(tableau) or target == source:
            raise IllegalMove(f"{move}: {target} is not another tableau pile")
        if not accepts(tableau[target.index], card, position.variant):
            raise IllegalMove(f"{move}: {target} does not accept {card}")
        if len(run) > capacity(position, not tableau[target.index]):
            raise IllegalMove(f"{move}: a run of {len(run)} cards, but the empty cells and "
                              f"piles carry {capacity(position, not tableau[target.index])}")
        tableau[target.index] = tableau[target.index] + run
    elif target.kind == CELL:
        if target.index is None or not 0 <= target.index < len(cells):
            raise IllegalMove(f"{move}: {position.variant.name} has no {target}")
        if cells[target.index] is not None or source.kind == FOUNDATION:
            raise IllegalMove(f"{move}: {target} is not an empty cell"
                              if cells[target.index] is not None
                              else f"{move}: a foundation card goes back to the tableau only")
        cells[target.index] = card
    else:
        raise IllegalMove(f"{move}: nothing may be put into the reserve")
    return position.after_move(tuple(tableau), tuple(reserve),
                               tuple(foundations), tuple(cells))  # type: ignore[arg-type]


def _run(position: Position, move: Move, pile: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards a move of `move.card`, below its pile's top, carries; IllegalMove unless
    the variant has sequence moves, the card is in the pile, the cards on it are built
    on it, and the move goes to a pile."""
    if position.variant.sequence_moves is SequenceMoves.NONE:
        raise IllegalMove(f"{move}: {move.card} is not the top of {move.source}")
    if move.card not in pile:
        raise IllegalMove(f"{move}: {move.card} is not in {move.source}")
    run = pile[pile.index(move.card):]
    if move.target.kind != TABLEAU:
        raise IllegalMove(f"{move}: {move.card} is not the top of {move.source} (a run "
                          "moves only to another pile)")
    if not is_built(run, position.variant):
        raise IllegalMove(f"{move}: the {len(run)} cards from {move.card} up are not a "
                          "built run")
    return run


def replay(position: Position, moves: Iterable[Move]) -> Position:
    """Apply `moves` in turn; raises IllegalMove at the first one the rules refuse."""
    for move in moves:
        position = apply(position, move)
    return position
