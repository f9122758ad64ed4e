"""A transposition table with a hard cap on its number of entries."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")
D = TypeVar("D")


class BoundedTable(Generic[V]):
    """Maps positions to what a search learned about them, holding at most `capacity`.

    When full it stops admitting new positions (and says so in `dropped`): lookups of
    those miss, which costs re-search but never correctness, so memory stays capped.
    """

    def __init__(self, capacity: int | None) -> None:
        self.capacity = capacity
        self.dropped = False
        self._values: dict[Hashable, V] = {}

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: Hashable, default: D) -> V | D:
        return self._values.get(key, default)

    def put(self, key: Hashable, value: V) -> None:
        if key in self._values or self.capacity is None or len(self._values) < self.capacity:
            self._values[key] = value
        else:
            self.dropped = True
