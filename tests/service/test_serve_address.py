"""`serve` takes its address or says in one line why not: a port another server holds
(no SO_REUSEPORT sharing), a port out of range, a host that does not resolve."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.servers import running_server

CLI = [sys.executable, "-m", "service.cli", "serve", "--workers", "1"]


def refusal(*args: str) -> tuple[int, list[str]]:
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60)
    return done.returncode, done.stderr.strip().splitlines()


@pytest.fixture(scope="module")
def taken():
    with running_server(workers=1, http_port=0) as server:
        yield server


def test_a_second_server_on_a_taken_port_is_refused_in_one_line(taken):
    code, lines = refusal("--port", str(taken.port))
    assert code == 1
    assert lines == [f"fortress-solver: cannot listen on 127.0.0.1:{taken.port}: the port "
                     "is taken (or not this user's to take)"]


def test_a_taken_http_port_is_refused_in_one_line(taken):
    code, lines = refusal("--port", "0", "--http-port", str(taken.http.port))
    assert code == 1 and len(lines) == 1
    assert lines[0].startswith(f"fortress-solver: cannot serve HTTP on 127.0.0.1:"
                               f"{taken.http.port}: ")


@pytest.mark.parametrize("port", ["99999", "65536", "http"])
def test_a_port_out_of_range_is_refused(port):
    code, lines = refusal("--port", port)
    assert code == 2 and len(lines) == 1 and "argument --port: port" in lines[0]


@pytest.mark.parametrize("count", ["0", "-5", "many"])
def test_a_max_batch_that_is_not_a_positive_number_is_refused(count):
    code, lines = refusal("--port", "0", "--max-batch", count)
    assert code == 2 and len(lines) == 1 and "argument --max-batch" in lines[0]


def test_a_host_that_does_not_resolve_is_refused_in_one_line():
    code, lines = refusal("--host", "999.1.1.1", "--port", "0")
    assert code == 1 and len(lines) == 1
    assert lines[0].startswith("fortress-solver: cannot serve on '999.1.1.1': it does not "
                               "resolve")


def test_a_request_over_the_size_limit_is_refused_saying_so():
    import grpc

    from service.api import fortress_solver_pb2 as pb
    from tests.support.http import post
    from tests.support.servers import connect, rpc_error

    with running_server(workers=1, http_port=0, max_request_bytes=50_000) as server:
        big = pb.SolveBatchRequest(positions=[pb.BeleagueredPosition(
            tableau=[pb.Pile(cards=["7H"] * 2000)])] * 10)
        with connect(server) as stub:
            error = rpc_error(lambda request, timeout: list(stub.SolveBatch(request,
                                                                            timeout=timeout)),
                              big)
            assert error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "larger than max" in error.details()
        status, body = post(server, "Hint", {"position": {"json": "x" * 60_000}})
        assert status == 413 and body["code"] == "invalid_argument"
        assert "exceeds" in body["message"] or "larger" in body["message"]
