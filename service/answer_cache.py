"""Answers a game's server knows without a search, by position, its lookups counted as
metrics. The positions themselves are the
keys (a position value hashes in some 2 µs where its JSON text takes 30), so a position
of one variant is never another's answer: its rules are part of it.

It is bounded in bytes as well as in entries, the bytes counted from what each answer
holds (`footprint`), since a position sent by a client may be of any size. It is shared
between clients as the workers are: no one holds more than its share, and when it is
full the client holding the most gives up its least recently used answer. So a client
that floods it with its own answers (or several that do) pushes out their own, not the
few of a client that asks for hints in its games."""

from __future__ import annotations

import gc
import heapq
import sys
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from enum import Enum
from types import FunctionType, ModuleType
from typing import Any, Generic, NamedTuple, TypeVar

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.metrics_core import Metric

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# What an entry costs beyond its key and answer: its record (a tuple of three), its
# nodes and hash slots in the two ordered dicts (283 bytes measured at 100,000 entries
# with tracemalloc), with room.
ENTRY_BYTES = 320
# What the process holds for the bytes counted: malloc's own and the holes that answers
# given up leave, so that --cache-mib bounds the process's resident memory. A 64 MiB
# cache of FreeCell hints filled several times over by two clients grew it by 88 MiB,
# counted as the objects' bytes; by 65 MiB, counted so.
HEAP_FACTOR = 1.6


class _Entry(NamedTuple):
    answer: Any
    owner: str
    size: int


class AnswerCache(Generic[K, V]):
    def __init__(self, entries: int, mib: int, metric: str, what: str,
                 share: float = 1.0) -> None:
        """At most `entries` answers in `mib` MiB; `share`: the part of both one owner
        (a client) may hold. `metric`: the metrics' name (fortress_solver_METRIC_hits and
        _misses, _bytes); `what`: what it caches, as their help says it ("Hint")."""
        if not 0 < share <= 1:
            raise ValueError(f"share must be within (0, 1], got {share}")
        self.entries, self.bytes = entries, mib << 20
        self.owner_entries = max(1, int(entries * share))
        self.owner_bytes = max(1, int(self.bytes * share))
        self.metric, self.what = metric, what
        self._answers: dict[K, _Entry] = {}
        self._size = 0  # the bytes of what it holds, as `footprint` counts them
        # each owner's keys, least recently used first, and the bytes they hold
        self._by_owner: dict[str, OrderedDict[K, None]] = {}
        self._owner_sizes: Counter[str] = Counter()
        # (-bytes, owner): the owner holding the most on top, past values left behind
        self._heaviest: list[tuple[int, str]] = []
        self._lock = threading.Lock()
        self.hits = 0  # lookups that found an answer, and that did not (for the metrics)
        self.misses = 0

    def __len__(self) -> int:
        return len(self._answers)

    @property
    def size(self) -> int:
        """The bytes it holds, as counted."""
        return self._size

    def held_by(self, owner: str) -> tuple[int, int]:
        """The entries and bytes `owner` holds."""
        return len(self._by_owner.get(owner, ())), self._owner_sizes[owner]

    def get(self, key: K) -> V | None:
        with self._lock:
            entry = self._answers.get(key)
            if entry is None:
                self.misses += 1
                return None
            self.hits += 1
            self._by_owner[entry.owner].move_to_end(key)
            answer: V = entry.answer
            return answer

    def put(self, known: Iterable[tuple[K, V]], owner: str = "",
            keep: Callable[[V], bool] | None = None) -> None:
        """Keep these answers, as the most recently used, as `owner`'s: what they hold
        and do not share with one another is counted once, the rest shared out. An
        answer held that `keep` says to keep is not replaced (a proven one by a guess)."""
        pairs = list(known)
        if not pairs:
            return
        each = int((footprint(item for pair in pairs for item in pair) / len(pairs)
                    + ENTRY_BYTES) * HEAP_FACTOR)
        with self._lock:
            for key, answer in pairs:
                held = self._answers.get(key)
                if held is not None and keep is not None and keep(held.answer):
                    continue
                self._drop(key)
                self._answers[key] = _Entry(answer, owner, each)
                self._by_owner.setdefault(owner, OrderedDict())[key] = None
                self._size += each
                self._owner_sizes[owner] += each
            mine = self._by_owner.get(owner)
            if mine is None:  # every answer kept
                return
            self._weighed(owner)
            while len(mine) > self.owner_entries or self._owner_sizes[owner] > self.owner_bytes:
                self._drop(next(iter(mine)))  # past its share: the owner's own oldest
            while len(self._answers) > self.entries or self._size > self.bytes:
                self._drop(next(iter(self._by_owner[self._heaviest_owner()])))

    def _drop(self, key: K) -> None:
        entry = self._answers.pop(key, None)
        if entry is None:
            return
        self._size -= entry.size
        self._owner_sizes[entry.owner] -= entry.size
        theirs = self._by_owner[entry.owner]
        del theirs[key]
        if theirs:
            self._weighed(entry.owner)
        else:
            del self._by_owner[entry.owner], self._owner_sizes[entry.owner]

    def _weighed(self, owner: str) -> None:
        """Note what `owner` holds now; the values left behind are dropped in one go
        once they outnumber the owners."""
        heapq.heappush(self._heaviest, (-self._owner_sizes[owner], owner))
        if len(self._heaviest) > 2 * len(self._owner_sizes) + 64:
            self._heaviest = [(-size, who) for who, size in self._owner_sizes.items()]
            heapq.heapify(self._heaviest)

    def _heaviest_owner(self) -> str:
        """The owner holding the most bytes."""
        while True:
            minus, owner = self._heaviest[0]
            if self._owner_sizes.get(owner) == -minus:
                return owner
            heapq.heappop(self._heaviest)  # a value left behind

    def collector(self) -> _Collector:
        """Its lookups and size as metrics, read from its counts at each scrape."""
        return _Collector(self)


# What is shared by everything and lives as long as the process: never counted.
_SHARED = (type, ModuleType, FunctionType, Enum)


def footprint(values: Iterable[object]) -> int:
    """The bytes of these values and of everything they reach, each object once:
    conservative (an object shared with what the cache holds already is counted
    again), and blind only to classes, modules, functions and enumerations."""
    seen: set[int] = set()
    below: list[object] = list(values)
    total = 0
    while below:
        value = below.pop()
        if id(value) in seen or isinstance(value, _SHARED):
            continue
        seen.add(id(value))
        total += sys.getsizeof(value)
        below.extend(gc.get_referents(value))
    return total


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
        yield GaugeMetricFamily(f"fortress_solver_{cache.metric}_bytes",
                                f"bytes the {cache.what} cache holds, as it counts them",
                                cache.size)
