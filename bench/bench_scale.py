"""make bench-scale: the same batch (`any` mode) on 1 and 2 gRPC replicas behind one
round_robin target, and on a Dask cluster of 1 and 2 workers, beside the local pool of
1 and 2 processes; rounds interleaved, medians of deals per second and the speed-ups.

Every replica is a `fortress-solver serve --workers 1` and every Dask worker one
process of one thread, so "2" is two cores' worth in each; what is timed is the whole
command a user runs (`client batch`, `batch --dask`, `batch --jobs`), start-up included.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

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
def process(command: list[str]) -> Iterator[subprocess.Popen[bytes]]:
    started = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-20000", help="the batch's deal range")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    args = parser.parse_args()
    first, last = (int(n) for n in args.deals.split("-"))
    count = last - first + 1
    batch = ["--deals", args.deals, "--mode", "any"]
    seconds: dict[str, list[float]] = {}
    with ExitStack() as stack:
        setups = {
            "local pool, 1 process": [*CLI, "batch", *batch, "--jobs", "1"],
            "local pool, 2 processes": [*CLI, "batch", *batch, "--jobs", "2"],
        }
        for n in (1, 2):
            target = stack.enter_context(replicas(n))
            setups[f"gRPC round_robin, {n} replica{'s' * (n > 1)}"] = [
                *CLI, "client", "batch", "--server", target, *batch]
        for n in (1, 2):
            address = stack.enter_context(dask_cluster(n))
            setups[f"Dask, {n} worker{'s' * (n > 1)}"] = [*CLI, "batch", *batch, "--dask",
                                                          address]
        names = list(setups)
        for round_ in range(args.rounds):
            order = names if round_ % 2 == 0 else names[::-1]  # interleaved, both ways
            for name in order:
                seconds.setdefault(name, []).append(run(setups[name]))
                print(f"round {round_ + 1}: {name}: {seconds[name][-1]:.1f} s", file=sys.stderr)
    rate = {name: count / statistics.median(times) for name, times in seconds.items()}
    print(f"deals {args.deals} (`any` mode), median of {args.rounds} interleaved rounds, "
          f"{os.cpu_count()} cores")
    print("| setup | deals/s | speed-up over its 1 |")
    print("| --- | --- | --- |")
    for name in names:
        single = next(other for other in names if other.rsplit(",", 1)[0]
                      == name.rsplit(",", 1)[0])
        print(f"| {name} | {rate[name]:.0f} | {rate[name] / rate[single]:.2f}x |")


if __name__ == "__main__":
    main()
