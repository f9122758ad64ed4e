"""Iterative-deepening A*: optimal like A*, with memory capped by a bounded table.

The table keeps, per expanded position, the best lower bound learned on its remaining
cost and the iteration and g at which it was last expanded. Learned bounds prune
positions met again, across iterations (a subtree already shown to need more than the
bound is not searched again) and within one (a position reached again at equal or
greater cost is cut). A move back to a position on the current path contributes its
cost plus that position's bound, which keeps learned values admissible when the graph
has cycles.

Each iteration raises the bound past enough of the cut positions to roughly double
the work (not just to the least f over the bound), and searches depth-first with
branch and bound: a solution found lowers the bound to one below its cost, so the
best solution an iteration finds is optimal, as the iteration before proved that
none exists within its bound.

Given the best line of an anytime search (anytime.py), IDA* looks for shorter lines
only, its bound never past one below that line's cost: an iteration that ends with
every position beyond its bound at that cost or more proves the line shortest.

Unsolvability is proven by closure: positions seen as children but never expanded
are remembered, and when none is left, the expanded positions are every position
reachable, and none is a goal. Once the table is full that proof is out of reach, and
the set is given up so that memory stays capped.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Generic

from solver.budget import Budget, BudgetExhausted, Meter, Status
from solver.search.problem import M, Problem, S, SearchResult
from solver.search.table import BoundedTable

# What the table may add to the process's memory, of the budget's: the rest is for the
# search's other memory (the heuristic's caches grow as positions are met, the table full
# or not), and past the whole budget the search ends.
TABLE_SHARE = 0.75
# a child: (step cost, step, child, its key, its static bound: None when it is in the table)
_Child = tuple[int, M, S, Hashable, float | None]
# a position's entry: (learned bound, iteration last expanded, its g, its children)
_Entry = tuple[float, int, int, tuple[_Child[M, S], ...]]


@dataclass(frozen=True)
class Line(Generic[M]):
    """A solution found: its steps, its cost, and when (seconds into its search)."""

    steps: tuple[M, ...]
    cost: int
    seconds: float


def idastar(problem: Problem[S, M], budget: Budget, meter: Meter | None = None,
            lower: int = 0, line: Line[M] | None = None) -> SearchResult[M]:
    """`meter`, `lower` and `line` are what an anytime search hands on (anytime.py): its
    meter (its time and nodes spent), the lower bound it proved, and its best line, if
    any. Handed on, a search the budget stops answers the best line it knows, not
    proven optimal, with the lower bound it proved."""
    anytime = meter is not None
    meter = Meter(budget) if meter is None else meter
    table: BoundedTable[_Entry[M, S]] = BoundedTable(budget.table_entries,
                                                     budget.room(TABLE_SHARE))
    unexpanded: set[Hashable] = set()
    proving = True  # whether unsolvability can still be proven by closure
    path: list[M] = []
    on_path: set[Hashable] = set()
    best: list[Line[M]] = []  # the cheapest solution found so far
    cut: Counter[float] = Counter()  # f of positions cut by the bound this iteration
    iteration = 0
    bound = 0

    def probe(state: S, key: Hashable, h: float, g: int) -> float:
        """A lower bound on the cost of a solution through `state` (g + learned)."""
        nonlocal bound, proving
        if problem.is_goal(state):
            if g <= bound:
                best.append(Line(tuple(path), g, meter.elapsed()))
                bound = g - 1
            return g
        meter.tick()
        entry = table.get(key, None)
        expansion = entry[3] if entry is not None else _expand(problem, state, table)
        table.put(key, (h, iteration, g, expansion))
        unexpanded.discard(key)
        children = []
        for cost, step, child, child_key, child_h in expansion:
            entry = table.get(child_key, None)
            seen_at = math.inf
            if entry is not None:
                child_h, stamp, seen_g, _ = entry
                if stamp == iteration:
                    seen_at = seen_g
            assert child_h is not None  # a child without a static bound has an entry
            children.append((cost + child_h, cost, step, child, child_key, child_h, seen_at,
                             entry is None))
        children.sort(key=lambda c: c[0])
        on_path.add(key)
        learned = math.inf
        for estimate, cost, step, child, child_key, child_h, seen_at, new in children:
            if estimate == math.inf or child_key in on_path or seen_at <= g + cost:
                learned = min(learned, estimate)  # dead, a cycle, or searched this round
                continue
            if g + estimate > bound:
                learned = min(learned, estimate)
                cut[g + estimate] += 1
                if new and proving:
                    unexpanded.add(child_key)
                continue
            path.append(step)
            learned = min(learned, probe(child, child_key, child_h, g + cost) - g)
            path.pop()
        on_path.discard(key)
        learned = max(learned, h)
        table.put(key, (learned, iteration, g, expansion))
        if proving and (table.dropped or len(unexpanded) > (table.capacity or math.inf)):
            proving = False
            unexpanded.clear()
        return g + learned

    def solved(found: Line[M], optimal: bool, proven: float) -> SearchResult[M]:
        stats = replace(meter.stats(len(table)), line_seconds=found.seconds)
        return SearchResult(Status.SOLVED, found.steps, found.cost, optimal, stats,
                            found.cost if optimal else int(min(proven, found.cost)))

    start = problem.start()
    start_key = problem.key(start)
    upper = math.inf if line is None else line.cost
    bound = max(problem.heuristic(start), lower)
    proven: float = bound  # no solution costs less
    try:
        while True:
            if line is not None and bound >= upper:  # nothing shorter than the line
                return solved(line, True, upper)
            iteration += 1
            cut.clear()
            expanded_before = meter.nodes
            f = probe(start, start_key, bound, 0)
            if best:
                return solved(min(best, key=lambda b: b.cost), True, proven)
            proven = max(proven, f, bound + 1)  # no solution within the bound
            if line is not None and proven >= upper:
                return solved(line, True, upper)
            if f == math.inf or (proving and not unexpanded):
                return SearchResult(Status.UNSOLVABLE, (), None, False, meter.stats(len(table)))
            bound = _next_bound(bound, cut, meter.nodes - expanded_before)
            if line is not None:
                bound = min(bound, line.cost - 1)
    except BudgetExhausted:
        if anytime and best:  # shorter than the line handed on, if any
            return solved(min(best, key=lambda b: b.cost), False, proven)
        if anytime and line is not None:
            return solved(line, False, proven)
        return SearchResult(Status.UNKNOWN, (), None, False, meter.stats(len(table)),
                            int(proven))


def _expand(problem: Problem[S, M], state: S,
            table: BoundedTable[_Entry[M, S]]) -> tuple[_Child[M, S], ...]:
    """A position's children with their keys and static bounds, kept in the table so
    that later iterations do not generate them again. A child already in the table
    needs no static bound: its entry, never removed, holds a better one."""
    children: list[_Child[M, S]] = []
    for step, child, cost in problem.successors(state):
        key = problem.key(child)
        h = None if table.get(key, None) is not None else problem.heuristic(child)
        children.append((cost, step, child, key, h))
    return tuple(children)


def _next_bound(bound: int, cut: Counter[float], expanded: int) -> int:
    """The least bound that lets at least as many cut positions in as were expanded."""
    admitted = 0
    for f in sorted(cut):
        admitted += cut[f]
        if admitted >= expanded:
            return int(f)
    return max(bound + 1, int(max(cut, default=bound + 1)))
