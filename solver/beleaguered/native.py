"""The compiled search kernel (`_kernel.cpp`), the engine `solve` takes when it is built.

The kernel plays the same game as `problem.py` with the same pruning and the same
bound, searched by the same algorithms (it may break ties between equal
positions in another order, so `any` mode can find another line); it takes the
position and its variant's rules as they are and hands back its moves, the opening
moves home first. Free cells are interchangeable to it, so a move's cell is numbered
here, by replaying the moves: into the first empty cell, out of the one that holds it.
"""

from __future__ import annotations

from solver.beleaguered import _kernel
from solver.beleaguered.position import Position
from solver.beleaguered.rules import CELL, FOUNDATION, RESERVE, TABLEAU, Move, place
from solver.beleaguered.variant import Variant
from solver.budget import Budget, SearchStats, Status
from solver.cards import Card

_STATUS = (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN)
_HOME = -1
_CELL = -2
_FOUNDATION = -3


def rules_of(variant: Variant, sequences: bool = False) -> dict[str, int | str | bool]:
    """The variant's play as the kernel reads it, by field name in the rules file's words;
    `sequences`: built runs move as one."""
    return {"piles": len(variant.piles), "cells": variant.cells, "build": variant.build.value,
            "empty": variant.empty.value, "worrying_back": variant.worrying_back,
            "sequence_moves": sequences}


def search(position: Position, kind: str, budget: Budget,
           sequences: bool = False) -> tuple[Status, tuple[Move, ...], SearchStats, int]:
    """`kind` is "greedy" (best-first), "astar" or "idastar" (both optimal), or
    "anytime" or "anytime_idastar" (optimal, answering the best line found when the budget
    stops them: one longer than the lower bound is not proven optimal); with the moves, a
    proven lower bound on the length of any winning line, and in the stats when the line
    was found. `sequences`: a built run moves from pile to pile as one move (the variant
    must allow it). The budget's memory bounds the kernel's tables: "astar" or "anytime"
    whose tables fill it goes on as IDA*. With the budget's `disk`, a search its memory
    stops goes on on disk, breadth-first (a line it finds is not proven shortest)."""
    disk = budget.disk
    status, moves, nodes, entries, seconds, table_bytes, lower, line_seconds, _ = _kernel.solve(
        [[card.index for card in pile] for pile in position.tableau],
        [-1 if card is None else card.index for card in position.reserve],
        [-1 if card is None else card.index for card in position.cells],
        list(position.foundations), rules_of(position.variant, sequences), kind,
        budget.seconds or 0.0, budget.nodes or 0, budget.table_entries or 0,
        budget.memory_bytes or 0, budget.stop, "" if disk is None else disk.directory,
        0 if disk is None else disk.budget_bytes)
    return (_STATUS[status], _numbered(position, moves),
            SearchStats(nodes, seconds, entries, table_bytes,
                        line_seconds if status == 0 else None), lower)


def _numbered(position: Position, moves: list[tuple[int, int, int]]) -> tuple[Move, ...]:
    """The kernel's moves with their places: piles and reserve slots as it numbers them,
    cells by replaying which cell holds which card."""
    piles = len(position.tableau)
    cells = list(position.cells)
    numbered = []
    for index, source, target in moves:
        card = Card.from_index(index)
        if source == _CELL:
            slot = cells.index(card)
            cells[slot] = None
            where = place(CELL, slot)
        elif source == _FOUNDATION:
            where = place(FOUNDATION)
        elif source >= piles:
            where = place(RESERVE, source - piles)
        else:
            where = place(TABLEAU, source)
        if target == _CELL:
            slot = cells.index(None)
            cells[slot] = card
            to = place(CELL, slot)
        else:
            to = place(FOUNDATION) if target == _HOME else place(TABLEAU, target)
        numbered.append(Move(card, where, to))
    return tuple(numbered)
