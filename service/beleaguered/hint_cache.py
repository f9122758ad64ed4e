"""Hints for every position along the optimal solutions the server has found.

Once a line is optimal from its start, its tail is optimal from every position on it,
so one solve answers a whole game's worth of hints. Least recently used entries go
first when the cache is full. The positions themselves are the keys: hashed in about
2 µs where their JSON text takes 30, and the positions along one line share the piles
a move leaves alone. A position's variant is part of it (its rules, not only their
name), so the same cards under another variant's rules are another key.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily
from prometheus_client.metrics_core import Metric

from solver.beleaguered import Hint, Position, Solution, apply
from solver.beleaguered.solve import Metric as LengthMetric
from solver.budget import SearchStats, Status

_NO_SEARCH = SearchStats(0, 0.0, 0)


class HintCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._hints: OrderedDict[Position, Hint] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0  # lookups that found a hint, and that did not (for the metrics)
        self.misses = 0

    def __len__(self) -> int:
        return len(self._hints)

    def get(self, position: Position) -> Hint | None:
        with self._lock:
            hint = self._hints.get(position)
            if hint is None:
                self.misses += 1
            else:
                self.hits += 1
                self._hints.move_to_end(position)
            return hint

    def remember(self, position: Position, solution: Solution) -> None:
        """Store the hint of every position along an optimal (or proven-empty) answer."""
        if solution.status is Status.UNSOLVABLE:
            self._put(position, Hint(Status.UNSOLVABLE, None, None, _NO_SEARCH, known=True))
            return
        if (solution.status is not Status.SOLVED or not solution.optimal
                or solution.metric is not LengthMetric.MOVES or solution.single_cards
                or solution.line_length is not None):
            return  # the cache holds hints in moves, each a move as the search found it
            # (and a verdict without its moves, `moves` off, has none to give)
        left = len(solution.moves)
        for move in solution.moves:
            self._put(position, Hint(Status.SOLVED, move, left, _NO_SEARCH, known=True))
            position = apply(position, move)
            left -= 1
        self._put(position, Hint(Status.SOLVED, None, 0, _NO_SEARCH, known=True))

    def collector(self) -> _Collector:
        """Its lookups as metrics, read from its counts at each scrape."""
        return _Collector(self)

    def _put(self, position: Position, hint: Hint) -> None:
        with self._lock:
            self._hints[position] = hint
            self._hints.move_to_end(position)
            while len(self._hints) > self.capacity:
                self._hints.popitem(last=False)


class _Collector:
    def __init__(self, cache: HintCache) -> None:
        self._cache = cache

    def collect(self) -> Iterator[Metric]:
        yield CounterMetricFamily("fortress_solver_hint_cache_hits",
                                  "Hint lookups answered from the cache", self._cache.hits)
        yield CounterMetricFamily("fortress_solver_hint_cache_misses",
                                  "Hint lookups the cache could not answer", self._cache.misses)
