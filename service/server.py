"""serve(): the gRPC server with health checking, reflection, a worker pool and a
graceful shutdown on SIGTERM/SIGINT; beside it, on request, the HTTP face (service/http.py)
over the same servicer."""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.convert.common import MAX_BATCH
from service.games import search_modules
from service.hint_cache import HintCache
from service.http import HttpServer
from service.metrics import Metrics
from service.pool import WorkerPool
from service.servicer import RefuseUndecodable, SolverServicer
from service.tls import ServerTls, is_loopback
from service.tokens import Tokens
from solver.budget import Budget
from solver.errors import InvalidInput

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Solver"].full_name


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 50051  # 0 picks a free port
    workers: int = os.cpu_count() or 1
    queue: int = 16  # calls that may wait for a worker
    cache_entries: int = 200_000
    limits: Budget = Budget(seconds=60.0, nodes=None, table_entries=5_000_000)
    grace_seconds: float = 30.0  # for the calls in flight, after SIGTERM or SIGINT
    max_request_bytes: int = 1 << 20  # larger requests are refused, saying so
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
        self.pool = WorkerPool(config.workers, config.queue, config.preload)
        cache = HintCache(config.cache_entries)
        self.metrics = Metrics(self.pool, cache)  # counted always, served on request
        self.servicer = SolverServicer(self.pool, cache, config.limits, self.tokens,
                                       self.metrics, config.max_batch)
        threads = config.workers + config.queue + 8  # room for health, info and refusals
        # the port is ours alone: no second server shares it through SO_REUSEPORT
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=threads),
                                  interceptors=[RefuseUndecodable(self.servicer)],
                                  maximum_concurrent_rpcs=threads,
                                  options=[("grpc.so_reuseport", 0),
                                           ("grpc.max_receive_message_length",
                                            config.max_request_bytes)])
        pb_grpc.add_SolverServicer_to_server(  # type: ignore[no-untyped-call]
            self.servicer, self.server)
        self.health = health.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), self.server)
        try:
            address = f"{config.host}:{config.port}"
            self.port = (self.server.add_insecure_port(address) if config.tls is None
                         else self.server.add_secure_port(address, config.tls.credentials()))
        except RuntimeError:  # gRPC's word for a port it cannot bind
            self.port = 0
        if self.port == 0:
            self.pool.close()
            raise CannotServe(f"cannot listen on {config.host}:{config.port}: the port is "
                              "taken (or not this user's to take)")
        self.server.start()
        self.http: HttpServer | None = None
        if config.http_port is not None:
            try:
                self.http = HttpServer(self.servicer, config.host, config.http_port,
                                       config.cors_origins, threads, config.max_request_bytes,
                                       config.tls)
            except OSError as err:
                self.server.stop(None)
                self.pool.close()
                raise CannotServe(f"cannot serve HTTP on {config.host}:{config.http_port}: "
                                  f"{os.strerror(err.errno) if err.errno else err}") from None
        self.metrics_port: int | None = None  # the one bound, with config.metrics_port
        if config.metrics_port is not None:
            try:
                self.metrics_port = self.metrics.serve(config.host, config.metrics_port,
                                                       config.tls)
            except OSError as err:
                if self.http is not None:
                    self.http.stop()
                self.server.stop(None)
                self.pool.close()
                raise CannotServe(f"cannot serve metrics on {config.host}:"
                                  f"{config.metrics_port}: "
                                  f"{os.strerror(err.errno) if err.errno else err}") from None
        for name in ("", SERVICE_NAME):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)

        self._hurry = threading.Event()

    def stop(self) -> None:
        """Drain, then stop: health says NOT_SERVING at once and new calls are refused
        (UNAVAILABLE, so that clients go to another replica) while the calls in flight
        have the grace to finish; what is left then, or after hurry(), is cancelled."""
        self.health.enter_graceful_shutdown()
        self.servicer.drain(self.config.grace_seconds, self._hurry)
        stopped = self.server.stop(0)
        if self.http is not None:
            self.http.stop()
        stopped.wait()
        self.pool.close()
        self.metrics.stop()

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
    """Run until SIGTERM or SIGINT, then finish the calls in flight within the grace."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    running = RunningServer(config)
    http = "" if running.http is None else f", HTTP on {config.host}:{running.http.port}"
    metrics = ("" if running.metrics_port is None
               else f", metrics on http{'s' * bool(config.tls)}://{config.host}:"
                    f"{running.metrics_port}/metrics")
    logging.getLogger("fortress_solver").info(
        f"serving gRPC on {config.host}:{running.port}{http}{metrics} "
        f"with {config.workers} workers")
    stopping = threading.Event()

    def on_stop(signum: int, _: object) -> None:
        if stopping.is_set():
            log.info("second signal: stopping now")
            running.hurry()
        else:
            log.info(f"{signal.Signals(signum).name}: draining, up to {config.grace_seconds:g} s "
                     "for the calls in flight (signal again to stop now)")
        stopping.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_stop)
    signal.signal(signal.SIGHUP, lambda *_: running.reload_tokens())
    stopping.wait()
    running.stop()
