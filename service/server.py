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
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.hint_cache import HintCache
from service.http import HttpServer
from service.pool import WorkerPool
from service.servicer import SolverServicer
from solver.budget import Budget

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
    preload: tuple[str, ...] = ("solver.cpsat",)  # imported by each worker as it starts
    http_port: int | None = None  # the Connect face and the playground; None: none
    cors_origins: tuple[str, ...] = ()  # origins whose pages may call the HTTP face


class CannotServe(OSError):
    """The address cannot be served: a host that does not resolve, a port already taken."""


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
        # the workers start before gRPC starts threads
        self.pool = WorkerPool(config.workers, config.queue, config.preload)
        threads = config.workers + config.queue + 8  # room for health, info and refusals
        # the port is ours alone: no second server shares it through SO_REUSEPORT
        self.server = grpc.server(futures.ThreadPoolExecutor(max_workers=threads),
                                  maximum_concurrent_rpcs=threads,
                                  options=[("grpc.so_reuseport", 0),
                                           ("grpc.max_receive_message_length",
                                            config.max_request_bytes)])
        self.servicer = SolverServicer(self.pool, HintCache(config.cache_entries), config.limits)
        pb_grpc.add_SolverServicer_to_server(  # type: ignore[no-untyped-call]
            self.servicer, self.server)
        self.health = health.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), self.server)
        try:
            self.port = self.server.add_insecure_port(f"{config.host}:{config.port}")
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
                                       config.cors_origins, threads, config.max_request_bytes)
            except OSError as err:
                self.server.stop(None)
                self.pool.close()
                raise CannotServe(f"cannot serve HTTP on {config.host}:{config.http_port}: "
                                  f"{os.strerror(err.errno) if err.errno else err}") from None
        for name in ("", SERVICE_NAME):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)

    def stop(self) -> None:
        self.health.enter_graceful_shutdown()
        if self.http is not None:
            self.http.stop()
        self.server.stop(self.config.grace_seconds).wait()
        self.pool.close()


def serve(config: ServerConfig) -> None:
    """Run until SIGTERM or SIGINT, then finish the calls in flight within the grace."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    running = RunningServer(config)
    http = "" if running.http is None else f", HTTP on {config.host}:{running.http.port}"
    logging.getLogger("fortress_solver").info(
        f"serving gRPC on {config.host}:{running.port}{http} with {config.workers} workers")
    stopping = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stopping.set())
    stopping.wait()
    running.stop()
