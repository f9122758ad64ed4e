"""`serve --memory-per-worker`: the cap on what one search's tables hold, told in
GetServerInfo, applied to every request however much it asks, and so a bound on the
server's memory: hard optimal solves on every worker at once grow the server and its
workers by no more than the workers' caps. A real `serve` and real `client` processes."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Iterator

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc
from tests.support.memory import family_rss
from tests.support.serve_process import SCRIPT, ServeProcess

MIB = 1 << 20
PER_WORKER = 24


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    serving = ServeProcess(tmp_path_factory.mktemp("memory") / "serve.log", "--workers", "2",
                           "--memory-per-worker", str(PER_WORKER))
    try:
        serving.wait_serving()
        yield serving
    finally:
        serving.stop()


def client(server: ServeProcess, *args: str) -> dict:
    done = subprocess.run([str(SCRIPT), "client", *args, "--server", server.address,
                           "--json"], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def hard_solve(server: ServeProcess, variant: str, number: int) -> dict:
    """An optimal solve that fills any table of a few MiB: stopped by its nodes."""
    return client(server, "solve", "--variant", variant, "--deal", str(number),
                  "--nodes", "600000", "--seconds", "60", "--memory", "4000")


def test_the_server_tells_its_cap_and_holds_every_request_to_it(server):
    with grpc.insecure_channel(server.address) as channel:
        info = fortress_solver_pb2_grpc.SolverStub(channel).GetServerInfo(
            pb.GetServerInfoRequest(), timeout=30)
    assert info.limits.memory_per_worker_mib == PER_WORKER
    answer = hard_solve(server, "streets-and-alleys", 77)  # asks for 4000 MiB
    assert answer["status"] != "unsolvable" and not answer["optimal"]
    assert 0 < answer["stats"]["table_bytes"] <= PER_WORKER * MIB


def test_hard_solves_on_every_worker_grow_the_server_by_its_caps_at_most(server):
    client(server, "solve", "--variant", "beleaguered-castle", "--deal", "2")  # warm
    before = sum(family_rss(server.process.pid).values())
    peak = before
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, sum(family_rss(server.process.pid).values()))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        cases = [("streets-and-alleys", 77), ("streets-and-alleys", 186),
                 ("beleaguered-castle", 48), ("streets-and-alleys", 29)]
        threads = [threading.Thread(target=hard_solve, args=(server, *case)) for case in cases]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        done.set()
        watcher.join()
    # two workers, each at most its cap in tables; a few MiB of room for the rest (the
    # calls' messages, a worker's stack and the allocator's own bookkeeping)
    assert peak - before <= 2 * PER_WORKER * MIB + 16 * MIB, (before, peak)
