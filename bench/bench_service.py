"""Benchmark the gRPC service against the solver it wraps.

It exists to put figures on what the service layer costs and buys: Hint latency before
and after the hint cache holds a deal, Solve throughput and latency as concurrent
clients grow (and whether the server's finite queue refuses any), and the same `any`
work done by solve() in-process, so that service changes are judged against the bare
solver rather than by impression.

    .venv/bin/python -m bench.bench_service --deals 1-1000 [--workers 2] [--seconds 30]
"""

from __future__ import annotations

import argparse
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import grpc

from bench.bench_beleaguered import nearest_rank, render
from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.arguments import add_progress, progress_bar
from service.beleaguered.commands import deal_range
from service.server import RunningServer, ServerConfig
from solver.beleaguered import Algorithm, Mode, deal, solve
from solver.budget import Budget

CLIENTS = (1, 8, 64)


@dataclass(frozen=True)
class Phase:
    wall: float
    latencies: list[float]  # seconds, answered calls only
    answers: list[Any]
    refused: int  # RESOURCE_EXHAUSTED


def drive(name: str, call: Callable[[int], Any], deals: Sequence[int], clients: int,
          progress: bool = False) -> Phase:
    """call(deal) for every deal, from `clients` threads taking deals from one queue; a bar
    on stderr when it is a terminal or `progress` (--progress) asks for one."""
    work: queue.SimpleQueue[int] = queue.SimpleQueue()
    for number in deals:
        work.put(number)
    latencies: list[float] = []
    answers: list[Any] = []
    refused = 0
    lock = threading.Lock()

    def client() -> None:
        nonlocal refused
        while True:
            try:
                number = work.get_nowait()
            except queue.Empty:
                return
            began = time.perf_counter()
            try:
                answer = call(number)
            except grpc.RpcError as error:
                if error.code() is not grpc.StatusCode.RESOURCE_EXHAUSTED:
                    raise
                with lock:
                    refused += 1
            else:
                with lock:
                    latencies.append(time.perf_counter() - began)
                    answers.append(answer)
            bar.update()

    started = time.perf_counter()
    with progress_bar(total=len(deals), desc=name, unit="call", forced=progress) as bar, \
            ThreadPoolExecutor(clients) as pool:
        for future in [pool.submit(client) for _ in range(clients)]:
            future.result()
    return Phase(time.perf_counter() - started, latencies, answers, refused)


def rate(phase: Phase) -> float:
    return len(phase.latencies) / phase.wall


def row(name: str, phase: Phase, cached: str = "-", ratio: str = "-") -> list[str]:
    ms = [f"{1000 * x:.1f}" for x in (nearest_rank(phase.latencies, 50),
                                       nearest_rank(phase.latencies, 99), max(phase.latencies))]
    return [name, str(len(phase.latencies)), str(phase.refused), cached, f"{rate(phase):.1f}",
            *ms, ratio]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-1000"), metavar="A-B")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="server worker processes")
    parser.add_argument("--seconds", type=float, default=30.0, help="budget per call")
    add_progress(parser)
    args = parser.parse_args(argv)
    if args.workers < 1 or args.seconds <= 0:
        parser.error("--workers and --seconds must be positive")

    deals: range = args.deals
    budget = pb.Budget(seconds=args.seconds)
    timeout = args.seconds + 5.0  # the budget and room to answer, as the command line allows
    server = RunningServer(ServerConfig(port=0, workers=args.workers, queue=max(CLIENTS)))
    channel = grpc.insecure_channel(f"127.0.0.1:{server.port}")
    stub = pb_grpc.SolverStub(channel)  # shared by every client thread

    def hint(number: int) -> pb.HintResponse:
        source = pb.PositionSource(beleaguered_deal=number)
        return stub.Hint(pb.HintRequest(position=source, budget=budget), timeout=timeout)

    def solve_any(number: int) -> pb.SolveResponse:
        request = pb.SolveRequest(position=pb.PositionSource(beleaguered_deal=number),
                                  mode=pb.MODE_ANY, budget=budget)
        return stub.Solve(request, timeout=timeout)

    try:
        cold = drive("Hint, cold", hint, deals, 1, args.progress)
        warm = drive("Hint, warm", hint, deals, 1, args.progress)
        solves = {n: drive(f"Solve any, {n} clients", solve_any, deals, n, args.progress)
                  for n in CLIENTS}
    finally:
        channel.close()
        server.stop()
    local = Budget(seconds=args.seconds)
    bare = drive("solve() in-process", lambda n: solve(deal(n), Mode.ANY, Algorithm.ASTAR, local),
                 deals, 1, args.progress)

    rows = [row(name, phase, cached=str(sum(a.cached for a in phase.answers)))
            for name, phase in [("Hint (optimal), cold, 1 client", cold),
                                ("Hint (optimal), warm, 1 client", warm)]]
    rows += [row(f"Solve any, {n} client{'s' * (n > 1)}", solves[n],
                 ratio=f"{rate(solves[n]) / rate(bare):.2f}") for n in CLIENTS]
    rows.append(row("solve() any, in-process loop", bare, ratio="1.00"))
    title = (f"Fortress solver service on 127.0.0.1: deals {deals.start}-{deals.stop - 1} "
             f"({len(deals)}), {args.workers} workers, queue {max(CLIENTS)}, budget "
             f"{args.seconds:g} s/call; clients are threads sharing one channel")
    header = ["", "answered", "refused", "cached", "calls/s", "p50 ms", "p99 ms", "max ms",
              "calls/s service/in-process"]
    print(render(title, header, rows))


if __name__ == "__main__":
    main()
