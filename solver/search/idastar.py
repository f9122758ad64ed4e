"""Iterative-deepening A*: optimal like A*, with memory capped by a bounded table.

The table keeps, per position, the best lower bound learned on its remaining cost
(the least f its subtree showed past the bound). That bound is admissible, so it
prunes positions met again later in an iteration (a transposition reached at equal
or greater cost is cut at once) and across iterations (a subtree already shown to
need more than the bound is not searched again). A move back to a position on the
current path contributes its cost plus that position's bound, which keeps learned
values admissible when the graph has cycles.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

from solver.budget import Budget, BudgetExhausted, Meter, Status
from solver.search.problem import M, Problem, S, SearchResult
from solver.search.table import BoundedTable

_FOUND = -1.0


def idastar(problem: Problem[S, M], budget: Budget) -> SearchResult[M]:
    meter = Meter(budget)
    table = BoundedTable(budget.table_entries)
    path: list[M] = []
    on_path: set[Hashable] = set()
    goal_cost: list[int] = []

    def probe(state: S, key: Hashable, h: float, g: int, bound: int) -> float:
        """-1 when a goal is found (its steps on `path`), else a lower bound on f via `state`."""
        if problem.is_goal(state):
            goal_cost.append(g)
            return _FOUND
        meter.tick()
        children = []
        for step, child, cost in problem.successors(state):
            child_key = problem.key(child)
            child_h = table.get(child_key, -1)
            if child_h < 0:
                child_h = problem.heuristic(child)
            children.append((cost + child_h, cost, step, child, child_key, child_h))
        children.sort(key=lambda c: c[0])
        on_path.add(key)
        learned = math.inf
        for estimate, cost, step, child, child_key, child_h in children:
            if g + estimate > bound or child_key in on_path:
                learned = min(learned, estimate)
                continue
            path.append(step)
            f = probe(child, child_key, child_h, g + cost, bound)
            if f == _FOUND:
                return _FOUND
            path.pop()
            learned = min(learned, f - g)
        on_path.discard(key)
        learned = max(learned, h)
        table.put(key, learned)
        meter.check_table(0)
        return g + learned

    start = problem.start()
    start_key = problem.key(start)
    bound = problem.heuristic(start)
    try:
        while True:
            f = probe(start, start_key, table.get(start_key, bound), 0, bound)
            if f == _FOUND:
                return SearchResult(Status.SOLVED, tuple(path), goal_cost[0], True,
                                    meter.stats(len(table)))
            if f == math.inf:
                return SearchResult(Status.UNSOLVABLE, (), None, False, meter.stats(len(table)))
            bound = int(f)
    except BudgetExhausted:
        return SearchResult(Status.UNKNOWN, (), None, False, meter.stats(len(table)))
