"""The service's face for browsers and curl: the same RPCs over HTTP/1.1 in the Connect
protocol (JSON or binary bodies), beside the playground page at `/` and the rules it
links to (service/rules_routes.py).

Every call goes to the gRPC servicer itself through the bridge (service/bridge.py), so
it shares the slots, the worker pool, the hint cache, the limits, the deadlines
(`Connect-Timeout-Ms`), the cancellation (a client that hangs up stops its search) and
the error codes: an error is the protocol's JSON error with the gRPC status's code and
message. What reaches the application is checked first (service/guard.py: the
connections, their timeouts and their bytes; here: the Host, the content type and the
headers' bytes), so client garbage is a 4xx with one line, never a traceback.
"""

from __future__ import annotations

import json
import socket
import ssl
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable, Generator, Sequence
from typing import Any, TypeVar

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
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.api import fortress_solver_pb2 as pb
from service.api.fortress_solver_connect import SolverASGIApplication
from service.bridge import Bridge, CallContext
from service.guard import Guard, guarded_protocol
from service.memory import Trimmer
from service.refusals import BAD_BYTES, BAD_HOST, TOO_LARGE, UNAUTHENTICATED, Aborted
from service.rules_routes import routes as rules_routes
from service.servicer import SolverServicer
from service.sizes import RequestSizes
from service.tls import ServerTls
from service.tokens import Unauthenticated

T = TypeVar("T")

# What a browser may send and read across origins (the Connect protocol's headers).
_ALLOWED_HEADERS = ["Content-Type", "Connect-Protocol-Version", "Connect-Timeout-Ms",
                    "Connect-Accept-Encoding", "Connect-Content-Encoding", "X-User-Agent",
                    "Authorization", "X-Request-Id"]
_EXPOSED_HEADERS = ["Content-Encoding", "Connect-Content-Encoding", "X-Request-Id"]

# The Connect protocol's bodies: unary calls, then streams.
_CONTENT_TYPES = {b"application/json", b"application/proto",
                  b"application/connect+json", b"application/connect+proto"}

# The Connect protocol's error codes of the refusals an RPC gets as its JSON error (the
# others, a Host or a content type refused, are plain HTTP errors, as the protocol has it).
# A body too large is the request's fault, not the server's capacity: 413, not 429.
_CONNECT_CODES = {400: "invalid_argument", 401: "unauthenticated", 413: "invalid_argument",
                  429: "resource_exhausted"}

# The most bytes of a body past its limit that are read and dropped before the 413 (so
# that a client still sending reads it); a body declared larger still is refused unread.
_DISCARDED_BYTES = 8 << 20

# The page may load only itself, and no other site may frame it.
_PAGE_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; "
                                 b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]

# The names a loopback-bound server answers to, whatever the port (--allowed-host adds).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def _context(ctx: RequestContext[Any, Any]) -> CallContext:
    """The call as the servicer sees it: the client's address as gRPC writes it
    ("ipv4:127.0.0.1:53422"), the headers as metadata, the deadline."""
    address = ctx.client_address
    if address is None:
        peer = "http"
    else:
        host, _, port = address.rpartition(":")
        peer = f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{address}"
    timeout_ms = ctx.timeout_ms
    return CallContext(tuple(ctx.request_headers.allitems()), peer,
                       None if timeout_ms is None else timeout_ms / 1000)


def _code(status: grpc.StatusCode) -> Code:
    return Code.CANCELED if status is grpc.StatusCode.CANCELLED else Code[status.name]


def _send_back(context: CallContext, ctx: RequestContext[Any, Any]) -> None:
    """The call's trailing metadata as response headers (errors carry them too)."""
    for key, value in context.trailing:
        ctx.response_headers[key] = value


class _Solver:
    """The generated Connect service (fortress_solver_connect.Solver) over the servicer."""

    def __init__(self, servicer: SolverServicer, bridge: Bridge) -> None:
        self._servicer = servicer
        self._bridge = bridge

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
        context = _context(ctx)
        try:
            answer = await self._bridge.unary(method.__name__, method, request, context)
        except Aborted as ended:
            _send_back(context, ctx)
            raise ConnectError(_code(ended.code), ended.details) from None
        _send_back(context, ctx)
        return answer

    async def _stream(self, method: Callable[[Any, Any], Generator[T, None, None]],
                      request: Any, ctx: RequestContext[Any, Any]) -> AsyncIterator[T]:
        context = _context(ctx)
        try:
            async for item in self._bridge.stream(method.__name__, method, request, context):
                yield item
        except Aborted as ended:
            _send_back(context, ctx)
            raise ConnectError(_code(ended.code), ended.details) from None
        _send_back(context, ctx)


class _Checked:
    """What reaches the application, checked: the Host (a name this server answers
    to), the RPCs' content types, header bytes that are text, the token (before a byte
    of the body is read), and the body, counted as it arrives (chunked or not) and held
    to its method's limit; a redirect names no host (the client's Host is never sent
    back) and the page carries its security headers."""

    def __init__(self, app: ASGIApp, rpc_path: str, hosts: Sequence[str] | None,
                 servicer: SolverServicer, trimmer: Trimmer, sizes: RequestSizes) -> None:
        self._app = app
        self._sizes = sizes
        self._trimmer = trimmer
        self._rpc_path = rpc_path
        self._hosts = None if hosts is None else {host.lower() for host in hosts}
        self._refusals = servicer.refusals
        self._tokens = servicer.tokens

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self._app(scope, receive, send)
        rpc = scope["path"].startswith(self._rpc_path)
        fault = self._fault(scope, rpc)
        body, read = b"", 0
        if fault is None or fault[1] != TOO_LARGE:  # a refusal too is sent once it is read
            body, read, too_large = await self._body(scope, receive)
            fault = fault or too_large
        if fault is not None:
            status, cause, text = fault
            self._refusals.log(cause, {"method": scope["path"][:80], "status": status,
                                       "peer": _peer(scope), "details": text})
            code = _CONNECT_CODES.get(status) if rpc else None
            await _refuse(send, status, text, code)
            return self._trimmer.note(read)

        async def checked_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(key, _relative(value) if key == b"location" else value)
                           for key, value in message.get("headers", [])]
                if not rpc:
                    headers += _PAGE_HEADERS
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self._app(scope, _replay(body, receive), checked_send)
        finally:
            self._trimmer.note(read)

    def _fault(self, scope: Scope, rpc: bool) -> tuple[int, str, str] | None:
        """(status, cause, one line) for a request refused by its headers alone."""
        headers: list[tuple[bytes, bytes]] = scope["headers"]
        for key, value in headers:
            try:
                value.decode("utf-8")
            except UnicodeDecodeError:
                return 400, BAD_BYTES, (f"header {key.decode('latin-1')!r} holds bytes that "
                                        "are not UTF-8")
        if self._hosts is not None:
            host = next((value for key, value in headers if key == b"host"), b"")
            try:
                name = urllib.parse.urlsplit("//" + host.decode()).hostname
            except ValueError:  # "[" or a character NFKC turns into a delimiter
                return 400, BAD_HOST, f"the Host header {host.decode()!r} is not a host name"
            if name not in self._hosts:
                return 421, BAD_HOST, (f"this server does not answer to the host "
                                       f"{host.decode()!r} (serve --allowed-host adds one)")
        if rpc and scope["method"] == "POST":
            kind = next((value for key, value in headers if key == b"content-type"), b"")
            if kind.split(b";")[0].strip().lower() not in _CONTENT_TYPES:
                return 415, BAD_BYTES, (f"content type {kind.decode()!r} is not served here: "
                                        "send application/json or application/proto "
                                        "(Connect), or call the gRPC port")
            if self._tokens is not None:
                metadata = [(key.decode(), value.decode()) for key, value in headers]
                try:
                    self._tokens.known(metadata)
                except Unauthenticated as refused:
                    return 401, UNAUTHENTICATED, str(refused)
        length = next((value for key, value in headers if key == b"content-length"), b"")
        method = scope["path"].rpartition("/")[2]
        if length.isdigit() and int(length) > self._sizes.limit(method) + _DISCARDED_BYTES:
            return 413, TOO_LARGE, self._sizes.fault(method, int(length)) or ""
        return None

    async def _body(self, scope: Scope, receive: Receive
                    ) -> tuple[bytes, int, tuple[int, str, str] | None]:
        """The request's body, counted as it arrives; past its method's limit the rest
        is read and dropped (up to _DISCARDED_BYTES more) so that the client, done
        sending, reads the 413 that follows. (body, bytes read, fault)"""
        method = scope["path"].rpartition("/")[2]
        limit = self._sizes.limit(method)
        pieces: list[bytes] = []
        size = 0
        more = True
        while more and size <= limit + _DISCARDED_BYTES:
            message = await receive()
            if message["type"] != "http.request":  # the client left: nothing to answer
                break
            piece: bytes = message.get("body", b"")
            size += len(piece)
            if size <= limit:
                pieces.append(piece)
            more = message.get("more_body", False)
        too_large = self._sizes.fault(method, size, "at least " if more else "")
        if too_large is not None:
            return b"", size, (413, TOO_LARGE, too_large)
        return b"".join(pieces), size, None


def _replay(body: bytes, receive: Receive) -> Receive:
    """`receive` for the application: the body already read, then what comes after
    (the client's leaving)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _peer(scope: Scope) -> str:
    client = scope.get("client")
    return "http" if client is None else f"ipv4:{client[0]}:{client[1]}"


def _relative(location: bytes) -> bytes:
    """A redirect's target without its scheme and host: the path, query and fragment."""
    parts = urllib.parse.urlsplit(location)
    return urllib.parse.urlunsplit((b"", b"", parts.path or b"/", parts.query, parts.fragment))


async def _refuse(send: Send, status: int, text: str, code: str | None) -> None:
    """The refusal as the protocol's JSON error with its `code`, or as one line of text."""
    if code is None:
        kind, body = b"text/plain; charset=utf-8", (text + "\n").encode()
    else:
        kind, body = b"application/json", json.dumps({"code": code, "message": text}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def application(servicer: SolverServicer, bridge: Bridge, trimmer: Trimmer,
                sizes: RequestSizes, cors_origins: Sequence[str] = (),
                hosts: Sequence[str] | None = None) -> ASGIApp:
    """The ASGI application: the RPCs and the page, behind the checks. `hosts`: the
    names the server answers to (None: any)."""
    # a field the message does not have is refused, as a typo should be, not dropped
    codecs = [google_protobuf_binary_codec(),
              google_protobuf_json_codec(ignore_unknown_fields=False)]
    rpcs = SolverASGIApplication(_Solver(servicer, bridge), codecs=codecs,
                                 read_max_bytes=sizes.request_bytes)
    app = Starlette(
        routes=[Mount(rpcs.path, app=rpcs), *rules_routes(),
                Mount("/", app=StaticFiles(packages=[("service", "playground")], html=True))],
        middleware=[Middleware(CORSMiddleware, allow_origins=list(cors_origins),
                               allow_methods=["GET", "POST"], allow_headers=_ALLOWED_HEADERS,
                               expose_headers=_EXPOSED_HEADERS, max_age=7200)])
    return _Checked(app, rpcs.path, hosts, servicer, trimmer, sizes)


def _uvicorn_tls(tls: ServerTls | None) -> dict[str, Any]:
    if tls is None:
        return {}
    settings: dict[str, Any] = {"ssl_certfile": tls.cert, "ssl_keyfile": tls.key}
    if tls.client_ca is not None:
        settings |= {"ssl_ca_certs": str(tls.client_ca), "ssl_cert_reqs": ssl.CERT_REQUIRED}
    return settings


class HttpServer:
    """An ASGI application served on its own thread behind the guard (a connection cap,
    the time a request may take to arrive, the keep-alive's idle time); `port` is the
    one bound (0 picks a free one)."""

    def __init__(self, app: ASGIApp, host: str, port: int, guard: Guard,
                 tls: ServerTls | None = None, name: str = "http") -> None:
        """`tls`: serve HTTPS with the gRPC port's certificate (and its client CA)."""
        self._socket = socket.create_server((host, port), reuse_port=False)
        self.port: int = self._socket.getsockname()[1]
        self.guard = guard
        # backlog: connections accepted in one go (each a file, before the guard sees it)
        config = uvicorn.Config(app, log_level="warning", lifespan="off", backlog=64,
                                http=guarded_protocol(guard),
                                timeout_keep_alive=guard.idle_seconds,
                                timeout_graceful_shutdown=1, **_uvicorn_tls(tls))
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run,
                                        kwargs={"sockets": [self._socket]},
                                        name=name, daemon=True)
        self._thread.start()
        while not self._server.started and self._thread.is_alive():
            time.sleep(0.01)
        if not self._server.started:
            raise OSError(f"cannot serve HTTP on {host}:{port}")

    def stop(self) -> None:
        """Close the connections and the port: the calls have answered by now (the
        server's stop cut them short), so their answers get uvicorn's 1 s to go out."""
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._socket.close()
