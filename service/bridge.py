"""The servicer's blocking methods run on threads for the server's asynchronous faces
(gRPC and HTTP): a call takes one of a fixed number of slots only once its request has
arrived, so a client that opens calls and sends nothing holds no thread and no slot.

Each face makes a CallContext (the part of grpc.ServicerContext the servicer uses) from
its own request and turns a refusal or an abort into its own protocol's error.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, NoReturn, TypeVar

import grpc

from service.refusals import CALL_SLOTS, Aborted, Refusals

T = TypeVar("T")


class CallContext:
    """One call as the servicer sees it: its metadata, its peer, its deadline, whether
    its client is still there; what it sets to send back is kept in `trailing`."""

    def __init__(self, metadata: tuple[tuple[str, str], ...], peer: str,
                 time_remaining: float | None) -> None:
        self.hung_up = threading.Event()
        self.trailing: tuple[tuple[str, str], ...] = ()
        self.request_bytes = 0  # the request's size, once read
        self._metadata = metadata
        self._peer = peer
        self._deadline = None if time_remaining is None else time.monotonic() + time_remaining

    def peer(self) -> str:
        return self._peer

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return self._metadata

    def set_trailing_metadata(self, metadata: tuple[tuple[str, str], ...]) -> None:
        self.trailing = tuple(metadata)

    def is_active(self) -> bool:
        return not self.hung_up.is_set()

    def time_remaining(self) -> float | None:
        return None if self._deadline is None else max(self._deadline - time.monotonic(), 0.0)

    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn:
        raise Aborted(code, details)


class Bridge:
    """A fixed pool of threads for the servicer's calls, and the slots that admit them: a
    slot is free again when its thread is done, not when its client leaves."""

    def __init__(self, slots: int, refusals: Refusals) -> None:
        self.slots = slots
        self._threads = ThreadPoolExecutor(slots, thread_name_prefix="call")
        self._refusals = refusals
        self._taken = 0
        self._lock = threading.Lock()

    def _take(self, method: str, context: CallContext) -> None:
        with self._lock:
            free = self._taken < self.slots
            if free:
                self._taken += 1
        if not free:
            raise self._refusals.refuse(
                CALL_SLOTS, method, grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the server is answering {self.slots} calls, the most it takes at once: "
                "send the call again shortly, or to another replica", context.peer())

    def _free(self, _: object = None) -> None:
        with self._lock:
            self._taken -= 1

    async def unary(self, method: str, call: Callable[[Any, Any], T], request: Any,
                    context: CallContext) -> T:
        """`call(request, context)` on a thread; the caller's cancellation (its client
        hung up) tells the servicer, which stops the search."""
        self._take(method, context)
        try:
            work = self._threads.submit(call, request, context)
        except BaseException:
            self._free()
            raise
        work.add_done_callback(self._free)
        try:
            return await asyncio.wrap_future(work)
        finally:
            context.hung_up.set()

    async def stream(self, method: str,
                     call: Callable[[Any, Any], Generator[T, None, None]], request: Any,
                     context: CallContext) -> AsyncIterator[T]:
        """The responses of `call(request, context)`, made on one thread that runs at most
        `_AHEAD` responses ahead of the client (a hop to a thread per response cost a
        SolveBatch more than its searches); a stream cut short (its client gone) is
        closed by that thread once the step under way returns."""
        self._take(method, context)
        pipe: _Pipe[T] = _Pipe(asyncio.get_running_loop())
        try:
            work = self._threads.submit(pipe.pump, call, request, context)
        except BaseException:
            self._free()
            raise
        work.add_done_callback(self._free)
        try:
            while (item := await pipe.get()) is not None:
                yield item
        finally:
            context.hung_up.set()
            pipe.stop()

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)


_AHEAD = 64  # responses a stream's thread may make before its client has taken them


class _Failed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


class _Pipe(Generic[T]):
    """A stream's responses from its thread to the event loop: the thread appends and
    waits while `_AHEAD` are unread; the loop is woken only when it waits for one."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._items: deque[T | _Failed | None] = deque()  # None: the stream's end
        self._room = threading.Condition()
        self._stopped = False  # the client is gone: make no more
        self._waiting = False  # the loop waits on `_ready`
        self._ready = asyncio.Event()

    def pump(self, call: Callable[[Any, Any], Generator[T, None, None]], request: Any,
             context: CallContext) -> None:
        """On the thread: every response of the call, then its end or its error."""
        results = call(request, context)
        try:
            for item in results:
                if not self._put(item):
                    return
            self._put(None)
        except BaseException as error:  # an abort, a fault: the loop raises it
            self._put(_Failed(error))
        finally:
            results.close()

    def _put(self, item: T | _Failed | None) -> bool:
        with self._room:
            while len(self._items) >= _AHEAD and not self._stopped:
                self._room.wait()
            if self._stopped:
                return False
            self._items.append(item)
            wake, self._waiting = self._waiting, False
        if wake:
            with contextlib.suppress(RuntimeError):  # the loop has closed: no one reads
                self._loop.call_soon_threadsafe(self._ready.set)
        return True

    async def get(self) -> T | None:
        """The next response, or None at the stream's end; the call's error is raised."""
        while True:
            with self._room:
                if self._items:
                    item = self._items.popleft()
                    self._room.notify()
                    break
                self._waiting = True
                self._ready.clear()
            await self._ready.wait()
        if isinstance(item, _Failed):
            raise item.error
        return item

    def stop(self) -> None:
        """The client is gone: the thread makes nothing more."""
        with self._room:
            self._stopped = True
            self._room.notify_all()
