"""Verdicts by flares: one greedy best-first search under several orders, each given a
share of nodes in turn, the shares growing fourfold a round, until one finds a goal or
proves there is none (each flare alone is complete: it closes every position it reaches).

An order that leads one start astray leads another straight to a goal, so taking turns
cuts off the long tail any one order has; a start with no goal costs at most a few times
one exhaustive search. The line found is any length: this is the fastest route to a
verdict, not to a short line. The orders are the game's (`Order`: a state and the cost
of its path to a number, lowest first); this module knows no game.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Callable, Hashable, Sequence
from itertools import count
from typing import cast

from solver.budget import Budget, BudgetExhausted, Meter, Status
from solver.search.problem import M, Problem, S, SearchResult

Order = Callable[[S, int], int]  # (state, cost so far) -> priority, lowest first
FIRST_SHARE = 1000  # the nodes each flare has in the first round, unless the game says
GROWTH = 4  # how much each round's shares grow


class _ShareSpent(Exception):
    """A flare used up its share of nodes in this round."""


def flares(problem: Problem[S, M], orders: Sequence[Order[S]], budget: Budget,
           first_share: int = FIRST_SHARE) -> SearchResult[M]:
    """The flares in turn under one budget, until one decides or the budget runs out;
    a single order has every node (it has no turns to take)."""
    meter = Meter(budget)
    entries = 0
    try:
        share = first_share if len(orders) > 1 else budget.nodes or sys.maxsize
        while True:
            for order in orders:
                try:
                    result = _flare(problem, order, meter, meter.nodes + share)
                except _ShareSpent as spent:
                    entries = max(entries, cast(int, spent.args[0]))
                    continue
                return result
            share *= GROWTH
    except BudgetExhausted:
        return SearchResult(Status.UNKNOWN, (), None, False, meter.stats(entries))


def _flare(problem: Problem[S, M], order: Order[S], meter: Meter,
           last_node: int) -> SearchResult[M]:
    """Greedy best-first by `order`, last in first out among equals, every position
    entered once; _ShareSpent (with its table's size) past `last_node`."""
    start = problem.start()
    start_key = problem.key(start)
    parents: dict[Hashable, tuple[Hashable, M] | None] = {start_key: None}
    tie = count(0, -1)  # later pushes first among equals
    frontier = [(order(start, 0), next(tie), 0, start, start_key)]
    while frontier:
        _, _, g, state, key = heapq.heappop(frontier)
        if problem.is_goal(state):
            steps = _path(parents, key)
            return SearchResult(Status.SOLVED, steps, g, False, meter.stats(len(parents)))
        meter.tick()
        if meter.nodes > last_node:
            raise _ShareSpent(len(parents))
        for step, child, cost in problem.successors(state):
            child_key = problem.key(child)
            if child_key in parents:
                continue
            parents[child_key] = (key, step)
            meter.check_table(len(parents))
            heapq.heappush(frontier, (order(child, g + cost), next(tie), g + cost, child,
                                      child_key))
    return SearchResult(Status.UNSOLVABLE, (), None, False, meter.stats(len(parents)))


def _path(parents: dict[Hashable, tuple[Hashable, M] | None], key: Hashable) -> tuple[M, ...]:
    steps: list[M] = []
    link = parents[key]
    while link is not None:
        key, step = link
        steps.append(step)
        link = parents[key]
    return tuple(reversed(steps))
