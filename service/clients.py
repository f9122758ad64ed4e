"""Who a call comes from, for sharing the server fairly: its client's address (the port
names a connection, and one client may open many), or its token where calls need one;
and the calls each one has in flight, at most a number, so that one address (or token)
cannot hold every place of the queue however many connections it opens."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class AddressBusy(Exception):
    """An address already has as many calls in flight as it may."""

    def __init__(self, address: str, most: int) -> None:
        super().__init__(f"{address} already has {most} calls in flight, the most one "
                         "address may (--max-calls-per-address): wait for one to end")


def address_of(peer: str) -> str:
    """The host of a peer as gRPC writes it ("ipv4:127.0.0.1:53422" is 127.0.0.1,
    "ipv6:[::1]:53422" is ::1); another kind of peer is itself."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6") and ":" in rest:
        return rest.rpartition(":")[0].removeprefix("[").removesuffix("]")
    return peer


def one_less(counts: Counter[K], key: K) -> None:
    """One fewer of `key`, which is forgotten at none (a Counter's `-=` does as much, and
    walks every key to do it)."""
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


class InFlight(Generic[K]):
    """The calls in flight of each key (an address, a token), at most `max_calls` each
    (None: no limit)."""

    def __init__(self, max_calls: int | None) -> None:
        self.max_calls = max_calls
        self._running: Counter[K] = Counter()
        self._lock = threading.Lock()

    @contextmanager
    def hold(self, key: K, refused: Callable[[int], Exception]) -> Iterator[None]:
        """Hold one of `key`'s calls for the duration; past the limit, raise
        `refused(max_calls)`."""
        with self._lock:
            if self.max_calls is not None and self._running[key] >= self.max_calls:
                raise refused(self.max_calls)
            self._running[key] += 1
        try:
            yield
        finally:
            with self._lock:
                one_less(self._running, key)
