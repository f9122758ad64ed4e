"""Sequence moves written out as single-card moves, the way a player (or a program that
knows only single-card moves) makes them: up to (empty cells + 1) cards go through the
free cells; more park their top part on an empty pile, move the rest with one pile
fewer, then bring the parked part over, again with one pile fewer. Of the ways to split
a run the one with the fewest single-card moves is taken, so a line's
`single_card_moves` is the length of the line written out here.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from solver.beleaguered.position import Position
from solver.beleaguered.rules import CELL, TABLEAU, Location, Move, apply
from solver.beleaguered.variant import Fill


@cache
def supermove(count: int, cells: int, empty: int) -> int:
    """Fewest single-card moves that carry `count` cards with `cells` empty cells and
    `empty` empty piles (the target aside); ValueError when they cannot."""
    if count <= cells + 1:
        return 2 * count - 1
    if count > (cells + 1) << empty:
        raise ValueError(f"{count} cards cannot move with {cells} free cells and "
                         f"{empty} empty piles")
    top = _split(count, cells, empty)
    return 2 * supermove(top, cells, empty - 1) + supermove(count - top, cells, empty - 1)


def _split(count: int, cells: int, empty: int) -> int:
    """How many of `count` cards the cheapest way parks on its first empty pile."""
    half = (cells + 1) << (empty - 1)  # what one pile fewer can carry
    return min(range(max(1, count - half), min(half, count - 1) + 1),
               key=lambda top: 2 * supermove(top, cells, empty - 1)
               + supermove(count - top, cells, empty - 1))


def single_cards(position: Position, move: Move) -> tuple[Move, ...]:
    """`move` as single-card moves (itself when it moves one card)."""
    pile = position.tableau[move.source.index or 0] if move.source.kind == TABLEAU else ()
    if move.target.kind != TABLEAU or move.card not in pile or pile[-1] == move.card:
        return (move,)
    count = len(pile) - pile.index(move.card)
    target = move.target.index or 0
    empty = ([k for k, cards in enumerate(position.tableau) if not cards and k != target]
             if position.variant.empty is Fill.ANY else [])
    moves: list[Move] = []
    _carry(position, count, move.source, move.target, empty, moves)
    return tuple(moves)


def _carry(position: Position, count: int, source: Location, target: Location,
           empty: list[int], moves: list[Move]) -> Position:
    """Carries the top `count` cards of pile `source` onto pile `target`, appending the
    single-card moves to `moves`; the position after them."""
    cells = [Location(CELL, k) for k, card in enumerate(position.cells) if card is None]
    supermove(count, len(cells), len(empty))  # refuses a run too long for the room
    if count <= len(cells) + 1:
        parked = cells[:count - 1]
        for cell in parked:
            position = _play(position, source, cell, moves)
        position = _play(position, source, target, moves)
        for cell in reversed(parked):
            position = _play(position, cell, target, moves)
        return position
    top = _split(count, len(cells), len(empty))
    park, rest = Location(TABLEAU, empty[0]), empty[1:]
    position = _carry(position, top, source, park, rest, moves)
    position = _carry(position, count - top, source, target, rest, moves)
    return _carry(position, top, park, target, rest, moves)


def _play(position: Position, source: Location, target: Location,
          moves: list[Move]) -> Position:
    """The top card of `source` (a pile or a cell) to `target`."""
    if source.kind == TABLEAU:
        card = position.tableau[source.index or 0][-1]
    else:
        held = position.cells[source.index or 0]
        assert held is not None, "a cell the carry filled"
        card = held
    moves.append(Move(card, source, target))
    return apply(position, moves[-1])


def written_out(position: Position, line: Iterable[Move]) -> tuple[Move, ...]:
    """A whole line in single-card moves; IllegalMove where a move breaks the rules."""
    moves: list[Move] = []
    for move in line:
        moves += single_cards(position, move)
        position = apply(position, move)
    return tuple(moves)


def single_card_length(position: Position, line: Iterable[Move]) -> int:
    """How many single-card moves `line` is, written out."""
    return len(written_out(position, line))
