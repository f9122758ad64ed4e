"""Random and mutated messages to every RPC of a real server: each answer is OK or a
status the proto documents for a bad request (INVALID_ARGUMENT, OUT_OF_RANGE,
UNIMPLEMENTED; RESOURCE_EXHAUSTED for one over --max-request-bytes, or over
--max-position-bytes for a call about one position) with a one-line
message, never INTERNAL or UNKNOWN; the server serves on and its memory stays flat.

The messages (tests/support/rpc_strategies.py) are built from nothing over the request's
descriptor (extreme numbers, long strings, any oneof member, empty messages, repeated
fields of thousands of items), real requests of every registered game
(tests/support/rpc_requests.py) mutated field by field, or bytes that need not be the
message at all. A few hundred go to each RPC by default;
FORTRESS_SOLVER_LONG=1 sends 2,000 to each and bounds the memory's growth.

The server runs in a process of its own, so that its memory is measured apart from the
test's (hypothesis and the messages it builds, some of them megabytes).
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from google.protobuf.message import DecodeError, Message
from hypothesis import HealthCheck, given, settings

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.sizes import RequestSizes
from solver.beleaguered.deals import MAX_DEALS
from solver.beleaguered.variant import find_variant
from solver.errors import InvalidInput
from solver.games import games
from tests.support.long_runs import LONG
from tests.support.memory import family_rss
from tests.support.rpc_requests import SOLVER, SOURCES, VALID
from tests.support.rpc_strategies import requests

PER_RPC = 2_000 if LONG else 300
RPCS = [method.name for method in SOLVER.methods]
MAX_REQUEST_BYTES = 1 << 20
ANSWERS = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.OUT_OF_RANGE,
           grpc.StatusCode.UNIMPLEMENTED}
MAX_GROWTH = 100 << 20  # bytes of RSS, the server's process and its workers, in long mode
SENT: dict[str, Counter[str]] = {rpc: Counter() for rpc in RPCS}  # status names per RPC
SECONDS: Counter[str] = Counter()

# Small budgets and batches, so that every request is answered in well under a second;
# a small hint cache, so that its filling is not taken for a leak.
_SERVE = f"""
from service.server import ServerConfig, serve
from solver.budget import Budget
serve(ServerConfig(port=0, workers=2, queue=4, cache_entries=1_000, max_batch=50,
                   max_request_bytes={MAX_REQUEST_BYTES}, grace_seconds=2.0,
                   limits=Budget(seconds=0.3, nodes=20_000, table_entries=100_000)))
"""


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    log: Path
    port: int


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("fuzz") / "serve.log"
    with log.open("w") as stderr:
        process = subprocess.Popen([sys.executable, "-c", _SERVE], stdout=subprocess.DEVNULL,
                                   stderr=stderr)
    try:
        deadline = time.monotonic() + 60
        while not (serving := re.search(r"serving gRPC on 127\.0\.0\.1:(\d+)",
                                        log.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield Server(process, log, int(serving[1]))
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


@pytest.fixture(scope="module")
def channel(server) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as opened:
        grpc.channel_ready_future(opened).result(timeout=10)
        yield opened


@pytest.fixture(scope="module")
def memory(server, channel) -> dict[int, int]:
    """The server's RSS after every real request has been answered (three times in long
    mode, where the growth from it is bounded: by then the workers have imported and
    built what their searches need): the last test's baseline."""
    for _ in range(3 if LONG else 1):
        for rpc, valid in VALID.items():
            for request in valid:
                assert _send(channel, rpc, request)[0] in ANSWERS
    return family_rss(server.process.pid)


def _narrowed(rpc: str, request: Message | bytes) -> Message | bytes:
    """A GenerateDeals range the server would search, cut to 100 deals: over a band no
    deal meets it tries every deal it is given, by design, and two billion take weeks
    (PySolFC's numbering of the variants goes on to 2**63 - 1)."""
    if rpc != "GenerateDeals":
        return request
    try:
        message = (pb.GenerateDealsRequest.FromString(request) if isinstance(request, bytes)
                   else request)
    except DecodeError:
        return request
    try:
        largest = MAX_DEALS[find_variant(message.variant or None).numbering]
    except InvalidInput:  # a variant no server plays: refused
        return request
    first = message.first_deal if message.HasField("first_deal") else 1
    last = message.last_deal if message.HasField("last_deal") else largest
    if not (1 <= first and last - first >= 100 and last <= largest):
        return request
    message.last_deal = first + 99
    return message


def _send(channel: grpc.Channel, rpc: str, request: Message | bytes
          ) -> tuple[grpc.StatusCode, str]:
    """The status the call ends with, and its message; a message goes through the
    generated stub, bytes through a call that sends them as they are."""
    method = SOLVER.methods_by_name[rpc]
    if isinstance(request, bytes):
        make = channel.unary_stream if method.server_streaming else channel.unary_unary
        call = make(f"/{SOLVER.full_name}/{rpc}", request_serializer=None,
                    response_deserializer=None)
    else:
        call = getattr(pb_grpc.SolverStub(channel), rpc)
    try:
        answer = call(request, timeout=60)
        if method.server_streaming:
            for _ in answer:
                pass
    except grpc.RpcError as error:
        return error.code(), error.details() or ""
    return grpc.StatusCode.OK, ""


def _size(request: Message | bytes) -> int:
    return len(request) if isinstance(request, bytes) else request.ByteSize()


@pytest.mark.parametrize("rpc", RPCS)
def test_no_message_gets_internal_or_unknown(channel, memory, rpc):
    @settings(max_examples=PER_RPC, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(request=requests(rpc))
    def answers(request: Message | bytes) -> None:
        request = _narrowed(rpc, request)
        started = time.perf_counter()
        code, details = _send(channel, rpc, request)
        SECONDS[rpc] += time.perf_counter() - started
        SENT[rpc][code.name] += 1
        too_large = code is grpc.StatusCode.RESOURCE_EXHAUSTED and \
            RequestSizes(MAX_REQUEST_BYTES).fault(rpc, _size(request)) is not None
        assert code in ANSWERS or too_large, (rpc, request, code, details)
        if code is not grpc.StatusCode.OK:
            assert details and "\n" not in details, (rpc, request, code, details)

    answers()
    assert sum(SENT[rpc].values()) >= PER_RPC


def test_every_rpc_has_real_requests_and_every_game_a_source():
    assert set(VALID) == set(RPCS) and all(VALID.values())
    assert {game for game, _ in SOURCES} == {game.name for game in games()}


def test_the_server_still_serves_and_its_memory_is_flat(server, channel, memory):
    stub = pb_grpc.SolverStub(channel)
    info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=10)
    assert {game.name for game in info.games} == {game for game, _ in SOURCES}
    hint = stub.Hint(pb.HintRequest(position=pb.PositionSource(beleaguered_deal=6)), timeout=30)
    assert hint.status == pb.STATUS_SOLVED and hint.moves_left == 84
    after = family_rss(server.process.pid)
    growth = sum(after.values()) - sum(memory.values())
    for rpc in RPCS:
        codes = ", ".join(f"{name} {count}" for name, count in SENT[rpc].most_common())
        print(f"\n[figure] {rpc}: {sum(SENT[rpc].values())} messages in {SECONDS[rpc]:.1f} s"
              f" ({codes})", end="")
    each = ", ".join(f"{memory.get(pid, 0) / 2**20:.0f} -> {rss / 2**20:.0f}"
                     for pid, rss in after.items())
    print(f"\n[figure] RSS of the server process and its children, MiB after the warm-up "
          f"-> after the fuzz: {each}; {growth / 2**20:+.1f} MiB in all")
    logged = server.log.read_text()
    assert "Traceback" not in logged
    assert not re.search(r'"status": "(INTERNAL|UNKNOWN)"', logged)
    if LONG:
        assert growth < MAX_GROWTH
