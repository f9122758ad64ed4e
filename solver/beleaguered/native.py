"""The compiled search kernel (`_kernel.cpp`) behind the generic searches' result type.

It searches the same problem as `FortressProblem` with the same moves, pruning and
bound; the Python problem still gives it its start (the opening moves home) and turns
its steps back into numbered moves.
"""

from __future__ import annotations

from solver.beleaguered import _kernel
from solver.beleaguered.problem import FortressProblem, Step
from solver.budget import Budget, SearchStats, Status
from solver.search.problem import SearchResult

_STATUS = (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN)
KINDS = ("greedy", "astar", "idastar")


def search(problem: FortressProblem, kind: str, budget: Budget) -> SearchResult[Step]:
    """`kind` is one of KINDS: greedy best-first, A* or IDA* (the last two optimal)."""
    state = problem.start()
    status, steps, cost, nodes, entries, seconds, _ = _kernel.search(
        [list(pile) for pile in state.piles], state.reserve, list(state.home), kind,
        budget.seconds or 0.0, budget.nodes or 0, budget.table_entries or 0, budget.stop)
    verdict = _STATUS[status]
    optimal = verdict is Status.SOLVED and kind != "greedy"
    return SearchResult(verdict, steps, cost, optimal, SearchStats(nodes, seconds, entries))
