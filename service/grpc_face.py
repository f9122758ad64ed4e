"""The Solver RPCs on the asynchronous gRPC server, every method found from the service
descriptor and answered by the servicer through the bridge.

Each call reads its one request itself, so that what a client may hold without sending
is bounded: a call whose request has not arrived within `receive_seconds` is ended, one
connection has at most `streams_per_connection` calls open, a request larger than its
method takes (service/sizes.py) is refused before it is decoded, and only a call whose
request has arrived takes a slot (a thread). Bytes that are not the request message
are INVALID_ARGUMENT, through the servicer's own checks and log line.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, contextmanager
from typing import Any, cast

import grpc
from google.protobuf.message import DecodeError, Message

from service.api import fortress_solver_pb2 as pb
from service.bridge import Bridge, CallContext
from service.memory import Trimmer
from service.refusals import SLOW_REQUEST, STREAM_CAP, TOO_LARGE, Aborted, Refusals
from service.servicer import SolverServicer
from service.sizes import RequestSizes

SERVICE = pb.DESCRIPTOR.services_by_name["Solver"]

Handler = Callable[[AsyncIterator[bytes], grpc.aio.ServicerContext[Any, Any]], Any]


class SolverFace:
    """The generic handler of the Solver service for a grpc.aio server."""

    def __init__(self, servicer: SolverServicer, bridge: Bridge, refusals: Refusals,
                 receive_seconds: float, streams_per_connection: int,
                 trimmer: Trimmer, sizes: RequestSizes) -> None:
        self._servicer = servicer
        self._sizes = sizes
        self._trimmer = trimmer
        self._bridge = bridge
        self._refusals = refusals
        self.receive_seconds = receive_seconds
        self.streams_per_connection = streams_per_connection
        self._open: Counter[str] = Counter()  # calls open per connection (its peer)

    def handler(self) -> grpc.GenericRpcHandler:
        """Every method read as a client stream (so that this face reads the request,
        with its time limit), its answer one message or a stream as the proto says."""
        handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
        for method in SERVICE.methods:
            read = getattr(pb, method.input_type.name).FromString
            write = getattr(pb, method.output_type.name).SerializeToString
            if method.server_streaming:
                handlers[method.name] = grpc.stream_stream_rpc_method_handler(
                    self._streamed(method.name, read), response_serializer=write)
            else:
                handlers[method.name] = grpc.stream_unary_rpc_method_handler(
                    self._unary(method.name, read), response_serializer=write)
        return grpc.method_handlers_generic_handler(SERVICE.full_name, handlers)

    def _unary(self, name: str, read: Callable[[bytes], Message]) -> Handler:
        call = getattr(self._servicer, name)

        async def answer(_: AsyncIterator[bytes],
                         context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            async with self._call(name, read, context) as (request, mine):
                return await self._bridge.unary(name, call, request, mine)

        return answer

    def _streamed(self, name: str, read: Callable[[bytes], Message]) -> Handler:
        call = getattr(self._servicer, name)

        async def answers(_: AsyncIterator[bytes],
                          context: grpc.aio.ServicerContext[Any, Any]) -> AsyncIterator[Any]:
            async with self._call(name, read, context) as (request, mine):
                async for item in self._bridge.stream(name, call, request, mine):
                    yield item

        return answers

    @asynccontextmanager
    async def _call(self, name: str, read: Callable[[bytes], Message],
                    context: grpc.aio.ServicerContext[Any, Any]
                    ) -> AsyncIterator[tuple[Any, CallContext]]:
        """One call: counted among its connection's, its request read, then what the
        servicer set to send back sent, and its abort (or a refusal) made gRPC's."""
        mine = _context(context)
        try:
            with self._opened(name, mine):
                yield await self._request(name, read, context, mine), mine
            context.set_trailing_metadata(mine.trailing)
        except Aborted as ended:
            context.set_trailing_metadata(mine.trailing)
            await context.abort(ended.code, ended.details)
        finally:
            mine.hung_up.set()
            self._trimmer.note(mine.request_bytes)

    @contextmanager
    def _opened(self, name: str, context: CallContext) -> Any:
        """The call counted among its connection's open calls, or refused past the cap."""
        peer = context.peer()
        if self._open[peer] >= self.streams_per_connection:
            raise self._refusals.refuse(
                STREAM_CAP, name, grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"this connection already has {self.streams_per_connection} calls open, "
                "the most one connection may (--max-streams-per-connection): wait for one "
                "to end, or open another connection", peer)
        self._open[peer] += 1
        try:
            yield
        finally:
            self._open[peer] -= 1
            if not self._open[peer]:
                del self._open[peer]

    async def _request(self, name: str, read: Callable[[bytes], Message],
                       context: grpc.aio.ServicerContext[Any, Any], mine: CallContext) -> Any:
        """The call's one request message, read within the time limit and decoded."""
        try:
            raw = await asyncio.wait_for(context.read(), self.receive_seconds)
        except TimeoutError:
            raise self._refusals.refuse(
                SLOW_REQUEST, name, grpc.StatusCode.DEADLINE_EXCEEDED,
                f"the request did not arrive within {self.receive_seconds:g} s of the "
                "call's start (--receive-seconds)", mine.peer()) from None
        if raw is grpc.aio.EOF:
            remaining = context.time_remaining()
            if context.cancelled() or context.done() or (remaining is not None
                                                         and remaining <= 0):
                raise asyncio.CancelledError  # the client left, or its deadline passed
            self._servicer.refuse_unreadable(name, "the call ended before its request",
                                             cast(grpc.ServicerContext, mine))
        mine.request_bytes = len(raw)
        too_large = self._sizes.fault(name, len(raw))
        if too_large is not None:
            raise self._refusals.refuse(TOO_LARGE, name, grpc.StatusCode.RESOURCE_EXHAUSTED,
                                        too_large, mine.peer())
        try:
            return read(raw)
        except DecodeError as error:
            self._servicer.refuse_unreadable(name, f"cannot read the request: {error}",
                                             cast(grpc.ServicerContext, mine))


def _context(context: grpc.aio.ServicerContext[Any, Any]) -> CallContext:
    metadata = tuple((key, value if isinstance(value, str) else value.decode("latin-1"))
                     for key, value in context.invocation_metadata() or ())
    return CallContext(metadata, context.peer(), context.time_remaining())
