"""make bench-scale: the same batch (`any` mode) on 1 and 2 gRPC replicas behind one
round_robin target, and on a Dask cluster of 1 and 2 workers, beside the local pool of
1 and 2 processes; rounds interleaved, medians of deals per second and the speed-ups.

Every replica is a `fortress-solver serve --workers 1` and every Dask worker one
process of one thread, so "2" is two cores' worth in each; what is timed is the whole
command a user runs (`client batch`, `batch --dask`, `batch --jobs`), start-up included.
A setup's servers or cluster run only around its own runs (started, warmed up, then
timed): an idle Dask cluster alone takes some 0.4 of a core, which the others would pay.

Then what a single call costs the server beyond its search, on one replica of one
worker: warm Beleaguered Fortress Solves (`any` mode, a deal each), Fortress Fight
Kingdom Hints and Beleaguered Fortress Hints from the hint cache, alternated; the p50 of
the server's own time per call (the "ms" of its log line), of the search's (the
answer's stats.seconds) and of their difference.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from functools import partial
from pathlib import Path
from typing import IO

import grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc

BIN = Path(sys.executable).parent
CLI = [str(BIN / "fortress-solver")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


@contextmanager
def process(command: list[str], stderr: IO[bytes] | int = subprocess.DEVNULL,
            cwd: Path | None = None, env: dict[str, str] | None = None
            ) -> Iterator[subprocess.Popen[bytes]]:
    started = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr,
                               start_new_session=True, cwd=cwd, env=env)
    try:
        yield started
    finally:
        os.killpg(started.pid, signal.SIGTERM)
        try:
            started.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(started.pid, signal.SIGKILL)
            started.wait()


@contextmanager
def replicas(count: int) -> Iterator[str]:
    """`count` servers of one worker each; the ipv4: target that names them all."""
    ports = [free_port() for _ in range(count)]
    with ExitStack() as stack:
        for port in ports:
            stack.enter_context(process([*CLI, "serve", "--port", str(port), "--workers", "1"]))
        for port in ports:
            wait_for_port(port)
        target = "ipv4:" + ",".join(f"127.0.0.1:{port}" for port in ports)
        run([*CLI, "client", "batch", "--server", target, "--deals", "1-50"])  # warm up
        yield target


@contextmanager
def dask_cluster(workers: int) -> Iterator[str]:
    """A scheduler and `workers` worker processes of one thread; its address."""
    dask = shutil.which("dask", path=str(BIN))
    if dask is None:
        raise SystemExit("dask is not installed: pip install 'fortress-solver[dask]'")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    with process([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                  "--no-dashboard"]), \
            process([dask, "worker", address, "--nworkers", str(workers), "--nthreads", "1",
                     "--no-dashboard"]):
        wait_for_port(port)
        run([*CLI, "batch", "--deals", "1-50", "--dask", address])  # warm up, workers joined
        yield address


def run(command: list[str]) -> float:
    """Seconds the command takes; its results go to a scratch file."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "out.jsonl"
        started = time.perf_counter()
        subprocess.run([*command, "--out", str(out)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        return time.perf_counter() - started


def per_call(calls: int) -> dict[str, dict[str, float]]:
    """Milliseconds a call spends in the server (p50 of `calls` warm ones of each
    kind): in all, in its search, and the rest. The calls are matched to the server's
    log lines by their x-request-id; the log is complete once the server has stopped."""
    ffk = subprocess.run([*CLI, "ffk", "deal", "--seed", "1", "--first", "0"], check=True,
                         capture_output=True, text=True).stdout
    kinds: dict[str, tuple[Callable[[pb_grpc.SolverStub, int, list[tuple[str, str]]], float],
                           int]] = {
        "Beleaguered Fortress Solve (`any`, deals 1..)": (_solve, 20),
        "Fortress Fight Kingdom Hint (8 worlds)": (_ffk_hint(ffk), 5),
        "Beleaguered Fortress Hint (deal 2, from the cache)": (_cached_hint, 1),
    }
    searched: dict[str, dict[str, float]] = {name: {} for name in kinds}  # by request id
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "server.log"
        with log.open("wb") as sink, process([*CLI, "serve", "--port", str(port),
                                               "--workers", "1"], stderr=sink):
            wait_for_port(port)
            with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
                stub = pb_grpc.SolverStub(channel)  # type: ignore[no-untyped-call]
                for call, warm in kinds.values():
                    for n in range(warm):
                        call(stub, n + 1, [])
                for n in range(calls):  # alternated, so that both see the same load
                    for name, (call, _) in kinds.items():
                        request_id = uuid.uuid4().hex
                        searched[name][request_id] = call(stub, n + 1,
                                                          [("x-request-id", request_id)])
        total: dict[str, float] = {}
        for line in log.read_text().splitlines():
            record = json.loads(line) if line.startswith("{") else {}
            if "ms" in record and "request_id" in record:
                total[record["request_id"]] = record["ms"]
    table: dict[str, dict[str, float]] = {}
    for name, seconds in searched.items():
        pairs = [(total[request_id], 1000 * search) for request_id, search in seconds.items()]
        table[name] = {"total": statistics.median(t for t, _ in pairs),
                       "search": statistics.median(s for _, s in pairs),
                       "overhead": statistics.median(t - s for t, s in pairs)}
    return table


def _solve(stub: pb_grpc.SolverStub, deal: int, metadata: list[tuple[str, str]]) -> float:
    request = pb.SolveRequest(position=pb.PositionSource(beleaguered_deal=deal),
                              beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_ANY),
                              budget=pb.Budget(seconds=10))
    response: pb.SolveResponse = stub.Solve(request, timeout=30, metadata=metadata)
    return float(response.stats.seconds)


def _cached_hint(stub: pb_grpc.SolverStub, _: int, metadata: list[tuple[str, str]]) -> float:
    """Deal 2's hint: from the hint cache once its first call has solved the deal, so all
    of the call is the server's own."""
    request = pb.HintRequest(position=pb.PositionSource(beleaguered_deal=2),
                             budget=pb.Budget(seconds=10))
    stub.Hint(request, timeout=30, metadata=metadata)
    return 0.0


def _ffk_hint(position: str) -> Callable[[pb_grpc.SolverStub, int, list[tuple[str, str]]],
                                         float]:
    """The same position's hint each time (the server caches no FFK hint)."""
    request = pb.HintRequest(position=pb.PositionSource(json=position),
                             budget=pb.Budget(seconds=2),
                             ffkingdom=pb.FfkHintOptions(worlds=8, seed=1))

    def hint(stub: pb_grpc.SolverStub, _: int, metadata: list[tuple[str, str]]) -> float:
        response: pb.HintResponse = stub.Hint(request, timeout=30, metadata=metadata)
        return float(response.ffk.stats.seconds)
    return hint


@contextmanager
def _given(command: list[str]) -> Iterator[list[str]]:
    """A setup that needs nothing running: the local pool."""
    yield command


@contextmanager
def _on_replicas(count: int, command: list[str]) -> Iterator[list[str]]:
    with replicas(count) as target:
        yield [*command, "--server", target]


@contextmanager
def _on_dask(count: int, command: list[str]) -> Iterator[list[str]]:
    with dask_cluster(count) as address:
        yield [*command, "--dask", address]


def scale(deals: str, rounds: int) -> None:
    """The batch on every setup, rounds interleaved; the table of medians."""
    first, last = (int(n) for n in deals.split("-"))
    count = last - first + 1
    batch = ["--deals", deals, "--mode", "any"]
    seconds: dict[str, list[float]] = {}
    setups: dict[str, Callable[[], AbstractContextManager[list[str]]]] = {
        "local pool, 1 process": partial(_given, [*CLI, "batch", *batch, "--jobs", "1"]),
        "local pool, 2 processes": partial(_given, [*CLI, "batch", *batch, "--jobs", "2"]),
    }
    for n in (1, 2):
        setups[f"gRPC round_robin, {n} replica{'s' * (n > 1)}"] = partial(
            _on_replicas, n, [*CLI, "client", "batch", *batch])
    for n in (1, 2):
        setups[f"Dask, {n} worker{'s' * (n > 1)}"] = partial(
            _on_dask, n, [*CLI, "batch", *batch])
    names = list(setups)
    for round_ in range(rounds):
        order = names if round_ % 2 == 0 else names[::-1]  # interleaved, both ways
        for name in order:
            with setups[name]() as command:  # its servers up only while it is timed
                seconds.setdefault(name, []).append(run(command))
            print(f"round {round_ + 1}: {name}: {seconds[name][-1]:.1f} s", file=sys.stderr)
    rate = {name: count / statistics.median(times) for name, times in seconds.items()}
    print(f"deals {deals} (`any` mode), median of {rounds} interleaved rounds, "
          f"{os.cpu_count()} cores")
    print("| setup | deals/s | speed-up over its 1 |")
    print("| --- | --- | --- |")
    for name in names:
        single = next(other for other in names if other.rsplit(",", 1)[0]
                      == name.rsplit(",", 1)[0])
        print(f"| {name} | {rate[name]:.0f} | {rate[name] / rate[single]:.2f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-20000", help="the batch's deal range")
    parser.add_argument("--rounds", type=int, default=3,
                        help="interleaved rounds of the batch (0: none)")
    parser.add_argument("--calls", type=int, default=200,
                        help="warm calls of each kind timed on one replica (0: none)")
    args = parser.parse_args()
    if args.rounds:
        scale(args.deals, args.rounds)
    if args.calls:
        print(f"\none `serve --workers 1`, p50 of {args.calls} warm calls of each, alternated; "
              "ms in the server: its log line's, the search's (stats.seconds), the rest")
        print("| call | total ms | search ms | overhead ms |")
        print("| --- | --- | --- | --- |")
        for name, p50 in per_call(args.calls).items():
            print(f"| {name} | {p50['total']:.2f} | {p50['search']:.2f} | "
                  f"{p50['overhead']:.2f} |")


if __name__ == "__main__":
    main()
