"""What a search may spend, and the honest verdict it reports when it stops."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from solver.errors import InvalidInput, OutOfRange
from solver.memory import Room

# A search's tables at their largest, by default: room for some 5 million positions in
# the compiled kernel, as the cap of 5,000,000 entries it replaces had.
DEFAULT_MEMORY_MIB = 512
# How often a Python search looks at the process's memory (solver/memory.py): every so
# many new table entries, and every so many nodes (of cheap nodes, at each look at the
# clock, every 256). Between two looks a search grows by some tens of KiB (a Farbduell
# position of six hands) to a few MiB (256 patience expansions).
LOOK_ENTRIES = 256
_LOOK_NODES_MASK = 63
# A hint's samples of what its player cannot see: each is a copy of the position, so a
# cap on one question's memory that no time budget gives.
MAX_WORLDS = 1000


class Status(StrEnum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Disk:
    """Where a search that fills its memory goes on, on disk (the kernel's DiskSearch,
    docs/castle-family.md): a directory it makes its files in and removes them from when
    it ends, and the GiB they may hold at once."""

    directory: str
    gib: float

    def __post_init__(self) -> None:
        if self.gib <= 0:
            raise ValueError(f"the disk budget must be positive, got {self.gib}")

    @property
    def budget_bytes(self) -> int:
        return int(self.gib * (1 << 30))


@dataclass(frozen=True)
class Budget:
    """Limits for one search; None means no limit on that axis.

    `stop` is asked about as often as the clock (every 256 nodes): a caller whose
    client went away says so, and the search ends with UNKNOWN within milliseconds.
    `memory_mib` bounds what the search adds to the process's resident memory (its
    tables, and all else it holds): the compiled kernel counts its tables' bytes, the
    Python searches measure the process (solver/memory.py) from `memory_from`, its
    resident bytes at the question's start (`Question.ask` sets it), else from their
    own start. An operator sets it so that workers fit their machine.
    """

    seconds: float | None = 60.0
    nodes: int | None = None
    table_entries: int | None = None
    stop: Callable[[], bool] | None = field(default=None, compare=False, repr=False)
    memory_mib: int | None = DEFAULT_MEMORY_MIB
    memory_from: int | None = field(default=None, compare=False, repr=False)
    disk: Disk | None = None  # with the compiled kernel: where a search goes on past memory

    def __post_init__(self) -> None:
        for name in ("seconds", "nodes", "table_entries", "memory_mib"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"budget {name} must be positive, got {value}")

    @property
    def memory_bytes(self) -> int | None:
        return None if self.memory_mib is None else self.memory_mib << 20

    def room(self, share: float = 1.0) -> Room:
        """What a search may add to the process's memory: `share` of the budget's."""
        return Room(None if self.memory_bytes is None else int(self.memory_bytes * share),
                    self.memory_from)


DEFAULT_BUDGET = Budget()
# What a patience hint or grading asked with no budget searches for (the command line's
# --seconds by default, a request's budget with no seconds): a player waits on it, so it
# answers within a second, with the best line found by then and its bounds ("wins in at
# most 87 (at least 84)"), optimal when proven in time. A larger budget buys the proof.
HINT_SECONDS = 1.0
# ... and the MiB its search may add to the process, so that a server's hints, each a
# second, fit beside one another (a second's search holds some 100 MiB of tables).
HINT_MEMORY_MIB = 256


@dataclass(frozen=True)
class SearchStats:
    nodes: int
    seconds: float
    table_entries: int
    table_bytes: int = 0  # the search's tables at their largest, where it measures them
    line_seconds: float | None = None  # seconds into the search when its line was found


class BudgetExhausted(Exception):
    """Raised inside a search when its budget runs out; the search turns it into UNKNOWN."""


class Meter:
    """Counts expanded nodes and checks the budget; the clock is read every 256 nodes
    (every node for searches whose nodes are costly: `costly_nodes`), the process's
    memory every 256 nodes (every 64 costly ones) and every LOOK_ENTRIES new table
    entries: what the process has grown by since the question's start (`memory_from`),
    else since the meter was made, is within the budget's `memory_mib`."""

    def __init__(self, budget: Budget, costly_nodes: bool = False) -> None:
        self.budget = budget
        self._clock_mask = 0 if costly_nodes else 255
        self.nodes = 0
        self.started = time.perf_counter()
        self._deadline = None if budget.seconds is None else self.started + budget.seconds
        self._max_nodes = budget.nodes
        self._stop = budget.stop
        self._table_cap = budget.table_entries
        self._room = budget.room()
        self._next_look = LOOK_ENTRIES  # the table's entries at the next look at memory

    def tick(self) -> None:
        if self._max_nodes is not None and self.nodes >= self._max_nodes:
            raise BudgetExhausted
        self.nodes += 1
        if not self.nodes & self._clock_mask:
            if self._deadline is not None and time.perf_counter() > self._deadline:
                raise BudgetExhausted
            if self._stop is not None and self._stop():
                raise BudgetExhausted
            if not self.nodes & _LOOK_NODES_MASK and self._room.full():
                raise BudgetExhausted

    def check_table(self, entries: int) -> None:
        """A table grown to `entries`: within the budget's entries, and, looked at every
        LOOK_ENTRIES new entries, the process's memory within the budget's."""
        if self._table_cap is not None and entries > self._table_cap:
            raise BudgetExhausted
        if entries >= self._next_look:
            self._next_look = entries + LOOK_ENTRIES
            if self._room.full():
                raise BudgetExhausted

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def stats(self, table_entries: int) -> SearchStats:
        return SearchStats(self.nodes, self.elapsed(), table_entries)


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
