"""Memory held by large requests given back to the system. A refused request's message
stays alive in a reference cycle (its traceback's frames and gRPC's call state) until
the cyclic collector runs, which it does by the count of Python objects, not by the
megabytes of message memory they hold; and malloc keeps what a freed message leaves in
the middle of its heaps. A run of large requests, each refused in a millisecond, would
leave the process hundreds of MiB larger. So once enough large requests have passed,
the cycles are collected and `malloc_trim` returns the pages (glibc only)."""

from __future__ import annotations

import ctypes
import gc
import threading
import time

LARGE = 64 << 10  # a request this size or more is noted


def give_back_memory() -> None:
    """Return the free pages of every heap to the system (glibc only)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


class Trimmer:
    """Gives memory back on a thread of its own once `threshold` bytes of large
    requests have passed, at most once every `interval` seconds."""

    def __init__(self, threshold: int = 2 << 20, interval: float = 0.1) -> None:
        self.threshold = threshold
        self.interval = interval
        self._pending = 0
        self._lock = threading.Lock()
        self._due = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="trim", daemon=True)
        self._thread.start()

    def note(self, size: int) -> None:
        """A request of `size` bytes has been answered."""
        if size < LARGE:
            return
        with self._lock:
            self._pending += size
            if self._pending >= self.threshold:
                self._due.set()

    def _run(self) -> None:
        while True:
            self._due.wait()
            if self._closed:
                return
            with self._lock:
                self._pending = 0
                self._due.clear()
            gc.collect()
            give_back_memory()
            time.sleep(self.interval)

    def close(self) -> None:
        self._closed = True
        self._due.set()
        self._thread.join(timeout=1)
