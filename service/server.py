"""serve(): the gRPC server with health checking, reflection, a worker pool and a
graceful shutdown on SIGTERM/SIGINT; beside it, on request, the HTTP face (service/http.py)
over the same servicer, and the metrics.

The gRPC server is asynchronous, on an event loop of its own: a call waiting for its
request costs a coroutine, not a thread, and health and reflection are answered on the
loop whatever the Solver calls are doing. Each face bounds what one client may hold
(connections, calls per connection, the time a request may take to arrive), and the
process always ends: a stop that overstays the grace by 5 s is ended by a watchdog.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import resource
import signal
import socket
import threading
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from service.api import fortress_solver_pb2 as pb
from service.bridge import Bridge
from service.clients import Network, Proxies
from service.frontends import Settings, search_modules
from service.grpc_face import SolverFace
from service.guard import Guard
from service.http import LOOPBACK_HOSTS, HttpServer, application
from service.memory import Trimmer
from service.memory_plan import spelled
from service.messages import MAX_BATCH
from service.metrics import Metrics
from service.pool import WorkerPool
from service.refusals import RateLimit, Refusals
from service.servicer import SolverServicer
from service.sizes import RequestSizes
from service.tls import ServerTls, is_loopback
from service.tokens import Tokens
from solver.budget import Budget
from solver.errors import InvalidInput

T = TypeVar("T")

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Solver"].full_name


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 50051  # 0 picks a free port
    workers: int = os.cpu_count() or 1
    queue: int = 16  # calls that may wait for a worker
    cache_entries: int = 200_000  # the answer caches' entries (serve --cache-entries)
    cache_mib: int = 64  # and their MiB, in the main process (serve --cache-mib)
    limits: Budget = Budget(seconds=60.0, nodes=None)  # memory: serve --memory-per-worker
    memory_mib: int | None = None  # the whole server's, which limits' memory is a part of
    grace_seconds: float = 30.0  # for the calls in flight, after SIGTERM or SIGINT
    max_request_bytes: int = 1 << 20  # larger requests are refused, saying so
    max_position_bytes: int = 64 << 10  # the same for a request about one position
    max_batch: int = MAX_BATCH  # SolveBatch items, GenerateDeals deals (more: OUT_OF_RANGE)
    # imported by each worker as it starts: every game's questions and what they import
    preload: tuple[str, ...] = field(default_factory=search_modules)
    http_port: int | None = None  # the Connect face and the playground; None: none
    cors_origins: tuple[str, ...] = ()  # origins whose pages may call the HTTP face
    metrics_port: int | None = None  # Prometheus metrics at /metrics; None: none served
    tls: ServerTls | None = None  # None: plaintext, which off loopback needs `insecure`
    insecure: bool = False  # plaintext on an address other machines can reach
    token_file: Path | None = None  # the bearer tokens calls must show; None: none needed
    max_calls_per_token: int | None = None  # calls one token may have running at once
    max_calls_per_address: int | None = None  # None: the workers and the queue
    max_workers_per_client: int | None = None  # None: all workers but one
    # what one client may hold: None picks from the open-file limit (connection_cap)
    max_connections: int | None = None  # on the gRPC port, and on the HTTP port
    streams_per_connection: int | None = None  # None: half the workers and queue, >= 4
    receive_seconds: float = 10.0  # for a call's request (HTTP: its headers and body)
    idle_seconds: int = 5  # an HTTP keep-alive connection with no request is closed
    allowed_hosts: tuple[str, ...] | None = None  # None: loopback names on loopback, else any
    watchdog_seconds: float = 5.0  # past the grace, a stop that has not ended exits
    refusal_log_seconds: float = 10.0  # one line per cause of refusal this often, at most
    rules: tuple[Path, ...] = ()  # rules files of patience variants to serve (--rules)
    # proxies whose Forwarded or X-Forwarded-For header names the client (--trusted-proxy)
    trusted_proxies: tuple[Network, ...] = ()


# At a stop, how long the answers of the calls that have finished may take to be sent.
_SEND_SECONDS = 1.0


class CannotServe(OSError):
    """The address cannot be served: a host that does not resolve, a port already taken."""


log = logging.getLogger("fortress_solver")


def _check_plaintext(config: ServerConfig) -> None:
    """Plaintext is served off loopback only when asked for, and then said at start."""
    if config.tls is not None or is_loopback(config.host):
        return
    if not config.insecure:
        raise InvalidInput(f"{config.host} is reachable from other machines: serve it with "
                           "--tls-cert and --tls-key, or in plaintext with --insecure")
    log.warning(f"serving plaintext on {config.host} (--insecure): anyone on the network "
                "can read the calls" + ("" if config.token_file else " and make them"))


def _check_address(host: str, port: int) -> None:
    """One line before anything starts: a host that does not resolve, a port taken (tried
    here first, so that gRPC's own bind error never reaches the log)."""
    try:
        socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as err:
        raise CannotServe(f"cannot serve on {host!r}: it does not resolve "
                          f"({getattr(err, 'strerror', None) or err})") from None
    if port:
        try:
            socket.create_server((host, port)).close()
        except OSError:
            raise CannotServe(f"cannot listen on {host}:{port}: the port is taken (or not "
                              "this user's to take)") from None


def raise_open_file_limit() -> tuple[int, int]:
    """Raise the soft limit on open files to the hard one: each connection is a file,
    and the caps (connection_cap) are cut to fit the limit. (before, after) soft."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            return soft, soft
    return soft, hard


def connection_cap(workers: int) -> int:
    """Connections each port keeps open: what the open-file limit leaves after the
    workers' pipes and the server's own files, shared by the gRPC and the HTTP port
    with room to spare (314 each under a limit of 1,024), and at most 4,096."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 4096
    room = soft - 64 - 8 * workers
    return max(16, min(4096, room // 3))


def _grpc_options(config: ServerConfig, connections: int, streams: int) -> list[tuple[str, Any]]:
    """gRPC's own bounds: the request size, connections, calls per connection (100
    beyond the face's own cap: a backstop for clients that ignore it), keepalive pings no
    more often than every 10 s, idle connections closed after 5 min, every
    connection renewed after 30 min (its calls given 5 min more)."""
    return [("grpc.so_reuseport", 0),  # the port is ours alone
            ("grpc.max_receive_message_length", config.max_request_bytes),
            ("grpc.max_allowed_incoming_connections", connections),
            ("grpc.max_concurrent_streams", streams + 100),
            ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
            ("grpc.http2.max_ping_strikes", 2),
            ("grpc.keepalive_time_ms", 60_000),
            ("grpc.keepalive_timeout_ms", 20_000),
            ("grpc.max_connection_idle_ms", 300_000),
            ("grpc.max_connection_age_ms", 1_800_000),
            ("grpc.max_connection_age_grace_ms", 300_000)]


class RunningServer:
    """A started server; `port` is the one bound, `stop()` drains calls then the pool."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        _check_address(config.host, config.port)
        _check_plaintext(config)
        if config.max_calls_per_token is not None and config.token_file is None:
            raise InvalidInput("--max-calls-per-token needs --token-file: without tokens "
                               "there is no one to count calls for")
        self.tokens = None if config.token_file is None else Tokens(
            config.token_file, config.max_calls_per_token)
        # the workers start before gRPC starts threads
        self.pool = WorkerPool(config.workers, config.queue, config.preload,
                               config.max_workers_per_client, config.limits.memory_mib)
        self.refusals = Refusals(config.refusal_log_seconds)
        self.metrics = Metrics(self.pool, self.refusals)  # counted always, served on request
        self.refusals.observe = self.metrics.observe
        try:  # the handlers read the rules files: a bad one ends the start here
            self.servicer = SolverServicer(
                self.pool, Settings(config.cache_entries, config.cache_mib,
                                    min(1.0, self.pool.max_per_owner / self.pool.workers),
                                    config.rules),
                config.limits, self.tokens, self.metrics, config.max_batch, self.refusals,
                config.max_calls_per_address, config.memory_mib,
                Proxies(config.trusted_proxies))
        except BaseException:
            self.pool.close()
            raise
        self.metrics.register(self.servicer.collectors())
        # room for every job the pool takes and four times more: the pool refuses
        # fairly (by client) what it cannot take, the calls needing no worker pass
        self.bridge = Bridge(4 * (config.workers + config.queue) + 16, self.refusals)
        self.trimmer = Trimmer()
        self.sizes = RequestSizes(config.max_request_bytes, config.max_position_bytes)
        self.connections = config.max_connections or connection_cap(config.workers)
        self.streams = config.streams_per_connection or max(
            4, (config.workers + config.queue) // 2)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="grpc", daemon=True)
        self._thread.start()
        self.http: HttpServer | None = None
        self._metrics_http: HttpServer | None = None
        self.metrics_port: int | None = None  # the one bound, with config.metrics_port
        self.health = health.aio.HealthServicer()
        try:
            self.port = self._on_loop(self._start_grpc())
            self._start_http()
        except BaseException:
            self._close()
            raise
        for name in ("", SERVICE_NAME):
            self._on_loop(self.health.set(name, health_pb2.HealthCheckResponse.SERVING))
        self._hurry = threading.Event()

    def _on_loop(self, work: Coroutine[Any, Any, T], timeout: float | None = 30) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout)

    async def _start_grpc(self) -> int:
        config = self.config
        face = SolverFace(self.servicer, self.bridge, self.refusals, config.receive_seconds,
                          self.streams, self.trimmer, self.sizes)
        self.server = grpc.aio.server(
            options=_grpc_options(config, self.connections, self.streams))
        self.server.add_generic_rpc_handlers((face.handler(),))
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), self.server)
        address = f"{config.host}:{config.port}"
        try:
            port = (self.server.add_insecure_port(address) if config.tls is None
                    else self.server.add_secure_port(address, config.tls.credentials()))
        except RuntimeError:  # gRPC's word for a port it cannot bind
            port = 0
        if port == 0:
            raise CannotServe(f"cannot listen on {config.host}:{config.port}: the port is "
                              "taken (or not this user's to take)")
        await self.server.start()
        return port

    def _start_http(self) -> None:
        config = self.config
        hosts = config.allowed_hosts
        if hosts is None and is_loopback(config.host):
            hosts = LOOPBACK_HOSTS
        if config.http_port is not None:
            app = application(self.servicer, self.bridge, self.trimmer, self.sizes,
                              config.cors_origins, hosts)
            self.http = self._http(app, config.http_port, self.connections, "HTTP")
        if config.metrics_port is not None:
            self._metrics_http = self._http(self.metrics.app(), config.metrics_port, 32,
                                            "metrics")
            self.metrics_port = self._metrics_http.port

    def _http(self, app: Any, port: int, connections: int, what: str) -> HttpServer:
        config = self.config
        guard = Guard(connections, config.receive_seconds, config.idle_seconds, self.refusals)
        try:
            return HttpServer(app, config.host, port, guard, config.tls, what.lower())
        except OSError as err:
            raise CannotServe(f"cannot serve {what} on {config.host}:{port}: "
                              f"{os.strerror(err.errno) if err.errno else err}") from None

    def stop(self, draining: str = "") -> None:
        """Drain, then stop: health says NOT_SERVING at once and new calls are refused
        (UNAVAILABLE, so that clients go to another replica), then `draining` is logged,
        while the calls in flight have the grace to finish; what is left then, or after
        hurry(), is cut short."""
        self._on_loop(self.health.enter_graceful_shutdown())
        self.servicer.drain(self.config.grace_seconds, self._hurry,
                            lambda: log.info(draining) if draining else None)
        self._close()

    def _close(self) -> None:
        """Stop what has started: the faces, the pool, the loop."""
        if hasattr(self, "server"):  # the answers of the calls cut short still go out
            self._on_loop(self.server.stop(_SEND_SECONDS), timeout=self.config.watchdog_seconds)
        for http in (self.http, self._metrics_http):
            if http is not None:
                http.stop()
        self.bridge.close()
        self.trimmer.close()
        self.pool.close()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=self.config.watchdog_seconds)
        self.refusals.flush()

    def kill(self) -> None:
        """End the workers at once (the watchdog's last act before the process exits)."""
        self.pool.kill()

    def hurry(self) -> None:
        """Cut a stop's drain short (the second signal): the calls in flight are cancelled."""
        self._hurry.set()

    def reload_tokens(self) -> None:
        """Read the token file again (SIGHUP); a fault keeps the tokens before and is logged."""
        if self.tokens is None:
            log.info("SIGHUP: no --token-file to reload")
            return
        try:
            self.tokens.reload()
        except InvalidInput as error:
            log.warning(f"tokens not reloaded, the {len(self.tokens)} before kept: {error}")
            return
        log.info(f"tokens reloaded from {self.tokens.path}: {len(self.tokens)}")


def serve(config: ServerConfig) -> None:
    """Run until SIGTERM or SIGINT, then finish the calls in flight within the grace; a
    second signal stops at once, and the process exits within the grace and the
    watchdog's seconds whatever gRPC is doing."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    quiet_library_logs()
    before, after = raise_open_file_limit()
    running = RunningServer(config)
    gc.freeze()  # what start-up made lives as long as the process: no collection walks it
    stopping = threading.Event()
    signals: list[str] = []  # the signal that stops it, for the log

    def on_stop(signum: int, _: object) -> None:
        if stopping.is_set():
            log.info("second signal: stopping now")
            running.hurry()
            return
        signals.append(signal.Signals(signum).name)
        stopping.set()
        watchdog = threading.Timer(config.grace_seconds + config.watchdog_seconds,
                                   _exit_now, (running,))
        watchdog.daemon = True
        watchdog.start()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_stop)
    signal.signal(signal.SIGHUP, lambda *_: running.reload_tokens())
    http = "" if running.http is None else f", HTTP on {config.host}:{running.http.port}"
    metrics = ("" if running.metrics_port is None
               else f", metrics on http{'s' * bool(config.tls)}://{config.host}:"
                    f"{running.metrics_port}/metrics")
    log.info(f"serving gRPC on {config.host}:{running.port}{http}{metrics} "
             f"with {config.workers} workers")
    if config.memory_mib is not None and config.limits.memory_mib is not None:
        log.info(f"memory: at most {config.memory_mib} MiB: " + spelled(
            config.workers, config.limits.memory_mib, config.cache_mib))
    log.info(f"open files: at most {after}" + (f" (raised from {before})" if after != before
                                                else "") +
             f"; up to {running.connections} connections a port, {running.streams} calls a "
             f"connection, {running.pool.max_per_owner} "
             f"worker{'s' * (running.pool.max_per_owner != 1)} a client, "
             f"{config.receive_seconds:g} s for a request")
    # A signal's handler runs in this thread, but a signal may arrive on any of gRPC's
    # threads: a wait without a timeout would never wake to run it. Waking 5 times a
    # second, the handler runs within 0.2 s.
    while not stopping.wait(0.2):
        pass
    running.stop(f"{signals[0]}: draining, up to {config.grace_seconds:g} s for the calls in "
                 "flight (signal again to stop now)")


def _exit_now(running: RunningServer) -> None:
    """The stop overstayed its grace: end the workers and the process."""
    log.warning(f"not stopped {running.config.watchdog_seconds:g} s after the grace: "
                "exiting now")
    running.kill()
    logging.shutdown()
    os._exit(1)


def quiet_library_logs() -> None:
    """uvicorn's and asyncio's per-connection complaints (a bad request line, a failed
    accept) logged at most once per kind every 10 s, so that no client can fill the log."""
    limit = RateLimit(10.0)
    for name in ("uvicorn.error", "asyncio", "grpc._cython.cygrpc", "grpc"):
        logging.getLogger(name).addFilter(limit)
