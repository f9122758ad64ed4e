"""An optimal search that answers at any time: a line soon, shorter ones as it goes, and
the proof that the last is shortest.

First, beam searches of widths BEAMS, until one finds a line: layer by layer, only the
`width` positions of least g + 2h go on, so a line comes within some width times its
length of expansions. Then one best-first search whose order falls from weighted A* to
A*: it orders positions by g + w * h with a weight of WEIGHTS, the next each time it finds
a shorter line (its queue put in the new order, nothing searched again; a line of the
beams stands for the first weight's), and at the last, w = 1, it is A*, which goes on
until the least g + h queued reaches the best line's cost: that line is optimal.

A position whose g + h reaches the best line's cost is never queued (no shorter line goes
through it), and one reached more cheaply than before is queued again whatever the
order. So at every moment some position of every shorter line is queued with its true g,
and the least g + h queued bounds them all from below: under A* that least f is the lower
bound answered, and a queue that runs out proves the best line optimal (or, with none,
the problem unsolvable), whichever weight it ran out under.

A search the budget stops answers its best line, not proven optimal, with the lower
bound proven so far (the start's bound before A* began). With `prover="idastar"` the
weights are searched as above, and then IDA* (solver/search/idastar.py) proves, the best
line its upper limit, in A*'s stead.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Hashable
from dataclasses import replace
from itertools import count
from typing import Generic, Literal

from solver.budget import Budget, BudgetExhausted, Meter, Status
from solver.search.astar import _Parents, _path
from solver.search.idastar import Line, idastar
from solver.search.problem import M, Problem, S, SearchResult

# The first line's beams, widest last: a wider one only while the narrower found none.
BEAMS = (16, 32, 64, 128)
# The order's weights, as (num, den): positions by den * g + num * h, least first; the
# next at each shorter line, A* last. Measured on FreeCell deals 1-200 (docs/measured.md):
# finer steps found no shorter lines, coarser ones longer lines.
WEIGHTS = ((2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (8, 7), (1, 1))

# (priority, h, tie, g, state, key): the tie takes equals last in, first out
_Queued = tuple[int, int, int, int, S, Hashable]


def anytime(problem: Problem[S, M], budget: Budget,
            prover: Literal["astar", "idastar"] = "astar") -> SearchResult[M]:
    """The best line found within the budget, `optimal` when proven, and its `bound`."""
    meter = Meter(budget)
    search = _Search(problem, meter, stop_at_astar=prover == "idastar")
    try:
        search.beams()
        proven = search.run()
    except _Full:
        proven = False
    except BudgetExhausted:
        return search.answer(proven=False)
    if proven:
        return search.answer(proven=True)
    best, lower, entries = search.best, search.lower, search.largest
    del search  # its tables, before IDA*'s
    proving = idastar(problem, budget, meter=meter, lower=lower, line=best)
    return replace(proving, stats=replace(
        proving.stats, table_entries=max(entries, proving.stats.table_entries)))


class _Search(Generic[S, M]):
    """The beams and the best-first search through the weights, and what they found."""

    def __init__(self, problem: Problem[S, M], meter: Meter, stop_at_astar: bool) -> None:
        self.problem = problem
        self.meter = meter
        self.stop_at_astar = stop_at_astar
        self.start = problem.start()
        self.lower = problem.heuristic(self.start)
        self.best: Line[M] | None = None
        self.largest = 0  # the most positions a table held

    @property
    def cost(self) -> float:
        return math.inf if self.best is None else self.best.cost

    def beams(self) -> None:
        """Beams of BEAMS' widths, until one finds a line (or the start is won)."""
        if self.problem.is_goal(self.start):
            self.best = Line((), 0, self.meter.elapsed())
            return
        for width in BEAMS:
            if not self._beam(width):
                return

    def _beam(self, width: int) -> bool:
        """One beam; whether a wider one may find a line (false once this one did)."""
        problem, meter = self.problem, self.meter
        key = problem.key(self.start)
        seen: _Parents[M] = {key: (0, None, None)}
        layer = [(self.start, key)]
        while layer:
            ranked = []
            for state, key in layer:
                g = seen[key][0]
                meter.tick()
                for step, child, step_cost in problem.successors(state):
                    child_g = g + step_cost
                    if problem.is_goal(child):
                        self.best = Line((*_path(seen, key), step), child_g, meter.elapsed())
                        return False
                    child_key = problem.key(child)
                    known = seen.get(child_key)
                    if known is not None and known[0] <= child_g:
                        continue
                    self._check(len(seen) + (known is None))
                    seen[child_key] = (child_g, key, step)
                    h = problem.heuristic(child)
                    ranked.append((child_g + 2 * h, h, child, child_key))
            self.largest = max(self.largest, len(seen))
            kept = heapq.nsmallest(width, ranked, key=lambda r: (r[0], r[1]))
            layer = [(child, child_key) for _, _, child, child_key in kept]
        return True

    def run(self) -> bool:
        """The search through the weights, until proven (True) or, with `stop_at_astar`,
        until A*'s turn (False)."""
        if self.best is not None and self.best.cost == 0:
            return True
        problem, meter = self.problem, self.meter
        tie = count(0, -1)
        key = problem.key(self.start)
        seen: _Parents[M] = {key: (0, None, None)}
        phase = 0 if self.best is None else 1  # the beams' line stands for the first's
        num, den = WEIGHTS[phase]
        h0 = problem.heuristic(self.start)
        queue: list[_Queued[S]] = [(num * h0, h0, next(tie), 0, self.start, key)]
        while queue:
            if num == den and self.stop_at_astar:
                return False
            priority, h, _, g, state, key = heapq.heappop(queue)
            if num == den:
                if priority >= self.cost:
                    return True  # every line through the queue is as long at least
                self.lower = max(self.lower, priority)
            if seen[key][0] < g or g + h >= self.cost:
                continue  # queued again more cheaply since, or no shorter line through it
            meter.tick()
            shorter = False
            for step, child, step_cost in problem.successors(state):
                child_g = g + step_cost
                if problem.is_goal(child):
                    if child_g < self.cost:
                        self.best = Line((*_path(seen, key), step), child_g, meter.elapsed())
                        shorter = True
                    continue
                child_key = problem.key(child)
                known = seen.get(child_key)
                if known is not None and known[0] <= child_g:
                    continue
                self._check(len(seen) + (known is None))
                seen[child_key] = (child_g, key, step)
                child_h = problem.heuristic(child)
                if child_g + child_h < self.cost:
                    heapq.heappush(queue, (den * child_g + num * child_h, child_h, next(tie),
                                           child_g, child, child_key))
            self.largest = max(self.largest, len(seen))
            if shorter and num != den:  # the queue in the next weight's order
                phase += 1
                num, den = WEIGHTS[phase]
                queue = [(den * g + num * h, h, tie_, g, state, key)
                         for _, h, tie_, g, state, key in queue
                         if seen[key][0] == g and g + h < self.cost]
                heapq.heapify(queue)
        return True

    def _check(self, entries: int) -> None:
        """A table about to hold `entries`, within the budget; past its entries, before
        IDA* proves (whose table they cap), the search goes on to IDA*."""
        cap = self.meter.budget.table_entries
        if self.stop_at_astar and cap is not None and entries > cap:
            raise _Full
        self.meter.check_table(entries)

    def answer(self, proven: bool) -> SearchResult[M]:
        stats = self.meter.stats(self.largest)
        best = self.best
        if best is None:
            return SearchResult(Status.UNSOLVABLE if proven else Status.UNKNOWN, (), None,
                                False, stats, bound=None if proven else self.lower)
        return SearchResult(Status.SOLVED, best.steps, best.cost, proven,
                            replace(stats, line_seconds=best.seconds),
                            bound=best.cost if proven else min(self.lower, best.cost))


class _Full(Exception):
    """The search's table holds the budget's entries: IDA* goes on from here."""
