"""The HTTP ports' connections kept within bounds that a slow or silent client cannot
stretch, in front of uvicorn's own protocol: at most `max_connections` open (a new one
past it closes the connection that has waited longest for a request, or when every one
is answering a call, is itself answered 503 and closed), a request's headers and body must
arrive within `request_seconds` of the connection's start or of the previous answer,
an idle keep-alive connection closes after `idle_seconds` (uvicorn's own timer),
replies leave without Nagle's delay (TCP_NODELAY), and bytes that are not HTTP are a
400 with one line.
"""

from __future__ import annotations

import asyncio
import functools
import socket
from dataclasses import dataclass, field
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from service.refusals import BAD_BYTES, CONNECTION_CAP, SLOW_REQUEST, Refusals


@dataclass
class Guard:
    """The limits of one HTTP port, and its connections open now: `waiting` those
    with no request under way, oldest first (dicts keep their order)."""

    max_connections: int
    request_seconds: float
    idle_seconds: int  # uvicorn's keep-alive timer takes whole seconds
    refusals: Refusals
    open: int = field(default=0, init=False)
    waiting: dict[_GuardedH11, None] = field(default_factory=dict, init=False)

    def make_room(self) -> bool:
        """Below the cap, or made so by closing the connection that has waited longest
        for a request; False when every connection is answering a call."""
        if self.open < self.max_connections:
            return True
        if not self.waiting:
            return False
        oldest = next(iter(self.waiting))
        oldest.evict()
        return True


def guarded_protocol(guard: Guard) -> Any:
    """The protocol factory uvicorn takes as its `http` setting."""
    return functools.partial(_GuardedH11, guard=guard)


_FULL = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
         b"connection: close\r\ncontent-length: %d\r\n\r\n%s")


class _GuardedH11(H11Protocol):
    def __init__(self, *args: Any, guard: Guard, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._guard = guard
        self._admitted = False  # counted among the open connections
        self._refused = False  # answered 503 at the cap: uvicorn never saw it
        self._timer: asyncio.TimerHandle | None = None
        self._answered: object = None  # the cycle last answered: the next is awaited

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        guard = self._guard
        if not guard.make_room():
            text = (f"this server has {guard.max_connections} connections open, the most "
                    "it keeps (--max-connections): try again shortly\n").encode()
            self._refused = True
            transport.write(_FULL % (len(text), text))
            transport.close()
            peer = transport.get_extra_info("peername")
            guard.refusals.log(CONNECTION_CAP, {"status": 503, "peer": str(peer),
                                                "details": text.decode().strip()})
            return
        self._admitted = True
        guard.open += 1
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
        self._await_request()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return
        self._release()
        super().connection_lost(exc)

    def _release(self) -> None:
        """No longer counted: closed, or closing to make room."""
        if self._admitted:
            self._admitted = False
            self._guard.open -= 1
            self._guard.waiting.pop(self, None)
            self._stop_timer()

    def evict(self) -> None:
        """Close this connection, which has waited longest for a request, for a new one."""
        self._guard.refusals.log(CONNECTION_CAP, {
            "status": "closed", "peer": str(self.client),
            "details": f"{self._guard.max_connections} connections open (--max-connections): "
                       "the one waiting longest for a request closed for a new one"})
        self._release()
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        try:
            super().data_received(data)
        except Exception as error:  # bytes h11 took but uvicorn cannot read (a non-ASCII path)
            text = f"the request cannot be read: {type(error).__name__}"
            self._guard.refusals.log(BAD_BYTES, {"status": 400, "peer": str(self.client),
                                                 "details": text})
            try:
                self.send_400_response(text)
            except Exception:  # an answer already under way: end the connection instead
                self.transport.close()
            return
        cycle = self.cycle
        if cycle is not None and cycle is not self._answered and not cycle.more_body:
            self._stop_timer()  # the whole request is here: the application has it
            self._guard.waiting.pop(self, None)

    def on_response_complete(self) -> None:
        self._answered = self.cycle
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_request()

    def _await_request(self) -> None:
        self._stop_timer()
        self._timer = self.loop.call_later(self._guard.request_seconds, self._too_slow)
        self._guard.waiting[self] = None

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        """No whole request within the time: the connection is closed (a silent one
        too: an idle keep-alive is closed sooner, by uvicorn's own timer)."""
        self._timer = None
        if self.transport.is_closing():
            return
        self._guard.refusals.log(SLOW_REQUEST, {
            "status": 408, "peer": str(self.client),
            "details": f"no whole request within {self._guard.request_seconds:g} s"})
        self.transport.close()
