"""The service's face for browsers and curl: the same RPCs over HTTP/1.1 in the Connect
protocol (JSON or binary bodies), beside the playground page at `/`.

Every call goes to the gRPC servicer itself, on a thread of its own, so it shares the
worker pool, the hint cache, the limits, the deadlines (`Connect-Timeout-Ms`), the
cancellation (a client that hangs up stops its search) and the error codes: an error is
the protocol's JSON error with the gRPC status's code and message.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import threading
import time
from collections.abc import AsyncIterator, Callable, Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NoReturn, TypeVar

import grpc
import uvicorn
from connectrpc.code import Code
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_json_codec
from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from service.api import fortress_solver_pb2 as pb
from service.api.fortress_solver_connect import SolverASGIApplication
from service.servicer import SolverServicer
from service.tls import ServerTls

log = logging.getLogger("fortress_solver.http")

T = TypeVar("T")

# What a browser may send and read across origins (the Connect protocol's headers).
_ALLOWED_HEADERS = ["Content-Type", "Connect-Protocol-Version", "Connect-Timeout-Ms",
                    "Connect-Accept-Encoding", "Connect-Content-Encoding", "X-User-Agent",
                    "Authorization", "X-Request-Id"]
_EXPOSED_HEADERS = ["Content-Encoding", "Connect-Content-Encoding", "X-Request-Id"]


class _Context:
    """The part of grpc.ServicerContext the servicer uses, for one HTTP call."""

    def __init__(self, ctx: RequestContext[Any, Any]) -> None:
        self.hung_up = threading.Event()
        self._ctx = ctx
        timeout_ms = ctx.timeout_ms
        self._deadline = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000

    def peer(self) -> str:
        """The client's address as gRPC writes it ("ipv4:127.0.0.1:53422"), for the log."""
        address = self._ctx.client_address
        if address is None:
            return "http"
        host, _, port = address.rpartition(":")
        return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{address}"

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        """The request's headers as gRPC's metadata: (name in lower case, value) pairs."""
        return tuple(self._ctx.request_headers.allitems())

    def set_trailing_metadata(self, metadata: tuple[tuple[str, str], ...]) -> None:
        """Sent as response headers, where an HTTP client looks (errors carry them too)."""
        for key, value in metadata:
            self._ctx.response_headers[key] = value

    def is_active(self) -> bool:
        return not self.hung_up.is_set()

    def time_remaining(self) -> float | None:
        return None if self._deadline is None else max(self._deadline - time.monotonic(), 0.0)

    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn:
        raise ConnectError(_code(code), details)


def _code(status: grpc.StatusCode) -> Code:
    return Code.CANCELED if status is grpc.StatusCode.CANCELLED else Code[status.name]


class _Solver:
    """The generated Connect service (fortress_solver_connect.Solver) over the servicer:
    each call runs the servicer's method on a thread, as gRPC would."""

    def __init__(self, servicer: SolverServicer, threads: int) -> None:
        self._servicer = servicer
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="http-call")

    async def solve(self, request: pb.SolveRequest, ctx: RequestContext[Any, Any]
                    ) -> pb.SolveResponse:
        return await self._unary(self._servicer.Solve, request, ctx)

    async def hint(self, request: pb.HintRequest, ctx: RequestContext[Any, Any]
                   ) -> pb.HintResponse:
        return await self._unary(self._servicer.Hint, request, ctx)

    async def get_server_info(self, request: pb.GetServerInfoRequest,
                              ctx: RequestContext[Any, Any]) -> pb.ServerInfo:
        return await self._unary(self._servicer.GetServerInfo, request, ctx)

    async def deal(self, request: pb.DealRequest, ctx: RequestContext[Any, Any]
                   ) -> pb.PlayResponse:
        return await self._unary(self._servicer.Deal, request, ctx)

    async def play(self, request: pb.PlayRequest, ctx: RequestContext[Any, Any]
                   ) -> pb.PlayResponse:
        return await self._unary(self._servicer.Play, request, ctx)

    def solve_batch(self, request: pb.SolveBatchRequest, ctx: RequestContext[Any, Any]
                    ) -> AsyncIterator[pb.BatchResult]:
        return self._stream(self._servicer.SolveBatch, request, ctx)

    def generate_deals(self, request: pb.GenerateDealsRequest, ctx: RequestContext[Any, Any]
                       ) -> AsyncIterator[pb.GeneratedDeal]:
        return self._stream(self._servicer.GenerateDeals, request, ctx)

    async def _unary(self, method: Callable[[Any, Any], T], request: Any,
                     ctx: RequestContext[Any, Any]) -> T:
        context = _Context(ctx)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._threads, method, request, context)
        finally:  # a hang-up cancels this task: the search sees the call is gone
            context.hung_up.set()

    async def _stream(self, method: Callable[[Any, Any], Generator[T, None, None]], request: Any,
                      ctx: RequestContext[Any, Any]) -> AsyncIterator[T]:
        context = _Context(ctx)
        loop = asyncio.get_running_loop()
        results = method(request, context)
        step = None
        try:
            while True:
                step = loop.run_in_executor(self._threads, next, results, None)
                item = await step
                if item is None:
                    return
                yield item
        finally:
            context.hung_up.set()
            if step is not None and not step.done():  # close it once its step returns
                step.add_done_callback(lambda _: results.close())
            else:
                results.close()

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)


def application(servicer: SolverServicer, cors_origins: Sequence[str] = (),
                threads: int = 32, max_request_bytes: int = 1 << 20
                ) -> tuple[Starlette, Callable[[], None]]:
    """The ASGI application (the RPCs, the page) and what closes its threads."""
    solver = _Solver(servicer, threads)
    # a field the message does not have is refused, as a typo should be, not dropped
    codecs = [google_protobuf_binary_codec(),
              google_protobuf_json_codec(ignore_unknown_fields=False)]
    rpcs = SolverASGIApplication(solver, codecs=codecs, read_max_bytes=max_request_bytes)
    app = Starlette(
        routes=[Mount(rpcs.path, app=rpcs),
                Mount("/", app=StaticFiles(packages=[("service", "playground")], html=True))],
        middleware=[Middleware(CORSMiddleware, allow_origins=list(cors_origins),
                               allow_methods=["GET", "POST"], allow_headers=_ALLOWED_HEADERS,
                               expose_headers=_EXPOSED_HEADERS, max_age=7200)])
    return app, solver.close


def _uvicorn_tls(tls: ServerTls | None) -> dict[str, Any]:
    if tls is None:
        return {}
    settings: dict[str, Any] = {"ssl_certfile": tls.cert, "ssl_keyfile": tls.key}
    if tls.client_ca is not None:
        settings |= {"ssl_ca_certs": str(tls.client_ca), "ssl_cert_reqs": ssl.CERT_REQUIRED}
    return settings


class HttpServer:
    """The HTTP face on its own thread; `port` is the one bound (0 picks a free one)."""

    def __init__(self, servicer: SolverServicer, host: str, port: int,
                 cors_origins: Sequence[str] = (), threads: int = 32,
                 max_request_bytes: int = 1 << 20, tls: ServerTls | None = None) -> None:
        """`tls`: serve HTTPS with the gRPC port's certificate (and its client CA)."""
        self._socket = socket.create_server((host, port), reuse_port=False)
        self.port: int = self._socket.getsockname()[1]
        app, self._close = application(servicer, cors_origins, threads, max_request_bytes)
        config = uvicorn.Config(app, log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=5, **_uvicorn_tls(tls))
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run,
                                        kwargs={"sockets": [self._socket]},
                                        name="http", daemon=True)
        self._thread.start()
        while not self._server.started and self._thread.is_alive():
            time.sleep(0.01)
        if not self._server.started:
            raise OSError(f"cannot serve HTTP on {host}:{port}")

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join()
        self._close()
        self._socket.close()
