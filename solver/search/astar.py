"""Best-first searches with a closed set keyed by canonical position.

`astar` proves optimality (admissible heuristic; entries are reopened when a cheaper
path appears, so consistency is not required). `greedy` orders by heuristic alone:
the fastest route to any solution, or to a proof that the reachable space holds none.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from dataclasses import replace
from itertools import count
from typing import cast

from solver.budget import Budget, BudgetExhausted, Meter, Status
from solver.search.problem import M, Problem, S, SearchResult

# key -> (g, parent key, step); the start has neither parent nor step
_Parents = dict[Hashable, tuple[int, Hashable, M | None]]


def astar(problem: Problem[S, M], budget: Budget) -> SearchResult[M]:
    return _best_first(problem, budget, optimal=True)


def greedy(problem: Problem[S, M], budget: Budget) -> SearchResult[M]:
    return _best_first(problem, budget, optimal=False)


def _best_first(problem: Problem[S, M], budget: Budget, optimal: bool) -> SearchResult[M]:
    meter = Meter(budget)
    start = problem.start()
    start_key = problem.key(start)
    seen: _Parents[M] = {start_key: (0, None, None)}
    tie = count()
    h = problem.heuristic(start)
    frontier = [(h, h, next(tie), 0, start, start_key)]
    try:
        while frontier:
            _, _, _, g, state, key = heapq.heappop(frontier)
            if seen[key][0] < g:
                continue  # a cheaper path to this position was queued later
            if problem.is_goal(state):
                steps = _path(seen, key)
                stats = replace(meter.stats(len(seen)), line_seconds=meter.elapsed())
                return SearchResult(Status.SOLVED, steps, g, optimal, stats)
            meter.tick()
            for step, child, cost in problem.successors(state):
                child_key = problem.key(child)
                child_g = g + cost
                known = seen.get(child_key)
                if known is not None and (known[0] <= child_g or not optimal):
                    continue
                seen[child_key] = (child_g, key, step)
                meter.check_table(len(seen))
                h = problem.heuristic(child)
                priority = child_g + h if optimal else h
                heapq.heappush(frontier, (priority, h, next(tie), child_g, child, child_key))
    except BudgetExhausted:
        return SearchResult(Status.UNKNOWN, (), None, False, meter.stats(len(seen)))
    return SearchResult(Status.UNSOLVABLE, (), None, False, meter.stats(len(seen)))


def _path(seen: _Parents[M], key: Hashable) -> tuple[M, ...]:
    steps: list[M] = []
    _, parent, step = seen[key]
    while parent is not None:
        steps.append(cast(M, step))  # every position but the start has a step
        _, parent, step = seen[parent]
    return tuple(reversed(steps))
