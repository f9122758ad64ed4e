"""`serve --metrics-port`: the Prometheus metrics move with the calls, over gRPC and over
HTTP, and each call's log line names its client and its request id."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from service.api import fortress_solver_pb2 as pb
from service.server import RunningServer
from tests.support.servers import connect, deal_source, rpc_error, running_server

IDASTAR = pb.BeleagueredSolveOptions(mode=pb.MODE_OPTIMAL, algorithm=pb.ALGORITHM_IDASTAR)
HINT = pb.HintRequest(position=deal_source(2))
BAD_HINT = pb.HintRequest(position=pb.PositionSource(beleaguered=pb.BeleagueredPosition(
    tableau=[pb.Pile(cards=["7H", "7H"])])))
GAME = "patience"
# IDA* through a 256-entry table on deal 126 searches for tens of seconds: a call that
# holds its worker until it is cancelled
LONG_SOLVE = pb.SolveRequest(position=deal_source(126), beleaguered=IDASTAR,
                             budget=pb.Budget(seconds=20, table_entries=256))

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=1, queue=2, http_port=0, metrics_port=0) as running:
        yield running


@pytest.fixture(scope="module")
def stub(server):
    with connect(server) as client:
        yield client


def scrape(server: RunningServer) -> Samples:
    """Every sample of the metrics page, by name and labels."""
    url = f"http://127.0.0.1:{server.metrics_port}/metrics"
    with urllib.request.urlopen(url, timeout=10) as answer:
        text = answer.read().decode()
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def calls(samples: Samples, method: str, status: str, game: str = GAME) -> float:
    return value(samples, "fortress_solver_calls_total", method=method, game=game,
                 status=status)


def until(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Wait for `condition`; fail saying `what` if it never holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def call_lines(caplog) -> list[dict[str, Any]]:
    return [json.loads(record.getMessage()) for record in caplog.records
            if record.name == "fortress_solver.calls"]


# ============================================================================ the metrics


def test_the_call_counters_move_with_the_calls(server, stub):
    before = scrape(server)
    for _ in range(3):
        stub.Hint(HINT, timeout=30)
    for _ in range(2):
        assert rpc_error(stub.Hint, BAD_HINT).code() is grpc.StatusCode.INVALID_ARGUMENT
    stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=5)
    after = scrape(server)
    assert calls(after, "Hint", "OK") - calls(before, "Hint", "OK") == 3
    assert (calls(after, "Hint", "INVALID_ARGUMENT")
            - calls(before, "Hint", "INVALID_ARGUMENT")) == 2
    assert (calls(after, "GetServerInfo", "OK", game="")
            - calls(before, "GetServerInfo", "OK", game="")) == 1
    count = "fortress_solver_call_seconds_count"
    assert value(after, count, method="Hint", game=GAME) - \
        value(before, count, method="Hint", game=GAME) == 5


def test_the_same_hint_twice_is_a_cache_hit(server, stub):
    winnable = pb.HintRequest(position=deal_source(6))  # not one the census answers
    before = scrape(server)
    assert not stub.Hint(winnable, timeout=30).cached
    between = scrape(server)
    assert stub.Hint(winnable, timeout=30).cached
    after = scrape(server)
    hits = "fortress_solver_hint_cache_hits_total"
    misses = "fortress_solver_hint_cache_misses_total"
    assert value(between, misses) - value(before, misses) == 1
    assert value(between, hits) == value(before, hits)
    assert value(after, hits) - value(between, hits) == 1
    assert value(after, misses) == value(between, misses)


def test_the_gauges_count_busy_workers_and_waiting_calls(server, stub):
    samples = scrape(server)
    assert ("fortress_solver_queue_depth", ()) in samples
    assert ("fortress_solver_workers_busy", ()) in samples

    def gauge(name: str) -> float:
        return value(scrape(server), name)

    first = stub.Solve.future(LONG_SOLVE)
    second = None
    try:
        until(lambda: gauge("fortress_solver_workers_busy") == 1, "the one worker busy")
        second = stub.Solve.future(LONG_SOLVE)
        until(lambda: gauge("fortress_solver_queue_depth") == 1, "a call waiting")
    finally:
        for call in (first, second):
            if call is not None:
                call.cancel()
    until(lambda: gauge("fortress_solver_workers_busy") == 0, "the worker free again")
    until(lambda: gauge("fortress_solver_queue_depth") == 0, "no call waiting")


# ============================================================================ the log line


def test_the_log_line_has_the_peer_and_the_clients_request_id(stub, caplog):
    with caplog.at_level(logging.INFO, logger="fortress_solver.calls"):
        _, call = stub.Hint.with_call(HINT, timeout=30, metadata=(("x-request-id", "abc-123"),))
        stub.Hint(HINT, timeout=30)
    sent, fresh = call_lines(caplog)
    assert sent["request_id"] == "abc-123"
    assert dict(call.trailing_metadata())["x-request-id"] == "abc-123"
    assert fresh["request_id"] and fresh["request_id"] != "abc-123"
    for line in (sent, fresh):
        assert line["peer"].startswith(("ipv4:127.0.0.1:", "ipv6:"))
        assert (line["method"], line["game"], line["status"]) == ("Hint", GAME, "OK")
        assert line["ms"] >= 0


# ============================================================================ over HTTP


def test_an_http_call_is_counted_and_logged_with_its_request_id(server, caplog):
    assert server.http is not None
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.http.port}/fortress.solver.v1.Solver/Hint",
        data=json.dumps({"position": {"beleaguered_deal": 2}}).encode(),
        headers={"Content-Type": "application/json", "X-Request-Id": "http-7"})
    before = scrape(server)
    with caplog.at_level(logging.INFO, logger="fortress_solver.calls"):
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200
            assert answer.headers["x-request-id"] == "http-7"
    after = scrape(server)
    assert calls(after, "Hint", "OK") - calls(before, "Hint", "OK") == 1
    (line,) = call_lines(caplog)
    assert line["request_id"] == "http-7"
    assert line["peer"].startswith("ipv4:127.0.0.1:")


# ============================================================================ the port


def test_a_taken_metrics_port_is_refused_in_one_line(server):
    done = subprocess.run([sys.executable, "-m", "service.cli", "serve", "--workers", "1",
                           "--port", "0", "--metrics-port", str(server.metrics_port)],
                          capture_output=True, text=True, timeout=60)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1
    assert lines[0].startswith(f"fortress-solver: cannot serve metrics on 127.0.0.1:"
                               f"{server.metrics_port}: ")
