"""What a warm call costs the server beyond its search, for several trees of this
project at once: one `serve --workers 1` from each tree, all running side by side, and
the same calls sent to each in turn (the order rotated call by call), so that every
tree sees the same machine. Sequential runs of one tree after another differ by as
much as the machine's load moves between them; calls interleaved this way do not.

    .venv/bin/python -m bench.bench_side_by_side TREE [TREE...] [--calls N]

A TREE is a checkout of some commit (`git worktree add ../COMMIT COMMIT`) with its
compiled kernel built (`.venv/bin/python setup.py build_ext --inplace` in it); each
server runs with `PYTHONPATH` set to its tree, and one client (this tree's) calls them
all. For each tree and call, p50 and quartiles of: the server's own milliseconds per
call (its log line's "ms") less the search's (the answer's stats.seconds); the
client's wait less the search's; and the search's alone, since a search that costs
more in one tree (its pages faulted in again, say) makes that tree's server look
cheaper by as much. The calls are bench_scale.py's: a Beleaguered Fortress Solve
(`any`, a deal each), a Hint from the hint cache, a Fortress Fight Kingdom Hint of 8
worlds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import grpc

from bench.bench_scale import CLI, free_port, process, wait_for_port
from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc

Call = Callable[[pb_grpc.SolverStub, int, list[tuple[str, str]]], float]


def _solve(stub: pb_grpc.SolverStub, deal: int, metadata: list[tuple[str, str]]) -> float:
    request = pb.SolveRequest(position=pb.PositionSource(beleaguered_deal=deal),
                              beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_ANY),
                              budget=pb.Budget(seconds=10))
    return float(stub.Solve(request, timeout=30, metadata=metadata).stats.seconds)


def _cached_hint(stub: pb_grpc.SolverStub, _: int, metadata: list[tuple[str, str]]) -> float:
    request = pb.HintRequest(position=pb.PositionSource(beleaguered_deal=2),
                             budget=pb.Budget(seconds=10))
    stub.Hint(request, timeout=30, metadata=metadata)
    return 0.0


def _ffk_hint(position: str) -> Call:
    request = pb.HintRequest(position=pb.PositionSource(json=position),
                             budget=pb.Budget(seconds=2),
                             ffkingdom=pb.FfkHintOptions(worlds=8, seed=1))

    def hint(stub: pb_grpc.SolverStub, _: int, metadata: list[tuple[str, str]]) -> float:
        return float(stub.Hint(request, timeout=30, metadata=metadata).ffk.stats.seconds)
    return hint


@dataclass(frozen=True)
class Timed:
    """One call's milliseconds: as its client waited, as its server's log line says,
    and as its search's stats say."""

    client: float
    server: float
    search: float


def side_by_side(trees: list[Path], calls: int) -> dict[Path, dict[str, list[Timed]]]:
    """Each tree's calls, by call kind."""
    position = subprocess.run([*CLI, "ffk", "deal", "--seed", "1", "--first", "0"],
                              check=True, capture_output=True, text=True).stdout
    kinds: dict[str, tuple[Call, int]] = {  # the call and its warm-up calls
        "Beleaguered Fortress Solve (`any`, deals 1..)": (_solve, 20),
        "Beleaguered Fortress Hint (deal 2, from the cache)": (_cached_hint, 1),
        "Fortress Fight Kingdom Hint (8 worlds)": (_ffk_hint(position), 5),
    }
    # tree -> kind -> request id -> (client ms, search ms)
    sent: list[dict[str, dict[str, tuple[float, float]]]] = [
        {name: {} for name in kinds} for _ in trees]
    with tempfile.TemporaryDirectory() as scratch, ExitStack() as servers:
        logs, stubs = [], []
        for k, tree in enumerate(trees):
            port = free_port()
            logs.append(Path(scratch) / f"{k}.log")
            sink = servers.enter_context(logs[-1].open("wb"))
            servers.enter_context(process(
                [*CLI, "serve", "--port", str(port), "--workers", "1"], stderr=sink,
                cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}))
            wait_for_port(port, seconds=300)  # every server starts at once
            channel = servers.enter_context(grpc.insecure_channel(f"127.0.0.1:{port}"))
            stubs.append(pb_grpc.SolverStub(channel))  # type: ignore[no-untyped-call]
        for stub in stubs:
            for call, warm in kinds.values():
                for n in range(warm):
                    call(stub, n + 1, [])
        for n in range(calls):
            for name, (call, _) in kinds.items():
                for k in (*range(n % len(trees), len(trees)), *range(n % len(trees))):
                    request_id = uuid.uuid4().hex
                    started = time.perf_counter()
                    search = call(stubs[k], n % 500 + 1, [("x-request-id", request_id)])
                    sent[k][name][request_id] = (1000 * (time.perf_counter() - started),
                                                 1000 * search)
        servers.close()  # the logs are complete once the servers have stopped
        found: dict[Path, dict[str, list[Timed]]] = {}
        for tree, log, by_kind in zip(trees, logs, sent, strict=True):
            logged = {}
            for line in log.read_text().splitlines():
                record = json.loads(line) if line.startswith("{") else {}
                if "ms" in record and "request_id" in record:
                    logged[record["request_id"]] = record["ms"]
            found[tree] = {name: [Timed(client, logged[request], search)
                                  for request, (client, search) in by_request.items()]
                           for name, by_request in by_kind.items()}
    return found


def _table(found: dict[Path, dict[str, list[Timed]]], title: str,
           cost: Callable[[Timed], float]) -> None:
    """p50 (q1-q3) of `cost` per tree and call kind."""
    print(f"\n{title}, p50 (q1-q3)")
    names = list(next(iter(found.values())))
    print("| tree | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))
    for tree, timed in found.items():
        cells = []
        for name in names:
            low, middle, high = statistics.quantiles([cost(call) for call in timed[name]], n=4)
            cells.append(f"{middle:.3f} ({low:.3f}-{high:.3f})")
        print(f"| {tree} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="+", type=Path, metavar="TREE")
    parser.add_argument("--calls", type=int, default=300, help="calls of each kind a tree")
    args = parser.parse_args()
    found = side_by_side([tree.resolve() for tree in args.trees], args.calls)
    print(f"The trees' servers side by side, {args.calls} warm calls of each kind a tree")
    _table(found, "The server's ms per call beyond its search (its log line's less the "
           "search's)", lambda call: call.server - call.search)
    _table(found, "The client's ms per call beyond the search (its wait less the search's)",
           lambda call: call.client - call.search)
    _table(found, "The search's ms", lambda call: call.search)


if __name__ == "__main__":
    main()
