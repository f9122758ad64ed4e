"""Numbered deals solved in the compiled kernel a run of them at a time: the kernel deals
each number itself (deals.layout says where its cards go) and hands back a record a
deal, so that a batch or a census spends its time searching, not building positions in
Python or replaying lines there (the kernel replays each line by the plain rules and
counts it in single cards, _kernel.cpp `single_card_length`). A deal's record is the
Solution `solve` answers for its position, its moves left out (`Solution.without_moves`):
the same search in the same budget, so the same verdict, length and statistics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solver.beleaguered import _kernel
from solver.beleaguered.deals import layout
from solver.beleaguered.native import rules_of
from solver.beleaguered.results import record
from solver.beleaguered.solve import Algorithm, Metric, Mode, Solution, search_kind
from solver.beleaguered.variant import SequenceMoves, Variant
from solver.budget import Budget, SearchStats, Status

if TYPE_CHECKING:
    from solver.beleaguered._kernel import Record  # the stub's: (status, moves, ...)

_STATUS = (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN)


def solutions(numbers: Sequence[int], variant: Variant, mode: Mode, budget: Budget,
              algorithm: Algorithm = Algorithm.ASTAR, metric: Metric = Metric.MOVES,
              slice_seconds: float = 0.0) -> list[Solution]:
    """The answers `solve` gives deals `numbers` of `variant` (each within `budget`),
    without their moves, in order: of all of them, or with `slice_seconds` of those the
    kernel decided within that many seconds, at least the first: a deal still searching
    then (but the first) is given up, so that each deal decided is heard of soon."""
    mode, metric = Mode(mode), Metric(metric)
    return [_solution(record, mode, metric) for record in _records(
        numbers, variant, mode, Algorithm(algorithm), budget, metric, slice_seconds)]


def solution(number: int, variant: Variant, mode: Mode, budget: Budget) -> Solution:
    """The answer `solve` gives deal `number` of `variant`, without its moves."""
    [found] = solutions([number], variant, mode, budget)
    return found


def _records(numbers: Sequence[int], variant: Variant, mode: Mode, algorithm: Algorithm,
             budget: Budget, metric: Metric, slice_seconds: float) -> list[Record]:
    sequences = metric is Metric.MOVES and variant.sequence_moves is not SequenceMoves.NONE
    return _kernel.solve_deals(
        list(numbers), layout(variant), rules_of(variant, sequences),
        search_kind(mode, algorithm), budget.seconds or 0.0, budget.nodes or 0,
        budget.table_entries or 0, budget.memory_bytes or 0, budget.stop, slice_seconds)


def _solution(record: Record, mode: Mode, metric: Metric) -> Solution:
    """A deal's record as `solve` answers it (solve._search), its moves left out."""
    status, length, cards, nodes, seconds, entries, table_bytes, lower = record
    stats = SearchStats(nodes, seconds, entries, table_bytes)
    if _STATUS[status] is Status.UNSOLVABLE:
        return Solution(Status.UNSOLVABLE, False, (), stats, metric=metric)
    if _STATUS[status] is not Status.SOLVED:
        return Solution(_STATUS[status], False, (), stats, lower, metric)
    optimal = mode is Mode.OPTIMAL and lower >= length  # else the anytime search's best
    return Solution(Status.SOLVED, optimal, (), stats, length if optimal else lower, metric,
                    cards, line_length=length)


def batch_lines(numbers: list[int], seconds: float, variant: Variant, mode: Mode,
                algorithm: Algorithm, metric: Metric, budget: Budget) -> list[dict[str, Any]]:
    """A batch's lines (results.record) of deals `numbers`, of those the kernel decides
    within `seconds` (0: all of them; at least the first)."""
    found = solutions(numbers, variant, mode, budget, algorithm, metric, seconds)
    return [record(number, solution)
            for number, solution in zip(numbers, found, strict=False)]
