"""The Solver RPCs: each request's position is read once, here (a typed message by its
game's handler, JSON by its game's reader), and the value goes to its game's handler
(service/frontends.py), which asks the game's questions through the pool.

Every call logs one JSON line (method, game, status, milliseconds, the client's address
and the request id: the client's `x-request-id`, or a fresh one, sent back in the
trailing metadata) and counts in the server's metrics (service/metrics.py); a call
refused or faulted by its client (bad input, no token, a full queue...) is logged at
the rate of service/refusals.py instead, so that a flood of them cannot fill the log. Bad input is
INVALID_ARGUMENT with the command line's message (bytes that are not the request message
too, see refuse_unreadable), a number out of range (a deal, worlds above the limit, a
batch or a count over --max-batch) OUT_OF_RANGE, as is a GenerateDeals whose range is
spent before its count is found (after the deals it found), a position of no supported
game UNIMPLEMENTED, a full queue or a token's or an address's calls at their limit
(--max-calls-per-token, --max-calls-per-address) RESOURCE_EXHAUSTED, a
search process that died UNAVAILABLE (it is replaced), as is a call that arrives while
the server stops; a call without a token the server accepts is UNAUTHENTICATED. A fault
of the code (a plug-in game's, say) is INTERNAL with a fixed message that names the game
alone: its words and traceback go to the log only.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import version
from threading import Condition, Event
from typing import Any, TypeVar

import grpc
from prometheus_client.registry import Collector

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.calls import Calls
from service.clients import AddressBusy, InFlight, Proxies
from service.frontends import (
    Deals,
    Handler,
    SafeMoves,
    Settings,
    Streams,
    front_end,
    named_game,
)
from service.generic.handler import described, described_hint, described_solve, questions
from service.messages import MAX_BATCH, at_most
from service.metrics import Metrics
from service.pool import Overloaded, WorkerLost, WorkerPool
from service.refusals import (
    ADDRESS_LIMIT,
    BAD_BYTES,
    BAD_INPUT,
    DRAINING,
    QUEUE_FULL,
    TOKEN_LIMIT,
    UNAUTHENTICATED,
    RateLimit,
    Refusals,
)
from service.tokens import TokenBusy, Tokens, Unauthenticated
from solver.budget import MAX_WORLDS, Budget
from solver.errors import IllegalMove, InvalidInput, OutOfRange
from solver.games import Game, find_game, games
from solver.json_text import strict_dumps

log = logging.getLogger("fortress_solver.calls")
# A fault's traceback, logged at most once every 10 s: a client may repeat its call.
faults = logging.getLogger("fortress_solver.faults")
faults.addFilter(RateLimit(10.0))
_SOLVER = pb.DESCRIPTOR.services_by_name["Solver"].full_name

T = TypeVar("T")

# After the grace, how long the searches cut short have to send their answers.
_CUT_SECONDS = 1.0

MAX_MOVES = 1000  # moves one Play applies: more than any game's whole play (Play is a view)


class UnsupportedGame(InvalidInput):
    """A position that names no game this server knows."""


class ShuttingDown(Exception):
    """A call that arrives while the server drains the calls in flight."""


class Unreadable(InvalidInput):
    """Bytes that are not the call's request message."""


class SolverServicer(pb_grpc.SolverServicer):
    def __init__(self, pool: WorkerPool, settings: Settings, limits: Budget,
                 tokens: Tokens | None = None, metrics: Metrics | None = None,
                 max_batch: int = MAX_BATCH, refusals: Refusals | None = None,
                 max_calls_per_address: int | None = None,
                 memory_mib: int | None = None, proxies: Proxies | None = None) -> None:
        """`settings`: what the games' handlers may keep (service/frontends.py).
        `tokens`: the bearer tokens every call must show; None: calls need none.
        `metrics`: where each finished call is counted; None: nowhere. `max_batch`: the
        most items of a SolveBatch and deals of a GenerateDeals (more: OUT_OF_RANGE).
        `refusals`: where refused calls are counted and logged at a bounded rate.
        `max_calls_per_address`: the calls one address may have in flight (None: as
        many as the pool takes, its workers and its queue). The pool is shared fairly
        between clients (service/clients.py): a token's holder where calls need one,
        else an address, whatever connections it opens. `memory_mib`: what the whole
        server may hold (serve --memory), as GetServerInfo tells it. `proxies`: those
        whose word on a call's client address is taken (none: the peer's address)."""
        self.pool = pool
        self.proxies = proxies or Proxies()
        self.memory_mib = memory_mib
        self.settings = settings
        self.limits = limits
        self.max_batch = max_batch
        self.tokens = tokens
        self.addresses: InFlight[str] = InFlight(max_calls_per_address
                                                 or pool.workers + pool.queue_size)
        self._in_flight = Condition()  # guards the two below
        self._running = 0  # calls in flight
        self._draining = False  # no new calls: the server is stopping
        self._stopping = Event()  # the grace is over: the searches left are cut short
        self.metrics = metrics
        self.refusals = refusals or Refusals()
        self._handlers = {game.name: front_end(game).handler(game, settings)
                          for game in games()}
        self._by_source = {field: (game, self._handlers[game.name]) for game in games()
                           for field in self._handlers[game.name].sources}
        self._streaming: list[tuple[Game[Any], Streams]] = [
            (game, handler) for game in games()
            if isinstance(handler := self._handlers[game.name], Streams)]

    def Solve(self, request: pb.SolveRequest, context: grpc.ServicerContext) -> pb.SolveResponse:
        with self._rpc("Solve", context) as call:
            game, handler, position = self._read(request.position, call)
            if described(request):
                return described_solve(game, request, position, self._calls(context, call),
                                       handler)
            return handler.solve(request, position, self._calls(context, call))

    def Hint(self, request: pb.HintRequest, context: grpc.ServicerContext) -> pb.HintResponse:
        with self._rpc("Hint", context) as call:
            game, handler, position = self._read(request.position, call)
            if described(request):
                return described_hint(game, request, position, self._calls(context, call),
                                      handler)
            return handler.hint(request, position, self._calls(context, call))

    def GetServerInfo(self, request: pb.GetServerInfoRequest,
                      context: grpc.ServicerContext) -> pb.ServerInfo:
        with self._rpc("GetServerInfo", context):
            return pb.ServerInfo(
                version=version("fortress-solver"),
                games=[self._info(game) for game in games()],
                limits=pb.Limits(
                    workers=self.pool.workers, queue=self.pool.queue_size,
                    max_seconds=self.limits.seconds or 0, max_nodes=self.limits.nodes or 0,
                    max_table_entries=self.limits.table_entries or 0,
                    cache_entries=self.settings.cache_entries, max_worlds=MAX_WORLDS,
                    max_batch=self.max_batch,
                    max_calls_per_address=self.addresses.max_calls,
                    max_workers_per_client=self.pool.max_per_owner,
                    memory_per_worker_mib=self.limits.memory_mib or 0,
                    cache_mib=self.settings.cache_mib, memory_mib=self.memory_mib or 0),
            )

    def SolveBatch(self, request: pb.SolveBatchRequest,
                   context: grpc.ServicerContext) -> Generator[pb.BatchResult, None, None]:
        with self._rpc("SolveBatch", context) as call:
            game, streams = self._streams(request.game)
            call.game = game.name
            yield from streams.solve_batch(request, self._calls(context, call))
            self._unless_cut_short()

    def GenerateDeals(self, request: pb.GenerateDealsRequest,
                      context: grpc.ServicerContext) -> Generator[pb.GeneratedDeal, None, None]:
        with self._rpc("GenerateDeals", context) as call:
            game, streams = self._streams(request.game)
            call.game = game.name
            yield from streams.generate_deals(request, self._calls(context, call))
            self._unless_cut_short()

    def Deal(self, request: pb.DealRequest, context: grpc.ServicerContext) -> pb.PlayResponse:
        with self._rpc("Deal", context) as call:
            game = find_game(request.game)
            handler = self._handlers[game.name]
            call.game = game.name
            if isinstance(handler, Deals):
                position = handler.deal(request)
            elif request.variant:
                raise InvalidInput(f"{game.name} has no variants: leave the variant empty")
            elif game.start is not None:
                position = game.start(request.seed)
            elif game.deal is not None:
                position = game.deal(request.seed)
            else:
                raise InvalidInput(f"{game.name} deals no games: send its position")
            return _view(game, handler, position)

    def Play(self, request: pb.PlayRequest, context: grpc.ServicerContext) -> pb.PlayResponse:
        with self._rpc("Play", context) as call:
            game, handler, position = self._read(request.position, call)  # no moves: shown
            seat = game.to_move(position) if game.to_move is not None else 0
            at_most(request.moves, MAX_MOVES, "moves")
            if request.moves:
                if game.play is None:
                    raise InvalidInput(f"{game.name} takes no moves here")
                for move in request.moves:
                    position = game.play(position, move)
            replies: tuple[tuple[int, str], ...] = ()
            if request.replies:
                position, replies = game.replies(position, seat)
            return _view(game, handler, position, replies)

    @contextmanager
    def _rpc(self, method: str, context: grpc.ServicerContext,
             game: str | None = None) -> Iterator[_Call]:
        """The call admitted by its token (when the server asks for one) and counted in
        flight while the server is not draining, inside the mapping of errors to status
        codes and the call's log line."""
        with _rpc(method, context, game, self.metrics, self.refusals) as call:
            with self._in_flight:
                if self._draining:
                    raise ShuttingDown("the server is shutting down: send the call again, "
                                       "to another replica")
                self._running += 1
            address = self.proxies.client(context.peer(), context.invocation_metadata() or ())
            try:
                with self.addresses.hold(address, lambda most: AddressBusy(address, most)):
                    if self.tokens is None:
                        call.client = address
                        yield call
                    else:
                        with self.tokens.admit(context.invocation_metadata()) as token:
                            call.client = "token " + token.hex()[:16]
                            yield call
            finally:
                with self._in_flight:
                    self._running -= 1

    def refuse_unreadable(self, method: str, reason: str,
                          context: grpc.ServicerContext) -> None:
        """Refuse a call whose bytes are not its request (INVALID_ARGUMENT), after the
        token check and with the log line every call has."""
        with self._rpc(method, context):
            raise Unreadable(reason)

    def drain(self, grace: float, hurry: Event,
              refusing: Callable[[], None] = lambda: None) -> None:
        """Refuse new calls (UNAVAILABLE), say so (`refusing`), and wait up to `grace`
        seconds for the calls in flight to finish, or until `hurry` is set (a second
        signal); then cut the searches still running short, so that every call answers
        what it has (UNKNOWN) while the faces are still open, and wait up to
        _CUT_SECONDS for those answers."""
        with self._in_flight:
            self._draining = True
        refusing()
        with self._in_flight:
            self._wait_for_calls(time.monotonic() + grace, hurry)
        self._stopping.set()
        with self._in_flight:
            self._wait_for_calls(time.monotonic() + _CUT_SECONDS, Event())

    def _wait_for_calls(self, deadline: float, hurry: Event) -> None:
        """Wait (holding `_in_flight`) until no call is in flight, `deadline` or `hurry`."""
        while self._running and not hurry.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._in_flight.wait(min(left, 0.05))

    def _unless_cut_short(self) -> None:
        """A stream the server's stop cut short ends UNAVAILABLE, not as if complete."""
        if self._stopping.is_set():
            raise ShuttingDown("the server stopped before this stream's end: send the "
                               "call again for the items it did not answer, to another "
                               "replica")

    def collectors(self) -> list[Collector]:
        """The games' own metrics."""
        return [collector for handler in self._handlers.values()
                for collector in handler.collectors()]

    def _calls(self, context: grpc.ServicerContext, call: _Call) -> Calls:
        return Calls(self.pool, context, self.limits, self.max_batch, self._stopping,
                     call.client)

    def _info(self, game: Game[Any]) -> pb.GameInfo:
        """What its handler says of a game, and the questions its descriptor asks."""
        info = self._handlers[game.name].info()
        info.questions.extend(questions(game))
        return info

    def _read(self, source: pb.PositionSource, call: _Call) -> tuple[Game[Any], Handler, Any]:
        """The position's game, its handler and the position, read once: JSON by the
        game's reader, a typed message by the handler of its field. The call names its
        game as soon as it is known, so that a refused position's log line does too."""
        field = source.WhichOneof("source")
        if field == "json":
            game, data = named_game(source.json.encode(), "position.json")
            call.game = game.name
            return game, self._handlers[game.name], game.from_json(data)
        if field not in self._by_source:
            raise UnsupportedGame("position names no game this server supports (set "
                                  f"{', '.join(self._by_source)} or json)")
        game, handler = self._by_source[field]
        call.game = game.name
        return game, handler, handler.position(source)

    def _streams(self, name: str) -> tuple[Game[Any], Streams]:
        """The game a stream names, else the one game whose handler streams."""
        streaming = self._streaming
        if name:
            game = find_game(name)
            found = next((handler for other, handler in streaming if other is game), None)
            if found is None:
                raise UnsupportedGame(f"{game.name} numbers no deals to stream")
            return game, found
        if len(streaming) != 1:
            raise UnsupportedGame("name the game whose deals to stream (SolveBatchRequest.game)"
                                  if streaming else "no game of this server numbers its deals")
        return streaming[0]


def _view(game: Game[Any], handler: Handler, position: Any,
          replies: tuple[tuple[int, str], ...] = ()) -> pb.PlayResponse:
    """A position as a player sees it: its message, its JSON, its picture, what may be
    played (and what its solver would play at once), the bots' replies and their seats,
    who is to move and who has won."""
    view = pb.PlayResponse(
        game=game.name, position=handler.source(position),
        position_json=strict_dumps(game.to_json(position)),
        picture=game.picture(position), replies=[move for _, move in replies],
        reply_seats=[seat for seat, _ in replies],
        legal_moves=game.moves(position) if game.moves is not None else (),
        safe_moves=_safe_moves(handler, position))
    if game.to_move is not None:
        view.to_move = game.to_move(position)
    won = game.winner(position) if game.winner is not None else None
    if won is not None:
        view.winner = won
        view.win_reason = (game.win_reason and game.win_reason(position)) or ""
    return view


def _safe_moves(handler: Handler, position: Any) -> tuple[str, ...]:
    """The moves home the solver makes at once, where the game has them (none once won)."""
    return handler.safe_moves(position) if isinstance(handler, SafeMoves) else ()


_CODES: list[tuple[type[Exception], grpc.StatusCode]] = [
    (OutOfRange, grpc.StatusCode.OUT_OF_RANGE),
    (UnsupportedGame, grpc.StatusCode.UNIMPLEMENTED),
    (InvalidInput, grpc.StatusCode.INVALID_ARGUMENT),
    (IllegalMove, grpc.StatusCode.INVALID_ARGUMENT),
    (Overloaded, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (WorkerLost, grpc.StatusCode.UNAVAILABLE),
    (ShuttingDown, grpc.StatusCode.UNAVAILABLE),
    (Unauthenticated, grpc.StatusCode.UNAUTHENTICATED),
    (TokenBusy, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (AddressBusy, grpc.StatusCode.RESOURCE_EXHAUSTED),
]
_HANDLED = tuple(error for error, _ in _CODES)
# bytes of a status message as sent: a client takes 8 KiB of trailing metadata by
# default, which holds the status, its message and the x-request-id beside it
MAX_DETAILS = 7_500


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
    # whom the pool shares its workers between: a token's holder where calls show one,
    # else an address
    client: str = ""


# What each refusal's line is logged as (service/refusals.py), the first kind that fits.
_CAUSES: list[tuple[type[Exception], str]] = [
    (Overloaded, QUEUE_FULL),
    (TokenBusy, TOKEN_LIMIT),
    (AddressBusy, ADDRESS_LIMIT),
    (Unauthenticated, UNAUTHENTICATED),
    (ShuttingDown, DRAINING),
    (Unreadable, BAD_BYTES),
    (InvalidInput, BAD_INPUT),
    (IllegalMove, BAD_INPUT),
]


@contextmanager
def _rpc(method: str, context: grpc.ServicerContext, game: str | None,
         metrics: Metrics | None, refusals: Refusals) -> Iterator[_Call]:
    """Map solver errors to status codes, log the call's one line (a refusal's at the
    refusals' rate) and count it."""
    started = time.perf_counter()
    code = grpc.StatusCode.OK
    cause = None
    call = _Call(game)
    request_id = _request_id(context)
    context.set_trailing_metadata((("x-request-id", request_id),))
    try:
        yield call
    except _HANDLED as error:
        code = next(code for kind, code in _CODES if isinstance(error, kind))
        cause = next((cause for kind, cause in _CAUSES if isinstance(error, kind)), None)
        context.abort(code, details(error))
    except Exception:  # a fault of the server's or a game's code: its words stay in the log
        code = grpc.StatusCode.INTERNAL
        failed = "the server" if call.game is None else f"the game {call.game}"
        faults.exception("%s failed on a %s call (request %s)", failed, method, request_id)
        context.abort(code, f"{failed} failed on this call; the server log has the details")
    finally:
        if code is grpc.StatusCode.OK and not context.is_active():  # no answer reached it
            code = (grpc.StatusCode.DEADLINE_EXCEEDED if context.time_remaining() == 0
                    else grpc.StatusCode.CANCELLED)
        seconds = time.perf_counter() - started
        line = {"method": method, "game": call.game, "status": code.name,
                "ms": round(seconds * 1000, 3), "peer": context.peer(),
                "request_id": request_id}
        if cause is None:
            log.info(json.dumps(line))
        else:
            refusals.log(cause, line)
        if metrics is not None:
            metrics.observe(method, call.game, code.name, seconds)


def _request_id(context: grpc.ServicerContext) -> str:
    """The client's `x-request-id`, to find its call in the log, or a fresh one."""
    sent = next((value for key, value in context.invocation_metadata()
                 if key == "x-request-id" and value), None)
    return str(sent) if sent is not None else uuid.uuid4().hex
