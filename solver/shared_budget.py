"""One budget for a whole question, however many searches it runs one after another.

A question that runs several searches (a hint and then the grading of every move, a
census line's verdict and then its optimal solve, a puzzle's forced win and then its
fewest actions) keeps to the one budget it was given: each search has what the ones
before it left, never the budget whole again.
"""

from __future__ import annotations

import time
from dataclasses import replace

from solver.budget import Budget, SearchStats


class SharedBudget:
    """A budget spent by a question's parts one after another: each part runs within
    what those before it left, its seconds counted from this one's making and its nodes
    from every part's together. Table entries, memory and the stop bound each part as
    they are."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.started = time.perf_counter()
        self.nodes = 0

    @classmethod
    def begun(cls, budget: Budget, seconds: float) -> SharedBudget:
        """One whose first part began `seconds` ago, before this was made (a search of a
        range of deals, run in the kernel)."""
        shared = cls(budget)
        shared.started -= seconds
        return shared

    def spend(self, stats: SearchStats) -> None:
        """A part has ended, having spent `stats`."""
        self.nodes += stats.nodes

    def left(self) -> Budget | None:
        """What the next part may spend; None when the seconds or the nodes are gone, or
        the stop says so: the part is then not started, and what it would have answered
        is unknown."""
        budget = self.budget
        seconds = None if budget.seconds is None else budget.seconds - self.elapsed()
        nodes = None if budget.nodes is None else budget.nodes - self.nodes
        if ((seconds is not None and seconds <= 0) or (nodes is not None and nodes <= 0)
                or (budget.stop is not None and budget.stop())):
            return None
        return replace(budget, seconds=seconds, nodes=nodes)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


def one_after_another(first: SearchStats, then: SearchStats) -> SearchStats:
    """What two searches run one after the other spent: their nodes and seconds
    together, the larger of their tables; the first's line, if it found one, else the
    second's, found that much later."""
    line = first.line_seconds
    if line is None and then.line_seconds is not None:
        line = first.seconds + then.line_seconds
    return SearchStats(first.nodes + then.nodes, first.seconds + then.seconds,
                       max(first.table_entries, then.table_entries),
                       max(first.table_bytes, then.table_bytes), line)
