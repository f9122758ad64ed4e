"""Stopping a real `serve` process: SIGTERM (or SIGINT) drains, a second signal stops at
once. While it drains, health says NOT_SERVING, a new call is UNAVAILABLE (a client's
retry policy sends it to another replica) and the calls in flight finish."""

from __future__ import annotations

import json
import os
import re
import signal
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import grpc
import psutil
import pytest
from google.protobuf import json_format
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from tests.support.serve_process import ServeProcess
from tests.support.servers import deal_source

IDASTAR = pb.BeleagueredSolveOptions(mode=pb.MODE_OPTIMAL, algorithm=pb.ALGORITHM_IDASTAR)
HINT = pb.HintRequest(position=deal_source(2))


def gauges(server: ServeProcess) -> tuple[float, float]:
    """The server's workers busy and calls waiting for one, from its metrics."""
    with urllib.request.urlopen(f"http://127.0.0.1:{server.metrics_port}/metrics",
                                timeout=30) as page:
        text = page.read().decode()
    return tuple(float(re.search(rf"^{name} (\S+)$", text, re.M)[1])  # type: ignore[return-value]
                 for name in ("fortress_solver_workers_busy", "fortress_solver_queue_depth"))


def wait_until(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.05)


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
            # cut short, it answers what it has (or, had it not arrived, is UNAVAILABLE)
            try:
                assert in_flight.result().status == pb.STATUS_UNKNOWN
            except grpc.RpcError as refused:
                assert refused.code() is grpc.StatusCode.UNAVAILABLE
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


def test_a_stop_with_http_and_grpc_calls_in_flight_answers_them_and_ends_cleanly(tmp_path):
    """Past the grace the searches left are cut short: each HTTP and gRPC call in flight
    answers UNKNOWN (what it has), the process exits 0 with no traceback, and no worker
    outlives it."""
    server = ServeProcess(tmp_path / "serve.log", "--workers", "2", "--http-port", "0",
                          "--metrics-port", "0", "--grace", "1")
    try:
        server.wait_serving()
        workers = psutil.Process(server.process.pid).children(recursive=True)
        body = json_format.MessageToJson(long_solve(120)).encode()

        def over_http() -> dict:
            request = urllib.request.Request(
                f"http://127.0.0.1:{server.http_port}/fortress.solver.v1.Solver/Solve", body,
                {"content-type": "application/json"})
            with urllib.request.urlopen(request, timeout=120) as answer:
                return json.loads(answer.read())

        with grpc.insecure_channel(server.address) as channel, ThreadPoolExecutor(3) as threads:
            stub = pb_grpc.SolverStub(channel)
            calls = [threads.submit(over_http), threads.submit(over_http)]
            in_flight = stub.Solve.future(long_solve(120), timeout=120)
            wait_until(lambda: sum(gauges(server)) == 3)  # each searching or waiting for it
            server.send(signal.SIGTERM)
            assert server.process.wait(timeout=60) == 0
            assert [call.result()["status"] for call in calls] == ["STATUS_UNKNOWN"] * 2
            assert in_flight.result().status == pb.STATUS_UNKNOWN
        assert "Traceback" not in server.log.read_text()
        wait_until(lambda: not [worker for worker in workers if worker.is_running()
                                 and worker.status() != psutil.STATUS_ZOMBIE])
    finally:
        server.stop()
