"""What a search may spend, and the honest verdict it reports when it stops."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum


class Status(StrEnum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Budget:
    """Limits for one search; None means no limit on that axis.

    `stop` is asked about as often as the clock (every 256 nodes): a caller whose
    client went away says so, and the search ends with UNKNOWN within milliseconds.
    """

    seconds: float | None = 60.0
    nodes: int | None = None
    table_entries: int | None = 5_000_000
    stop: Callable[[], bool] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("seconds", "nodes", "table_entries"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"budget {name} must be positive, got {value}")


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class SearchStats:
    nodes: int
    seconds: float
    table_entries: int


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
        self.table_cap = budget.table_entries

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
