"""Memory held by large requests given back to the system. A refused request's message
stays alive in a reference cycle (its traceback's frames and gRPC's call state) until
the cyclic collector runs, which it does by the count of Python objects, not by the
megabytes of message memory they hold; and malloc keeps what a freed message leaves in
the middle of its heaps. A run of large requests, each refused in a millisecond, would
leave the process hundreds of MiB larger. So once enough large requests have passed,
the cycles are collected and `malloc_trim` returns the pages (glibc only). Calls of any
size leave pages too (the threads that answered a burst of them keep their heaps), so a
few seconds after the last call of a burst they are returned as well."""

from __future__ import annotations

import ctypes
import gc
import threading
import time
from functools import cache

from solver.memory import resident_bytes

LARGE = 64 << 10  # a request this size or more is noted


def resident_mib() -> int:
    """This process's resident memory in MiB (solver/memory.py reads it): what a worker
    holds, looked at between its searches."""
    return resident_bytes() >> 20


def give_back_memory() -> None:
    """Return the free pages of every heap to the system (glibc only)."""
    try:
        _libc().malloc_trim(0)
    except (OSError, AttributeError):
        pass


@cache
def _libc() -> ctypes.CDLL:
    """The C library, loaded once: a worker gives memory back after every chunk."""
    return ctypes.CDLL(None)


class Trimmer:
    """Gives memory back on a thread of its own once `threshold` bytes of large
    requests have passed, at most once every `interval` seconds, and once no call has
    been answered for `quiet` seconds after some were."""

    def __init__(self, threshold: int = 2 << 20, interval: float = 0.1,
                 quiet: float = 3.0) -> None:
        self.threshold = threshold
        self.interval = interval
        self.quiet = quiet
        self._answered = False  # calls answered since the last trim
        self._last = 0.0  # when the last was (time.monotonic)
        self._pending = 0
        self._lock = threading.Lock()
        self._due = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="trim", daemon=True)
        self._thread.start()

    def note(self, size: int) -> None:
        """A request of `size` bytes has been answered."""
        self._answered, self._last = True, time.monotonic()
        if size < LARGE:
            return
        with self._lock:
            self._pending += size
            if self._pending >= self.threshold:
                self._due.set()

    def _run(self) -> None:
        while True:
            if not self._due.wait(self.quiet) and not (
                    self._answered and time.monotonic() - self._last >= self.quiet):
                continue  # no large requests, and no quiet spell after calls
            if self._closed:
                return
            with self._lock:
                self._pending = 0
                self._answered = False
                self._due.clear()
            gc.collect()
            give_back_memory()
            time.sleep(self.interval)

    def close(self) -> None:
        self._closed = True
        self._due.set()
        self._thread.join(timeout=1)
