"""The server's memory adds up: `serve --memory` shared out between its processes, or
refused in one line when it cannot be; the hint cache within its MiB, one client's
flood of it pushing out that client's own answers, not another's."""

from __future__ import annotations

import json
import random
import urllib.request

import pytest

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.clients import network
from service.memory_plan import HELPERS_MIB, MAIN_MIB, worker_mib
from solver.errors import InvalidInput
from tests.support.cheap_positions import cheap_freecell
from tests.support.cli import assert_one_line_error, run
from tests.support.servers import connect, deal_source, running_server


def test_the_workers_have_what_the_rest_of_the_total_leaves_them():
    assert worker_mib(2, 64, 960, None, 512) == (960 - MAIN_MIB - 64 - HELPERS_MIB) // 2
    assert worker_mib(3, 32, None, None, 512) == 512  # no total: the default
    assert worker_mib(2, 64, 1024, 300, 512) == 300  # both, and they add up


@pytest.mark.parametrize(("argv", "fragments"), [
    (("--memory", "500", "--workers", "2"),
     ("--memory 500 leaves 90 MiB a worker", "needs at least 160")),
    (("--memory", "900", "--memory-per-worker", "400", "--workers", "2"),
     ("--memory 900 cannot hold 2 workers of --memory-per-worker 400", "1120 MiB")),
    (("--memory", "2000", "--cache-mib", "1900", "--workers", "1"),
     ("--cache-mib 1900",)),
])
def test_a_total_that_does_not_add_up_is_one_line(capsys, argv, fragments):
    assert_one_line_error(*run(capsys, "serve", "--port", "0", *argv), *fragments)


def test_a_total_that_does_is_told_by_the_server():
    with pytest.raises(InvalidInput):
        worker_mib(2, 64, 400, None, 512)
    with running_server(workers=1, memory_mib=700, cache_mib=16) as server, \
            connect(server) as stub:
        limits = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=30).limits
        assert (limits.memory_mib, limits.cache_mib) == (700, 16)


def _hint(stub: pb_grpc.SolverStub, number: int, client: str) -> pb.HintResponse:
    return stub.Hint(pb.HintRequest(position=deal_source(number)), timeout=60,
                     metadata=[("x-forwarded-for", client)])


def test_a_client_flooding_the_cache_leaves_anothers_hints_in_it():
    """A cache of 1 MiB, half of it a client's share (2 workers): 40 optimal solves of
    53 hints each from one client, some 2 MiB of answers, leave the calm client's
    hints cached, and the cache within its MiB."""
    rng = random.Random(5)
    with running_server(workers=2, cache_mib=1, trusted_proxies=(network("127.0.0.1"),),
                        metrics_port=0) as server, connect(server) as stub:
        calm = [_hint(stub, number, "203.0.113.1") for number in (2, 6)]
        assert not any(hint.cached for hint in calm)
        assert all(_hint(stub, number, "203.0.113.1").cached for number in (2, 6))
        for _ in range(40):
            flood = stub.Solve(pb.SolveRequest(
                position=pb.PositionSource(json=json.dumps(cheap_freecell(rng))),
                beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_OPTIMAL)),
                timeout=60, metadata=[("x-forwarded-for", "203.0.113.2")])
            assert flood.status == pb.STATUS_SOLVED and flood.optimal
        again = [_hint(stub, number, "203.0.113.1") for number in (2, 6)]
        assert all(hint.cached for hint in again)
        with urllib.request.urlopen(f"http://127.0.0.1:{server.metrics_port}/metrics",
                                    timeout=30) as answer:
            size = next(float(line.split()[1]) for line in answer.read().decode().splitlines()
                        if line.startswith("fortress_solver_hint_cache_bytes "))
        assert (1 << 20) // 2 < size <= 1 << 20  # the flood's share full, the whole within
