"""Iterative-deepening A*: optimal like A*, with memory capped by a bounded table.

The table keeps, per expanded position, the best lower bound learned on its remaining
cost and the iteration and g at which it was last expanded. Learned bounds prune
positions met again, across iterations (a subtree already shown to need more than the
bound is not searched again) and within one (a position reached again at equal or
greater cost is cut). A move back to a position on the current path contributes its
cost plus that position's bound, which keeps learned values admissible when the graph
has cycles.

Unsolvability is proven by closure: positions seen as children but never expanded
are remembered, and when none is left (and the table never dropped an entry), the
expanded positions are every position reachable, and none is a goal.
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
    table = BoundedTable(budget.table_entries)  # key -> (learned bound, iteration, g)
    unexpanded: set[Hashable] = set()
    path: list[M] = []
    on_path: set[Hashable] = set()
    goal_cost: list[int] = []
    iteration = 0

    def probe(state: S, key: Hashable, h: float, g: int, bound: int) -> float:
        """-1 when a goal is found (its steps on `path`), else a lower bound on f via it."""
        if problem.is_goal(state):
            goal_cost.append(g)
            return _FOUND
        meter.tick()
        table.put(key, (h, iteration, g))
        unexpanded.discard(key)
        children = []
        for step, child, cost in problem.successors(state):
            child_key = problem.key(child)
            entry = table.get(child_key, None)
            if entry is None:
                child_h, seen_at = problem.heuristic(child), math.inf
            else:
                child_h, stamp, seen_g = entry
                seen_at = seen_g if stamp == iteration else math.inf
            children.append((cost + child_h, cost, step, child, child_key, child_h, seen_at,
                             entry is None))
        children.sort(key=lambda c: c[0])
        on_path.add(key)
        learned = math.inf
        for estimate, cost, step, child, child_key, child_h, seen_at, new in children:
            if child_key in on_path or g + estimate > bound or seen_at <= g + cost:
                learned = min(learned, estimate)  # a cycle, over the bound, or done this round
                if new:
                    unexpanded.add(child_key)
                continue
            path.append(step)
            f = probe(child, child_key, child_h, g + cost, bound)
            if f == _FOUND:
                return _FOUND
            path.pop()
            learned = min(learned, f - g)
        on_path.discard(key)
        learned = max(learned, h)
        table.put(key, (learned, iteration, g))
        meter.check_table(len(unexpanded))
        return g + learned

    start = problem.start()
    start_key = problem.key(start)
    bound = problem.heuristic(start)
    try:
        while True:
            iteration += 1
            f = probe(start, start_key, bound, 0, bound)
            if f == _FOUND:
                return SearchResult(Status.SOLVED, tuple(path), goal_cost[0], True,
                                    meter.stats(len(table)))
            if f == math.inf or (not unexpanded and not table.dropped):
                return SearchResult(Status.UNSOLVABLE, (), None, False, meter.stats(len(table)))
            bound = max(bound + 1, int(f))
    except BudgetExhausted:
        return SearchResult(Status.UNKNOWN, (), None, False, meter.stats(len(table)))
