"""Calls and connections the server refuses, counted by cause and logged at a rate no
client can raise: the first of a cause is logged at once, then at most one line per
cause every `window` seconds, which says how many it leaves out. A flood of bad or
refused calls therefore costs the log a few lines a minute, and the counts (read by
the metrics at each scrape) stay exact.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import grpc

log = logging.getLogger("fortress_solver.calls")

# The causes, as the metrics label them.
QUEUE_FULL = "queue full"  # every worker busy and the queue full
TOKEN_LIMIT = "token limit"  # --max-calls-per-token
ADDRESS_LIMIT = "address limit"  # --max-calls-per-address
CALL_SLOTS = "call slots"  # every thread of the server answering a call
STREAM_CAP = "stream cap"  # --max-streams-per-connection
CONNECTION_CAP = "connection cap"  # --max-connections, on the HTTP face
SLOW_REQUEST = "slow request"  # the request did not arrive within --receive-seconds
TOO_LARGE = "too large"  # a request larger than its method takes (--max-position-bytes)
UNAUTHENTICATED = "unauthenticated"  # no token, or one the server does not accept
BAD_BYTES = "bad bytes"  # bytes that are not the protocol's or the request's
BAD_HOST = "bad host"  # an HTTP Host the server does not answer to (--allowed-host)
BAD_INPUT = "bad input"  # a request that is read but refused (INVALID_ARGUMENT, ...)
DRAINING = "draining"  # a call while the server stops


class Aborted(Exception):
    """A call ends with this status: the servicer's context.abort(), or a refusal."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details


class Refusals:
    """The refusals of one server: `counts` by cause, and their rate-limited log."""

    def __init__(self, window: float = 10.0,
                 observe: Callable[[str, str | None, str, float], None] | None = None) -> None:
        """`observe(method, game, status, seconds)`: where a call refused before it
        reached the servicer is counted with the calls (the metrics), if anywhere."""
        self.window = window
        self.counts: dict[str, int] = {}
        self.observe = observe
        self._last: dict[str, float] = {}  # when each cause was last logged
        self._unlogged: dict[str, int] = {}  # refusals of each cause since then
        self._lock = threading.Lock()

    def refuse(self, cause: str, method: str, code: grpc.StatusCode, details: str,
               peer: str = "") -> Aborted:
        """A call refused before the servicer saw it: counted as a call and as a
        refusal, logged at the rate; the error to raise, for the face to send."""
        if self.observe is not None:
            self.observe(method, None, code.name, 0.0)
        self.log(cause, {"method": method, "game": None, "status": code.name, "ms": 0.0,
                         "peer": peer, "details": details})
        return Aborted(code, details)

    def log(self, cause: str, line: dict[str, Any]) -> None:
        """Count one refusal of `cause` and log `line` (with `"refused": cause`) unless
        a line of that cause went out less than `window` seconds ago."""
        now = time.monotonic()
        with self._lock:
            self.counts[cause] = self.counts.get(cause, 0) + 1
            last = self._last.get(cause)
            if last is not None and now - last < self.window:
                self._unlogged[cause] = self._unlogged.get(cause, 0) + 1
                return
            self._last[cause] = now
            unlogged = self._unlogged.pop(cause, 0)
        line = {**line, "refused": cause}
        if unlogged:
            line["unlogged"] = unlogged  # refusals of this cause since its last line
        log.info(json.dumps(line))

    def flush(self) -> None:
        """Log how many refusals of each cause went unlogged (at a stop)."""
        with self._lock:
            unlogged, self._unlogged = self._unlogged, {}
        for cause, count in unlogged.items():
            log.info(json.dumps({"refused": cause, "unlogged": count}))


class RateLimit(logging.Filter):
    """A log filter that passes the first record of each kind (logger and message
    template) and then at most one every `window` seconds, saying how many it held."""

    def __init__(self, window: float) -> None:
        super().__init__()
        self.window = window
        self._last: dict[tuple[str, str], float] = {}
        self._held: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, str(record.msg))
        now = time.monotonic()
        with self._lock:
            last = self._last.get(kind)
            if last is not None and now - last < self.window:
                self._held[kind] = self._held.get(kind, 0) + 1
                return False
            self._last[kind] = now
            held = self._held.pop(kind, 0)
        if held:
            record.msg = f"{record.msg} (and {held} more like it in {self.window:g} s)"
        return True
