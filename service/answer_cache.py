"""Answers a game's server knows without a search, by position: least recently used
first out when full, its lookups counted as metrics. The positions themselves are the
keys (a position value hashes in some 2 µs where its JSON text takes 30), so a position
of one variant is never another's answer: its rules are part of it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Iterator
from typing import Any, Generic, TypeVar

from prometheus_client.core import CounterMetricFamily
from prometheus_client.metrics_core import Metric

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class AnswerCache(Generic[K, V]):
    def __init__(self, capacity: int, metric: str, what: str) -> None:
        """`metric`: the metrics' name (fortress_solver_METRIC_hits and _misses);
        `what`: what it caches, as their help says it ("Hint")."""
        self.capacity = capacity
        self.metric, self.what = metric, what
        self._answers: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0  # lookups that found an answer, and that did not (for the metrics)
        self.misses = 0

    def __len__(self) -> int:
        return len(self._answers)

    def get(self, key: K) -> V | None:
        with self._lock:
            answer = self._answers.get(key)
            if answer is None:
                self.misses += 1
            else:
                self.hits += 1
                self._answers.move_to_end(key)
            return answer

    def put(self, known: Iterable[tuple[K, V]]) -> None:
        """Keep these answers, as the most recently used."""
        for key, answer in known:
            with self._lock:
                self._answers[key] = answer
                self._answers.move_to_end(key)
                while len(self._answers) > self.capacity:
                    self._answers.popitem(last=False)

    def collector(self) -> _Collector:
        """Its lookups as metrics, read from its counts at each scrape."""
        return _Collector(self)


class _Collector:
    def __init__(self, cache: AnswerCache[Any, Any]) -> None:
        self._cache = cache

    def collect(self) -> Iterator[Metric]:
        cache = self._cache
        yield CounterMetricFamily(f"fortress_solver_{cache.metric}_hits",
                                  f"{cache.what} lookups answered from the cache", cache.hits)
        yield CounterMetricFamily(f"fortress_solver_{cache.metric}_misses",
                                  f"{cache.what} lookups the cache could not answer",
                                  cache.misses)
