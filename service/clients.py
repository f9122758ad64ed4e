"""Who a call comes from, for sharing the server fairly: its client's address (the port
names a connection, and one client may open many), or its token where calls need one;
and the calls each address has in flight, at most `max_calls`, so that one address
cannot hold every place of the queue however many connections it opens."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager


class AddressBusy(Exception):
    """An address already has as many calls in flight as it may."""


def address_of(peer: str) -> str:
    """The host of a peer as gRPC writes it ("ipv4:127.0.0.1:53422" is 127.0.0.1,
    "ipv6:[::1]:53422" is ::1); another kind of peer is itself."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6") and ":" in rest:
        return rest.rpartition(":")[0].removeprefix("[").removesuffix("]")
    return peer


class Addresses:
    """The calls in flight from each address."""

    def __init__(self, max_calls: int) -> None:
        self.max_calls = max_calls
        self._running: Counter[str] = Counter()
        self._lock = threading.Lock()

    @contextmanager
    def admit(self, address: str) -> Iterator[None]:
        """Hold one of `address`'s calls for the duration; AddressBusy past the cap."""
        with self._lock:
            if self._running[address] >= self.max_calls:
                raise AddressBusy(f"{address} already has {self.max_calls} calls in flight, "
                                  "the most one address may (--max-calls-per-address): "
                                  "wait for one to end")
            self._running[address] += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= Counter({address: 1})
