"""Attack a real server the way hostile clients would, and measure how a well-behaved
client fares meanwhile.

Each attack gets a fresh `fortress-solver serve` (2 workers, every port picked free, its
log in a file) so that none inherits another's damage. While the attack runs for
--seconds, a well-behaved client on a connection of its own sends a Hint (deal N, N
varying, 1 s deadline) and a health check (1 s deadline) every 100 ms. Each row gives
that client's success share and latency, the server's RSS over its whole process tree
(before, at the peak sampled every 200 ms, and 10 s after the attack stopped), and the
bytes its log grew during the attack and in those 10 s. malformed-grpc-then-sigterm has
no client: it reports how long SIGTERM takes to stop a server that saw garbage; nor has
stop-in-flight: SIGTERM to a server with Solves in flight. slowloris-http is
silent-http's variant (half the connections drip a request), in a row of its own;
keepalive-latency is a measurement, not an attack. Under chunked-bodies and one-address
the client also sends an HTTP Hint every 100 ms (on a keep-alive connection of its own,
a late tick dropped); under one-address it comes from 127.0.0.2, the attackers from
127.0.0.1.

    .venv/bin/python -m bench.hostile [--seconds 60] [--only a,b] [--json FILE]
"""

from __future__ import annotations

import argparse
import http.client
import json
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, NoReturn

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from bench import hostile_attacks as attacks
from bench.bench_beleaguered import nearest_rank, render
from bench.hostile_server import (
    ELSEWHERE,
    HOST,
    OWN_CONNECTION,
    Relay,
    ServerFailed,
    ServerProcess,
    Target,
    raise_own_file_limit,
    scrape_calls,
)
from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc

Details = dict[str, Any]
MAX_SECONDS = 60.0
TICK = 0.1  # seconds between the well-behaved client's calls
PROBE_DEADLINE = 1.0
SAMPLE_EVERY = 0.2  # seconds between RSS samples during an attack
AFTER = 10.0  # seconds after an attack until the last RSS and log figures
STOP_GRACE = 10.0  # seconds a server may take on SIGTERM after an attack, then SIGKILL
SHUTDOWN = "malformed-grpc-then-sigterm"
STOP = "stop-in-flight"
SETTLED = 10.0  # percent: the main process's RSS 10 s after is back when within this of before
WARM_CALLS = 8  # Hints sent before an attack, at once, so that both workers search
WARM_DEALS = 999_000  # the first of their deals: far from those the clients ask
LINE_SHOWN = 160  # characters of a log line quoted in the notes


@dataclass
class Outcomes:
    """The well-behaved client's calls of one kind: status codes and answered latency."""

    codes: Counter[str] = field(default_factory=Counter)
    ok_ms: list[float] = field(default_factory=list)
    told: Counter[str] = field(default_factory=Counter)  # "CODE: the server's message"

    def share(self) -> float | None:
        """Percent of the calls answered OK; None before any call."""
        calls = self.codes.total()
        return 100 * self.codes["OK"] / calls if calls else None

    def percentile(self, percent: float) -> float | None:
        """The answered calls' latency at `percent`, in ms; None with none answered."""
        return nearest_rank(self.ok_ms, percent)

    def summary(self) -> Details:
        """The figures for the JSON file."""
        return {"calls": self.codes.total(), "codes": dict(self.codes.most_common()),
                "ok %": _round(self.share()), "p50 ms": _round(self.percentile(50)),
                "p99 ms": _round(self.percentile(99)), "told": dict(self.told.most_common())}


def _round(value: float | None, places: int = 1) -> float | None:
    """Figures for the JSON: rounded, None kept (nothing to round)."""
    return None if value is None else round(value, places)


class Probe:
    """The well-behaved client: every TICK, a Hint on the next deal and a health check,
    each with a 1 s deadline, on a connection of its own opened before the attack."""

    def __init__(self, address: str, until: float) -> None:
        """The connection is made here; the calls start on entering the `with`."""
        self.hints, self.health = Outcomes(), Outcomes()
        self._until = until
        self._channel = grpc.insecure_channel(address, options=OWN_CONNECTION)
        self._hint = pb_grpc.SolverStub(self._channel).Hint
        self._check = health_pb2_grpc.HealthStub(self._channel).Check
        self._pending: set[Any] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hostile-probe", daemon=True)

    def __enter__(self) -> Probe:
        """Connect (10 s at most), then start the calls."""
        try:
            grpc.channel_ready_future(self._channel).result(timeout=10)
        except grpc.FutureTimeoutError:
            self._channel.close()
            raise ServerFailed("the well-behaved client could not connect") from None
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        """Stop the calls, whatever ended the `with`."""
        self.stop()

    def _run(self) -> None:
        """A call pair on every tick until the attack's end; a late tick is not made up."""
        began = time.monotonic()
        for tick in range(int((self._until - began) / TICK) + 1):
            if self._stop.wait(max(0.0, began + tick * TICK - time.monotonic())):
                return
            if time.monotonic() >= self._until:
                return
            self._send(tick)

    def _send(self, tick: int) -> None:
        """One tick's Hint and health check, both at once, each timed from its send."""
        source = pb.PositionSource(beleaguered_deal=1 + tick)
        calls = ((self.hints, self._hint, pb.HintRequest(position=source)),
                 (self.health, self._check, health_pb2.HealthCheckRequest()))
        for outcomes, method, request in calls:
            sent = time.perf_counter()
            future = method.future(request, timeout=PROBE_DEADLINE)
            with self._lock:
                self._pending.add(future)
            future.add_done_callback(partial(self._done, outcomes, sent))

    def _done(self, outcomes: Outcomes, sent: float, future: Any) -> None:
        """Count one finished call; a health answer other than SERVING is no success."""
        ms = 1000 * (time.perf_counter() - sent)
        code = future.code().name
        if code == "OK" and outcomes is self.health and \
                future.result().status != health_pb2.HealthCheckResponse.SERVING:
            code = "NOT_SERVING"
        message = future.details() if code not in ("OK", "NOT_SERVING") else ""
        with self._lock:
            self._pending.discard(future)
            outcomes.codes[code] += 1
            if code == "OK":
                outcomes.ok_ms.append(ms)
            if message:
                outcomes.told[f"{code}: {attacks.said(message)}"] += 1

    def stop(self) -> None:
        """Stop sending, let the calls in flight end (their deadline bounds the wait), then
        cancel any left and close the connection."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        for _ in range(int((PROBE_DEADLINE + 1) / 0.05)):
            with self._lock:
                if not self._pending:
                    break
            time.sleep(0.05)
        with self._lock:
            left = list(self._pending)
        for future in left:
            future.cancel()
        self._channel.close()


class HttpProbe:
    """The well-behaved client's HTTP side: every TICK, a Connect Hint on the next deal
    (1 s deadline) on a keep-alive connection of its own opened before the attack, from
    `source` when given; one call at a time, so a tick missed while a call runs is
    dropped (and counted), not made up."""

    def __init__(self, port: int, until: float, source: str | None = None) -> None:
        """The connection is made on entering the `with`."""
        self.hints = Outcomes()
        self.dropped = 0
        self._until = until
        self._connection = http.client.HTTPConnection(
            HOST, port, timeout=PROBE_DEADLINE,
            source_address=None if source is None else (source, 0))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hostile-http-probe",
                                        daemon=True)

    def __enter__(self) -> HttpProbe:
        """Connect, then start the calls."""
        try:
            self._connection.connect()
        except OSError as error:
            raise ServerFailed(f"the well-behaved HTTP client could not connect: {error}"
                               ) from None
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        """Stop the calls (the one in flight ends within its deadline), close."""
        self._stop.set()
        self._thread.join(timeout=PROBE_DEADLINE + 5)
        self._connection.close()

    def _run(self) -> None:
        """A Hint on every tick until the attack's end."""
        began = time.monotonic()
        for tick in range(int((self._until - began) / TICK) + 1):
            due = began + tick * TICK
            if time.monotonic() > due + TICK:
                self.dropped += 1
                continue
            if self._stop.wait(max(0.0, due - time.monotonic())):
                return
            if time.monotonic() >= self._until:
                return
            self._send(tick)

    def _send(self, tick: int) -> None:
        """One Hint, timed from its send; an answer after the deadline is no success."""
        body = attacks.compact({"position": {"beleaguered_deal": 1 + tick}}).encode()
        sent = time.perf_counter()
        try:
            code, message = attacks.http_call(self._connection, attacks.HINT, body,
                                              PROBE_DEADLINE)
        except TimeoutError:
            code, message = "DEADLINE_EXCEEDED", ""
            self._connection.close()
        except (OSError, http.client.HTTPException) as error:
            code, message = type(error).__name__, ""
            self._connection.close()
        ms = 1000 * (time.perf_counter() - sent)
        if code == "OK" and ms > 1000 * PROBE_DEADLINE:
            code = "OK too late"
        self.hints.codes[code] += 1
        if code == "OK":
            self.hints.ok_ms.append(ms)
        if message:
            self.hints.told[f"{code}: {attacks.said(message)}"] += 1


class Sampler:
    """The server's RSS every SAMPLE_EVERY seconds on a thread of its own, the peak kept:
    over its process tree, and of its main process alone."""

    def __init__(self, server: ServerProcess, until: float) -> None:
        """The first sample is taken here: the RSS before the attack."""
        self.peak = server.rss_mib()
        self.main_before = self.main_peak = server.main_rss_mib()
        self._server = server
        self._samples = int((until - time.monotonic() + 60) / SAMPLE_EVERY)  # count bound
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="hostile-rss", daemon=True)

    def __enter__(self) -> Sampler:
        """Start sampling."""
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        """Stop sampling, whatever ended the `with`."""
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        """Sample until stopped, the count bounded past the attack's end."""
        for _ in range(self._samples):
            if self._stop.wait(SAMPLE_EVERY):
                return
            self.peak = max(self.peak, self._server.rss_mib())
            self.main_peak = max(self.main_peak, self._server.main_rss_mib())


@dataclass
class Row:
    """One attack's figures; None where there is none (an attack without the client)."""

    attack: str
    hints: Outcomes | None = None
    health: Outcomes | None = None
    http_hints: Outcomes | None = None  # the client's HTTP side, under the attacks with one
    rss_before: float | None = None
    rss_peak: float | None = None
    rss_after: float | None = None
    log_during: int | None = None
    log_after: int | None = None
    tracebacks: int | None = None
    details: Details = field(default_factory=dict)
    error: str | None = None

    def cells(self) -> list[str]:
        """The table row."""
        client = [_cell(outcomes.share() if outcomes else None, "{:.1f}")
                  for outcomes in (self.hints, self.health, self.http_hints)]
        latency = [_cell(outcomes.percentile(p) if outcomes else None, "{:.1f}")
                   for outcomes in (self.hints, self.health) for p in (50, 99)]
        http_p50 = _cell(self.http_hints.percentile(50) if self.http_hints else None, "{:.1f}")
        memory = [_cell(mib, "{:.0f}") for mib in (self.rss_before, self.rss_peak,
                                                    self.rss_after)]
        log = [_cell(grew, "{:,}") for grew in (self.log_during, self.log_after)]
        return [self.attack, *client, *latency, http_p50, *memory, *log,
                _cell(self.tracebacks, "{}")]

    def as_json(self) -> Details:
        """The row for the JSON file."""
        return {"attack": self.attack, "error": self.error,
                "hints": self.hints.summary() if self.hints else None,
                "health": self.health.summary() if self.health else None,
                "http hints": self.http_hints.summary() if self.http_hints else None,
                "rss_mib": {"before": _round(self.rss_before), "peak": _round(self.rss_peak),
                            "after_10s": _round(self.rss_after)},
                "log_bytes": {"during": self.log_during, "after_10s": self.log_after},
                "tracebacks": self.tracebacks, "details": self.details}


HEADER = ["attack", "hint OK %", "health OK %", "HTTP hint OK %", "hint p50 ms", "hint p99 ms",
          "health p50 ms", "health p99 ms", "HTTP hint p50 ms", "RSS before MiB", "RSS peak MiB",
          "RSS +10 s MiB", "log +B during", "log +B next 10 s", "tracebacks"]


def _cell(value: float | int | None, shape: str) -> str:
    """A table cell: the figure in `shape`, or - where there is none."""
    return "-" if value is None else shape.format(value)


@dataclass(frozen=True)
class Spec:
    """An attack with the client beside it, and the server it needs."""

    run: Callable[[Target, float], Details]
    open_files: int | None = None  # the server's file limit; None: the bench's own
    http: bool = False  # the client also asks HTTP Hints
    elsewhere: bool = False  # the client comes from ELSEWHERE, not from the attackers' HOST


LIVE: dict[str, Spec] = {
    "no-attack": Spec(attacks.no_attack, http=True),
    "stalled-streams": Spec(attacks.stalled_streams),
    "big-pile": Spec(attacks.big_pile),
    "silent-http": Spec(attacks.silent_http, attacks.SERVER_OPEN_FILES),
    "slowloris-http": Spec(attacks.slowloris_http, attacks.SERVER_OPEN_FILES),
    "load-200": Spec(attacks.load_200, elsewhere=True),
    "http-garbage": Spec(attacks.http_garbage),
    "endless-generate": Spec(attacks.endless_generate),
    "keepalive-latency": Spec(attacks.keepalive_latency),
    "chunked-bodies": Spec(attacks.chunked_bodies, http=True),
    "one-address": Spec(attacks.one_address, http=True, elsewhere=True),
}
ORDER = ["no-attack", "stalled-streams", "big-pile", "silent-http", "slowloris-http", SHUTDOWN,
         "load-200", "http-garbage", "endless-generate", "keepalive-latency",
         "chunked-bodies", "one-address", STOP]


def log_findings(text: str) -> Details:
    """What the log says beside its one JSON line per call (the well-behaved client's
    calls write those too): how many other lines, and the first few distinct ones."""
    other = [line for line in text.splitlines() if line and not line.startswith("{")]
    distinct = list(dict.fromkeys(line[:LINE_SHOWN] for line in other))
    return {"call lines": sum(line.startswith("{") for line in text.splitlines()),
            "other lines": len(other), "other lines, distinct": len(distinct),
            "first distinct other lines": distinct[:6]}


def warm_up(server: ServerProcess, target: Target) -> dict[str, int]:
    """A few Hints at once on deals the client never asks (each worker loads what it loads
    on its first search), and one over HTTP where the server has that face (the first
    call of a face loads its code), then until the RSS holds still: the "before" figure
    is of a server at rest, not of one still starting. Their status codes (the server
    counts them with the attack's calls)."""
    codes: Counter[str] = Counter()
    with grpc.insecure_channel(target.grpc_address) as channel:
        hint = pb_grpc.SolverStub(channel).Hint
        calls = [hint.future(pb.HintRequest(position=pb.PositionSource(
            beleaguered_deal=WARM_DEALS + k)), timeout=30) for k in range(WARM_CALLS)]
        for call in calls:
            try:
                call.result()
                codes["OK"] += 1
            except grpc.RpcError as error:  # a refusal warms nothing; the attack still runs
                codes[error.code().name] += 1
    if target.http_port:
        connection = http.client.HTTPConnection(attacks.HOST, target.http_port, timeout=30)
        try:
            body = attacks.connect_json(pb.HintRequest(position=pb.PositionSource(
                beleaguered_deal=WARM_DEALS + WARM_CALLS)))
            outcome, _ = attacks.http_call(connection, attacks.HINT, body, 30)
            codes[outcome] += 1  # counted by the server with the gRPC ones
        finally:
            connection.close()
    previous = server.rss_mib()
    for _ in range(20):
        time.sleep(0.5)
        now = server.rss_mib()
        if abs(now - previous) < 1.0:
            break
        previous = now
    return dict(codes)


def run_live(name: str, seconds: float, logs: Path) -> Row:
    """One attack on a fresh server with the well-behaved client beside it."""
    spec, row = LIVE[name], Row(name)
    server = ServerProcess(logs / f"{name}.log", open_files=spec.open_files)
    try:
        target = server.wait_serving()
        row.details["warm-up hints"] = warm_up(server, target)
        with ExitStack() as stack:
            address = target.grpc_address
            if spec.elsewhere:
                address = stack.enter_context(Relay(target.grpc_port)).address
            until = time.monotonic() + seconds
            sampler = stack.enter_context(Sampler(server, until))
            probe = stack.enter_context(Probe(address, until))
            http_probe = None
            if spec.http:
                http_probe = stack.enter_context(HttpProbe(
                    attacks.http_port(target), until, ELSEWHERE if spec.elsewhere else None))
            row.rss_before, start = sampler.peak, server.log_bytes()
            try:
                row.details.update(spec.run(target, until))
            except attacks.AttackSkipped as skipped:
                row.error = str(skipped)
            ended = time.monotonic()
            row.details["attack ran s"] = round(ended - until + seconds, 1)
        row.hints, row.health, row.rss_peak = probe.hints, probe.health, sampler.peak
        if http_probe is not None:
            row.http_hints = http_probe.hints
            row.details["HTTP ticks dropped"] = http_probe.dropped
        at_end = server.log_bytes()
        row.details["server counted"] = dict(scrape_calls(target.metrics_port))
        time.sleep(max(0.0, ended + AFTER - time.monotonic()))
        row.rss_after, settled = server.rss_mib(), server.log_bytes()
        row.details["main process RSS MiB"] = main_rss(sampler, server.main_rss_mib())
        row.log_during, row.log_after = at_end - start, settled - at_end
        text = server.log.read_bytes()[start:].decode(errors="replace")
        row.tracebacks = text.count("Traceback")
        row.details["log"] = log_findings(text)
    finally:
        row.details["exit s after SIGTERM"] = _round(server.stop(STOP_GRACE), 2)
    return row


def main_rss(sampler: Sampler, after: float) -> Details:
    """The server's main process before, at its peak and 10 s after: is it back?"""
    before = sampler.main_before
    return {"before": round(before, 1), "peak": round(sampler.main_peak, 1),
            "+10 s": round(after, 1),
            f"back within {SETTLED:g} %": after <= before * (1 + SETTLED / 100)}


def run_stop(runs: int, grace: float, logs: Path) -> Row:
    """The stop-in-flight runs: their figures in the notes, the log figures in the row."""
    details = attacks.stop_in_flight(runs, grace, logs)
    return Row(STOP, log_during=details["log bytes"], tracebacks=details["tracebacks"],
               details=details)


def run_shutdown(runs: int, grace: float, logs: Path) -> Row:
    """The SIGTERM runs: their exit times in the notes, the log figures in the row."""
    details = attacks.malformed_then_sigterm(runs, grace, logs)
    return Row(SHUTDOWN, log_during=details["log bytes"], tracebacks=details["tracebacks"],
               details=details)


def notes(row: Row) -> list[str]:
    """The lines under the table for one attack: its own figures, and for load-200 the
    refusals the server counted against those its clients saw."""
    lines = [f"{row.attack}:"] + ([f"  ERROR: {row.error}"] if row.error else [])
    for kind, outcomes in (("hints", row.hints), ("health", row.health),
                           ("HTTP hints", row.http_hints)):
        if outcomes is not None:
            lines.append(f"  well-behaved {kind}: {json.dumps(dict(outcomes.codes))}")
            lines += [f"    {calls} x {text}" for text, calls in outcomes.told.most_common(6)]
    for key, value in row.details.items():
        if key == "log":
            lines += [f"  log: {value['call lines']} call lines, {value['other lines']} "
                      f"other lines ({value['other lines, distinct']} distinct)"]
            lines += [f"    | {line}" for line in value["first distinct other lines"]]
        elif isinstance(value, dict) and len(json.dumps(value)) > 90:
            lines += [f"  {key}:"] + [f"    {k}: {json.dumps(v)}" for k, v in value.items()]
        else:
            lines.append(f"  {key}: {json.dumps(value)}")
    if row.attack == "load-200" and "clients saw" in row.details:
        lines += refusals(row)
    return lines


def refusals(row: Row) -> list[str]:
    """Hint calls by status code, RESOURCE_EXHAUSTED first: the server's count against its
    clients' (the 200, the well-behaved one and the warm-up)."""
    seen: Counter[str] = Counter(row.details["clients saw"])
    seen.update(row.details.get("warm-up hints", {}))
    seen.update(row.hints.codes if row.hints else {})
    cut = seen.pop(attacks.CUT, 0)
    counted = {key.removeprefix("Hint "): calls
               for key, calls in row.details["server counted"].items()
               if key.startswith("Hint ")}
    codes = ["RESOURCE_EXHAUSTED", *sorted((set(seen) | set(counted)) - {"RESOURCE_EXHAUSTED"})]
    lines = [f"  Hint {code}: the server counted {counted.get(code, 0):,}, its clients saw "
             f"{seen[code]:,}{'' if counted.get(code, 0) == seen[code] else ' (NOT the same)'}"
             for code in codes]
    return [*lines, f"  ({cut:,} calls in flight at the end were cancelled by the bench: the "
                    "server counts those as it ended them, or not at all)"]


def report(rows: list[Row], seconds: float) -> str:
    """The table, then each attack's own figures under it."""
    table = render(f"Hostile clients, {seconds:g} s each, against a fresh server each "
                   f"(2 workers): how a well-behaved client fared (answered calls' latency)",
                   HEADER, [row.cells() for row in rows])
    return "\n".join([table, "", *(line for row in rows for line in notes(row))])


def attack_list(text: str) -> list[str]:
    """An argparse `type`: attack names, comma-separated, each once, all known."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in ORDER]
    if unknown or not names or len(set(names)) < len(names):
        raise argparse.ArgumentTypeError(
            f"attacks {text!r}: name each once, of {', '.join(ORDER)}")
    return names


def seconds_arg(text: str) -> float:
    """An argparse `type`: an attack's seconds, more than 0 and at most MAX_SECONDS."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds {text!r} is not a number") from None
    if not 0 < seconds <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"seconds must be within (0, {MAX_SECONDS:g}]")
    return seconds


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, checked: a bad value exits 2 naming it."""
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--seconds", type=seconds_arg, default=MAX_SECONDS,
                        help="how long each attack runs (at most 60)")
    parser.add_argument("--only", "--attacks", dest="attacks", type=attack_list,
                        default=ORDER,
                        help=f"which, comma-separated (default all: {','.join(ORDER)})")
    parser.add_argument("--shutdown-runs", type=int, default=20,
                        help=f"servers {SHUTDOWN} starts and stops")
    parser.add_argument("--grace", type=float, default=2.0,
                        help=f"the --grace of {SHUTDOWN}'s servers, in seconds")
    parser.add_argument("--stop-runs", type=int, default=20,
                        help=f"servers {STOP} starts and stops")
    parser.add_argument("--stop-grace", type=float, default=3.0,
                        help=f"the --grace of {STOP}'s servers, in seconds")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the rows here")
    parser.add_argument("--logs", type=Path, metavar="DIR",
                        help="keep the servers' logs here (default: a folder removed after)")
    args = parser.parse_args(argv)
    if min(args.shutdown_runs, args.stop_runs) < 1 or min(args.grace, args.stop_grace) <= 0:
        parser.error("--shutdown-runs, --stop-runs, --grace and --stop-grace must be positive")
    return args


def _interrupted(signum: int, _: object) -> NoReturn:
    """SIGTERM to the bench cleans up as Ctrl-C does."""
    raise KeyboardInterrupt


def run_all(args: argparse.Namespace, logs: Path) -> tuple[list[Row], bool]:
    """Every attack asked for, in turn; a server that fails to start fails its row only.
    The rows so far, and whether Ctrl-C cut the run short."""
    rows: list[Row] = []
    for number, name in enumerate(args.attacks, 1):
        print(f"[{number}/{len(args.attacks)}] {name}", file=sys.stderr, flush=True)
        try:
            if name == SHUTDOWN:
                rows.append(run_shutdown(args.shutdown_runs, args.grace, logs))
            elif name == STOP:
                rows.append(run_stop(args.stop_runs, args.stop_grace, logs))
            else:
                rows.append(run_live(name, args.seconds, logs))
        except KeyboardInterrupt:
            return rows, True
        except Exception as error:  # a failing attack fails its row, not the others
            rows.append(Row(name, error=f"{type(error).__name__}: {error}"))
    return rows, False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the attacks asked for, print the table (and write the JSON): 0, 1 when an attack
    failed, 130 when interrupted."""
    args = parse(argv)
    raise_own_file_limit()
    signal.signal(signal.SIGTERM, _interrupted)
    with tempfile.TemporaryDirectory(prefix="hostile-") as scratch:
        logs = args.logs or Path(scratch)
        logs.mkdir(parents=True, exist_ok=True)
        rows, interrupted = run_all(args, logs)
    print(report(rows, args.seconds))
    if args.json:
        args.json.write_text(json.dumps({"seconds": args.seconds, "interrupted": interrupted,
                                         "rows": [row.as_json() for row in rows]}, indent=2))
    if interrupted:
        print("interrupted: the rows above are the attacks that finished", file=sys.stderr)
        return 130
    return 1 if any(row.error for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
