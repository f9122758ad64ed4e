"""Searches run in worker processes (not threads: the GIL), one job at a time each.

A job is a small picklable value that runs its own search, so one pool serves every
game and kind of search. A caller waits for an idle worker only while the queue has
room: past it the call is refused at once (Overloaded). A caller whose client has gone
sets the worker's cancel event; the search asks about it as often as it reads the clock
(every 256 nodes, or every node of a costly search) and ends with UNKNOWN, and the
worker takes the next job.
"""

from __future__ import annotations

import ctypes
import multiprocessing as mp
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from typing import Protocol, TypeVar

from solver.beleaguered import Algorithm, Mode, Position, Solution, solve
from solver.budget import Budget, SearchStats, Status
from solver.farbduell import hints as farbduell_hints
from solver.farbduell import puzzles as farbduell_puzzles
from solver.farbduell.chains import Chain, best_chain
from solver.farbduell.engine import State as FarbduellState
from solver.ffkingdom import State
from solver.ffkingdom.hints import Hint, Settings, hint
from solver.ffkingdom.puzzles import PuzzleAnswer, solve_puzzle
from solver.stronghold import plan as stronghold_plan
from solver.stronghold import questions as stronghold_questions
from solver.stronghold import search as stronghold_search
from solver.stronghold.position import Position as StrongholdPosition

_POLL_SECONDS = 0.01


class Overloaded(Exception):
    """Every worker is busy and the queue is full."""


class WorkerLost(Exception):
    """A worker process died (killed, out of memory); it has been replaced."""


R = TypeVar("R", covariant=True)


class Job(Protocol[R]):
    """A search to run in a worker: a frozen dataclass with a `budget` field (without
    `stop`: the worker adds its own cancel event; the pool sets the seconds left)."""

    budget: Budget

    def run(self, budget: Budget) -> R:
        """The search's answer within `budget`."""

    def gave_up(self, seconds: float) -> R:
        """The UNKNOWN answer when the time or the client ran out before a worker was free."""


@dataclass(frozen=True)
class SolveJob:
    """A Beleaguered Fortress solve."""

    position: Position
    mode: Mode
    algorithm: Algorithm
    budget: Budget

    def run(self, budget: Budget) -> Solution:
        return solve(self.position, self.mode, self.algorithm, budget)

    def gave_up(self, seconds: float) -> Solution:
        return Solution(Status.UNKNOWN, False, (), SearchStats(0, seconds, 0))


@dataclass(frozen=True)
class PuzzleJob:
    """A Fortress Fight Kingdom puzzle: win this turn, or force a win within `turns`."""

    state: State
    turns: int
    budget: Budget

    def run(self, budget: Budget) -> PuzzleAnswer:
        return solve_puzzle(self.state, self.turns, budget)

    def gave_up(self, seconds: float) -> PuzzleAnswer:
        return PuzzleAnswer(Status.UNKNOWN, None, (), False, SearchStats(0, seconds, 0))


@dataclass(frozen=True)
class HintJob:
    """A Fortress Fight Kingdom hint for the player to move."""

    state: State
    settings: Settings
    seed: int
    budget: Budget

    def run(self, budget: Budget) -> Hint:
        return hint(self.state, budget, self.settings, self.seed)

    def gave_up(self, seconds: float) -> Hint:
        return Hint(Status.UNKNOWN, None, None, (), (), SearchStats(0, seconds, 0))


@dataclass(frozen=True)
class ChainJob:
    """A Farbduell go-out chain. CP-SAT takes only the budget's seconds: a cancelled
    chain runs until they are spent (a chain takes milliseconds)."""

    state: FarbduellState
    objective: str
    budget: Budget

    def run(self, budget: Budget) -> Chain:
        return best_chain(self.state, self.objective, budget)

    def gave_up(self, seconds: float) -> Chain:
        return Chain(Status.UNKNOWN, False, (), 0, 0, False, SearchStats(0, seconds, 0))


@dataclass(frozen=True)
class FarbduellPuzzleJob:
    """A Farbduell puzzle: force a win within `turns`, every card known."""

    state: FarbduellState
    turns: int
    budget: Budget

    def run(self, budget: Budget) -> farbduell_puzzles.PuzzleAnswer:
        return farbduell_puzzles.solve_puzzle(self.state, self.turns, budget)

    def gave_up(self, seconds: float) -> farbduell_puzzles.PuzzleAnswer:
        return farbduell_puzzles.PuzzleAnswer(Status.UNKNOWN, None, (),
                                              SearchStats(0, seconds, 0))


@dataclass(frozen=True)
class FarbduellHintJob:
    """A Farbduell hint for the player to move."""

    state: FarbduellState
    settings: farbduell_hints.Settings
    seed: int
    budget: Budget

    def run(self, budget: Budget) -> farbduell_hints.Hint:
        return farbduell_hints.hint(self.state, budget, self.settings, self.seed)

    def gave_up(self, seconds: float) -> farbduell_hints.Hint:
        return farbduell_hints.Hint(Status.UNKNOWN, None, None, (), SearchStats(0, seconds, 0))


@dataclass(frozen=True)
class StrongholdPlanJob:
    """A Stronghold plan: the best assignment of the attacker to move at its action step
    (`position` is after `begin_turn`), by the threat bound or, `exact`, against the
    defender's best reply. CP-SAT takes only the budget's seconds: a cancelled plan runs
    until they are spent."""

    position: StrongholdPosition
    exact: bool
    budget: Budget

    def run(self, budget: Budget) -> stronghold_plan.Plan:
        plan = (stronghold_plan.best_assignment_exact if self.exact
                else stronghold_plan.best_assignment)
        return plan(self.position, budget)

    def gave_up(self, seconds: float) -> stronghold_plan.Plan:
        return stronghold_plan.Plan(Status.UNKNOWN, "UNKNOWN", False, {}, (), None,
                                    SearchStats(0, seconds, 0))


@dataclass(frozen=True)
class StrongholdClearJob:
    """The fewest turns for the attackers to clear the Stronghold against a defender
    policy ("passive" or "greedy") by `method` ("cpsat" or "search"), or, `race`,
    whether the defender reaches its target first."""

    position: StrongholdPosition
    race: bool
    defender: str
    max_turns: int
    method: str
    budget: Budget

    def run(self, budget: Budget) -> stronghold_questions.Race | stronghold_search.Outcome:
        question = stronghold_questions.race if self.race else stronghold_questions.clear
        return question(self.position, self.defender, budget, self.max_turns, self.method)

    def gave_up(self, seconds: float) -> stronghold_questions.Race | stronghold_search.Outcome:
        outcome = stronghold_search.Outcome(None, None, None, False, (),
                                            SearchStats(0, seconds, 0))
        return stronghold_questions.Race(None, None, False, outcome) if self.race else outcome


def _work(connection: Connection, cancel: Event) -> None:
    """A worker process: run each job received until told to stop (None)."""
    while (job := connection.recv()) is not None:
        try:
            connection.send(job.run(replace(job.budget, stop=cancel.is_set)))
        except Exception as error:  # a bug must not take the worker down with it
            connection.send(error)
        _give_back_memory()


def _give_back_memory() -> None:
    """Return the freed tables of the last search to the system, so that a worker's
    size is that of its current search, not the largest it ever ran (glibc only)."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


class _Worker:
    def __init__(self, context: mp.context.BaseContext) -> None:
        self.connection, child = context.Pipe()
        self.cancel = context.Event()
        self.process = context.Process(target=_work, args=(child, self.cancel), daemon=True)
        self.process.start()


class WorkerPool:
    def __init__(self, workers: int, queue_size: int) -> None:
        self.workers = workers
        self.queue_size = queue_size
        self._context = mp.get_context("spawn")  # no fork after gRPC has started threads
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._all = [_Worker(self._context) for _ in range(workers)]
        for worker in self._all:
            self._idle.put(worker)
        self._admitted = threading.BoundedSemaphore(workers + queue_size)

    def run(self, job: Job[R], cancelled: Callable[[], bool], wait: bool = False) -> R:
        """Run `job` in a worker. With `wait`, queue outside the limit (for streams that
        keep at most one job per worker in flight); otherwise raise Overloaded when the
        queue is full."""
        if wait:
            return self._run_admitted(job, cancelled)
        if not self._admitted.acquire(blocking=False):
            raise Overloaded(f"all {self.workers} workers busy and {self.queue_size} calls queued")
        try:
            return self._run_admitted(job, cancelled)
        finally:
            self._admitted.release()

    def _run_admitted(self, job: Job[R], cancelled: Callable[[], bool]) -> R:
        started = time.perf_counter()
        deadline = started + (job.budget.seconds or float("inf"))
        worker = None
        while worker is None:
            if cancelled() or time.perf_counter() >= deadline:
                return job.gave_up(time.perf_counter() - started)
            try:
                worker = self._idle.get(timeout=_POLL_SECONDS)
            except queue.Empty:
                pass
        if not worker.process.is_alive():  # died while idle (killed from outside)
            worker = self._replace(worker)
        try:
            worker.cancel.clear()
            remaining = max(deadline - time.perf_counter(), 0.001)
            worker.connection.send(replace(job, budget=replace(job.budget, seconds=remaining)))
            while not worker.connection.poll(_POLL_SECONDS):
                if cancelled():
                    worker.cancel.set()
            result = worker.connection.recv()
        except (EOFError, OSError):  # died during the job: this call fails, the next won't
            worker = self._replace(worker)
            raise WorkerLost("the search process died during this call") from None
        finally:
            self._idle.put(worker)
        if isinstance(result, Exception):
            raise result
        return result

    def _replace(self, dead: _Worker) -> _Worker:
        dead.process.join(timeout=0)
        worker = _Worker(self._context)
        self._all[self._all.index(dead)] = worker
        return worker

    def close(self) -> None:
        for worker in self._all:
            worker.cancel.set()
            try:
                worker.connection.send(None)
            except OSError:
                pass
        for worker in self._all:
            worker.process.join(timeout=2)
            if worker.process.is_alive():
                worker.process.terminate()
