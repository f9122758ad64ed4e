"""A server's memory under its worst honest load: `serve` with the manifest's flags
(docs/kubernetes.yaml: 2 workers, `--memory 960` in a 1 GiB limit) behind a trusted
proxy (each client named by X-Forwarded-For, as an ingress names it), while

1. a calm client asks Hints of a few deals (each fills the hint cache along its line),
2. flooding clients (--flooders, each its own address: two fill the whole cache, each
   its share) send cheap optimal Solves of random FreeCell positions (52 moves home
   each: every one fills the cache with 53 hints) for --flood seconds, and
3. as many optimal solves of hard deals as --deals lists run at once (each fills any
   table it gets), the flood going on beside them;
4. then the calm client asks its Hints again: answered from the cache or not.

The resident memory of the server and its descendants (main process, fork server,
resource tracker, workers) is read from /proc every 20 ms; printed: each process's peak
and the peak of their sum, against the limit."""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from tests.support.cheap_positions import cheap_freecell
from tests.support.memory import family_rss

SCRIPT = Path(sys.executable).parent / "fortress-solver"
MIB = 1 << 20
CALM = "203.0.113.1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memory", type=int, default=960, metavar="MIB",
                        help="serve --memory: the whole server's")
    parser.add_argument("--limit", type=int, default=1024, metavar="MIB",
                        help="the container's limit the peak is held to")
    parser.add_argument("--variant", default="streets-and-alleys")
    parser.add_argument("--deals", default="77,186",
                        help="the hard deals solved at once, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0, help="each hard solve's budget")
    parser.add_argument("--flood", type=float, default=30.0, metavar="SECONDS",
                        help="how long the flood runs before the hard solves start")
    parser.add_argument("--flooders", type=int, default=2)
    parser.add_argument("--calm-deals", default="2,6,13,15",
                        help="the deals whose Hints the calm client asks, before and after")
    parser.add_argument("--port", type=int, default=50071)
    args = parser.parse_args()
    log = Path("/tmp/bench-memory-serve.log")
    with log.open("w") as stderr:
        server = subprocess.Popen(
            [str(SCRIPT), "serve", "--port", str(args.port), "--workers", "2",
             "--memory", str(args.memory), "--trusted-proxy", "127.0.0.1"],
            stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
    address = f"127.0.0.1:{args.port}"
    try:
        while not re.search(r"serving gRPC", log.read_text()):
            time.sleep(0.05)
        time.sleep(5)  # the workers import what searches need
        before = family_rss(server.pid)
        with Peaks(server.pid) as peaks, grpc.insecure_channel(address) as channel:
            stub = pb_grpc.SolverStub(channel)
            first = calm_hints(stub, args.calm_deals)
            with Flood(stub, args.flooders) as flood:
                time.sleep(args.flood)
                after_flood = sum(family_rss(server.pid).values())
                started = time.perf_counter()
                answers = hard_solves(stub, args.variant, args.deals, args.seconds)
                wall = time.perf_counter() - started
            last = calm_hints(stub, args.calm_deals)
    finally:
        server.terminate()
        server.wait(timeout=60)
    print(f"serve --workers 2 --memory {args.memory} --trusted-proxy 127.0.0.1; "
          f"{len(answers)} optimal solves at once of {args.variant} deals {args.deals}, "
          f"{args.seconds:g} s each, {wall:.0f} s; beside them {flood.solves:,} cheap optimal "
          f"FreeCell Solves from {args.flooders} clients ({args.flood:g} s before them)")
    print(f"before: {sum(before.values()) / MIB:.0f} MiB in all "
          f"({', '.join(f'{rss / MIB:.0f}' for rss in before.values())}); after the flood "
          f"alone {after_flood / MIB:.0f}")
    print(f"peak: {peaks.total / MIB:.0f} MiB in all (limit {args.limit}); per process "
          f"{', '.join(f'{rss / MIB:.0f}' for rss in sorted(peaks.each.values()))} MiB")
    print(f"the calm client's Hints cached: before the flood {sum(first)} of {len(first)}, "
          f"after {sum(last)} of {len(last)}")
    for number, answer in sorted(answers.items()):
        print(f"deal {number}: {pb.Status.Name(answer.status)}, optimal {answer.optimal}, "
              f"length {answer.length}, lower bound {answer.lower_bound}, tables at most "
              f"{answer.stats.table_bytes / MIB:.0f} MiB, {answer.stats.nodes:,} nodes")

class Peaks:
    """The resident memory of a process and its descendants, read every 20 ms while in
    use: `total` the peak of their sum, `each` every process's own peak."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.total = 0
        self.each: dict[int, int] = {}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch)

    def __enter__(self) -> Peaks:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._done.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._done.is_set():
            now = family_rss(self.pid)
            self.total = max(self.total, sum(now.values()))
            for pid, rss in now.items():
                self.each[pid] = max(self.each.get(pid, 0), rss)
            time.sleep(0.02)


class Flood:
    """`clients` clients (each its own address, two threads each) sending cheap optimal
    Solves back to back while in use; `solves` counts those answered."""

    def __init__(self, stub: pb_grpc.SolverStub, clients: int) -> None:
        self.stub = stub
        self.solves = 0
        self._done = threading.Event()
        self._threads = [threading.Thread(target=self._send,
                                          args=(seed, f"203.0.113.{10 + seed % clients}"))
                         for seed in range(2 * clients)]

    def __enter__(self) -> Flood:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._done.set()
        for thread in self._threads:
            thread.join()

    def _send(self, seed: int, client: str) -> None:
        rng = random.Random(seed)
        while not self._done.is_set():
            request = pb.SolveRequest(
                position=pb.PositionSource(json=json.dumps(cheap_freecell(rng))),
                beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_OPTIMAL))
            try:
                self.stub.Solve(request, timeout=120, metadata=[("x-forwarded-for", client)])
                self.solves += 1
            except grpc.RpcError:
                time.sleep(0.01)  # refused: its share is full


def calm_hints(stub: pb_grpc.SolverStub, deals: str) -> list[bool]:
    """The calm client's Hints of `deals`: whether each came from the cache."""
    return [stub.Hint(pb.HintRequest(position=pb.PositionSource(beleaguered_deal=int(n))),
                      timeout=120, metadata=[("x-forwarded-for", CALM)]).cached
            for n in deals.split(",")]


def hard_solves(stub: pb_grpc.SolverStub, variant: str, deals: str,
                seconds: float) -> dict[int, pb.SolveResponse]:
    """Optimal solves of `deals` at once, each a client of its own."""
    answers: dict[int, pb.SolveResponse] = {}

    def solve(number: int, client: str) -> None:
        dealt = stub.Deal(pb.DealRequest(game="patience", seed=number, variant=variant),
                          timeout=60)
        answers[number] = stub.Solve(pb.SolveRequest(
            position=dealt.position, budget=pb.Budget(seconds=seconds, memory_mib=100_000),
            beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_OPTIMAL)),
            timeout=3 * seconds, metadata=[("x-forwarded-for", client)])

    calls = [threading.Thread(target=solve, args=(int(n), f"198.51.100.{k + 1}"))
             for k, n in enumerate(deals.split(","))]
    for call in calls:
        call.start()
    for call in calls:
        call.join()
    return answers


if __name__ == "__main__":
    main()
