"""The client side of the service, for the `fortress-solver client ...` commands: one
channel to one server or to several replicas, and each RPC with a deadline of its
request's budget and a little room. Each game's messages (service/<game>/messages.py)
build its requests and read its answers."""

from __future__ import annotations

import ipaddress
import json
import queue
import re
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.tls import ClientTls
from service.tokens import bearer
from solver.errors import InvalidInput
from solver.numerals import read_number

_ROOM = 5.0  # seconds past the budget for the answer to arrive

# gRPC spreads the calls over every address the target resolves to, and sends a call
# again, to the next replica, when its replica is down before it has answered anything.
SERVICE_CONFIG = json.dumps({
    "loadBalancingConfig": [{"round_robin": {}}],
    "methodConfig": [{
        "name": [{"service": pb.DESCRIPTOR.services_by_name["Solver"].full_name}],
        "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s",
                        "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]},
    }],
})
_OPTIONS = [("grpc.service_config", SERVICE_CONFIG), ("grpc.enable_retries", 1)]

# A batch ends (UNAVAILABLE) once no server has been reachable this long: gRPC's retries
# give up after some 2 s, but a retried stream can be left waiting, without end, on a
# channel whose every server is gone.
_UNREACHABLE_SECONDS = 5.0
_LOOK_SECONDS = 0.5  # how often a batch waiting for answers looks at the channel

_PASSED = ("unix:", "unix-abstract:", "vsock:")  # gRPC's other schemes, given to it as they are
_HOST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?")
_EXAMPLES = "dns:///HOST:PORT, ipv4:ADDR:PORT,ADDR:PORT or HOST:PORT,HOST:PORT"

T = TypeVar("T")


class Client:
    def __init__(self, server: str, deadline: float | None = None, tls: ClientTls | None = None,
                 token: str | None = None) -> None:
        """`deadline`: every call's gRPC deadline in seconds (--deadline); by default a
        call's budget and a little room. `tls`: speak TLS (None: plaintext); `token`: the
        bearer token every call shows."""
        self._deadline = deadline
        self._target = channel_target(server)
        self._metadata = bearer(token)
        self._channel = (grpc.insecure_channel(self._target, options=_OPTIONS) if tls is None
                         else grpc.secure_channel(self._target, tls.credentials(), _OPTIONS))
        self._stub = pb_grpc.SolverStub(self._channel)  # type: ignore[no-untyped-call]

    def close(self) -> None:
        """Ends the calls still running too (a batch's other chunks, on Ctrl-C)."""
        self._channel.close()

    def solve(self, request: pb.SolveRequest) -> pb.SolveResponse:
        response: pb.SolveResponse = self._stub.Solve(request, timeout=self._timeout(request),
                                                         metadata=self._metadata)
        return response

    def hint(self, request: pb.HintRequest) -> pb.HintResponse:
        response: pb.HintResponse = self._stub.Hint(request, timeout=self._timeout(request),
                                                       metadata=self._metadata)
        return response

    def solve_batch(self, request: pb.SolveBatchRequest) -> Iterator[pb.BatchResult]:
        """The stream's results one by one: a message's first, then those it carries in
        `more` (request.results_per_message)."""
        for message in self._stub.SolveBatch(request, timeout=self._deadline,
                                             metadata=self._metadata):
            yield message
            yield from message.more

    def generate_deals(self, request: pb.GenerateDealsRequest) -> Iterator[pb.GeneratedDeal]:
        yield from self._stub.GenerateDeals(request, timeout=self._deadline,
                                           metadata=self._metadata)

    def _timeout(self, request: pb.SolveRequest | pb.HintRequest) -> float | None:
        """The call's deadline: --deadline, else the budget and a little room to send the
        answer (none for a budget without seconds)."""
        if self._deadline is not None:
            return self._deadline
        seconds = request.budget.seconds
        return seconds + _ROOM if seconds > 0 else None

    def in_chunks(self, items: list[int], chunk: int,
                  call: Callable[[list[int]], Iterable[tuple[int, T]]]) -> Iterator[T]:
        """`call` (a stream of (item, answer)) over `items`, at most `chunk` items a call,
        answers as they arrive. Two calls per replica run at once: round_robin spreads
        them, and each replica has its next call while the last one's tail drains. gRPC
        resends a call only before its first answer; a stream cut off later (its replica
        gone: UNAVAILABLE, or CANCELLED when a stopping replica's last answers were not
        all read within its stop) is sent again here with the items it has not answered."""
        chunks = [items[start:start + chunk] for start in range(0, len(items), chunk)]
        # (answer,), a thread's error for the reader to raise, or None: a chunk is done
        answers: queue.SimpleQueue[tuple[T] | BaseException | None] = queue.SimpleQueue()
        stop = threading.Event()  # the reader is gone: the other chunks end

        def answer(left: list[int]) -> None:
            try:
                while left:
                    done: set[int] = set()
                    try:
                        for item, found in call(left):
                            if stop.is_set():
                                return
                            done.add(item)
                            answers.put((found,))
                        return
                    except grpc.RpcError as error:
                        if error.code() not in _CUT or not done or stop.is_set():
                            raise  # UNAVAILABLE before any answer: gRPC's retries spent
                    left = [item for item in left if item not in done]
            except BaseException as error:
                answers.put(error)
            finally:
                answers.put(None)

        # not `with`: its exit would wait for streams that only close() ends
        threads = ThreadPoolExecutor(max(1, min(len(chunks), 2 * replicas(self._target))))
        reachable = _Reachable(self._channel)
        try:
            for part in chunks:
                threads.submit(answer, part)
            running = len(chunks)
            while running:
                try:
                    got = answers.get(timeout=_LOOK_SECONDS)
                except queue.Empty:
                    if reachable.down_for() >= _UNREACHABLE_SECONDS:
                        self._channel.close()  # ends the streams left waiting
                        raise Unreachable(_UNREACHABLE_SECONDS) from None
                    continue
                if got is None:
                    running -= 1
                elif isinstance(got, BaseException):
                    raise got
                else:
                    yield got[0]
        finally:
            reachable.close()
            stop.set()
            threads.shutdown(wait=False, cancel_futures=True)


# how a stream ends that its replica cut off after some answers: sent again, for the rest
_CUT = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)


class Unreachable(grpc.RpcError):
    """UNAVAILABLE: no server of the target has been reachable for a while."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self._seconds = seconds

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.UNAVAILABLE

    def details(self) -> str:
        return (f"no server has been reachable for {self._seconds:g} s (the results "
                "received are written: a run again with the same --out goes on from them)")


class _Reachable:
    """How long the channel has had no server to send to (any state but READY), for a
    batch that waits for answers."""

    def __init__(self, channel: grpc.Channel) -> None:
        self._channel = channel
        self._since: float | None = None
        channel.subscribe(self._changed)

    def _changed(self, state: grpc.ChannelConnectivity) -> None:
        if state is grpc.ChannelConnectivity.READY:
            self._since = None
        elif self._since is None:
            self._since = time.monotonic()

    def down_for(self) -> float:
        since = self._since
        return 0.0 if since is None else time.monotonic() - since

    def close(self) -> None:
        self._channel.unsubscribe(self._changed)


def channel_target(server: str) -> str:
    """--server as a gRPC target. gRPC's own (dns:///HOST:PORT, ipv4:ADDR:PORT,...,
    ipv6:[ADDR]:PORT,..., unix:PATH) is checked; HOST:PORT is left to gRPC's resolver;
    a list HOST:PORT,HOST:PORT, which gRPC does not take, becomes the ipv4: (or ipv6:)
    target of its hosts' addresses. Anything else is refused in one line naming it."""
    try:
        scheme, colon, rest = server.partition(":")
        if server.startswith(_PASSED):
            if not rest:
                raise ValueError("it names no socket")
            return server
        if colon and scheme in ("ipv4", "ipv6"):
            version = 4 if scheme == "ipv4" else 6
            return _addresses(version, [_literal(item, version) for item in rest.split(",")])
        if colon and scheme == "dns":
            _host_port(_dns_name(rest))
            return server
        items = [_host_port(item) for item in server.split(",")]
        return server if len(items) == 1 else _resolved(items)
    except ValueError as error:
        raise InvalidInput(f"bad --server {server!r}: {error} (it takes a gRPC target "
                           f"or HOST:PORT list, such as {_EXAMPLES})") from None


def replicas(target: str) -> int:
    """The addresses `target` names, or its host resolves to now (of one family): the
    replicas a batch keeps busy. 1 when they cannot be counted."""
    scheme, _, rest = target.partition(":")
    if scheme in ("ipv4", "ipv6"):
        return len(rest.split(","))
    if target.startswith(_PASSED):
        return 1
    if scheme == "dns":
        target = _dns_name(rest)
    try:
        host, port = _host_port(target)
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (ValueError, OSError):
        return 1
    by_family: dict[int, set[str]] = {}
    for family, _, _, _, address in found:
        by_family.setdefault(family, set()).add(str(address[0]))
    return max((len(addresses) for addresses in by_family.values()), default=1)


def _dns_name(rest: str) -> str:
    """HOST:PORT of a dns: target's rest, `//AUTHORITY/HOST:PORT` or `HOST:PORT`."""
    return rest[2:].partition("/")[2] if rest.startswith("//") else rest


def _host_port(text: str) -> tuple[str, int]:
    """HOST:PORT, or [IPv6]:PORT, as (host, port)."""
    host, colon, port = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not colon or not (_HOST.fullmatch(host) or _is_address(host)):
        raise ValueError(f"{text!r} is not HOST:PORT")
    number = read_number(port)
    if number is None or not 0 < number < 65536:
        raise ValueError(f"{text!r} has no port 1-65535")
    return host, number


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _literal(item: str, version: int) -> tuple[str, int]:
    """ADDR:PORT of an ipv4: or ipv6: target, its address of that IP version."""
    host, port = _host_port(item)
    if not _is_address(host) or ipaddress.ip_address(host).version != version:
        raise ValueError(f"{host!r} is not an IPv{version} address")
    return host, port


def _resolved(items: list[tuple[str, int]]) -> str:
    """The ipv4: target of every item's IPv4 addresses, or else the ipv6: one of their
    IPv6 addresses (a gRPC target holds one family)."""
    found: list[list[tuple[int, str, int]]] = []
    for host, port in items:
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as error:
            raise ValueError(f"cannot resolve {host!r}: {error.strerror}") from None
        found.append([(family, str(address[0]), port) for family, _, _, _, address in infos])
    for family, version in ((socket.AF_INET, 4), (socket.AF_INET6, 6)):
        if all(any(f == family for f, _, _ in addresses) for addresses in found):
            chosen = [(host, port) for addresses in found
                      for f, host, port in addresses if f == family]
            return _addresses(version, list(dict.fromkeys(chosen)))
    raise ValueError("its hosts have no IP version in common")


def _addresses(version: int, addresses: list[tuple[str, int]]) -> str:
    if version == 4:
        return "ipv4:" + ",".join(f"{host}:{port}" for host, port in addresses)
    return "ipv6:" + ",".join(f"[{host}]:{port}" for host, port in addresses)

