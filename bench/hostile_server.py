"""The server side of bench/hostile.py: a real `fortress-solver serve` in a process group
of its own, its ports read from its log, its memory summed over its process tree, its
metrics scraped; the threads an attack starts, all joined when it ends; and a relay
that lets a gRPC client reach the server from another loopback address.
"""

from __future__ import annotations

import os
import re
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

SCRIPT = Path(sys.executable).parent / "fortress-solver"
HOST = "127.0.0.1"
WORKERS = 2
START_SECONDS = 90.0  # the longest a server may take to log its ports and say SERVING
TREE_DEPTH = 8  # the deepest descendant counted in the RSS
# each part of the first line found on its own, so that a reordered line still reads
_GRPC = re.compile(r"gRPC on \S*?:(\d+)")
_HTTP = re.compile(r"HTTP on \S*?:(\d+)")
_METRICS = re.compile(r"metrics on \S*?:(\d+)")
# the channel option that gives a channel a TCP connection of its own
OWN_CONNECTION = [("grpc.use_local_subchannel_pool", 1)]
# Linux routes all of 127.0.0.0/8 to loopback: a client bound to ELSEWHERE is, to the
# server, another machine than the attackers on HOST
ELSEWHERE = "127.0.0.2"
RELAY_HOST = "127.0.0.3"  # where the relay listens (gRPC python cannot bind its source)
RELAY_CHUNK = 65536
MAX_RELAYED = 10_000  # connections one relay accepts: the count bound of its loop
MAX_CHUNKS = 10_000_000  # reads one pump makes, at most


class ServerFailed(RuntimeError):
    """The server did not come up: the message ends with the tail of its log."""


@dataclass(frozen=True)
class Target:
    """Where an attack reaches the server (a port is 0 when the log did not name it)."""

    pid: int
    grpc_port: int
    http_port: int
    metrics_port: int

    @property
    def grpc_address(self) -> str:
        """host:port for gRPC channels."""
        return f"{HOST}:{self.grpc_port}"


def raise_own_file_limit() -> int:
    """The bench holds a thousand sockets at once: its soft limit goes up to its hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class ServerProcess:
    """`fortress-solver serve` on free loopback ports with 2 workers, its stderr in `log`,
    in a session of its own so that one killpg ends it and its workers together."""

    def __init__(self, log: Path, grace: float | None = None,
                 open_files: int | None = None) -> None:
        """Start the process at once; wait_serving() waits for it to be up."""
        self.log = log
        command = [str(SCRIPT), "serve", "--host", HOST, "--port", "0",
                   "--workers", str(WORKERS), "--http-port", "0", "--metrics-port", "0"]
        if grace is not None:
            command += ["--grace", f"{grace:g}"]
        if open_files is not None:  # the shell sets the limit (no preexec_fn: gRPC has threads)
            command = ["sh", "-c", f'ulimit -n {open_files} && exec "$@"', "sh", *command]
        with log.open("wb") as stderr:
            self.process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                start_new_session=True)
        self.pid = self.process.pid

    def wait_serving(self, timeout: float = START_SECONDS) -> Target:
        """The ports of the first log line that names the gRPC one, then health SERVING:
        an attack starts on a server that is up, not on one still loading."""
        deadline = time.monotonic() + timeout
        for _ in range(int(timeout / 0.05) + 1):
            found = _GRPC.search(self.log_text())
            if found:
                break
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise ServerFailed(f"serve did not log its ports: {self.log_tail()}")
            time.sleep(0.05)
        else:
            raise ServerFailed(f"serve did not log its ports: {self.log_tail()}")
        text = self.log_text()
        target = Target(self.pid, int(found[1]), _port(_HTTP, text), _port(_METRICS, text))
        wait_healthy(target.grpc_address, max(1.0, deadline - time.monotonic()))
        return target

    def log_text(self) -> str:
        """The whole log so far (bytes that are not UTF-8 replaced)."""
        return self.log.read_text(errors="replace")

    def log_tail(self, lines: int = 8) -> str:
        """The last lines of the log, to say why a server failed."""
        return " | ".join(self.log_text().splitlines()[-lines:]) or "(empty log)"

    def log_bytes(self) -> int:
        """The log's size so far, in bytes."""
        return self.log.stat().st_size

    def rss_mib(self) -> float:
        """VmRSS summed over the server and every descendant (its workers), in MiB."""
        return sum(_rss_kib(pid) for pid in process_tree(self.pid)) / 1024

    def main_rss_mib(self) -> float:
        """VmRSS of the server's own process (the one that reads requests), in MiB."""
        return _rss_kib(self.pid) / 1024

    def group_left(self) -> int:
        """How many processes of the server's group are still running."""
        return len(self.group_running())

    def group_running(self) -> set[int]:
        """The processes of the server's group still running (zombies aside: PID 1 of a
        container may never reap them), its workers after the server exited, say."""
        return {int(entry) for entry in os.listdir("/proc")
                if entry.isdigit() and _group_and_state(int(entry)) == (self.pid, True)}

    def terminate(self, timeout: float) -> float | None:
        """SIGTERM, then the seconds until the server process exited; None: it did not
        exit within `timeout` (it is left running for kill())."""
        began = time.monotonic()
        try:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        return time.monotonic() - began

    def kill(self) -> None:
        """SIGKILL to the whole group, whatever is left of it, and reap the server."""
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            print(f"hostile: server {self.pid} survived SIGKILL for 30 s", file=sys.stderr)

    def stop(self, grace: float = 10.0) -> float | None:
        """SIGTERM with `grace` seconds to exit, then SIGKILL to the group in any case; the
        seconds it took to exit on SIGTERM (None: it had to be killed, or was gone)."""
        seconds = self.terminate(grace) if self.process.poll() is None else None
        self.kill()
        return seconds


def _port(pattern: re.Pattern[str], text: str) -> int:
    """The port `pattern` names in the log, or 0 when the log does not name it."""
    found = pattern.search(text)
    return int(found[1]) if found else 0


def wait_healthy(address: str, timeout: float) -> None:
    """Block until the health check says SERVING (gRPC waits for the port to accept)."""
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            answer = stub.Check(health_pb2.HealthCheckRequest(), timeout=timeout,
                                wait_for_ready=True)
        except grpc.RpcError as error:
            raise ServerFailed(f"health check failed: {error.code().name}") from None
    if answer.status != health_pb2.HealthCheckResponse.SERVING:
        raise ServerFailed(f"health says {answer.status} at start")


def process_tree(root: int) -> list[int]:
    """`root` and its descendants, from /proc/<pid>/task/*/children, depth bounded."""
    found, layer = [root], [root]
    for _ in range(TREE_DEPTH):
        layer = [child for pid in layer for child in _children(pid) if child not in found]
        if not layer:
            break
        found.extend(layer)
    return found


def _children(pid: int) -> list[int]:
    """The children of every thread of `pid` (a worker may be any thread's child)."""
    children: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return children
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                children.extend(int(child) for child in listing.read().split())
        except OSError:
            continue
    return children


def running(pid: int) -> bool:
    """Whether `pid` is a process still running (a zombie is not)."""
    return _group_and_state(pid)[1]


def _group_and_state(pid: int) -> tuple[int, bool]:
    """(process group, running) of `pid`; running is False for a zombie or one gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
    except OSError:
        return 0, False
    return int(fields[2]), fields[0] not in ("Z", "X")


def _rss_kib(pid: int) -> int:
    """VmRSS of one process in KiB; 0 for one gone meanwhile."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:  # gone meanwhile
        pass
    return 0


def scrape_calls(port: int, timeout: float = 5.0) -> Counter[str]:
    """fortress_solver_calls_total from /metrics, summed over games: "Method STATUS" ->
    calls; empty when the port is unknown or the scrape fails."""
    calls: Counter[str] = Counter()
    if not port:
        return calls
    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}/metrics", timeout=timeout) as page:
            text = page.read().decode(errors="replace")
    except OSError:
        return calls
    for line in text.splitlines():
        if line.startswith("fortress_solver_calls_total{"):
            labels, _, value = line.rpartition(" ")
            method = re.search(r'method="([^"]*)"', labels)
            status = re.search(r'status="([^"]*)"', labels)
            if method and status:
                calls[f"{method[1]} {status[1]}"] += int(float(value))
    return calls


class Crew:
    """The threads of one attack: they share `stop`, and leaving the `with` (Ctrl-C too)
    sets it and joins them all within a bounded wait; what a thread raised is counted."""

    def __init__(self, join_seconds: float = 15.0) -> None:
        """`join_seconds`: the longest close() waits for all threads together."""
        self.stop = threading.Event()
        self.errors: Counter[str] = Counter()
        self._threads: list[threading.Thread] = []
        self._join_seconds = join_seconds
        self._lock = threading.Lock()

    def spawn(self, work: Callable[..., Any], *args: Any) -> None:
        """Start `work(*args)` on a thread of the crew."""
        thread = threading.Thread(target=self._guarded, args=(work, *args), daemon=True,
                                  name=f"hostile-{work.__name__}-{len(self._threads)}")
        self._threads.append(thread)
        thread.start()

    def _guarded(self, work: Callable[..., Any], *args: Any) -> None:
        """A thread's exception is a figure of the attack, not a stack trace on stderr."""
        try:
            work(*args)
        except Exception as error:  # any failure is counted, by its type
            with self._lock:
                self.errors[type(error).__name__] += 1

    def __enter__(self) -> Crew:
        """The crew, to spawn threads on."""
        return self

    def __exit__(self, *_: object) -> None:
        """Stop and join the threads, whatever ended the `with`."""
        self.close()

    def close(self) -> None:
        """Stop and join every thread; one still running after the wait is named."""
        self.stop.set()
        deadline = time.monotonic() + self._join_seconds
        for thread in self._threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        left = [thread.name for thread in self._threads if thread.is_alive()]
        if left:
            print(f"hostile: {len(left)} threads still running after "
                  f"{self._join_seconds:g} s: {', '.join(left[:5])}", file=sys.stderr)


class Relay:
    """A TCP relay: it accepts on RELAY_HOST and connects on to the server from ELSEWHERE,
    piping bytes both ways, so that a gRPC channel pointed at it comes, to the server, from
    another address than the attackers'. Leaving the `with` closes every socket."""

    def __init__(self, port: int) -> None:
        """Listen at once on a free port of RELAY_HOST; relay to HOST:`port`."""
        self._to = (HOST, port)
        self._listener = socket.create_server((RELAY_HOST, 0))
        self._listener.settimeout(0.2)
        self.address = "{}:{}".format(*self._listener.getsockname()[:2])
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._crew = Crew(join_seconds=5)

    def __enter__(self) -> Relay:
        """Start accepting."""
        self._crew.spawn(self._accept)
        return self

    def __exit__(self, *_: object) -> None:
        """Stop accepting, close every relayed connection, join the threads."""
        self._crew.stop.set()
        with self._lock:
            for sock in self._sockets:
                _close(sock)
        self._listener.close()
        self._crew.close()

    def _accept(self) -> None:
        """Accept until stopped; each connection gets its way out and two pumps."""
        for _ in range(MAX_RELAYED):
            if self._crew.stop.is_set():
                return
            try:
                inside, _ = self._listener.accept()
            except TimeoutError:
                continue
            try:
                outside = socket.create_connection(self._to, timeout=5,
                                                   source_address=(ELSEWHERE, 0))
            except OSError:
                inside.close()
                continue
            for sock in (inside, outside):
                sock.settimeout(None)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._sockets += [inside, outside]
            self._crew.spawn(_pump, inside, outside)
            self._crew.spawn(_pump, outside, inside)


def _pump(source: socket.socket, sink: socket.socket) -> None:
    """Copy `source` to `sink` until `source` ends; then end `sink`'s sending side."""
    try:
        for _ in range(MAX_CHUNKS):
            data = source.recv(RELAY_CHUNK)
            if not data:
                break
            sink.sendall(data)
    except OSError:  # either side closed: the relayed connection is over
        pass
    try:
        sink.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def _close(sock: socket.socket) -> None:
    """Shut a socket down (its pump's recv returns), then close it."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
