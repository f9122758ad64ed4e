"""A transposition table with a hard cap on its number of entries."""

from __future__ import annotations

from collections.abc import Hashable


class BoundedTable:
    """Maps positions to a learned value, holding at most `capacity` entries.

    When full it stops admitting new positions: lookups of those miss, which costs
    re-search but never correctness, so memory stays capped.
    """

    def __init__(self, capacity: int | None) -> None:
        self.capacity = capacity
        self._values: dict[Hashable, int | float] = {}

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: Hashable, default: int | float) -> int | float:
        return self._values.get(key, default)

    def put(self, key: Hashable, value: int | float) -> None:
        if key in self._values or self.capacity is None or len(self._values) < self.capacity:
            self._values[key] = value
