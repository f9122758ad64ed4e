"""What a search may spend, and the honest verdict it reports when it stops."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from solver.errors import InvalidInput, OutOfRange

# A search's tables at their largest, by default: room for some 5 million positions in
# the compiled kernel, as the cap of 5,000,000 entries it replaces had.
DEFAULT_MEMORY_MIB = 512
# About what a table entry of the Python searches takes (a position's key, a tuple of
# tuples, and what the table maps it to): their memory budget is a cap in entries.
PYTHON_ENTRY_BYTES = 1200  # Beleaguered Castle deal 16, A* of 94,675 entries: 1,200 bytes each
# A hint's samples of what its player cannot see: each is a copy of the position, so a
# cap on one question's memory that no time budget gives.
MAX_WORLDS = 1000


class Status(StrEnum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Budget:
    """Limits for one search; None means no limit on that axis.

    `stop` is asked about as often as the clock (every 256 nodes): a caller whose
    client went away says so, and the search ends with UNKNOWN within milliseconds.
    `memory_mib` bounds what the search's tables hold at their largest (the process's
    own few tens of MiB apart): an operator sets it so that workers fit their machine.
    """

    seconds: float | None = 60.0
    nodes: int | None = None
    table_entries: int | None = None
    stop: Callable[[], bool] | None = field(default=None, compare=False, repr=False)
    memory_mib: int | None = DEFAULT_MEMORY_MIB

    def __post_init__(self) -> None:
        for name in ("seconds", "nodes", "table_entries", "memory_mib"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"budget {name} must be positive, got {value}")

    @property
    def memory_bytes(self) -> int | None:
        return None if self.memory_mib is None else self.memory_mib << 20

    def table_cap(self, entry_bytes: int) -> int | None:
        """The entries a table of entries of about `entry_bytes` may hold: at most
        table_entries, and no more than memory_mib holds."""
        caps = [cap for cap in (self.table_entries, None if self.memory_bytes is None
                                else max(1, self.memory_bytes // entry_bytes))
                if cap is not None]
        return min(caps, default=None)


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class SearchStats:
    nodes: int
    seconds: float
    table_entries: int
    table_bytes: int = 0  # the search's tables at their largest, where it measures them


class BudgetExhausted(Exception):
    """Raised inside a search when its budget runs out; the search turns it into UNKNOWN."""


class Meter:
    """Counts expanded nodes and checks the budget; the clock is read every 256 nodes
    (every node for searches whose nodes are costly: `costly_nodes`)."""

    def __init__(self, budget: Budget, costly_nodes: bool = False) -> None:
        self.budget = budget
        self._clock_mask = 0 if costly_nodes else 255
        self.nodes = 0
        self.started = time.perf_counter()
        self._deadline = None if budget.seconds is None else self.started + budget.seconds
        self._max_nodes = budget.nodes
        self._stop = budget.stop
        self.table_cap = budget.table_cap(PYTHON_ENTRY_BYTES)

    def tick(self) -> None:
        if self._max_nodes is not None and self.nodes >= self._max_nodes:
            raise BudgetExhausted
        self.nodes += 1
        if not self.nodes & self._clock_mask:
            if self._deadline is not None and time.perf_counter() > self._deadline:
                raise BudgetExhausted
            if self._stop is not None and self._stop():
                raise BudgetExhausted

    def check_table(self, entries: int) -> None:
        if self.table_cap is not None and entries > self.table_cap:
            raise BudgetExhausted

    def stats(self, table_entries: int) -> SearchStats:
        return SearchStats(self.nodes, time.perf_counter() - self.started, table_entries)


# What check_turns and check_worlds keep, as an options field's metadata gives it to the
# options schema (service/generic/handler.py): the bounds said beside their checks.
TURNS_BOUNDS = {"minimum": 1}
WORLDS_BOUNDS = {"minimum": 1, "maximum": MAX_WORLDS}


def check_turns(turns: int) -> None:
    """A puzzle's own turns: at least one."""
    if turns < 1:
        raise InvalidInput(f"turns must be at least 1, got {turns}")


def check_worlds(worlds: int) -> None:
    """A hint's worlds within 1..MAX_WORLDS, else refused before any is dealt."""
    if worlds < 1:
        raise InvalidInput(f"worlds must be at least 1, got {worlds}")
    if worlds > MAX_WORLDS:
        raise OutOfRange(f"worlds {worlds} is more than the limit of {MAX_WORLDS}")
