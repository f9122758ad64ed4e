"""Stopping a real `serve` process: SIGTERM (or SIGINT) drains, a second signal stops at
once. While it drains, health says NOT_SERVING, a new call is UNAVAILABLE (a client's
retry policy sends it to another replica) and the calls in flight finish."""

from __future__ import annotations

import os
import signal
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from tests.support.serve_process import ServeProcess
from tests.support.servers import deal_source

IDASTAR = pb.BeleagueredSolveOptions(mode=pb.MODE_OPTIMAL, algorithm=pb.ALGORITHM_IDASTAR)
HINT = pb.HintRequest(position=deal_source(2))


def long_solve(seconds: float) -> pb.SolveRequest:
    """IDA* on a deal it needs minutes for, ending UNKNOWN at its budget of `seconds`."""
    return pb.SolveRequest(position=deal_source(126), beleaguered=IDASTAR,
                           budget=pb.Budget(seconds=seconds, table_entries=256))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_drains_the_calls_in_flight_and_refuses_new_ones(tmp_path, signum):
    server = ServeProcess(tmp_path / "serve.log", "--grace", "20")
    try:
        server.wait_serving()
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.SolverStub(channel)
            health = health_pb2_grpc.HealthStub(channel)
            assert stub.Hint(HINT, timeout=30).moves_left == 66
            in_flight = stub.Solve.future(long_solve(3), timeout=30)
            time.sleep(1)  # for the call to reach the server
            server.send(signum)
            server.wait_for("draining")
            checked = health.Check(health_pb2.HealthCheckRequest(), timeout=10)
            assert checked.status == health_pb2.HealthCheckResponse.NOT_SERVING
            with pytest.raises(grpc.RpcError) as refused:
                stub.Hint(HINT, timeout=10)
            assert refused.value.code() is grpc.StatusCode.UNAVAILABLE
            assert "shutting down" in refused.value.details()
            assert in_flight.result().status == pb.STATUS_UNKNOWN  # OK, at its budget
        assert server.process.wait(timeout=30) == 0
    finally:
        server.stop()


def test_a_second_signal_stops_at_once(tmp_path):
    server = ServeProcess(tmp_path / "serve.log", "--grace", "600")
    try:
        server.wait_serving()
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.SolverStub(channel)
            in_flight = stub.Solve.future(long_solve(60), timeout=120)
            time.sleep(0.5)
            server.send(signal.SIGTERM)
            server.wait_for("draining")
            server.send(signal.SIGTERM)
            assert server.process.wait(timeout=40) == 0  # not after the 60 s call
            with pytest.raises(grpc.RpcError) as cut:
                in_flight.result()
            assert cut.value.code() in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
        assert "second signal: stopping now" in server.log.read_text()
    finally:
        server.stop()


def test_ctrl_c_to_the_whole_process_group_stops_quietly(tmp_path):
    """A terminal's Ctrl-C reaches the workers too: they leave the stop to the server."""
    server = ServeProcess(tmp_path / "serve.log", "--workers", "2")
    try:
        server.wait_serving()
        with grpc.insecure_channel(server.address) as channel:
            assert pb_grpc.SolverStub(channel).Hint(HINT, timeout=30).moves_left == 66
        os.killpg(server.process.pid, signal.SIGINT)
        assert server.process.wait(timeout=60) == 0
        assert "Traceback" not in server.log.read_text()
    finally:
        server.stop()
