"""A transposition table that stops growing at a cap on its entries or at its memory."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

from solver.budget import LOOK_ENTRIES
from solver.memory import Room

V = TypeVar("V")
D = TypeVar("D")


class BoundedTable(Generic[V]):
    """Maps positions to what a search learned about them, holding at most `capacity`
    entries and no more than `room` has room for (looked at every LOOK_ENTRIES new
    entries).

    When full it stops admitting new positions (and says so in `dropped`): lookups of
    those miss, which costs re-search but never correctness, so memory stays capped.
    """

    def __init__(self, capacity: int | None, room: Room) -> None:
        self.capacity = capacity
        self.dropped = False
        self._room = room
        self._values: dict[Hashable, V] = {}

    def __len__(self) -> int:
        return len(self._values)

    def get(self, key: Hashable, default: D) -> V | D:
        return self._values.get(key, default)

    def put(self, key: Hashable, value: V) -> None:
        if key in self._values or self._admits():
            self._values[key] = value
        else:
            self.dropped = True

    def _admits(self) -> bool:
        """Room for one more entry; once there is none, there is none for good."""
        size = len(self._values)
        if self.dropped or (self.capacity is not None and size >= self.capacity):
            return False
        if not size % LOOK_ENTRIES and self._room.full():
            self.capacity = size
            return False
        return True
