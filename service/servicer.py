"""The Solver RPCs: each request goes to the converter of its position's game (the list
in service/games.py), which reads it and asks its game's questions through the pool.

Every call logs one JSON line (method, game, status, milliseconds). Bad input is
INVALID_ARGUMENT with the command line's message, a number out of range (a deal, worlds
above the limit) OUT_OF_RANGE, a position of no supported game UNIMPLEMENTED, a full
queue RESOURCE_EXHAUSTED, a search process that died UNAVAILABLE (it is replaced).
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, replace
from importlib.metadata import version
from threading import Event
from typing import Any, TypeVar

import grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.convert.common import MAX_WORLDS, budget_from_proto
from service.games import GAMES, Streams, Wire, find, read_any
from service.hint_cache import HintCache
from service.pool import Job, Overloaded, WorkerLost, WorkerPool
from solver.budget import Budget
from solver.errors import IllegalMove, InvalidInput, OutOfRange
from solver.games import Game, Question

log = logging.getLogger("fortress_solver.calls")

T = TypeVar("T")

_DEADLINE_MARGIN = 0.1  # seconds kept back to send an UNKNOWN answer before the deadline


class UnsupportedGame(InvalidInput):
    """A position that names no game this server knows."""


class SolverServicer(pb_grpc.SolverServicer):
    def __init__(self, pool: WorkerPool, cache: HintCache, limits: Budget) -> None:
        self.pool = pool
        self.cache = cache
        self.limits = limits
        served = [entry for entry in GAMES if entry.wire is not None]
        self._wires: dict[str, tuple[str, Wire]] = {
            source: (entry.game.name, entry.wire)
            for entry in served if entry.wire is not None for source in entry.wire.sources}
        self._infos = [entry.wire.info() for entry in served if entry.wire is not None]
        self._streams: tuple[str | None, Streams | None] = next(
            ((entry.game.name, entry.streams) for entry in GAMES if entry.streams is not None),
            (None, None))

    def Solve(self, request: pb.SolveRequest, context: grpc.ServicerContext) -> pb.SolveResponse:
        with _rpc("Solve", context) as call:
            call.game, wire = self._wire_of(request.position)
            return wire.solve(request, _Calls(self, context))

    def Hint(self, request: pb.HintRequest, context: grpc.ServicerContext) -> pb.HintResponse:
        with _rpc("Hint", context) as call:
            call.game, wire = self._wire_of(request.position)
            return wire.hint(request, _Calls(self, context))

    def GetServerInfo(self, request: pb.GetServerInfoRequest,
                      context: grpc.ServicerContext) -> pb.ServerInfo:
        with _rpc("GetServerInfo", context):
            return pb.ServerInfo(
                version=version("fortress-solver"),
                games=self._infos,
                limits=pb.Limits(
                    workers=self.pool.workers, queue=self.pool.queue_size,
                    max_seconds=self.limits.seconds or 0, max_nodes=self.limits.nodes or 0,
                    max_table_entries=self.limits.table_entries or 0,
                    cache_entries=self.cache.capacity, max_worlds=MAX_WORLDS),
            )

    def SolveBatch(self, request: pb.SolveBatchRequest,
                   context: grpc.ServicerContext) -> Generator[pb.BatchResult, None, None]:
        game, streams = self._streams
        with _rpc("SolveBatch", context, game):
            if streams is None:
                raise UnsupportedGame("no game of this server numbers its deals")
            yield from streams.solve_batch(request, _Calls(self, context))

    def GenerateDeals(self, request: pb.GenerateDealsRequest,
                      context: grpc.ServicerContext) -> Generator[pb.GeneratedDeal, None, None]:
        game, streams = self._streams
        with _rpc("GenerateDeals", context, game):
            if streams is None:
                raise UnsupportedGame("no game of this server numbers its deals")
            yield from streams.generate_deals(request, _Calls(self, context))

    def Deal(self, request: pb.DealRequest, context: grpc.ServicerContext) -> pb.PlayResponse:
        with _rpc("Deal", context) as call:
            game, wire = self._served(request.game)
            call.game = game.name
            if game.start is not None:
                position = game.start(request.seed)
            elif game.deal is not None:
                position = game.deal(request.seed)
            else:
                raise InvalidInput(f"{game.name} deals no games: send its position")
            return _view(game, wire, position)

    def Play(self, request: pb.PlayRequest, context: grpc.ServicerContext) -> pb.PlayResponse:
        with _rpc("Play", context) as call:
            call.game, wire = self._wire_of(request.position)
            game = find(call.game).game
            position = wire.position(request.position)  # with no moves: only shown
            seat = game.to_move(position) if game.to_move is not None else 0
            if request.moves:
                if game.play is None:
                    raise InvalidInput(f"{game.name} takes no moves here")
                for move in request.moves:
                    position = game.play(position, move)
            replies: tuple[str, ...] = ()
            if request.replies:
                position, replies = game.replies(position, seat)
            return _view(game, wire, position, replies)

    def _served(self, name: str) -> tuple[Game[Any], Wire]:
        entry = find(name)
        if entry.wire is None:
            raise UnsupportedGame(f"this server does not serve {entry.game.name}")
        return entry.game, entry.wire

    def _wire_of(self, source: pb.PositionSource) -> tuple[str, Wire]:
        """The game of the position and its converter; a position sent as JSON is read
        here and put back as its game's own message."""
        field = source.WhichOneof("source")
        if field == "json":
            game, position = read_any(source.json.encode(), "position.json")
            source.CopyFrom(self._served(game.name)[1].source(position))
            field = source.WhichOneof("source")
        if field not in self._wires:
            raise UnsupportedGame("position names no game this server supports (set "
                                  f"{', '.join(self._wires)} or json)")
        return self._wires[field]


def _view(game: Game[Any], wire: Wire, position: Any,
          replies: tuple[str, ...] = ()) -> pb.PlayResponse:
    """A position as a player sees it: its message, its JSON, its picture, what may be
    played, who is to move and who has won."""
    view = pb.PlayResponse(
        game=game.name, position=wire.source(position),
        position_json=json.dumps(game.to_json(position), ensure_ascii=False),
        picture=game.picture(position), replies=replies,
        legal_moves=game.moves(position) if game.moves is not None else ())
    if game.to_move is not None:
        view.to_move = game.to_move(position)
    won = game.winner(position) if game.winner is not None else None
    if won is not None:
        view.winner = won
    return view


class _Calls:
    """What one call lends its game's converter (service.games.Calls)."""

    def __init__(self, servicer: SolverServicer, context: grpc.ServicerContext) -> None:
        self._pool = servicer.pool
        self._context = context
        self.cache = servicer.cache
        self.limits = servicer.limits

    def ask(self, question: Question[Any, Any, Any], position: Any, options: Any,
            budget: pb.Budget) -> Any:
        job = Job(question, position, options, self._budget(budget))
        return self._pool.run(job, self._gone)

    def ask_many(self, jobs: Iterator[tuple[T, Question[Any, Any, Any], Any, Any]],
                 budget: Budget, enough: Callable[[], bool] = lambda: False
                 ) -> Iterator[tuple[T, Any]]:
        """Run jobs on every worker at once; yield (tag, answer) as each finishes."""
        stop = Event()

        def cancelled() -> bool:
            return stop.is_set() or self._gone()

        workers = self._pool.workers
        with ThreadPoolExecutor(workers) as executor:
            running: dict[Future[Any], T] = {}
            try:
                while True:
                    while len(running) < workers and not cancelled() and not enough():
                        item = next(jobs, None)
                        if item is None:
                            break
                        tag, question, position, options = item
                        job = Job(question, position, options, budget)
                        running[executor.submit(self._pool.run, job, cancelled, True)] = tag
                    if not running:
                        return
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in done:
                        yield running.pop(future), future.result()
            finally:
                stop.set()

    def _gone(self) -> bool:
        return not self._context.is_active()

    def _budget(self, message: pb.Budget) -> Budget:
        """The request's budget within the server's limits and the client's deadline."""
        budget = budget_from_proto(message, self.limits)
        remaining = self._context.time_remaining()
        if remaining is None:
            return budget
        room = max(remaining - max(_DEADLINE_MARGIN, remaining * 0.2), 0.001)
        return replace(budget, seconds=min(budget.seconds or math.inf, room))


_CODES: list[tuple[type[Exception], grpc.StatusCode]] = [
    (OutOfRange, grpc.StatusCode.OUT_OF_RANGE),
    (UnsupportedGame, grpc.StatusCode.UNIMPLEMENTED),
    (InvalidInput, grpc.StatusCode.INVALID_ARGUMENT),
    (IllegalMove, grpc.StatusCode.INVALID_ARGUMENT),
    (Overloaded, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (WorkerLost, grpc.StatusCode.UNAVAILABLE),
]
_HANDLED = tuple(error for error, _ in _CODES)
MAX_DETAILS = 8_000  # bytes of a status message as sent; gRPC refuses metadata over 16 KiB


def details(error: Exception) -> str:
    """The error's message as a status carries it: every fault while they fit, then how
    many more there are (an input can hold thousands of faults)."""
    problems = error.problems if isinstance(error, InvalidInput) else [str(error)]
    shown: list[str] = []
    size = 0
    for k, problem in enumerate(problems):
        cost = _sent_size(problem) + 2
        if size + cost > MAX_DETAILS - 40:
            left = len(problems) - k
            return "; ".join(shown + [f"and {left} more fault{'s' * (left != 1)}"])
        shown.append(problem)
        size += cost
    return "; ".join(shown)


def _sent_size(text: str) -> int:
    """Bytes of `text` in a grpc-message header: printable ASCII as it is, every other
    byte of its UTF-8 percent-encoded."""
    return sum(1 if 0x20 <= byte <= 0x7E and byte != 0x25 else 3 for byte in text.encode())


@dataclass
class _Call:
    game: str | None  # the game it is about, for its log line; None for no one game


@contextmanager
def _rpc(method: str, context: grpc.ServicerContext,
         game: str | None = None) -> Iterator[_Call]:
    """Map solver errors to status codes and log the call's one line."""
    started = time.perf_counter()
    code = grpc.StatusCode.OK
    call = _Call(game)
    try:
        yield call
    except _HANDLED as error:
        code = next(code for kind, code in _CODES if isinstance(error, kind))
        context.abort(code, details(error))
    except Exception:
        code = grpc.StatusCode.INTERNAL
        raise
    finally:
        if code is grpc.StatusCode.OK and not context.is_active():
            code = grpc.StatusCode.CANCELLED
        log.info(json.dumps({"method": method, "game": call.game, "status": code.name,
                             "ms": round((time.perf_counter() - started) * 1000, 3)}))
