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

Unsolvability is proven by closure: positions seen as children but never expanded
are remembered, and when none is left, the expanded positions are every position
reachable, and none is a goal. Once the table is full that proof is out of reach, and
the set is given up so that memory stays capped.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable

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


def idastar(problem: Problem[S, M], budget: Budget) -> SearchResult[M]:
    meter = Meter(budget)
    table: BoundedTable[_Entry[M, S]] = BoundedTable(budget.table_entries,
                                                     budget.room(TABLE_SHARE))
    unexpanded: set[Hashable] = set()
    proving = True  # whether unsolvability can still be proven by closure
    path: list[M] = []
    on_path: set[Hashable] = set()
    best: list[tuple[int, tuple[M, ...]]] = []  # the cheapest solution found so far
    cut: Counter[float] = Counter()  # f of positions cut by the bound this iteration
    iteration = 0
    bound = 0

    def probe(state: S, key: Hashable, h: float, g: int) -> float:
        """A lower bound on the cost of a solution through `state` (g + learned)."""
        nonlocal bound, proving
        if problem.is_goal(state):
            if g <= bound:
                best.append((g, tuple(path)))
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

    start = problem.start()
    start_key = problem.key(start)
    bound = problem.heuristic(start)
    try:
        while True:
            iteration += 1
            cut.clear()
            expanded_before = meter.nodes
            f = probe(start, start_key, bound, 0)
            if best:
                cost, steps = min(best, key=lambda b: b[0])
                return SearchResult(Status.SOLVED, steps, cost, True, meter.stats(len(table)))
            if f == math.inf or (proving and not unexpanded):
                return SearchResult(Status.UNSOLVABLE, (), None, False, meter.stats(len(table)))
            bound = _next_bound(bound, cut, meter.nodes - expanded_before)
    except BudgetExhausted:
        return SearchResult(Status.UNKNOWN, (), None, False, meter.stats(len(table)))


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
