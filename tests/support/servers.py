"""Real gRPC servers on 127.0.0.1 for the service tests, and helpers to talk to them.

Every server is started by a test (port 0: a free port) and stopped in teardown. Its
worker processes are spawned, so a server is warmed up (every worker has answered one
job) before a test measures anything on it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc
from service.beleaguered.messages import position_to_proto
from service.server import RunningServer, ServerConfig
from service.tls import ClientTls
from service.tokens import bearer
from solver.beleaguered import Move, Position


@contextmanager
def running_server(client_tls: ClientTls | None = None, token: str | None = None,
                   **settings) -> Iterator[RunningServer]:
    """A started, warmed-up server with `settings` over ServerConfig's defaults; a
    server with TLS or tokens is warmed up with `client_tls` and `token`. It logs every
    refused call (the tests read their lines), unless `refusal_log_seconds` says."""
    settings.setdefault("grace_seconds", 2.0)
    settings.setdefault("refusal_log_seconds", 0.0)
    server = RunningServer(ServerConfig(host="127.0.0.1", port=0, **settings))
    try:
        assert server.port > 0
        with connect(server, client_tls) as stub:
            warm_up(stub, server.config.workers, token)
        yield server
    finally:
        server.stop()


@contextmanager
def connect(server: RunningServer, tls: ClientTls | None = None
            ) -> Iterator[fortress_solver_pb2_grpc.SolverStub]:
    channel = (grpc.insecure_channel(address(server)) if tls is None
               else grpc.secure_channel(address(server), tls.credentials()))
    try:
        grpc.channel_ready_future(channel).result(timeout=10)
        yield fortress_solver_pb2_grpc.SolverStub(channel)
    finally:
        channel.close()


def address(server: RunningServer) -> str:
    return f"127.0.0.1:{server.port}"


def warm_up(stub: fortress_solver_pb2_grpc.SolverStub, workers: int,
            token: str | None = None) -> None:
    """A batch of `workers` instant deals: the stream hands one job to every worker at
    once, so each spawned process has started and answered before the tests begin."""
    request = pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=workers)],
                                   mode=pb.MODE_ANY)
    assert len(list(stub.SolveBatch(request, timeout=30, metadata=bearer(token)))) == workers


def deal_source(number: int) -> pb.PositionSource:
    return pb.PositionSource(beleaguered_deal=number)


def position_source(position: Position) -> pb.PositionSource:
    return pb.PositionSource(beleaguered=position_to_proto(position))


def moves_from_proto(moves) -> list[Move]:
    """The moves as the command line writes them, read back by Move.parse."""
    return [Move.parse(f"{m.card} {m.source} {m.target}") for m in moves]


def timed(call, *args, **kwargs):
    """(result, seconds) of one call."""
    started = time.perf_counter()
    result = call(*args, **kwargs)
    return result, time.perf_counter() - started


def rpc_error(call, request, timeout: float = 10) -> grpc.RpcError:
    """The error a unary call ends with (it must end with one)."""
    with pytest.raises(grpc.RpcError) as caught:
        call(request, timeout=timeout)
    return caught.value
