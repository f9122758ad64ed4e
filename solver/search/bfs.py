"""Breadth-first search: the plain reference that optimal searches are checked against."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable

from solver.budget import Budget, BudgetExhausted, Meter, Status
from solver.search.problem import M, Problem, S, SearchResult


def breadth_first(problem: Problem[S, M], budget: Budget,
                  costly_nodes: bool = False) -> SearchResult[M]:
    """Shortest solution by move count, ignoring the heuristic; assumes unit step costs.
    `costly_nodes`: the clock is read at every node (see Meter), for problems whose
    successors take long to make."""
    meter = Meter(budget, costly_nodes)
    start = problem.start()
    parents: dict[Hashable, tuple[Hashable, M] | None] = {problem.key(start): None}
    layer = deque([(start, problem.key(start), 0)])
    try:
        while layer:
            state, key, depth = layer.popleft()
            if problem.is_goal(state):
                steps: list[M] = []
                while (parent := parents[key]) is not None:
                    key, step = parent
                    steps.append(step)
                steps.reverse()
                return SearchResult(Status.SOLVED, tuple(steps), depth, True,
                                    meter.stats(len(parents)))
            meter.tick()
            for step, child, cost in problem.successors(state):
                if cost != 1:
                    raise ValueError("breadth_first needs unit step costs")
                child_key = problem.key(child)
                if child_key not in parents:
                    parents[child_key] = (key, step)
                    layer.append((child, child_key, depth + 1))
                    meter.check_table(len(parents))  # a node may have millions of children
    except BudgetExhausted:
        return SearchResult(Status.UNKNOWN, (), None, False, meter.stats(len(parents)))
    return SearchResult(Status.UNSOLVABLE, (), None, False, meter.stats(len(parents)))
