"""The process's resident memory, read from /proc/self/statm in a few microseconds: what
a search may add to it is its memory budget (`Room`), and what a server's worker holds
decides the room the next search gets. Measured, not estimated from table entries: what
an entry costs differs between games and searches (a patience position some 1,200 bytes,
a six-player Farbduell position some 2 KB, an IDA* entry its children's positions too),
and a search holds more than its tables (its recursion, its frontier, its caches)."""

from __future__ import annotations

import gc
import os
import resource
from functools import cache


def resident_bytes() -> int:
    """This process's resident memory in bytes (its peak where /proc is not there)."""
    try:
        return int(os.pread(_statm(os.getpid()), 256, 0).split()[1]) * _PAGE_BYTES
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss << 10


_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


@cache
def _statm(pid: int) -> int:
    """This process's /proc/<pid>/statm, opened once (by process: a forked child has
    its own), and read again at each look: a search looks every few hundred nodes, a
    worker after every chunk of jobs."""
    return os.open(f"/proc/{pid}/statm", os.O_RDONLY)


# What a question's searches may leave in the process, their tables gone, before it
# collects (`let_go`).
KEPT_BYTES = 8 << 20


def let_go(since: int) -> None:
    """A full collection, when the process holds more than KEPT_BYTES over `since` (the
    question's start) once a search's tables are gone: the objects it freed are gone,
    but a few kept on the interpreter's free lists keep whole arenas of them resident,
    which only a full collection lets go: some 25 ms after a search that grew the
    process by 100 MiB (during a search it would walk every table entry, for seconds)."""
    if resident_bytes() > since + KEPT_BYTES:
        gc.collect()


class Room:
    """What a search may add to the process's resident memory: `size` bytes over what
    the process held at `since` (resident bytes: the question's start; None: now, as the
    Room is made at the search's start), None for no limit. Each look reads
    /proc/self/statm (some 3 us), so searches look every few hundred nodes or table
    entries, not at each. A search of a question that earlier searches grew lets go of
    what they left first (`let_go`)."""

    def __init__(self, size: int | None, since: int | None = None) -> None:
        if since is not None:
            let_go(since)
        self._limit = None if size is None else (
            resident_bytes() if since is None else since) + size

    def full(self) -> bool:
        """The process holds more than it did at the start plus the budget."""
        return self._limit is not None and resident_bytes() > self._limit
