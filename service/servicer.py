"""The Solver RPCs: requests to solver values, work to the pool, answers back.

Solve and Hint take a position of any game: Beleaguered Fortress positions are
solved (and hints cached), Fortress Fight Kingdom positions go to its puzzles and
hints, Farbduell positions to its puzzles, go-out chains and hints, Stronghold positions
to its fewest-turns search and race (Solve) and its best assignment (Hint). Every call
logs one JSON line (method, game, status, milliseconds). Bad input is INVALID_ARGUMENT
with the command line's message, a number out of range (a deal, worlds above the limit)
OUT_OF_RANGE, a position of no supported
game UNIMPLEMENTED, a full queue RESOURCE_EXHAUSTED, a search process that died
UNAVAILABLE (it is replaced).
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import replace
from importlib.metadata import version
from itertools import chain
from threading import Event

import grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.convert import farbduell, stronghold
from service.convert import ffkingdom as ffk
from service.convert.beleaguered import (
    algorithm_from_proto,
    budget_from_proto,
    hint_to_proto,
    mode_from_proto,
    move_to_proto,
    position_from_proto,
    position_to_proto,
    solution_to_proto,
)
from service.hint_cache import HintCache
from service.pool import (
    ChainJob,
    FarbduellHintJob,
    FarbduellPuzzleJob,
    HintJob,
    Overloaded,
    PuzzleJob,
    SolveJob,
    StrongholdClearJob,
    StrongholdPlanJob,
    WorkerLost,
    WorkerPool,
)
from solver.beleaguered import MAX_DEAL, Algorithm, Mode, Position, Solution, deal, hint_from
from solver.beleaguered.position import GAME
from solver.budget import Budget, Status
from solver.errors import IllegalMove, InvalidInput, OutOfRange
from solver.farbduell.engine import GAME as FARBDUELL_GAME
from solver.farbduell.hints import Settings as FarbduellSettings
from solver.farbduell.tables import load_tables
from solver.ffkingdom import GAME as FFK_GAME
from solver.ffkingdom import load_rules
from solver.ffkingdom.hints import Settings
from solver.ffkingdom.puzzles import check_complete
from solver.stronghold.policies import POLICIES
from solver.stronghold.position import Position as StrongholdPosition
from solver.stronghold.questions import METHODS
from solver.stronghold.search import MAX_TURNS
from solver.stronghold.turns import begin_turn

log = logging.getLogger("fortress_solver.calls")

_DEADLINE_MARGIN = 0.1  # seconds kept back to send an UNKNOWN answer before the deadline
MAX_WORLDS = 1000  # each world is a copy of the position: a cap on one call's memory
FFK_MODES = ("win-this-turn", "forced-win", "hint")
FARBDUELL_MODES = ("forced-win", "chain", "hint")
STRONGHOLD_GAME = "stronghold"
STRONGHOLD_MODES = ("plan", "plan-exact", "clear", "race")
STRONGHOLD_QUESTIONS = ("clear", "race")
_GAMES = {"beleaguered_deal": GAME, "beleaguered": GAME, "ffkingdom": FFK_GAME,
          "farbduell": FARBDUELL_GAME, "stronghold": STRONGHOLD_GAME}


class UnsupportedGame(InvalidInput):
    """A position that names no game this server knows."""


class SolverServicer(pb_grpc.SolverServicer):
    def __init__(self, pool: WorkerPool, cache: HintCache, limits: Budget) -> None:
        self.pool = pool
        self.cache = cache
        self.limits = limits
        self.rules = load_rules()
        self.tables = load_tables()  # the Farbduell tables the command line offers

    # ------------------------------------------------------------ unary calls

    def Solve(self, request: pb.SolveRequest, context: grpc.ServicerContext) -> pb.SolveResponse:
        with _rpc("Solve", context, _game(request.position)):
            if request.position.HasField("ffkingdom"):
                return self._ffk_puzzle(request, context)
            if request.position.HasField("farbduell"):
                return self._farbduell_solve(request, context)
            if request.position.HasField("stronghold"):
                return self._stronghold_solve(request, context)
            position = _position(request.position)
            mode = mode_from_proto(request.mode)
            job = SolveJob(position, mode, algorithm_from_proto(request.algorithm),
                           self._budget(request.budget, context))
            solution = self.pool.run(job, _gone(context))
            if mode is Mode.OPTIMAL:
                self.cache.remember(position, solution)
            return solution_to_proto(solution)

    def Hint(self, request: pb.HintRequest, context: grpc.ServicerContext) -> pb.HintResponse:
        with _rpc("Hint", context, _game(request.position)):
            if request.position.HasField("ffkingdom"):
                return self._ffk_hint(request, context)
            if request.position.HasField("farbduell"):
                return self._farbduell_hint(request, context)
            if request.position.HasField("stronghold"):
                return self._stronghold_plan(request, context)
            position = _position(request.position)
            known = self.cache.get(position)
            if known is not None:
                return hint_to_proto(known, cached=True)
            job = SolveJob(position, Mode.OPTIMAL, Algorithm.ASTAR,
                           self._budget(request.budget, context))
            solution = self.pool.run(job, _gone(context))
            self.cache.remember(position, solution)
            return hint_to_proto(hint_from(solution))

    def _ffk_puzzle(self, request: pb.SolveRequest,
                    context: grpc.ServicerContext) -> pb.SolveResponse:
        loaded = ffk.position_from_proto(request.position.ffkingdom, self.rules)
        turns = request.turns or 1
        check_complete(loaded, turns)
        job = PuzzleJob(loaded.state, turns, self._budget(request.budget, context))
        return ffk.puzzle_to_proto(self.pool.run(job, _gone(context)))

    def _ffk_hint(self, request: pb.HintRequest,
                  context: grpc.ServicerContext) -> pb.HintResponse:
        state = ffk.position_from_proto(request.position.ffkingdom, self.rules).state
        worlds = _worlds(request.worlds, Settings().worlds)
        job = HintJob(state, Settings(worlds=worlds), request.seed,
                      self._budget(request.budget, context))
        return ffk.hint_to_proto(self.pool.run(job, _gone(context)))

    def _farbduell_solve(self, request: pb.SolveRequest,
                         context: grpc.ServicerContext) -> pb.SolveResponse:
        """The go-out chain when `chain` names an objective, else the puzzle."""
        state = farbduell.position_from_proto(request.position.farbduell, self.tables)
        budget = self._budget(request.budget, context)
        if request.chain:
            found = self.pool.run(ChainJob(state, request.chain, budget), _gone(context))
            return farbduell.chain_to_proto(found, state.to_move)
        job = FarbduellPuzzleJob(state, request.turns or 1, budget)
        return farbduell.puzzle_to_proto(self.pool.run(job, _gone(context)))

    def _farbduell_hint(self, request: pb.HintRequest,
                        context: grpc.ServicerContext) -> pb.HintResponse:
        state = farbduell.position_from_proto(request.position.farbduell, self.tables)
        worlds = _worlds(request.worlds, FarbduellSettings().worlds)
        job = FarbduellHintJob(state, FarbduellSettings(worlds=worlds), request.seed,
                               self._budget(request.budget, context))
        return farbduell.hint_to_proto(self.pool.run(job, _gone(context)))

    def _stronghold_solve(self, request: pb.SolveRequest,
                          context: grpc.ServicerContext) -> pb.SolveResponse:
        """The fewest turns to clear all nine, or the defender's race."""
        position = _stronghold_position(request.position)
        question = request.question or "clear"
        if question not in STRONGHOLD_QUESTIONS:
            raise InvalidInput(f"question must be one of {', '.join(STRONGHOLD_QUESTIONS)}, "
                               f"not {question!r}")
        defender = request.defender or "passive"
        if defender not in POLICIES:
            raise InvalidInput(f"defender must be one of {', '.join(sorted(POLICIES))}, "
                               f"not {defender!r}")
        method = request.method or "cpsat"
        if method not in METHODS:
            raise InvalidInput(f"method must be one of {', '.join(METHODS)}, not {method!r}")
        job = StrongholdClearJob(position, question == "race", defender,
                                 request.max_turns or MAX_TURNS, method,
                                 self._budget(request.budget, context))
        answer = self.pool.run(job, _gone(context))
        if question == "race":
            return stronghold.outcome_to_proto(answer.outcome, answer)
        return stronghold.outcome_to_proto(answer)

    def _stronghold_plan(self, request: pb.HintRequest,
                         context: grpc.ServicerContext) -> pb.HintResponse:
        """The best assignment of the attacker to move, after the hold step of its turn."""
        position = _stronghold_position(request.position)
        try:
            started = begin_turn(position)
        except IllegalMove as error:
            raise InvalidInput(str(error)) from None
        job = StrongholdPlanJob(started, request.exact, self._budget(request.budget, context))
        return stronghold.plan_to_proto(self.pool.run(job, _gone(context)))

    def GetServerInfo(self, request: pb.GetServerInfoRequest,
                      context: grpc.ServicerContext) -> pb.ServerInfo:
        with _rpc("GetServerInfo", context, None):
            return pb.ServerInfo(
                version=version("fortress-solver"),
                games=[pb.GameInfo(name=GAME, modes=[m.value for m in Mode],
                                   algorithms=[a.value for a in Algorithm], max_deal=MAX_DEAL),
                       pb.GameInfo(name=FFK_GAME, modes=FFK_MODES),
                       pb.GameInfo(name=FARBDUELL_GAME, modes=FARBDUELL_MODES),
                       pb.GameInfo(name=STRONGHOLD_GAME, modes=STRONGHOLD_MODES)],
                limits=pb.Limits(
                    workers=self.pool.workers, queue=self.pool.queue_size,
                    max_seconds=self.limits.seconds or 0, max_nodes=self.limits.nodes or 0,
                    max_table_entries=self.limits.table_entries or 0,
                    cache_entries=self.cache.capacity, max_worlds=MAX_WORLDS),
            )

    # ------------------------------------------------------------ streams

    def SolveBatch(self, request: pb.SolveBatchRequest,
                   context: grpc.ServicerContext) -> Iterator[pb.BatchResult]:
        with _rpc("SolveBatch", context, GAME):
            items = _batch_items(request)
            mode = mode_from_proto(request.mode, default=Mode.ANY)
            algorithm = algorithm_from_proto(request.algorithm)
            budget = budget_from_proto(request.budget, self.limits)
            jobs = ((tag, SolveJob(deal(item) if isinstance(item, int) else item,
                                   mode, algorithm, budget)) for tag, item in items)
            for (index, number), solution in self._stream(jobs, context):
                result = pb.BatchResult(index=index, result=solution_to_proto(solution))
                if number is not None:
                    result.deal = number
                yield result

    def GenerateDeals(self, request: pb.GenerateDealsRequest,
                      context: grpc.ServicerContext) -> Iterator[pb.GeneratedDeal]:
        with _rpc("GenerateDeals", context, GAME):
            first = request.first_deal if request.HasField("first_deal") else 1
            last = request.last_deal if request.HasField("last_deal") else MAX_DEAL
            _check_range(first, last)
            low = request.min_length if request.HasField("min_length") else 0
            high = request.max_length if request.HasField("max_length") else math.inf
            budget = budget_from_proto(request.budget, self.limits)
            jobs = ((number, SolveJob(deal(number), Mode.OPTIMAL, Algorithm.ASTAR, budget))
                    for number in range(first, last + 1))
            sent: list[int] = []
            for number, solution in self._stream(jobs, context,
                                                 enough=lambda: len(sent) >= request.count):
                if (solution.status is Status.SOLVED and solution.optimal
                        and low <= solution.length <= high and len(sent) < request.count):
                    sent.append(number)
                    yield pb.GeneratedDeal(deal=number, position=position_to_proto(deal(number)),
                                           length=solution.length,
                                           moves=[move_to_proto(m) for m in solution.moves])

    def _stream(self, jobs: Iterable[tuple[object, SolveJob]], context: grpc.ServicerContext,
                enough: Callable[[], bool] = lambda: False) -> Iterator[tuple[object, Solution]]:
        """Run jobs on every worker at once; yield (tag, solution) as each finishes."""
        stop = Event()
        gone = _gone(context)

        def cancelled() -> bool:
            return stop.is_set() or gone()

        with ThreadPoolExecutor(self.pool.workers) as executor:
            running: dict[Future[Solution], object] = {}
            jobs = iter(jobs)
            try:
                while True:
                    while len(running) < self.pool.workers and not cancelled() and not enough():
                        tag, job = next(jobs, (None, None))
                        if job is None:
                            break
                        running[executor.submit(self.pool.run, job, cancelled, True)] = tag
                    if not running:
                        return
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in done:
                        yield running.pop(future), future.result()
            finally:
                stop.set()

    def _budget(self, message: pb.Budget, context: grpc.ServicerContext) -> Budget:
        """The request's budget within the server's limits and the client's deadline."""
        budget = budget_from_proto(message, self.limits)
        remaining = context.time_remaining()
        if remaining is None:
            return budget
        room = max(remaining - max(_DEADLINE_MARGIN, remaining * 0.2), 0.001)
        return replace(budget, seconds=min(budget.seconds or math.inf, room))


def _position(source: pb.PositionSource) -> Position:
    kind = source.WhichOneof("source")
    if kind == "beleaguered_deal":
        return deal(source.beleaguered_deal)
    if kind == "beleaguered":
        return position_from_proto(source.beleaguered)
    raise UnsupportedGame("position names no game this server supports "
                          "(set beleaguered_deal, beleaguered, ffkingdom, farbduell "
                          "or stronghold)")


def _stronghold_position(source: pb.PositionSource) -> StrongholdPosition:
    """The position, refused when its game is over (nothing is left to plan or search)."""
    position = stronghold.position_from_proto(source.stronghold)
    if position.winner is not None:
        raise InvalidInput(f"the game is over: the {position.winner} won")
    return position


def _worlds(asked: int, default: int) -> int:
    """A hint's worlds: 0 means the game's default; above the limit is OUT_OF_RANGE."""
    worlds = asked or default
    if worlds > MAX_WORLDS:
        raise OutOfRange(f"worlds {worlds} is more than this server's limit of {MAX_WORLDS}")
    return worlds


def _game(source: pb.PositionSource) -> str | None:
    """The game of a position, for the log line; None when it names none."""
    return _GAMES.get(source.WhichOneof("source"))


def _check_range(first: int, last: int) -> None:
    if not 1 <= first <= last <= MAX_DEAL:
        raise OutOfRange(f"deal range {first}-{last} is not within 1..{MAX_DEAL} in order")


def _batch_items(request: pb.SolveBatchRequest) -> Iterator[tuple[tuple[int, int | None],
                                                                   int | Position]]:
    """Every item as ((index, deal number), the deal number or the position), made as
    needed; ranges and positions are checked (and refused) before any work starts."""
    positions = []
    for span in request.deals:
        _check_range(span.first, span.last)
    for k, message in enumerate(request.positions):
        try:
            positions.append(position_from_proto(message))
        except InvalidInput as error:
            raise InvalidInput(f"positions[{k}]: {error}") from None
    numbers = (n for span in request.deals for n in range(span.first, span.last + 1))
    for index, item in enumerate(chain(numbers, positions)):
        yield (index, item if isinstance(item, int) else None), item


def _gone(context: grpc.ServicerContext) -> Callable[[], bool]:
    return lambda: not context.is_active()


_CODES = [
    (OutOfRange, grpc.StatusCode.OUT_OF_RANGE),
    (UnsupportedGame, grpc.StatusCode.UNIMPLEMENTED),
    (InvalidInput, grpc.StatusCode.INVALID_ARGUMENT),
    (Overloaded, grpc.StatusCode.RESOURCE_EXHAUSTED),
    (WorkerLost, grpc.StatusCode.UNAVAILABLE),
]


@contextmanager
def _rpc(method: str, context: grpc.ServicerContext, game: str | None) -> Iterator[None]:
    """Map solver errors to status codes and log the call's one line (`game` is None for
    calls about no one game)."""
    started = time.perf_counter()
    code = grpc.StatusCode.OK
    try:
        yield
    except tuple(error for error, _ in _CODES) as error:
        code = next(code for kind, code in _CODES if isinstance(error, kind))
        context.abort(code, str(error))
    except Exception:
        code = grpc.StatusCode.INTERNAL
        raise
    finally:
        if code is grpc.StatusCode.OK and not context.is_active():
            code = grpc.StatusCode.CANCELLED
        log.info(json.dumps({"method": method, "game": game, "status": code.name,
                             "ms": round((time.perf_counter() - started) * 1000, 3)}))
