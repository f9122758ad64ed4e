"""Who a call comes from, for sharing the server fairly: its client's address (the port
names a connection, and one client may open many), or its token where calls need one;
and the calls each one has in flight, at most a number, so that one address (or token)
cannot hold every place of the queue however many connections it opens.

Behind a proxy (an ingress, a load balancer, a NAT gateway) every call comes from the
proxy's address: a proxy the server trusts (serve --trusted-proxy) says whose call it
passes on, in the `Forwarded` header (RFC 7239) or `X-Forwarded-For`, which reach the
servicer as metadata on both faces (a gRPC proxy such as Envoy or nginx sets them as
HTTP/2 headers). What any other peer says is ignored: a client could claim any
address."""

from __future__ import annotations

import ipaddress
import re
import threading
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
# The hops of a forwarding header read, from the nearest: a longer chain is all
# proxies or all made up, and the nearest untrusted hop is among the first few anyway.
MAX_HOPS = 32
MAX_HOP_CHARACTERS = 64  # an address with a port and brackets; longer is not one


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


def network(text: str) -> Network:
    """A network in CIDR notation (a lone address is its own network of one), else
    ValueError naming it."""
    if not text.isascii():
        raise ValueError(f"{text!r} is not an address or a network such as 10.0.0.0/8")
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise ValueError(f"{text!r} is not an address or a network such as "
                         "10.0.0.0/8") from None


class Proxies:
    """The proxies whose word on a call's client is taken: `client` is the address of a
    call's peer or, when the peer is one of these, of the nearest hop before it that is
    not (the chain's first hop when every one is)."""

    def __init__(self, trusted: Sequence[Network] = ()) -> None:
        self.trusted = tuple(trusted)

    def client(self, peer: str, metadata: Iterable[tuple[str, str | bytes]]) -> str:
        """The client's address of a call from `peer` (as gRPC writes it) with these
        headers or metadata."""
        address = address_of(peer)
        if not self.trusted or not self._is_trusted(address):
            return address
        hops = _hops(metadata)
        for hop in hops:
            if not self._is_trusted(hop):
                return hop
        return hops[-1] if hops else address

    def _is_trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)


_FOR = re.compile(r'(?:^|;)\s*for\s*=\s*("[^"]*"|[^;,\s]*)', re.IGNORECASE)


def _hops(metadata: Iterable[tuple[str, str | bytes]]) -> list[str]:
    """The forwarding chain's addresses, the nearest first: `Forwarded`'s `for=` where
    it is given, else `X-Forwarded-For`'s; several headers read in order."""
    forwarded: list[str] = []
    xff: list[str] = []
    for key, value in metadata:
        text = value.decode("latin-1") if isinstance(value, bytes) else value
        name = key.lower()
        if name == "forwarded":
            forwarded += [match.group(1) if (match := _FOR.search(element)) else ""
                          for element in text.split(",")]
        elif name == "x-forwarded-for":
            xff += text.split(",")
    chain = forwarded or xff
    return [_host(hop) for hop in reversed(chain[-MAX_HOPS:]) if hop.strip()]


def _host(hop: str) -> str:
    """A hop's address without quotes, brackets and port ("[2001:db8::1]:4711" is
    2001:db8::1, 192.0.2.43:47011 is 192.0.2.43); what is no address stays as written
    (RFC 7239's "unknown", an obfuscated name), cut to MAX_HOP_CHARACTERS."""
    hop = hop.strip().strip('"')[:MAX_HOP_CHARACTERS]
    if hop.startswith("["):
        return hop[1:].partition("]")[0]
    if hop.count(":") == 1:
        return hop.partition(":")[0]
    return hop


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
