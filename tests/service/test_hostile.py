"""What one hostile client can cost a real `serve` process: calls opened and never sent,
positions far larger than any game's, silent connections past the open-file limit,
malformed traffic before a stop, a load of 200 clients. Each leaves the others served,
health answering, the refusals counted as the clients saw them, and the stop ending.

Attackers use channels of their own (a local subchannel pool: a connection of their
own), as a client on another machine would.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from http.client import HTTPConnection
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.beleaguered.messages import position_to_proto
from solver.beleaguered import deal
from tests.support.long_runs import sampled
from tests.support.memory import family_rss
from tests.support.serve_process import ServeProcess
from tests.support.servers import deal_source

HINT_METHOD = "/fortress.solver.v1.Solver/Hint"
SERVING = health_pb2.HealthCheckResponse.SERVING


def own_channel(address: str) -> grpc.Channel:
    """A channel on a connection of its own (not shared with the test's other channels)."""
    return grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])


def answered(address: str, calls: int = 5) -> None:
    """A well-behaved client: Hints and health checks, each answered."""
    with own_channel(address) as channel:
        stub = pb_grpc.SolverStub(channel)
        health = health_pb2_grpc.HealthStub(channel)
        for number in range(1, calls + 1):
            hint = stub.Hint(pb.HintRequest(position=deal_source(number)), timeout=30)
            assert hint.status in (pb.STATUS_SOLVED, pb.STATUS_UNSOLVABLE)
            assert health.Check(health_pb2.HealthCheckRequest(), timeout=30).status == SERVING


@contextmanager
def serving(log: Path, *args: str) -> Iterator[ServeProcess]:
    """A `serve` process with `args`, up and answering, stopped afterwards."""
    running = ServeProcess(log, *args)
    try:
        running.wait_serving()
        answered(running.address, 1)
        yield running
    finally:
        running.stop()


@pytest.fixture
def server(tmp_path):
    with serving(tmp_path / "serve.log", "--http-port", "0", "--metrics-port", "0",
                 "--receive-seconds", "2", "--max-streams-per-connection", "8",
                 "--grace", "1") as running:
        yield running


def test_calls_that_never_send_their_request_leave_solver_calls_and_health_answering(server):
    release = threading.Event()
    with own_channel(server.address) as channel:
        stalled = [channel.stream_unary(HINT_METHOD).future(never(release), timeout=60)
                   for _ in range(26)]
        answered(server.address)
        ended = Counter(call.exception().code() for call in stalled)  # waits for each
        release.set()
    # 8 held until the request's time ran out, the rest refused at once by the cap (or
    # by HTTP/2 itself, past the streams the connection's settings allow: UNAVAILABLE)
    assert ended[grpc.StatusCode.DEADLINE_EXCEEDED] == 8
    assert ended[grpc.StatusCode.RESOURCE_EXHAUSTED] >= 10
    assert set(ended) <= {grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.RESOURCE_EXHAUSTED,
                          grpc.StatusCode.UNAVAILABLE}
    details = {call.exception().details() for call in stalled}
    assert "the request did not arrive within 2 s of the call's start (--receive-seconds)" \
        in details
    assert any("this connection already has 8 calls open" in text for text in details)
    answered(server.address)


def never(release: threading.Event) -> Iterator[bytes]:
    """A request stream that sends nothing until `release`, then ends without a message."""
    release.wait(60)
    yield from ()


def big_pile() -> pb.BeleagueredPosition:
    """Deal 2 with a 200,000-card first pile (about 800 KB)."""
    message = position_to_proto(deal(2))
    message.tableau[0].cards.extend(["AS"] * 200_000)
    return message


def test_an_oversized_pile_is_refused_by_its_size_before_it_is_read(server):
    with own_channel(server.address) as channel:
        with pytest.raises(grpc.RpcError) as refused:
            pb_grpc.SolverStub(channel).Hint(
                pb.HintRequest(position=pb.PositionSource(beleaguered=big_pile())), timeout=30)
    assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert re.fullmatch(r"the Hint request's 800\d\d\d bytes are larger than a call about one "
                        r"position may send, 65536 \(--max-position-bytes\)",
                        refused.value.details())


def test_an_oversized_pile_is_refused_and_leaves_no_memory_behind(tmp_path):
    # a server that lets megabyte positions in, for its readers to refuse
    with serving(tmp_path / "serve.log", "--max-position-bytes", "1048576") as server:
        _refused_and_given_back(server)


def _refused_and_given_back(server: ServeProcess) -> None:
    as_json = json.dumps({"game": "beleaguered-fortress",
                          "tableau": [[str(c) for c in pile] for pile in deal(2).tableau],
                          "reserve": [str(c) for c in deal(2).reserve]})
    as_json = as_json.replace('"tableau": [[', '"tableau": [[' + '"AS", ' * 150_000, 1)
    requests = [pb.HintRequest(position=pb.PositionSource(beleaguered=big_pile())),
                pb.HintRequest(position=pb.PositionSource(json=as_json))]
    with own_channel(server.address) as channel:
        stub = pb_grpc.SolverStub(channel)
        for request in requests * 3:  # the first of each sets the server's buffers
            with pytest.raises(grpc.RpcError):
                stub.Hint(request, timeout=30)
        time.sleep(1)  # for the server to give back what they held
        before = family_rss(server.process.pid)[server.process.pid]  # no worker sees them
        for _ in range(20):
            for request in requests:
                with pytest.raises(grpc.RpcError) as refused:
                    stub.Hint(request, timeout=30)
                assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
                assert "at most 52" in refused.value.details()
    kept = _growth_once_settled(server.process.pid, before, 16 << 20)
    assert kept < 16 << 20, f"{kept >> 20} MiB kept"
    answered(server.address, 2)


def _growth_once_settled(pid: int, before: int, bound: int) -> int:
    """How far the process's memory stays above `before`, looked at until it is under
    `bound`: a minute at most, for a busy machine gives memory back late."""
    deadline = time.monotonic() + 60
    while (grown := family_rss(pid)[pid] - before) >= bound and time.monotonic() < deadline:
        time.sleep(0.5)
    return grown


def test_silent_connections_past_the_open_file_limit_leave_both_faces_answering(tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < 1300:
        pytest.skip(f"the test needs 1,300 open files, this machine allows {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    server = ServeProcess(tmp_path / "serve.log", "--http-port", "0", files=1024)
    silent: list[socket.socket] = []
    try:
        server.wait_serving()
        assert "open files: at most 1024" in server.log.read_text()
        for k in range(1100):
            silent.append(socket.create_connection(("127.0.0.1", server.http_port)))
            if k % 32 == 31:  # let the server accept them: a connection past its listen
                time.sleep(0.02)  # queue of 64 would wait a second to try again
        request = urllib.request.Request(
            f"http://127.0.0.1:{server.http_port}/fortress.solver.v1.Solver/GetServerInfo",
            data=b"{}", headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200 and json.loads(answer.read())["games"]
        answered(server.address, 2)
        log = server.log.read_text()
        assert "Traceback" not in log
        assert log.count('"refused": "connection cap"') <= 2  # once, and a count
    finally:
        for connection in silent:
            connection.close()
        server.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def malformed_traffic(address: str, release: threading.Event) -> None:
    """Bytes that are not HTTP/2, a preface and then garbage, a request that is not its
    message, and a call left open without its request."""
    host, port = address.rsplit(":", 1)
    for payload in (b"\x16\x03\x01 not gRPC at all" * 50,
                    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x04\x08\x00\xff" * 100):
        with socket.create_connection((host, int(port))) as raw:
            raw.sendall(payload)
    with own_channel(address) as channel:
        garbage = channel.unary_unary(HINT_METHOD)
        with pytest.raises(grpc.RpcError) as refused:
            garbage(b"\xff\xff\xff", timeout=10)
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    open_call = own_channel(address)
    open_call.stream_unary(HINT_METHOD).future(never(release), timeout=60)


def group_ends(group: int) -> bool:
    """Whether every process of the group ends (the workers, the semaphores' tracker)
    within a minute of its leader (a guard: they end within moments)."""
    for _ in range(1200):
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_sigterm_after_malformed_traffic_ends_the_process_every_time(tmp_path):
    def one_run(k: int) -> tuple[int | None, str]:
        server = ServeProcess(tmp_path / f"serve-{k}.log", "--grace", "1")
        release = threading.Event()
        try:
            server.wait_serving()
            malformed_traffic(server.address, release)
            server.send(signal.SIGTERM)
            code = server.process.wait(timeout=60)
            assert group_ends(server.process.pid)  # no worker left behind either
            return code, server.log.read_text()
        finally:
            release.set()
            server.stop()

    runs = sampled(4, 12)
    with ThreadPoolExecutor(4) as pool:
        ended = list(pool.map(one_run, range(runs)))
    # 0: drained and stopped by itself, not by the watchdog (which exits 1)
    assert [code for code, _ in ended] == [0] * runs, [log for code, log in ended if code][:1]
    assert not any("Traceback" in log for _, log in ended)


def metrics(server: ServeProcess) -> str:
    url = f"http://127.0.0.1:{server.metrics_port}/metrics"
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.read().decode()


def exhausted(text: str) -> int:
    """RESOURCE_EXHAUSTED calls the server counted, over every method."""
    return sum(int(float(line.rsplit(" ", 1)[1])) for line in text.splitlines()
               if line.startswith("fortress_solver_calls_total{")
               and 'status="RESOURCE_EXHAUSTED"' in line)


def test_health_answers_through_a_200_client_load_and_refusals_are_counted_as_seen(tmp_path):
    server = ServeProcess(tmp_path / "serve.log", "--metrics-port", "0", "--queue", "4")
    try:
        server.wait_serving()
        answered(server.address, 1)
        seen: Counter[grpc.StatusCode] = Counter()
        lock = threading.Lock()
        channels = [own_channel(server.address) for _ in range(8)]
        stubs = [pb_grpc.SolverStub(channel) for channel in channels]

        def client(k: int) -> None:
            for n in range(10):
                request = pb.HintRequest(position=deal_source(1 + (k * 10 + n) % 5000))
                try:
                    stubs[k % len(stubs)].Hint(request, timeout=60)
                    code = grpc.StatusCode.OK
                except grpc.RpcError as error:
                    code = error.code()
                with lock:
                    seen[code] += 1

        checks: list[int] = []
        done = threading.Event()

        def checker() -> None:
            with own_channel(server.address) as channel:
                health = health_pb2_grpc.HealthStub(channel)
                while not done.is_set() and len(checks) < 10_000:
                    checks.append(health.Check(health_pb2.HealthCheckRequest(),
                                               timeout=30).status)

        watching = threading.Thread(target=checker)
        watching.start()
        with ThreadPoolExecutor(200) as clients:
            list(clients.map(client, range(200)))
        done.set()
        watching.join()
        for channel in channels:
            channel.close()
        assert checks and set(checks) == {SERVING}  # every check answered, none refused
        assert sum(seen.values()) == 2000
        assert set(seen) <= {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}
        assert seen[grpc.StatusCode.RESOURCE_EXHAUSTED] > 0  # the load was a load
        assert exhausted(metrics(server)) == seen[grpc.StatusCode.RESOURCE_EXHAUSTED]
        log = server.log.read_text()
        assert "Traceback" not in log
        assert log.count('"refused": ') <= 4  # a cause's first line, and one every 10 s
    finally:
        server.stop()


def test_refusals_are_logged_once_per_cause_and_then_counted(tmp_path):
    server = ServeProcess(Path(tmp_path / "serve.log"))
    try:
        server.wait_serving()
        with own_channel(server.address) as channel:
            stub = pb_grpc.SolverStub(channel)
            for _ in range(200):
                with pytest.raises(grpc.RpcError):
                    stub.Hint(pb.HintRequest(position=pb.PositionSource(json="[]")), timeout=30)
        lines = [json.loads(line) for line in server.log.read_text().splitlines()
                 if line.startswith("{")]
        refused = [line for line in lines if line.get("refused") == "bad input"]
        assert 1 <= len(refused) <= 2  # the first, and one more if 10 s went by
    finally:
        server.stop()


HANGING_STOP = """
import threading
from service import server
server.RunningServer.stop = lambda self, *_: threading.Event().wait()  # a stop that never ends
server.serve(server.ServerConfig(port=0, workers=1, grace_seconds=0.5, watchdog_seconds=1.0))
"""


def test_a_stop_that_hangs_is_ended_by_the_watchdog_with_its_workers(tmp_path):
    log = tmp_path / "serve.log"
    with log.open("w") as stderr:
        process = subprocess.Popen([sys.executable, "-c", HANGING_STOP], stderr=stderr,
                                   start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while "serving gRPC" not in log.read_text():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 1
        assert "not stopped 1 s after the grace: exiting now" in log.read_text()
        assert group_ends(process.pid)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def http_hint(port: int, number: int, source: str = "127.0.0.2") -> tuple[int, dict]:
    """A Hint over HTTP from `source` (any of 127.0.0.0/8 is this machine): another
    client's address than the tests' 127.0.0.1. (HTTP status, answer)"""
    connection = HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    try:
        connection.request("POST", HINT_METHOD, json.dumps({"position": {
            "beleagueredDeal": number}}), {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def test_one_address_with_many_connections_leaves_a_worker_to_another(tmp_path):
    """Twelve connections from one address, each holding a search of a minute: the
    address's calls past --max-calls-per-address are refused, the rest hold one worker
    of the two, and another address's Hints are answered by the other."""
    with serving(tmp_path / "serve.log", "--workers", "2", "--queue", "4", "--http-port",
                 "0", "--metrics-port", "0", "--max-calls-per-address", "6") as server:
        long_solve = pb.SolveRequest(
            position=deal_source(126), budget=pb.Budget(seconds=60, table_entries=256),
            beleaguered=pb.BeleagueredSolveOptions(algorithm=pb.ALGORITHM_IDASTAR))
        channels = [own_channel(server.address) for _ in range(12)]
        try:
            calls = [pb_grpc.SolverStub(channel).Solve.future(long_solve, timeout=120)
                     for channel in channels]
            deadline = time.monotonic() + 60
            while sum(call.done() for call in calls) < 6:  # refused at once, the others held
                assert time.monotonic() < deadline
                time.sleep(0.05)
            refused = [call.exception() for call in calls if call.done()]
            assert {error.code() for error in refused} == {grpc.StatusCode.RESOURCE_EXHAUSTED}
            assert refused[0].details() == (
                "127.0.0.1 already has 6 calls in flight, the most one address may "
                "(--max-calls-per-address): wait for one to end")
            text = metrics(server)
            assert "fortress_solver_busiest_client_workers 1.0" in text
            assert "fortress_solver_workers_busy 1.0" in text  # the last idle one is kept
            for number in (2, 3, 4):
                status, hint = http_hint(server.http_port, number)
                assert status == 200 and hint["status"] != "STATUS_UNKNOWN"
            # the address's calls held still, but one whose place in the queue a Hint took
            # (its refusal on its way back to this client, which a busy machine may delay;
            # the searches held run for a minute)
            deadline = time.monotonic() + 30
            while sum(call.done() for call in calls) < 7:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            assert sum(call.done() for call in calls) == 7
            assert "this call's place went to a client with fewer calls" in "".join(
                call.exception().details() for call in calls if call.done())
        finally:
            for channel in channels:
                channel.close()


def test_chunked_bodies_past_the_limit_are_refused_as_read_and_leave_no_memory(tmp_path):
    """Sixteen clients at once, each a Hint of a megabyte in chunks (no length said):
    each reads its 413 once its body is read, the others' Hints are answered, and the
    server keeps no memory of them."""
    with serving(tmp_path / "serve.log", "--workers", "2", "--http-port", "0") as server:
        body = json.dumps({"position": {"json": "x" * (1 << 20)}}).encode()

        def chunked() -> int:
            connection = HTTPConnection("127.0.0.1", server.http_port, timeout=60)
            try:
                connection.request("POST", HINT_METHOD, iter([body[k:k + 16_384] for k in
                                                              range(0, len(body), 16_384)]),
                                   {"Content-Type": "application/json"},
                                   encode_chunked=True)
                answer = connection.getresponse()
                assert json.loads(answer.read())["code"] == "invalid_argument"
                return answer.status
            finally:
                connection.close()

        with ThreadPoolExecutor(16) as clients:
            list(clients.map(lambda _: chunked(), range(16)))  # the server's buffers set
            time.sleep(1)
            before = family_rss(server.process.pid)[server.process.pid]
            statuses = list(clients.map(lambda _: chunked(), range(64)))
            assert http_hint(server.http_port, 2, "127.0.0.1")[1]["movesLeft"] == 66
        assert set(statuses) == {413}
        kept = _growth_once_settled(server.process.pid, before, 16 << 20)
        assert kept < 16 << 20, f"{kept >> 20} MiB kept"
