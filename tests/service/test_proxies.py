"""Clients behind a proxy: a proxy the server trusts (serve --trusted-proxy) names the
client of each call it passes on (Forwarded, X-Forwarded-For), and the per-address
limits and shares count that client; what an untrusted peer claims is ignored."""

from __future__ import annotations

import json
import time
from http.client import HTTPConnection

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.clients import Proxies, network
from tests.support.cli import assert_one_line_error, run
from tests.support.servers import address, deal_source, running_server

PROXY = (network("127.0.0.1"),)  # the tests' calls all come from here: the proxy
HINT_METHOD = "/fortress.solver.v1.Solver/Hint"
LONG_SOLVE = pb.SolveRequest(position=deal_source(126),
                             budget=pb.Budget(seconds=60, table_entries=256),
                             beleaguered=pb.BeleagueredSolveOptions(
                                 algorithm=pb.ALGORITHM_IDASTAR))


@pytest.mark.parametrize(("peer", "headers", "client"), [
    ("ipv4:10.0.0.5:4000", [("x-forwarded-for", "203.0.113.1")], "203.0.113.1"),
    # the nearest hop the proxies did not add is the client; what it claims is not taken
    ("ipv4:10.0.0.5:4000", [("x-forwarded-for", "6.6.6.6, 203.0.113.1, 10.0.0.9")],
     "203.0.113.1"),
    ("ipv4:10.0.0.5:4000", [("X-Forwarded-For", "10.0.0.7"), ("x-forwarded-for", "10.0.0.8")],
     "10.0.0.7"),  # every hop a proxy: the first
    ("ipv4:10.0.0.5:4000",
     [("forwarded", 'for="[2001:db8::1]:4711";proto=https, for=10.0.0.3')], "2001:db8::1"),
    ("ipv4:10.0.0.5:4000", [("forwarded", "For=192.0.2.60:47011;by=10.0.0.5"),
                            ("x-forwarded-for", "6.6.6.6")], "192.0.2.60"),
    ("ipv4:10.0.0.5:4000", [("forwarded", "for=unknown")], "unknown"),
    ("ipv4:10.0.0.5:4000", [], "10.0.0.5"),  # no header: the proxy itself
    ("ipv4:10.0.0.5:4000", [("x-forwarded-for", " , ")], "10.0.0.5"),
    # an untrusted peer's headers are not read
    ("ipv4:198.51.100.2:4000", [("x-forwarded-for", "203.0.113.1")], "198.51.100.2"),
    ("ipv6:[::1]:4000", [("x-forwarded-for", "203.0.113.1")], "::1"),
])
def test_the_client_is_the_nearest_hop_no_trusted_proxy_added(peer, headers, client):
    assert Proxies([network("10.0.0.0/8")]).client(peer, headers) == client


def test_a_hop_longer_than_an_address_is_cut():
    said = Proxies([network("10.0.0.0/8")]).client("ipv4:10.0.0.5:1",
                                                   [("x-forwarded-for", "x" * 10_000)])
    assert len(said) <= 64


@pytest.mark.parametrize("value", ["nonsense", "10.0.0.0/33", "١٠.0.0.1"])
def test_a_trusted_proxy_that_is_no_network_is_one_line(capsys, value):
    assert_one_line_error(*run(capsys, "serve", "--trusted-proxy", value), "--trusted-proxy",
                          f"{value!r} is not an address or a network")


def _hint_over_http(port: int, forwarded_for: str) -> tuple[int, dict]:
    connection = HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("POST", HINT_METHOD, json.dumps({"position": {
            "beleagueredDeal": 2}}), {"Content-Type": "application/json",
                                      "X-Forwarded-For": forwarded_for})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def _long_solves(stub: pb_grpc.SolverStub, forwarded_for: str, calls: int) -> list:
    return [stub.Solve.future(LONG_SOLVE, timeout=120,
                              metadata=[("x-forwarded-for", forwarded_for)])
            for _ in range(calls)]


def _refused(calls: list, count: int) -> list[grpc.RpcError]:
    """The first `count` calls to end, each refused."""
    deadline = time.monotonic() + 60
    while sum(call.done() for call in calls) < count:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return [call.exception() for call in calls if call.done()]


def test_two_clients_behind_one_trusted_proxy_are_each_answered():
    """One client's long solves past its calls are refused in its own name, and hold
    one worker of two; another client's Hints through the same proxy are answered."""
    with running_server(workers=2, queue=4, max_calls_per_address=3, http_port=0,
                        streams_per_connection=16, trusted_proxies=PROXY) as server:
        channel = grpc.insecure_channel(address(server))
        try:
            stub = pb_grpc.SolverStub(channel)
            calls = _long_solves(stub, "203.0.113.1", 6)
            refused = _refused(calls, 3)
            assert {error.code() for error in refused} == {grpc.StatusCode.RESOURCE_EXHAUSTED}
            assert refused[0].details().startswith("203.0.113.1 already has 3 calls")
            assert server.http is not None
            for other in ("203.0.113.2", "203.0.113.3"):
                status, hint = _hint_over_http(server.http.port, other)
                assert status == 200 and hint["status"] == "STATUS_SOLVED"
            hint = stub.Hint(pb.HintRequest(position=deal_source(3)), timeout=60,
                             metadata=[("forwarded", "for=198.51.100.7")])
            assert hint.status in (pb.STATUS_SOLVED, pb.STATUS_UNSOLVABLE)
        finally:
            channel.close()  # the long solves are cancelled with it


def test_what_an_untrusted_peer_says_of_its_client_is_not_taken():
    with running_server(workers=2, queue=4, max_calls_per_address=2,
                        streams_per_connection=16) as server:
        channel = grpc.insecure_channel(address(server))
        try:
            stub = pb_grpc.SolverStub(channel)
            calls = [*_long_solves(stub, "203.0.113.1", 1), *_long_solves(
                stub, "203.0.113.2", 1), *_long_solves(stub, "203.0.113.3", 1)]
            [refused] = _refused(calls, 1)
            assert refused.details().startswith("127.0.0.1 already has 2 calls")
        finally:
            channel.close()
