"""Soak-test the gRPC service: many clients sending mixed calls for a fixed time.

It exists to check what the unit tests cannot: that a server under sustained overload
answers each call or refuses it at once (RESOURCE_EXHAUSTED), answers UNKNOWN before a
client's deadline instead of missing it, and holds its memory flat. The exit status is
1 when any call ended with another status code. With --secure the server it starts
speaks TLS only (a throwaway CA's certificate) and asks every call for a bearer token:
the figures then include the handshakes and the token checks.

    .venv/bin/python -m bench.load [--seconds 60] [--seed 1] [--secure] [--server HOST:PORT]
"""

from __future__ import annotations

import argparse
import random
import secrets as secrets_module
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from bench.bench_beleaguered import nearest_rank, render
from bench.certs import make_certificates
from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.arguments import add_progress, progress_bar
from service.tokens import bearer

DEADLINE = 5.0  # seconds, every call
SAMPLE_EVERY = 5  # seconds between RSS samples
EXPECTED = ("OK", "RESOURCE_EXHAUSTED")
SHOWN = (*EXPECTED, "DEADLINE_EXCEEDED")
Metadata = tuple[tuple[str, str], ...]
Call = Callable[[pb_grpc.SolverStub, pb.PositionSource, Metadata], Any]
CALLS: dict[str, Call] = {
    "Hint": lambda stub, source, metadata: stub.Hint(
        pb.HintRequest(position=source), timeout=DEADLINE, metadata=metadata),
    "Solve any": lambda stub, source, metadata: stub.Solve(
        pb.SolveRequest(position=source, mode=pb.MODE_ANY), timeout=DEADLINE,
        metadata=metadata),
    "Solve optimal": lambda stub, source, metadata: stub.Solve(
        pb.SolveRequest(position=source, mode=pb.MODE_OPTIMAL), timeout=DEADLINE,
        metadata=metadata),
}
TOKENS = 8  # with --secure: the clients share this many tokens


@dataclass
class Calls:
    """The outcomes of one kind of call (or of all)."""

    codes: Counter[str] = field(default_factory=Counter)  # by status code name
    unknown: int = 0  # OK calls whose answer is UNKNOWN
    ok_seconds: array = field(default_factory=lambda: array("d"))  # compact: RSS is sampled

    def row(self, name: str, seconds: float) -> list[str]:
        calls = self.codes.total()
        ms = [f"{1000 * nearest_rank(self.ok_seconds, p):.1f}" if self.ok_seconds else "-"
              for p in (50, 99)]
        return [name, str(calls), *(str(self.codes[code]) for code in SHOWN),
                str(calls - sum(self.codes[code] for code in SHOWN)), str(self.unknown),
                f"{self.codes['OK'] / seconds:.1f}", *ms]


@dataclass(frozen=True)
class Server:
    """How the clients reach the server: its address, TLS trust, the tokens to show."""

    address: str
    ca: bytes | None = None  # PEM: speak TLS, trusting this CA; None: plaintext
    tokens: tuple[str, ...] = ()  # client k shows token k mod len; none: no token

    def channel(self, own_connection: bool = False) -> grpc.Channel:
        options = [("grpc.use_local_subchannel_pool", 1)] if own_connection else []
        if self.ca is None:
            return grpc.insecure_channel(self.address, options=options)
        credentials = grpc.ssl_channel_credentials(root_certificates=self.ca)
        return grpc.secure_channel(self.address, credentials, options=options)

    def metadata(self, k: int) -> tuple[tuple[str, str], ...]:
        return bearer(self.tokens[k % len(self.tokens)] if self.tokens else None)


def client(server: Server, k: int, seed: str, stop: threading.Event,
           totals: dict[str, Calls], lock: threading.Lock) -> None:
    """Client `k` on a connection of its own: random calls until `stop`."""
    rng, kinds = random.Random(seed), list(CALLS)
    metadata = server.metadata(k)
    with server.channel(own_connection=True) as channel:
        stub = pb_grpc.SolverStub(channel)
        while not stop.is_set():
            kind = rng.choice(kinds)
            source = pb.PositionSource(beleaguered_deal=rng.randint(1, 1000))
            began = time.perf_counter()
            try:
                answer, code = CALLS[kind](stub, source, metadata), "OK"
            except grpc.RpcError as error:
                answer, code = None, error.code().name
            seconds = time.perf_counter() - began
            with lock:
                for calls in (totals[kind], totals["all"]):
                    calls.codes[code] += 1
                    if answer is not None:
                        calls.ok_seconds.append(seconds)
                        calls.unknown += answer.status == pb.UNKNOWN


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        kib = next(line.split()[1] for line in status if line.startswith("VmRSS:"))
    return int(kib) / 1024


def children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listing:
        return [int(child) for child in listing.read().split()]


def start_server(secrets: Path | None) -> tuple[subprocess.Popen, Server]:
    """`fortress-solver serve` in a process of its own on a free loopback port, so that
    the clients' threads do not share the server's interpreter; with `secrets` (a folder
    for its certificates and tokens), TLS and tokens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "service.cli", "serve", "--port", str(port)]
    reached = Server(f"127.0.0.1:{port}")
    if secrets is not None:
        certs = make_certificates(secrets)
        tokens = tuple(secrets_module.token_urlsafe(24) for _ in range(TOKENS))
        (secrets / "tokens").write_text("".join(f"{token}\n" for token in tokens))
        command += ["--tls-cert", str(certs.server_cert), "--tls-key", str(certs.server_key),
                    "--token-file", str(secrets / "tokens")]
        reached = Server(reached.address, certs.ca.read_bytes(), tokens)
    return subprocess.Popen(command, stderr=subprocess.DEVNULL), reached


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long clients send")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clients", type=int, default=200, help="concurrent client threads")
    parser.add_argument("--server", metavar="HOST:PORT",
                        help="load this server instead of starting one (no RSS figures then)")
    parser.add_argument("--secure", action="store_true",
                        help="the server it starts speaks TLS and asks for tokens")
    add_progress(parser)
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.clients < 1:
        parser.error("--seconds and --clients must be positive")
    if args.secure and args.server:
        parser.error("--secure is for the server it starts, not for --server")
    with tempfile.TemporaryDirectory() as secrets:
        return load(args, Path(secrets) if args.secure else None)


def load(args: argparse.Namespace, secrets: Path | None) -> int:
    server, reached = (None, Server(args.server)) if args.server else start_server(secrets)
    totals = {kind: Calls() for kind in [*CALLS, "all"]}
    samples: list[tuple[int, float, float]] = []  # (seconds in, server, workers) MiB
    stop, lock = threading.Event(), threading.Lock()
    try:
        with reached.channel() as channel:  # also fails early on a wrong address
            limits = pb_grpc.SolverStub(channel).GetServerInfo(
                pb.GetServerInfoRequest(), timeout=30, metadata=reached.metadata(0),
                wait_for_ready=server is not None).limits
        with ThreadPoolExecutor(args.clients) as pool:
            try:
                futures = [pool.submit(client, reached, k, f"{args.seed}:{k}", stop, totals,
                                       lock) for k in range(args.clients)]
                started = time.perf_counter()
                samples_at = range(0, int(args.seconds) + 1, SAMPLE_EVERY)
                for at in progress_bar(samples_at, total=len(samples_at), desc="load",
                                       unit="sample", forced=args.progress):
                    time.sleep(max(0.0, started + at - time.perf_counter()))
                    if server:
                        workers = sum(rss_mib(pid) for pid in children(server.pid))
                        samples.append((at, rss_mib(server.pid), workers))
                time.sleep(max(0.0, started + args.seconds - time.perf_counter()))
            finally:
                stop.set()
            for future in futures:
                future.result()
    finally:
        if server:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)

    mode = ", TLS and tokens" if secrets is not None else ""
    print(render(f"Load on {reached.address}{mode} ({limits.workers} workers, queue "
                 f"{limits.queue}): "
                 f"{args.clients} clients for {args.seconds:g} s, seed {args.seed}, deadline "
                 f"{DEADLINE:g} s, deals 1-1000",
                 ["", "calls", *SHOWN, "other", "OK but UNKNOWN", "OK/s", "OK p50 ms",
                  "OK p99 ms"],
                 [calls.row(kind, args.seconds) for kind, calls in totals.items()]))
    every = totals["all"]
    calls, answered = every.codes.total(), every.codes["OK"]
    refused = every.codes["RESOURCE_EXHAUSTED"]
    print(f"answered {answered:,} of {calls:,} calls ({100 * answered / max(calls, 1):.1f} %), "
          f"refused at once {refused:,}; answered calls' latency p50 "
          f"{1000 * nearest_rank(every.ok_seconds, 50) if answered else 0:.1f} ms, p99 "
          f"{1000 * nearest_rank(every.ok_seconds, 99) if answered else 0:.1f} ms")
    errors = {code: n for code, n in every.codes.items() if code not in EXPECTED}
    print(f"status codes other than {' / '.join(EXPECTED)}: {errors or 'none'}")
    if samples:
        print()
        print(render("RSS (MiB): the server process, and its worker processes summed",
                     ["t (s)", "process", "workers", "total"],
                     [[str(t), f"{me:.1f}", f"{w:.1f}", f"{me + w:.1f}"] for t, me, w in samples]))
        at_ten = [me + w for t, me, w in samples if t == 10]
        if at_ten:
            last = samples[-1][1] + samples[-1][2]
            flat = abs(last - at_ten[0]) <= 0.2 * at_ten[0]
            print(f"memory {'stayed flat' if flat else 'did NOT stay flat'}: {last:.1f} MiB at "
                  f"{samples[-1][0]} s vs {at_ten[0]:.1f} MiB at 10 s "
                  f"({100 * (last / at_ten[0] - 1):+.1f} %, limit ±20 %)")
        else:
            print("memory not judged: no sample at 10 s")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
