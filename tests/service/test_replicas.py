"""Several replicas behind one --server: real `fortress-solver serve` processes on
127.0.0.1, each with one worker, and the client commands run against them.

Each server logs one JSON line per call on stderr, kept in a file: the tests count a
server's SolveBatch calls there. Every server runs in a process group of its own (its
worker with it), stopped in teardown.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from service.client import Client, channel_target
from tests.support.batch_output import batch_records, batch_summary, check_summary
from tests.support.cli import assert_one_line_error, run
from tests.support.serve_process import SCRIPT, ServeProcess


def started(folder: Path, count: int) -> list[ServeProcess]:
    """`count` servers, started side by side."""
    replicas: list[ServeProcess] = []
    try:
        for number in range(count):
            replicas.append(ServeProcess(folder / f"replica-{number}.log"))
        for replica in replicas:
            replica.wait_serving()
    except BaseException:
        for replica in replicas:
            replica.stop()
        raise
    return replicas


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> Iterator[list[ServeProcess]]:
    replicas = started(tmp_path_factory.mktemp("pair"), 2)
    yield replicas
    for replica in replicas:
        replica.stop()


def new_calls(replicas: list[ServeProcess], before: list[int], total: int) -> list[int]:
    """Each replica's calls since `before`, once `total` have been logged (a call's
    line may come a moment after the client has its last answer)."""
    deadline = time.monotonic() + 60  # a guard: the lines come within moments
    while True:
        calls = [replica.calls() - was for replica, was in zip(replicas, before, strict=True)]
        if sum(calls) >= total or time.monotonic() > deadline:
            return calls
        time.sleep(0.02)


def deals_of(path: Path) -> list[int]:
    return [record["deal"] for record in batch_records(path.read_text())]


def lines_written(path: Path) -> int:
    """The lines a running batch has written whole (its last may be half written)."""
    return path.read_text().count("\n") if path.exists() else 0


def verdicts(records: list[dict]) -> dict[int, tuple]:
    return {r["deal"]: (r["status"], r["optimal"], r["length"]) for r in records}


@pytest.mark.parametrize("form", ["ipv4", "list"])
def test_one_batch_spreads_its_calls_over_both_replicas_and_resumes(capsys, tmp_path, pair,
                                                                     form):
    """An ipv4: target, or a plain list of HOST:PORT (resolved to the same ipv4: target):
    15 chunks of 10 deals, each a call, on both servers; then a rerun over 1-300 sends
    only the 150 deals not yet in the file."""
    first, second = pair
    target = (f"ipv4:127.0.0.1:{first.port},127.0.0.1:{second.port}" if form == "ipv4"
              else f"localhost:{first.port},127.0.0.1:{second.port}")
    assert channel_target(target) == f"ipv4:127.0.0.1:{first.port},127.0.0.1:{second.port}"
    out = tmp_path / "results.jsonl"
    for deals, chunks in (("1-150", 15), ("1-300", 15)):
        before = [replica.calls() for replica in pair]
        code, stdout, err = run(capsys, "client", "batch", "--server", target, "--deals", deals,
                                "--chunk", "10", "--out", str(out))
        assert (code, stdout) == (0, ""), err
        calls = new_calls(pair, before, chunks)
        assert sum(calls) == chunks and min(calls) >= 3, calls
        check_summary(batch_summary(err), batch_records(out.read_text()), processed=150)
    assert sorted(deals_of(out)) == list(range(1, 301))


def test_a_replica_killed_mid_batch_costs_no_deal(capsys, tmp_path, pair):
    """SIGKILL one of two replicas while its streams are answering: its chunks are sent
    again, only their deals not yet answered, to the other; the file has every deal
    exactly once, with the verdicts of the local batch."""
    [victim] = started(tmp_path, 1)
    survivor = pair[0]
    try:
        out = tmp_path / "results.jsonl"
        batch = subprocess.Popen(
            [str(SCRIPT), "client", "batch", "--deals", "1-600", "--chunk", "25", "--out",
             str(out), "--server", f"127.0.0.1:{victim.port},127.0.0.1:{survivor.port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while (victim.calls() < 1 or lines_written(out) < 100) \
                and batch.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        before = survivor.calls()
        answered = lines_written(out)
        victim.kill()
        _, err = batch.communicate(timeout=60)
    finally:
        victim.stop()
    assert batch.returncode == 0, err
    assert 100 <= answered < 600  # killed mid-batch
    assert survivor.calls() > before  # what was left went to the other replica
    records = batch_records(out.read_text())
    assert sorted(r["deal"] for r in records) == list(range(1, 601))  # each exactly once
    check_summary(batch_summary(err), records, processed=600)
    code, local, err = run(capsys, "batch", "--deals", "1-600", "--jobs", "2")
    assert code == 0, err
    assert verdicts(records) == verdicts(batch_records(local))


def test_a_batch_whose_only_server_stops_ends_in_one_line_and_resumes(tmp_path):
    """The server drains and stops (SIGTERM) mid-batch: the client ends, UNAVAILABLE in
    one line and exit 1, rather than wait for it without end (a stream gRPC retried can
    be left waiting on a channel with no server), and a rerun with the same --out on
    another server goes on from the deals written."""
    [server] = started(tmp_path, 1)
    out = tmp_path / "results.jsonl"
    command = [str(SCRIPT), "client", "batch", "--deals", "1-40000", "--mode", "any",
               "--out", str(out)]
    try:
        batch = subprocess.Popen([*command, "--server", f"127.0.0.1:{server.port}"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while lines_written(out) < 2000 and batch.poll() is None \
                and time.monotonic() < deadline:
            time.sleep(0.01)
        server.send(signal.SIGTERM)
        _, err = batch.communicate(timeout=120)
    finally:
        server.stop()
    assert batch.returncode == 1, err
    [line] = err.strip().splitlines()[-1:]
    assert "UNAVAILABLE" in line and "Traceback" not in err, err
    written = deals_of(out)
    assert 2000 <= len(written) < 40000 and len(set(written)) == len(written)
    (tmp_path / "again").mkdir()
    [again] = started(tmp_path / "again", 1)
    try:
        rerun = subprocess.run([*command[:4], "1-" + str(max(written) + 100), *command[5:],
                                "--server", f"127.0.0.1:{again.port}"],
                               capture_output=True, text=True, timeout=120)
    finally:
        again.stop()
    assert rerun.returncode == 0, rerun.stderr
    assert sorted(deals_of(out)) == list(range(1, max(written) + 101))  # each once


BAD_TARGETS = ["127.0.0.1", "127.0.0.1:port", "ipv4:localhost:50051", "dns:///",
               "127.0.0.1:50051,,127.0.0.1:50052", "http://127.0.0.1:50051",
               "no-such-host.invalid:1,127.0.0.1:2"]


@pytest.mark.parametrize("target", BAD_TARGETS)
@pytest.mark.parametrize("command", [["batch", "--deals", "1-3"], ["solve", "--deal", "2"]],
                         ids=["batch", "solve"])
def test_a_bad_target_is_refused_in_one_line_naming_it(capsys, target, command):
    code, out, err = run(capsys, "client", *command, "--server", target)
    assert_one_line_error(code, out, err, "fortress-solver: bad --server", repr(target))


def test_a_dns_target_reaches_a_single_server(capsys, pair):
    server = pair[1]
    target = f"dns:///localhost:{server.port}"
    before = [server.calls()]
    code, out, err = run(capsys, "client", "batch", "--server", target, "--deals", "1-40",
                         "--chunk", "10")
    assert code == 0, err
    assert sorted(r["deal"] for r in batch_records(out)) == list(range(1, 41))
    assert new_calls([server], before, 4) == [4]
    code, out, err = run(capsys, "client", "solve", "--server", target, "--deal", "2",
                         "--mode", "any", "--json")
    assert code == 0 and json.loads(out)["status"] == "solved", err


class _Cut(grpc.RpcError):
    """How gRPC ends a stream: its status code."""

    def __init__(self, code: grpc.StatusCode) -> None:
        super().__init__()
        self._code = code

    def code(self) -> grpc.StatusCode:
        return self._code


@pytest.mark.parametrize("code", [grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED])
def test_a_stream_its_replica_cut_off_is_sent_again_for_the_items_it_did_not_answer(code):
    """A replica that stops mid-stream ends it UNAVAILABLE, or CANCELLED when its last
    answers were not all read within its stop: the client sends the items it has no
    answer for again, and every item is answered once."""
    sent: list[list[int]] = []

    def call(items: list[int]) -> Iterator[tuple[int, int]]:
        sent.append(items)
        for item in items:
            if len(sent) == 1 and item == 3:
                raise _Cut(code)
            yield item, 10 * item

    client = Client("127.0.0.1:1")
    try:
        assert sorted(client.in_chunks(list(range(1, 8)), 10, call)) == [10, 20, 30, 40, 50,
                                                                       60, 70]
    finally:
        client.close()
    assert sent == [[1, 2, 3, 4, 5, 6, 7], [3, 4, 5, 6, 7]]


@pytest.mark.parametrize("code", [grpc.StatusCode.CANCELLED, grpc.StatusCode.INVALID_ARGUMENT])
def test_a_stream_cut_before_any_answer_or_refused_ends_the_batch_with_its_error(code):
    def call(items: list[int]) -> Iterator[tuple[int, int]]:
        if items[0] > 1 or code is grpc.StatusCode.CANCELLED:
            raise _Cut(code)
        yield 1, 10

    client = Client("127.0.0.1:1")
    try:
        with pytest.raises(grpc.RpcError) as raised:
            list(client.in_chunks([1, 2], 1, call))
    finally:
        client.close()
    assert raised.value.code() is code
