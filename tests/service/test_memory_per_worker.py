"""`serve --memory-per-worker`: what one worker process may hold, its own memory and its
search's tables, told in GetServerInfo and applied to every request however much it
asks: hard optimal solves on every worker at once keep each worker under it. A real
`serve` and real `client` processes."""

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
PER_WORKER = 160  # a worker's own memory is some 100 MiB: some 60 MiB for tables


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
                  "--nodes", "1000000", "--seconds", "60", "--memory", "4000")


def test_the_server_tells_its_cap_and_holds_every_request_to_it(server):
    with grpc.insecure_channel(server.address) as channel:
        info = fortress_solver_pb2_grpc.SolverStub(channel).GetServerInfo(
            pb.GetServerInfoRequest(), timeout=30)
    assert info.limits.memory_per_worker_mib == PER_WORKER
    answer = hard_solve(server, "streets-and-alleys", 77)  # asks for 4000 MiB
    assert answer["status"] != "unsolvable" and not answer["optimal"]
    assert 0 < answer["stats"]["table_bytes"] <= PER_WORKER * MIB


def test_hard_solves_on_every_worker_keep_each_worker_under_its_memory(server):
    client(server, "solve", "--variant", "beleaguered-castle", "--deal", "2")  # warm
    peaks: dict[int, int] = {}
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            for pid, rss in family_rss(server.process.pid).items():
                peaks[pid] = max(peaks.get(pid, 0), rss)
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        cases = [("streets-and-alleys", 77), ("streets-and-alleys", 186),
                 ("beleaguered-castle", 48), ("streets-and-alleys", 29)]
        answers: list[dict] = []
        threads = [threading.Thread(target=lambda case=case: answers.append(
            hard_solve(server, *case))) for case in cases]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        done.set()
        watcher.join()
    assert len(answers) == 4 and all(a["stats"]["table_bytes"] > 8 * MIB for a in answers)
    workers = {pid: peak for pid, peak in peaks.items() if pid != server.process.pid}
    largest = sorted(workers.values())[-2:]  # the two workers (the others are helpers)
    # a worker's tables fill what its own memory leaves of the limit; a few MiB of room
    # for what the allocator keeps beside them
    assert all(peak <= (PER_WORKER + 8) * MIB for peak in largest), peaks



def test_a_worker_gives_its_tables_back_after_large_searches(server):
    """Searches whose tables took tens of MiB leave a worker no larger than before them,
    a few MiB aside: the allocator keeps what a table below its mmap threshold held
    (some 20 MiB after these) until the worker gives it back."""
    client(server, "solve", "--variant", "beleaguered-castle", "--deal", "2")  # warm
    before = family_rss(server.process.pid)
    for variant, number, nodes in (("streets-and-alleys", 77, 1_000_000),
                                   ("beleaguered-castle", 48, 300_000),
                                   ("streets-and-alleys", 186, 200_000)):
        answer = client(server, "solve", "--variant", variant, "--deal", str(number),
                        "--nodes", str(nodes), "--seconds", "60", "--memory", "4000")
        assert answer["stats"]["table_bytes"] > 16 * MIB
    after = family_rss(server.process.pid)
    grown = {pid: (after[pid] - rss) // MIB for pid, rss in before.items() if pid in after}
    assert max(grown.values()) <= 8, grown  # what a worker may keep (service/pool.py)
