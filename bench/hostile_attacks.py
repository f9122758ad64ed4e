"""The attacks of bench/hostile.py, each a function of the server's ports and the time it
must stop by, returning what it saw. Every loop is bounded in count as well as in time,
and every thread, channel and socket it makes is closed before it returns (Ctrl-C too).
"""

from __future__ import annotations

import errno
import http.client
import json
import random
import selectors
import socket
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format

from bench.bench_beleaguered import nearest_rank
from bench.hostile_server import (
    HOST,
    OWN_CONNECTION,
    Crew,
    ServerFailed,
    ServerProcess,
    Target,
    process_tree,
    running,
)
from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.beleaguered.messages import position_to_proto
from solver.beleaguered import deal
from solver.beleaguered.variant import find_variant

Details = dict[str, Any]
SOLVER = "/fortress.solver.v1.Solver"
HINT = f"{SOLVER}/Hint"
SOLVE = f"{SOLVER}/Solve"
POLL = 0.05  # seconds between an attack's checks of its connections
MAX_CALLS = 1_000_000  # per client thread: the count bound beside the time bound
LINE = 120  # characters of a server's message kept in the counts by text


class AttackSkipped(RuntimeError):
    """The attack cannot run against this server (a port its log did not name)."""


def remaining(until: float) -> float:
    """Seconds left until `until`, never negative (a timeout to pass on)."""
    return max(0.0, until - time.monotonic())


def steps(until: float, every: float) -> int:
    """How many iterations of `every` seconds fit before `until` (plus a few): the count
    bound of a loop that also checks the clock."""
    return int(remaining(until) / every) + 10


def sleep_until(until: float, stop: threading.Event,
                done: Callable[[], bool] = lambda: False) -> None:
    """Wait for the attack's end (or until `done()`) in the main thread, where Ctrl-C
    interrupts the wait."""
    for _ in range(steps(until, 0.1)):
        if stop.is_set() or done() or time.monotonic() >= until:
            return
        time.sleep(min(0.1, remaining(until)))


def no_attack(target: Target, until: float) -> Details:
    """The control: no attacker, the well-behaved client alone (gRPC and HTTP), whose
    own Hints on new deals fill the server's hint cache (--cache-entries): the memory an
    attack leaves is what it adds to this."""
    sleep_until(until, threading.Event())
    return {}


CUT = "cut at the end"  # a call still in flight when the attack ended: no outcome


def call_until(method: Any, request: Any, deadline: float, until: float) -> str:
    """One gRPC call with its own deadline, cancelled if it is still running when the
    attack ends (so that no attack outlasts its seconds): its status code's name, or CUT."""
    return call_told(method, request, deadline, until)[0]


def call_told(method: Any, request: Any, deadline: float, until: float) -> tuple[str, str]:
    """call_until's call, with what the server said: (status code's name, its message)."""
    future = method.future(request, timeout=deadline)
    try:
        future.result(timeout=remaining(until))
    except grpc.FutureTimeoutError:
        future.cancel()
        return CUT, ""
    except grpc.FutureCancelledError:
        return CUT, ""
    except grpc.RpcError as error:
        return error.code().name, error.details() or ""
    return "OK", ""


def said(message: str) -> str:
    """A server's message on one line, cut to LINE characters: a key to count it by."""
    return " ".join(message.split())[:LINE]


def connect_outcome(status: int, body: bytes) -> tuple[str, str]:
    """A Connect answer as gRPC would say it: ("OK", "") for a 200, else the error's code
    in capitals and its message (an answer that is not Connect's JSON: its HTTP status)."""
    if status == 200:
        return "OK", ""
    try:
        error = json.loads(body)
        return str(error["code"]).upper(), str(error.get("message", ""))
    except (ValueError, TypeError, KeyError):
        return f"HTTP {status}", body[:80].decode(errors="replace")


def cut(connections: list[http.client.HTTPConnection]) -> None:
    """End the HTTP calls in flight at the attack's end: their threads' reads return."""
    for connection in list(connections):
        sock = connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def http_port(target: Target) -> int:
    """The HTTP port, for the attacks on the HTTP face; AttackSkipped without one."""
    if not target.http_port:
        raise AttackSkipped("the server's log names no HTTP port")
    return target.http_port


# ---------------------------------------------------------------- 1. stalled streams

STALLED = 26  # the server's gRPC call limit with 2 workers: workers + queue 16 + 8
MAX_STALLED_OPENS = 100_000
HELD = 1.0  # seconds open after which a stream counts as held by the server
RELEASE_SLACK = 5.0  # seconds past the attack's end a stalled request waits at most


@dataclass
class _Stalled:
    """One stalled stream: its call, when it opened, and what releases its request."""

    call: Any
    opened: float
    release: threading.Event


def _silent(release: threading.Event, until: float) -> Iterator[pb.HintRequest]:
    """A request stream that sends no message: the call's HEADERS go out at once, then
    gRPC's thread that reads this waits until the stream is released (bounded past the
    attack's end)."""
    release.wait(timeout=remaining(until) + RELEASE_SLACK)
    yield from ()


def _reap(streams: list[_Stalled], ended: Counter[str]) -> list[_Stalled]:
    """The streams still open; the ones the server ended counted by status, and their
    request threads released (else each refusal would leave a thread waiting)."""
    still: list[_Stalled] = []
    for stream in streams:
        if stream.call.done():
            ended[stream.call.code().name] += 1
            stream.release.set()
        else:
            still.append(stream)
    return still


def _stall(hint: Any, until: float) -> _Stalled:
    """Open one stalled stream, with an Event of its own to release it."""
    release = threading.Event()
    return _Stalled(hint.future(_silent(release, until)), time.monotonic(), release)


def stalled_streams(target: Target, until: float) -> Details:
    """26 Hint streams on one connection that never send their request: each holds a
    server thread and a call slot while it waits; the ones the server ends are reopened."""
    ended: Counter[str] = Counter()
    streams: list[_Stalled] = []
    opened = held = 0
    try:
        with grpc.insecure_channel(target.grpc_address, options=OWN_CONNECTION) as channel:
            hint = channel.stream_unary(HINT,
                                        request_serializer=pb.HintRequest.SerializeToString,
                                        response_deserializer=pb.HintResponse.FromString)
            for _ in range(steps(until, POLL)):
                streams = _reap(streams, ended)
                while len(streams) < STALLED and opened < MAX_STALLED_OPENS:
                    streams.append(_stall(hint, until))
                    opened += 1
                if time.monotonic() >= until:
                    break
                time.sleep(POLL)
            streams = _reap(streams, ended)
            held = sum(time.monotonic() - stream.opened >= HELD for stream in streams)
            for stream in streams:
                stream.call.cancel()
    finally:  # released once cancelled: an empty request stream now would be a bad call
        for stream in streams:
            stream.release.set()
    return {"streams opened": opened, "ended by the server": dict(ended),
            f"held open {HELD:g} s or more at the end": held}


# ---------------------------------------------------------------- 2. big pile

PILE = 200_000  # cards in the one pile: about 800 KB of protobuf
PILE_CLIENTS = 26  # of each protocol
PILE_DEADLINE = 5.0  # seconds, each call (one still in flight at the end is cut)


def _big_pile() -> list[str]:
    """Deal 1's 52 cards over and over: a pile of PILE cards."""
    proto = position_to_proto(deal(1))
    cards = [card for pile in proto.tableau for card in pile.cards]
    cards += [slot.card for slot in proto.reserve if slot.card]
    return [cards[i % len(cards)] for i in range(PILE)]


def big_bodies() -> dict[str, bytes]:
    """The one request in each encoding: gRPC's protobuf, Connect JSON with the typed
    position, and Connect JSON with the position as a JSON string."""
    pile = _big_pile()
    message = pb.HintRequest(position=pb.PositionSource(
        beleaguered=pb.BeleagueredPosition(tableau=[pb.Pile(cards=pile)])))
    position = compact({"game": "patience", "tableau": [pile]})
    return {
        "grpc": message.SerializeToString(),
        "http typed": compact({"position": {"beleaguered": {"tableau": [{"cards": pile}]}}}
                              ).encode(),
        "http json": compact({"position": {"json": position}}).encode(),
    }


def compact(value: Any) -> str:
    """JSON without spaces: the most cards under the server's request size limit."""
    return json.dumps(value, separators=(",", ":"))


@dataclass
class Tally:
    """Outcomes counted by several threads at once."""

    codes: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, key: str) -> None:
        """Count one outcome."""
        with self.lock:
            self.codes[key] += 1


def _pile_grpc(target: Target, body: bytes, until: float, stop: threading.Event,
               tally: Tally) -> None:
    """One gRPC client on its own connection, sending the big Hint back to back."""
    with grpc.insecure_channel(target.grpc_address, options=OWN_CONNECTION) as channel:
        hint = channel.unary_unary(HINT)  # bytes out, bytes in: the body is serialised once
        for _ in range(MAX_CALLS):
            if stop.is_set() or time.monotonic() >= until:
                return
            tally.add(f"grpc {call_until(hint, body, PILE_DEADLINE, until)}")


def post(connection: http.client.HTTPConnection, path: str, body: bytes,
         content_type: str = "application/json") -> int:
    """One POST on a kept connection; its HTTP status (the body read and dropped)."""
    connection.request("POST", path, body=body, headers={"Content-Type": content_type})
    with connection.getresponse() as answer:
        answer.read()
        return answer.status


def _pile_http(port: int, kind: str, body: bytes, until: float, stop: threading.Event,
               tally: Tally, connections: list[http.client.HTTPConnection]) -> None:
    """One HTTP client on a keep-alive connection (listed, for cut()), sending the big
    Hint back to back."""
    connection = http.client.HTTPConnection(HOST, port, timeout=PILE_DEADLINE)
    connections.append(connection)
    try:
        for _ in range(MAX_CALLS):
            if stop.is_set() or time.monotonic() >= until:
                return
            try:
                tally.add(f"{kind} {post(connection, f'{SOLVER}/Hint', body)}")
            except (OSError, http.client.HTTPException) as error:
                late = stop.is_set() or time.monotonic() >= until
                tally.add(f"{kind} {CUT if late else type(error).__name__}")
                connection.close()
    finally:
        connection.close()


def big_pile(target: Target, until: float) -> Details:
    """26 gRPC and 26 HTTP clients each sending a Hint on a 200,000-card pile: what the
    server pays to read and refuse requests just under its size limit."""
    port = http_port(target)
    bodies, tally = big_bodies(), Tally()
    connections: list[http.client.HTTPConnection] = []
    with Crew(join_seconds=PILE_DEADLINE + 15) as crew:
        try:
            for k in range(PILE_CLIENTS):
                crew.spawn(_pile_grpc, target, bodies["grpc"], until, crew.stop, tally)
                kind = "http typed" if k % 2 == 0 else "http json"
                crew.spawn(_pile_http, port, kind, bodies[kind], until, crew.stop, tally,
                           connections)
            sleep_until(until, crew.stop)
        finally:
            crew.stop.set()
            cut(connections)
    return {"request bytes": {kind: len(body) for kind, body in bodies.items()},
            "answers": dict(sorted(tally.codes.items())), "client errors": dict(crew.errors)}


# ---------------------------------------------------------------- 3. silent connections

SILENT = 1_100  # connections held at once: past the server's 1,024 files
SERVER_OPEN_FILES = 1024
MAX_SILENT_OPENS = 100_000
OPEN_BATCH = 200  # connects begun per poll, so that reading keeps up
DRIP = 1.0  # seconds between a slow connection's bytes
SLOW_START = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
SLOW_MORE = b"X-Slow: 1\r\n"  # repeated after the request line: the request never ends


@dataclass
class _Held:
    """One connection held open: its socket, whether it drips, how far it got."""

    sock: socket.socket
    slow: bool
    connecting: bool = True
    answered: bool = False
    sent: int = 0

    def next_byte(self) -> bytes:
        """The slowloris drip: the request line a byte at a time, then headers forever."""
        at = self.sent
        if at < len(SLOW_START):
            return SLOW_START[at:at + 1]
        at = (at - len(SLOW_START)) % len(SLOW_MORE)
        return SLOW_MORE[at:at + 1]


class SilentConnections:
    """Up to SILENT connections to one port, reopened as the server closes them; with
    `slowloris` every other one drips a request that never ends."""

    def __init__(self, port: int, slowloris: bool) -> None:
        """Nothing is opened until run()."""
        self.address = (HOST, port)
        self.slowloris = slowloris
        self.held: dict[int, _Held] = {}  # by file descriptor
        self.counts: Counter[str] = Counter()
        self.most_open = 0
        self._selector = selectors.DefaultSelector()

    def run(self, until: float) -> None:
        """Top up, read, drip, until the attack's end; a round takes POLL at least, so
        that the count bound cannot run out before the clock."""
        next_drip = time.monotonic() + DRIP
        for _ in range(steps(until, POLL)):
            round_ends = time.monotonic() + POLL
            if round_ends - POLL >= until:
                return
            self._top_up()
            self._poll()
            established = sum(not held.connecting for held in self.held.values())
            self.most_open = max(self.most_open, established)
            if self.slowloris and time.monotonic() >= next_drip:
                self._drip()
                next_drip = time.monotonic() + DRIP
            time.sleep(max(0.0, round_ends - time.monotonic()))

    def _top_up(self) -> None:
        """Begin connects (non-blocking) until SILENT are open or connecting."""
        for _ in range(min(OPEN_BATCH, SILENT - len(self.held))):
            if self.counts["connects begun"] >= MAX_SILENT_OPENS:
                return
            self.counts["connects begun"] += 1
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            code = sock.connect_ex(self.address)
            if code not in (0, errno.EINPROGRESS):
                self.counts[f"connect {errno.errorcode.get(code, code)}"] += 1
                sock.close()
                continue
            held = _Held(sock, self.slowloris and self.counts["connects begun"] % 2 == 0)
            self.held[sock.fileno()] = held
            self._selector.register(sock, selectors.EVENT_WRITE, held)

    def _poll(self) -> None:
        """Handle what is ready: connects that finished, and what the server sent."""
        for key, _ in self._selector.select(timeout=POLL):
            held: _Held = key.data
            if held.connecting:
                self._connected(held)
            else:
                self._read(held)

    def _connected(self, held: _Held) -> None:
        """A connect finished: refused (counted, dropped) or established (now read)."""
        code = held.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        if code:
            name = "refused" if code == errno.ECONNREFUSED else errno.errorcode.get(code, code)
            self._drop(held, f"connect {name}")
            return
        held.connecting = False
        self.counts["established"] += 1
        self._selector.modify(held.sock, selectors.EVENT_READ, held)

    def _read(self, held: _Held) -> None:
        """The server spoke: an answer (its status line counted once), a close or a reset."""
        try:
            data = held.sock.recv(65536)
        except BlockingIOError:
            return
        except ConnectionResetError:
            self._drop(held, "reset by the server")
            return
        except OSError as error:
            self._drop(held, f"read {type(error).__name__}")
            return
        if not data:
            self._drop(held, "closed by the server")
        elif not held.answered:
            held.answered = True
            line = data.split(b"\r\n", 1)[0][:40].decode(errors="replace")
            self.counts[f"answered {line!r}"] += 1

    def _drip(self) -> None:
        """Send each slow connection its next byte."""
        for held in list(self.held.values()):
            if held.slow and not held.connecting:
                try:
                    held.sock.send(held.next_byte())
                    held.sent += 1
                except BlockingIOError:
                    continue
                except OSError as error:
                    self._drop(held, f"send {type(error).__name__}")

    def _drop(self, held: _Held, why: str) -> None:
        """Close one connection and count why."""
        self.counts[why] += 1
        self._selector.unregister(held.sock)
        del self.held[held.sock.fileno()]
        held.sock.close()

    def close(self) -> None:
        """Close every connection still held, and the selector."""
        for held in list(self.held.values()):
            self._selector.unregister(held.sock)
            held.sock.close()
        self.held.clear()
        self._selector.close()

    def details(self) -> Details:
        """What was seen, for the row's notes."""
        connecting = sum(held.connecting for held in self.held.values())
        return {"counts": dict(sorted(self.counts.items())), "most open at once": self.most_open,
                "open at the end": len(self.held) - connecting,
                "still connecting at the end": connecting}


def _hold_silent(target: Target, until: float, slowloris: bool) -> Details:
    """Hold the connections until the attack's end, and close them all after."""
    connections = SilentConnections(http_port(target), slowloris)
    try:
        connections.run(until)
        return connections.details()
    finally:
        connections.close()


def silent_http(target: Target, until: float) -> Details:
    """1,100 HTTP connections that send nothing, on a server with 1,024 files: what a
    server does when its file descriptors run out, and whether gRPC suffers with it."""
    return _hold_silent(target, until, slowloris=False)


def slowloris_http(target: Target, until: float) -> Details:
    """The same 1,100 connections, half of them dripping a request line and headers a
    byte a second (slowloris): requests that never end must not hold the server."""
    return _hold_silent(target, until, slowloris=True)


# ---------------------------------------------------------------- 4. malformed, then SIGTERM

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
EXIT_SLACK = 5.0  # seconds past the grace a shutdown may take and still count as prompt
EXIT_WAIT = 30.0  # seconds past the grace to wait before SIGKILL


def _frame(kind: int, flags: int, stream: int, payload: bytes, length: int | None = None
           ) -> bytes:
    """An HTTP/2 frame; `length` lies about the payload's size when given."""
    size = len(payload) if length is None else length
    return (size.to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big")
            + payload)


def _garbage_frames(rng: random.Random) -> bytes:
    """After a valid preface and SETTINGS: HEADERS of random HPACK, an unknown frame type,
    DATA on a stream never opened, and a frame that claims 16 MB and sends 100 bytes."""
    return (_frame(0x4, 0, 0, b"") + _frame(0x1, 0x4, 1, rng.randbytes(64))
            + _frame(0xEE, 0, 0, rng.randbytes(32)) + _frame(0x0, 0x1, 3, rng.randbytes(32))
            + _frame(0x0, 0, 5, rng.randbytes(100), length=0xFFFFFF))


def _fate(sock: socket.socket) -> str:
    """What the server did with a connection we wrote garbage to, within half a second."""
    sock.settimeout(0.5)
    got = 0
    for _ in range(16):
        try:
            data = sock.recv(65536)
        except TimeoutError:
            return f"{'answered' if got else 'silent'}, held open"
        except OSError:
            return f"{'answered' if got else 'silent'}, reset"
        if not data:
            return f"{'answered' if got else 'silent'}, closed"
        got += len(data)
    return "answered, held open"


def _send_malformed(target: Target, run: int, seen: Counter[str]
                    ) -> tuple[list[socket.socket], grpc.Channel]:
    """The three kinds of garbage; the sockets and the channel stay open for the SIGTERM."""
    rng = random.Random(run)
    sockets: list[socket.socket] = []
    for kind, payload in (("random bytes", rng.randbytes(4096)),
                          ("HTTP/2 garbage", PREFACE + _garbage_frames(rng))):
        sock = socket.create_connection((HOST, target.grpc_port), timeout=2)
        sockets.append(sock)
        try:
            sock.sendall(payload)
        except OSError as error:
            seen[f"{kind}: send {type(error).__name__}"] += 1
        seen[f"{kind}: {_fate(sock)}"] += 1
    channel = grpc.insecure_channel(target.grpc_address, options=OWN_CONNECTION)
    try:
        channel.unary_unary(HINT)(b"\xff\xff\xff", timeout=5)
        seen["not protobuf: OK"] += 1
    except grpc.RpcError as error:
        seen[f"not protobuf: {error.code().name}"] += 1
    return sockets, channel


@dataclass
class ShutdownRun:
    """One server's start, garbage and SIGTERM."""

    exit_seconds: float | None  # None: still running at grace + EXIT_WAIT, then killed
    left_behind: int  # processes of its group running after it exited
    log_bytes: int
    tracebacks: int
    signal_logged: bool  # its log says it saw the SIGTERM


def _one_shutdown(log: Path, run: int, grace: float, seen: Counter[str]) -> ShutdownRun:
    """A fresh server, the garbage, then SIGTERM: how long until it is gone."""
    server = ServerProcess(log, grace=grace)
    sockets: list[socket.socket] = []
    channel: grpc.Channel | None = None
    try:
        target = server.wait_serving()
        sockets, channel = _send_malformed(target, run, seen)
        seconds = server.terminate(grace + EXIT_WAIT)
        left = 0
        for _ in range(20 if seconds is not None else 0):  # workers follow their server
            left = server.group_left()
            if not left:
                break
            time.sleep(0.05)
    finally:
        for sock in sockets:
            sock.close()
        if channel is not None:
            channel.close()
        server.kill()
    text = server.log_text()
    return ShutdownRun(seconds, left, server.log_bytes(), text.count("Traceback"),
                       "SIGTERM" in text)


def malformed_then_sigterm(runs: int, grace: float, logs: Path) -> Details:
    """Garbage to the gRPC port, then SIGTERM, `runs` times: a server that has seen bad
    clients must still stop within its grace (the exit times, and what it answered)."""
    seen: Counter[str] = Counter()
    done: list[ShutdownRun] = []
    failed: Counter[str] = Counter()
    for run in range(runs):
        try:
            done.append(_one_shutdown(logs / f"malformed-{run}.log", run, grace, seen))
        except (ServerFailed, OSError) as error:
            failed[f"{type(error).__name__}: {str(error)[:200]}"] += 1
    exits = [r.exit_seconds for r in done if r.exit_seconds is not None]
    return {"runs": len(done), "failed runs": dict(failed), "grace s": grace,
            f"exited within grace + {EXIT_SLACK:g} s": sum(s <= grace + EXIT_SLACK for s in exits),
            f"killed, still running at grace + {EXIT_WAIT:g} s": len(done) - len(exits),
            "exit s max, of those that exited": round(max(exits), 2) if exits else None,
            "exit s median, of those that exited": (round(statistics.median(exits), 2)
                                                    if exits else None),
            "runs whose log never mentions the SIGTERM": sum(not r.signal_logged for r in done),
            "runs that left processes of their group behind": sum(r.left_behind > 0
                                                                  for r in done),
            "answers": dict(sorted(seen.items())),
            "log bytes": sum(r.log_bytes for r in done),
            "tracebacks": sum(r.tracebacks for r in done)}


# ---------------------------------------------------------------- 5. load

LOAD_CLIENTS = 200
LOAD_CHANNELS = 4
LOAD_DEADLINE = 5.0


def _load_client(stub: pb_grpc.SolverStub, k: int, until: float, stop: threading.Event,
                 tally: Tally) -> None:
    """Hints on random deals far from the well-behaved client's, back to back."""
    rng = random.Random(k)
    for _ in range(MAX_CALLS):
        if stop.is_set() or time.monotonic() >= until:
            return
        source = pb.PositionSource(beleaguered_deal=rng.randint(100_001, 1_000_000))
        try:  # not cut at the end: the server's count and the clients' cover the same calls
            stub.Hint(pb.HintRequest(position=source), timeout=LOAD_DEADLINE)
            tally.add("OK")
        except grpc.RpcError as error:
            tally.add(error.code().name)


def load_200(target: Target, until: float) -> Details:
    """200 threads sending Hints back to back on 4 shared connections: does the health
    check still get through, and does the server count the refusals its clients see?
    The calls in flight at the end run to their answer (5 s at most) to be counted."""
    tally = Tally()
    channels = [grpc.insecure_channel(target.grpc_address, options=OWN_CONNECTION)
                for _ in range(LOAD_CHANNELS)]
    try:
        with Crew(join_seconds=LOAD_DEADLINE + 10) as crew:
            for k in range(LOAD_CLIENTS):
                stub = pb_grpc.SolverStub(channels[k % LOAD_CHANNELS])
                crew.spawn(_load_client, stub, k, until, crew.stop, tally)
            sleep_until(until, crew.stop)
    finally:
        for channel in channels:
            channel.close()
    return {"clients saw": dict(tally.codes.most_common()), "client errors": dict(crew.errors)}


# ---------------------------------------------------------------- 6. HTTP garbage

GARBAGE_THREADS = 4
GARBAGE_TIMEOUT = 5.0  # seconds to wait for an answer to one request


def _request(body: bytes, headers: tuple[bytes, ...] = (),
             content_type: bytes = b"application/json", length: bytes | None = None) -> bytes:
    """A raw HTTP/1.1 POST of Hint, every byte as given (no client library to tidy it)."""
    lines = [f"POST {SOLVER}/Hint HTTP/1.1".encode(), b"Host: 127.0.0.1",
             b"Content-Type: " + content_type,
             b"Content-Length: " + (str(len(body)).encode() if length is None else length),
             *headers, b"Connection: close"]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def garbage_requests() -> dict[str, bytes]:
    """Each kind of bad request, by name."""
    hint = b'{"position":{"beleaguered_deal":2}}'
    message = pb.HintRequest(position=pb.PositionSource(beleaguered_deal=2)).SerializeToString()
    chunked = (f"POST {SOLVER}/Hint HTTP/1.1\r\nHost: 127.0.0.1\r\n"
               "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
               "zz\r\n{}\r\n0\r\n\r\n").encode()
    return {
        "non-UTF-8 header value": _request(hint, (b"X-Note: caf\xe9\xff\xfe",)),
        "non-UTF-8 header name": _request(hint, (b"X-\xff\xfe: 1",)),
        "non-UTF-8 Connect-Timeout-Ms": _request(hint, (b"Connect-Timeout-Ms: \xff\xfe",)),
        "absurd Connect-Timeout-Ms": _request(hint, (b"Connect-Timeout-Ms: " + b"9" * 40,)),
        "Content-Type application/grpc": _request(
            b"\x00" + len(message).to_bytes(4, "big") + message, content_type=b"application/grpc"),
        "truncated JSON": _request(b'{"position": {"beleaguered_deal": '),
        "JSON nested 100,000 deep": _request(b"[" * 100_000),
        "position JSON nested 100,000 deep": _request(
            json.dumps({"position": {"json": "[" * 100_000}}).encode()),
        "Content-Length 10^20, short body": _request(hint, length=b"1" + b"0" * 20),
        "Content-Length 2 GB, short body": _request(hint, length=b"2000000000"),
        "Content-Length -1": _request(hint, length=b"-1"),
        "bad chunk size": chunked,
        "5,000 headers": _request(hint, tuple(b"X-Flood-%d: x" % i for i in range(5000))),
        "one 256 KB header": _request(hint, (b"X-Big: " + b"a" * 262_144,)),
    }


def _status_line(sock: socket.socket) -> bytes:
    """The first line the server sends back, or b"" when it closes first."""
    data = b""
    for _ in range(64):
        chunk = sock.recv(4096)
        data += chunk
        if not chunk or b"\r\n" in data:
            break
    return data.split(b"\r\n", 1)[0]


def exchange(port: int, payload: bytes, timeout: float = GARBAGE_TIMEOUT) -> str:
    """Send `payload` on a fresh connection: "HTTP 400", or what happened instead."""
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as sock:
            try:
                sock.sendall(payload)
            except OSError:  # the server may answer and close before it read everything
                pass
            line = _status_line(sock)
    except TimeoutError:
        return f"no answer in {timeout:g} s"
    except OSError as error:
        return type(error).__name__
    parts = line.split()
    if not parts:
        return "closed, no answer"
    return f"HTTP {parts[1].decode(errors='replace')}" if len(parts) > 1 else "garbled answer"


def _garbage_client(port: int, start: int, until: float, stop: threading.Event,
                    seen: dict[str, Tally]) -> None:
    """Every kind of bad request in turn, from kind `start` on, until the attack's end."""
    names = list(seen)
    requests = garbage_requests()
    for turn in range(MAX_CALLS):
        if stop.is_set() or time.monotonic() >= until:
            return
        name = names[(start + turn) % len(names)]
        timeout = min(GARBAGE_TIMEOUT, remaining(until))
        answer = exchange(port, requests[name], max(timeout, 0.01))
        seen[name].add(CUT if timeout < GARBAGE_TIMEOUT and answer.startswith("no answer")
                       else answer)


def http_garbage(target: Target, until: float) -> Details:
    """Malformed HTTP requests in a loop from 4 clients: each must get a 4xx, quickly,
    without a stack trace in the log."""
    port = http_port(target)
    seen = {name: Tally() for name in garbage_requests()}
    with Crew(join_seconds=GARBAGE_TIMEOUT + 10) as crew:
        for k in range(GARBAGE_THREADS):
            crew.spawn(_garbage_client, port, k * len(seen) // GARBAGE_THREADS, until,
                       crew.stop, seen)
        sleep_until(until, crew.stop)
    return {"answers": {name: dict(tally.codes.most_common()) for name, tally in seen.items()},
            "client errors": dict(crew.errors)}


# ---------------------------------------------------------------- 7. endless GenerateDeals

GENERATE_STREAMS = 8


def _follow(call: Any, began: float, tally: Tally, ended_at: list[float]) -> None:
    """Read one stream to its end: the deals it sent and the status it ended with."""
    try:
        for _ in zip(range(MAX_CALLS), call, strict=False):
            tally.add("deals sent")
        tally.add("ended OK")
    except grpc.RpcError as error:
        tally.add(f"ended {error.code().name}")
    with tally.lock:
        ended_at.append(round(time.monotonic() - began, 1))


def endless_generate(target: Target, until: float) -> Details:
    """8 GenerateDeals streams asking past the census for a band no deal meets: they hold
    the workers until the call's deadline, or until the server gives the band up (after
    about 110 s without a deal found, when the request sets no max_seconds)."""
    request = pb.GenerateDealsRequest(count=3, min_length=200, max_length=300,
                                      first_deal=2_000_000)
    tally = Tally()
    ended_at: list[float] = []
    calls: list[Any] = []
    began = time.monotonic()
    with grpc.insecure_channel(target.grpc_address, options=OWN_CONNECTION) as channel, \
            Crew() as crew:
        stub = pb_grpc.SolverStub(channel)
        try:
            for _ in range(GENERATE_STREAMS):
                calls.append(stub.GenerateDeals(request, timeout=max(0.1, remaining(until))))
                crew.spawn(_follow, calls[-1], began, tally, ended_at)
            # their deadline ends them: see it happen
            sleep_until(until + 2.0, crew.stop, lambda: len(ended_at) == len(calls))
        finally:
            for call in calls:
                call.cancel()
    return {"streams": dict(tally.codes), "ended at s": sorted(ended_at),
            "client errors": dict(crew.errors)}


# ---------------------------------------------------------------- 8. keep-alive latency

INFO_CALLS = 200


def _timed_info(connection: http.client.HTTPConnection, kind: str, tally: Tally
                ) -> float | None:
    """One GetServerInfo: its milliseconds, or None when it failed (counted by kind)."""
    began = time.perf_counter()
    try:
        status = post(connection, f"{SOLVER}/GetServerInfo", b"{}")
    except (OSError, http.client.HTTPException) as error:
        tally.add(f"{kind} {type(error).__name__}")
        connection.close()
        return None
    tally.add(f"{kind} {status}")
    return 1000 * (time.perf_counter() - began) if status == 200 else None


def _summary(ms: list[float]) -> Details:
    """Count, median and p99 of one kind of call's milliseconds."""
    return {"calls": len(ms), "median ms": round(statistics.median(ms), 2) if ms else None,
            "p99 ms": round(nearest_rank(ms, 99) or 0, 2) if ms else None}


def keepalive_latency(target: Target, until: float) -> Details:
    """200 GetServerInfo calls on one kept connection, interleaved with 200 on a fresh
    connection each: what a new connection costs a client (not an attack)."""
    port, tally = http_port(target), Tally()
    kept_ms: list[float] = []
    fresh_ms: list[float] = []
    kept = http.client.HTTPConnection(HOST, port, timeout=5)
    connects = 0  # of the kept connection: 1 when the server kept it open throughout
    try:
        for _ in range(INFO_CALLS):
            if time.monotonic() >= until:
                break
            connects += kept.sock is None  # closed since: http.client connects again
            if (ms := _timed_info(kept, "keep-alive", tally)) is not None:
                kept_ms.append(ms)
            fresh = http.client.HTTPConnection(HOST, port, timeout=5)
            try:
                if (ms := _timed_info(fresh, "fresh", tally)) is not None:
                    fresh_ms.append(ms)
            finally:
                fresh.close()
    finally:
        kept.close()
    return {"keep-alive": _summary(kept_ms), "fresh connection": _summary(fresh_ms),
            "keep-alive connects": connects, "answers": dict(tally.codes)}


# ---------------------------------------------------------------- 9. chunked bodies

CHUNKED_CLIENTS = 16
CHUNKED_BYTES = 1_000_000  # each request's body, just under the 1 MiB request limit
CHUNK = 16_384  # bytes per chunk
CHUNKED_TIMEOUT = 5.0  # seconds, each socket operation


def chunked_body() -> list[bytes]:
    """A Hint of deal 3 in JSON that a string field pads to CHUNKED_BYTES, in CHUNKs: with
    no Content-Length, the server learns its size only by reading it."""
    head, tail = b'{"position":{"beleaguered_deal":3},"padding":"', b'"}'
    body = head + b"x" * (CHUNKED_BYTES - len(head) - len(tail)) + tail
    return [body[at:at + CHUNK] for at in range(0, len(body), CHUNK)]


def _chunked_client(port: int, chunks: list[bytes], until: float, stop: threading.Event,
                    tally: Tally, told: Tally,
                    connections: list[http.client.HTTPConnection]) -> None:
    """One HTTP client on a keep-alive connection (listed, for cut()), sending the chunked
    Hint back to back."""
    connection = http.client.HTTPConnection(HOST, port, timeout=CHUNKED_TIMEOUT)
    connections.append(connection)
    headers = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    try:
        for _ in range(MAX_CALLS):
            if stop.is_set() or time.monotonic() >= until:
                return
            try:
                connection.request("POST", HINT, body=iter(chunks), headers=headers,
                                   encode_chunked=True)
                with connection.getresponse() as answer:
                    code, message = connect_outcome(answer.status, answer.read())
                tally.add(code)
                if message:
                    told.add(f"{code}: {said(message)}")
            except (OSError, http.client.HTTPException) as error:
                late = stop.is_set() or time.monotonic() >= until
                tally.add(CUT if late else type(error).__name__)
                connection.close()
    finally:
        connection.close()


def chunked_bodies(target: Target, until: float) -> Details:
    """16 HTTP clients each sending a 1 MB Hint with Transfer-Encoding: chunked, in a
    loop: what reading bodies of unknown size costs the server, and whether its memory
    comes back after."""
    port, chunks = http_port(target), chunked_body()
    tally, told = Tally(), Tally()
    connections: list[http.client.HTTPConnection] = []
    with Crew(join_seconds=CHUNKED_TIMEOUT + 15) as crew:
        try:
            for _ in range(CHUNKED_CLIENTS):
                crew.spawn(_chunked_client, port, chunks, until, crew.stop, tally, told,
                           connections)
            sleep_until(until, crew.stop)
        finally:
            crew.stop.set()
            cut(connections)
    return {"request bytes": sum(map(len, chunks)), "answers": dict(tally.codes.most_common()),
            "messages": dict(told.codes.most_common(6)), "client errors": dict(crew.errors)}


# ---------------------------------------------------------------- 10. one address

HELD_SOLVES = 32  # keep-alive connections from HOST, half gRPC, half HTTP
HARD_VARIANT = "streets-and-alleys"
HARD_DEALS = (77, 186)  # deals of HARD_VARIANT whose optimal solve runs past 60 s
HARD_BUDGET = 60.0  # seconds, each Solve's budget
HARD_DEADLINE = 90.0  # seconds, each Solve's deadline
RETRY = 0.25  # seconds between a holder's Solves (one refused is sent again)


def hard_solve(number: int) -> pb.SolveRequest:
    """An optimal Solve of HARD_VARIANT's deal `number` with a budget of HARD_BUDGET: it
    holds a worker for the whole budget."""
    position = position_to_proto(deal(number, find_variant(HARD_VARIANT)))
    return pb.SolveRequest(position=pb.PositionSource(beleaguered=position),
                           budget=pb.Budget(seconds=HARD_BUDGET),
                           beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_OPTIMAL))


def connect_json(request: Any) -> bytes:
    """A request message as the Connect face's JSON body."""
    return compact(json_format.MessageToDict(request)).encode()


def http_call(connection: http.client.HTTPConnection, path: str, body: bytes,
              deadline: float) -> tuple[str, str]:
    """One Connect call on a kept connection, its deadline in Connect-Timeout-Ms: what
    connect_outcome() makes of the answer."""
    connection.request("POST", path, body=body, headers={
        "Content-Type": "application/json", "Connect-Timeout-Ms": str(int(1000 * deadline))})
    with connection.getresponse() as answer:
        return connect_outcome(answer.status, answer.read())


def _hold_grpc(target: Target, request: pb.SolveRequest, until: float,
               stop: threading.Event, tally: Tally, told: Tally) -> None:
    """One gRPC client on a channel of its own, holding one long Solve at a time."""
    with grpc.insecure_channel(target.grpc_address, options=OWN_CONNECTION) as channel:
        solve = pb_grpc.SolverStub(channel).Solve
        for _ in range(steps(until, RETRY)):
            if stop.is_set() or time.monotonic() >= until:
                return
            code, message = call_told(solve, request, HARD_DEADLINE, until)
            tally.add(f"grpc {code}")
            if message:
                told.add(f"grpc {code}: {said(message)}")
            stop.wait(RETRY)


def _hold_http(port: int, body: bytes, until: float, stop: threading.Event, tally: Tally,
               told: Tally, connections: list[http.client.HTTPConnection]) -> None:
    """One HTTP client on a keep-alive connection (listed, for cut()), holding one long
    Solve at a time."""
    connection = http.client.HTTPConnection(HOST, port, timeout=HARD_DEADLINE)
    connections.append(connection)
    try:
        for _ in range(steps(until, RETRY)):
            if stop.is_set() or time.monotonic() >= until:
                return
            try:
                code, message = http_call(connection, SOLVE, body, HARD_DEADLINE)
                tally.add(f"http {code}")
                if message:
                    told.add(f"http {code}: {said(message)}")
            except (OSError, http.client.HTTPException) as error:
                late = stop.is_set() or time.monotonic() >= until
                tally.add(f"http {CUT if late else type(error).__name__}")
                connection.close()
            stop.wait(RETRY)
    finally:
        connection.close()


def one_address(target: Target, until: float) -> Details:
    """32 keep-alive connections from one address, 16 gRPC and 16 HTTP, each holding an
    optimal Solve of 60 s: one client address that takes every worker and queue place
    must not shut out a client from another (bench/hostile.py's client, for this attack,
    comes from 127.0.0.2)."""
    port = http_port(target)
    requests = {number: hard_solve(number) for number in HARD_DEALS}
    bodies = {number: connect_json(request) for number, request in requests.items()}
    tally, told = Tally(), Tally()
    connections: list[http.client.HTTPConnection] = []
    with Crew(join_seconds=15) as crew:
        try:
            for k in range(HELD_SOLVES // 2):
                number = HARD_DEALS[k % len(HARD_DEALS)]
                crew.spawn(_hold_grpc, target, requests[number], until, crew.stop, tally, told)
                crew.spawn(_hold_http, port, bodies[number], until, crew.stop, tally, told,
                           connections)
            sleep_until(until, crew.stop)
        finally:
            crew.stop.set()
            cut(connections)
    return {"solves": f"{HARD_VARIANT} deals {HARD_DEALS}, optimal, budget {HARD_BUDGET:g} s",
            "answers": dict(sorted(tally.codes.items())),
            "messages": dict(told.codes.most_common()), "client errors": dict(crew.errors)}


# ---------------------------------------------------------------- 11. stop in flight

STOP_HTTP_SOLVES = 4
STOP_GRPC_SOLVES = 2
IN_FLIGHT = 1.0  # seconds between sending the Solves and the SIGTERM
CLEAN_SLACK = 2.0  # seconds past the grace a clean stop may take
LEFT_WAIT = 1.0  # seconds after the exit when no process of the server's may be left
ANSWER_WAIT = 5.0  # seconds after the exit the Solves in flight may take to end


@dataclass
class StopRun:
    """One server's Solves in flight and SIGTERM."""

    status: int | None  # exit status; None: still running at grace + EXIT_WAIT, killed
    overrun: float | None  # seconds from SIGTERM to exit minus the grace; None: killed
    left_behind: int  # its processes (itself, its workers) running LEFT_WAIT after
    tracebacks: int
    log_bytes: int

    def clean(self) -> bool:
        """Status 0 within grace + CLEAN_SLACK, nothing left, no traceback."""
        return (self.status == 0 and self.overrun is not None and self.overrun <= CLEAN_SLACK
                and not self.left_behind and not self.tracebacks)


def _solve_http(port: int, body: bytes, tally: Tally,
                connections: list[http.client.HTTPConnection]) -> None:
    """One long HTTP Solve; how it ended (the server stops meanwhile)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=HARD_DEADLINE)
    connections.append(connection)
    try:
        tally.add(f"http {http_call(connection, SOLVE, body, HARD_DEADLINE)[0]}")
    except (OSError, http.client.HTTPException) as error:
        tally.add(f"http {type(error).__name__}")
    finally:
        connection.close()


def _grpc_ended(futures: list[Any], tally: Tally) -> None:
    """Count how the gRPC Solves ended, ANSWER_WAIT at most; those still running are cut."""
    deadline = time.monotonic() + ANSWER_WAIT
    for future in futures:
        try:
            future.result(timeout=remaining(deadline))
            tally.add("grpc OK")
        except grpc.FutureTimeoutError:
            future.cancel()
            tally.add(f"grpc {CUT}")
        except grpc.FutureCancelledError:
            tally.add(f"grpc {CUT}")
        except grpc.RpcError as error:
            tally.add(f"grpc {error.code().name}")


def _one_stop(log: Path, grace: float, tally: Tally) -> StopRun:
    """A fresh server, 6 long Solves in flight, then SIGTERM: how it stops."""
    server = ServerProcess(log, grace=grace)
    channels: list[grpc.Channel] = []
    connections: list[http.client.HTTPConnection] = []
    body = connect_json(hard_solve(HARD_DEALS[0]))
    status: int | None = None
    overrun: float | None = None
    left = 0
    try:
        target = server.wait_serving()
        port = http_port(target)
        with Crew(join_seconds=ANSWER_WAIT + 5) as crew:
            try:
                for _ in range(STOP_HTTP_SOLVES):
                    crew.spawn(_solve_http, port, body, tally, connections)
                futures = []
                for k in range(STOP_GRPC_SOLVES):
                    channels.append(grpc.insecure_channel(target.grpc_address,
                                                          options=OWN_CONNECTION))
                    request = hard_solve(HARD_DEALS[(k + 1) % len(HARD_DEALS)])
                    futures.append(pb_grpc.SolverStub(channels[-1]).Solve.future(
                        request, timeout=HARD_DEADLINE))
                time.sleep(IN_FLIGHT)
                family = process_tree(server.pid)
                seconds = server.terminate(grace + EXIT_WAIT)
                if seconds is not None:
                    status, overrun = server.process.returncode, seconds - grace
                    time.sleep(LEFT_WAIT)
                    left = len({pid for pid in family if running(pid)} | server.group_running())
                _grpc_ended(futures, tally)
            finally:
                cut(connections)
    finally:
        for channel in channels:
            channel.close()
        server.kill()
    text = server.log_text()
    return StopRun(status, overrun, left, text.count("Traceback"), server.log_bytes())


def stop_in_flight(runs: int, grace: float, logs: Path) -> Details:
    """`runs` times: a fresh server with 4 HTTP and 2 gRPC Solves of a minute in flight
    gets SIGTERM: it must exit 0 within its grace (plus CLEAN_SLACK), its workers with
    it, without a stack trace."""
    tally = Tally()
    done: list[StopRun] = []
    failed: Counter[str] = Counter()
    for run in range(runs):
        try:
            done.append(_one_stop(logs / f"stop-in-flight-{run}.log", grace, tally))
        except (ServerFailed, AttackSkipped, OSError) as error:
            failed[f"{type(error).__name__}: {str(error)[:200]}"] += 1
    overruns = [r.overrun for r in done if r.overrun is not None]
    statuses = Counter("killed" if r.status is None else str(r.status) for r in done)
    return {"runs": len(done), "failed runs": dict(failed), "grace s": grace,
            f"clean stops (status 0 within grace + {CLEAN_SLACK:g} s, nothing left, "
            "no traceback)": f"{sum(r.clean() for r in done)} of {runs}",
            "exit statuses": dict(statuses.most_common()),
            "overrun s max (exit minus grace)": round(max(overruns), 2) if overruns else None,
            "overrun s median": round(statistics.median(overruns), 2) if overruns else None,
            f"runs with processes left {LEFT_WAIT:g} s after the exit":
                sum(r.left_behind > 0 for r in done),
            "runs with a traceback": sum(r.tracebacks > 0 for r in done),
            "solves in flight ended": dict(sorted(tally.codes.items())),
            "log bytes": sum(r.log_bytes for r in done),
            "tracebacks": sum(r.tracebacks for r in done)}
