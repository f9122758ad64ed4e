"""`serve --memory-per-worker`: what one worker process may hold, its own memory and what
its search adds, told in GetServerInfo and applied to every request however much it
asks: hard optimal solves on every worker at once keep each worker under it, and so does
a Farbduell puzzle, whose Python search measures the memory it adds. A real `serve` and
real `client` processes."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc
from solver.farbduell.data import load_tables
from solver.farbduell.rules import new_game
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


@contextmanager
def workers_peaks(server: ServeProcess) -> Iterator[dict[int, int]]:
    """The resident bytes of the server's processes at their largest within the block
    (by pid, the server's own left out), read every 20 ms."""
    peaks: dict[int, int] = {}
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            for pid, rss in family_rss(server.process.pid).items():
                if pid != server.process.pid:
                    peaks[pid] = max(peaks.get(pid, 0), rss)
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        yield peaks
    finally:
        done.set()
        watcher.join()


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
    with workers_peaks(server) as peaks:
        cases = [("streets-and-alleys", 77), ("streets-and-alleys", 186),
                 ("beleaguered-castle", 48), ("streets-and-alleys", 29)]
        answers: list[dict] = []
        threads = [threading.Thread(target=lambda case=case: answers.append(
            hard_solve(server, *case))) for case in cases]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert len(answers) == 4 and all(a["stats"]["table_bytes"] > 8 * MIB for a in answers)
    largest = sorted(peaks.values())[-2:]  # the two workers (the others are helpers)
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


def test_a_farbduell_puzzle_keeps_its_worker_under_its_memory(server, tmp_path):
    """A Python search measures what it adds to its worker (solver/memory.py), where it
    counted table entries of an assumed 1,200 bytes: a six-player forced-win question,
    which holds some 2 KB an entry all told, fills what the worker has left and stops
    there, UNKNOWN, within a tenth of the limit; then the worker lets its positions go
    (a few MiB aside), where the interpreter's free lists kept most of them resident."""
    six = tmp_path / "six-players.json"
    six.write_text(json.dumps(new_game(load_tables()["classic"], 6, 1).to_json()))
    before = family_rss(server.process.pid)
    with workers_peaks(server) as peaks:
        answer = client(server, "farbduell", "puzzle", str(six), "--turns", "12",
                        "--seconds", "60", "--memory", "4000")
    assert answer["status"] == "unknown"
    largest = max(peaks.values())
    assert (PER_WORKER - 16) * MIB < largest <= PER_WORKER * MIB * 11 // 10, peaks
    deadline = time.monotonic() + 30  # the worker trims once the answer has gone
    while (grown := max((rss - before[pid]) // MIB for pid, rss
                        in family_rss(server.process.pid).items() if pid in before)) > 8:
        assert time.monotonic() < deadline, f"a worker still {grown} MiB larger"
        time.sleep(0.1)
