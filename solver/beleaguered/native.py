"""The compiled search kernel (`_kernel.cpp`) behind `solve(..., engine=Engine.NATIVE)`.

The kernel plays the same game as `problem.py` with the same pruning and the same
bound, searched by the same three algorithms (it may break ties between equal
positions in another order, so `any` mode can find another line); it takes the
position as it is and hands back its numbered moves, the opening moves home first.
"""

from __future__ import annotations

from solver.beleaguered import _kernel
from solver.beleaguered.position import Position
from solver.beleaguered.rules import FOUNDATION, RESERVE, TABLEAU, Location, Move
from solver.beleaguered.schema import PILES, RESERVE_SLOTS
from solver.budget import Budget, SearchStats, Status
from solver.cards import Card

_STATUS = (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN)
# the kernel's places: piles 0..7, then reserve slots; -1 is the foundation
_PLACES = tuple([Location(TABLEAU, i) for i in range(PILES)]
                + [Location(RESERVE, slot) for slot in range(RESERVE_SLOTS)]
                + [Location(FOUNDATION)])


def search(position: Position, kind: str,
           budget: Budget) -> tuple[Status, tuple[Move, ...], SearchStats]:
    """`kind` is "greedy" (best-first), "astar" or "idastar" (both optimal)."""
    status, moves, nodes, entries, seconds, _ = _kernel.solve(
        [[card.index for card in pile] for pile in position.tableau],
        [-1 if card is None else card.index for card in position.reserve],
        list(position.foundations), kind,
        budget.seconds or 0.0, budget.nodes or 0, budget.table_entries or 0, budget.stop)
    return (_STATUS[status],
            tuple(Move(Card.from_index(card), _PLACES[source], _PLACES[target])
                  for card, source, target in moves),
            SearchStats(nodes, seconds, entries))
