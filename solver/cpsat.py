"""CP-SAT under a Budget, the same way for every model: the seconds left of the budget
become CP-SAT's time limit, a fixed number of workers keeps answers reproducible, its
statuses become names and `solver.budget.Status`, and a budget's `stop`, or the process
grown past the budget's memory since the solves began, ends a solve within milliseconds
(a watcher thread calls `CpSolver.stop_search()`; CP-SAT's own `max_memory_in_mb` bounds
only its pure SAT solver).

Only the budget's seconds, memory and `stop` apply: CP-SAT counts no nodes a caller
could cap.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ortools.sat.python import cp_model

from solver.budget import Budget, Status
from solver.memory import Room

POLL_SECONDS = 0.01        # how often a running solve asks the budget's `stop`
UNLIMITED = Budget(seconds=None, nodes=None, table_entries=None)

CpStatus = Literal["OPTIMAL", "FEASIBLE", "INFEASIBLE", "MODEL_INVALID", "UNKNOWN"]
FOUND: tuple[CpStatus, ...] = ("OPTIMAL", "FEASIBLE")


def verdict(status: CpStatus) -> Status:
    """The honest verdict of a solve: a solution is SOLVED, a proof there is none
    UNSOLVABLE, and running out of time (or a model CP-SAT refuses) UNKNOWN."""
    if status in FOUND:
        return Status.SOLVED
    return Status.UNSOLVABLE if status == "INFEASIBLE" else Status.UNKNOWN


@dataclass(frozen=True)
class Solved:
    """One solve's status, and the solver that holds its solution's values."""

    status: CpStatus
    solver: cp_model.CpSolver

    @property
    def found(self) -> bool:
        return self.status in FOUND

    @property
    def optimal(self) -> bool:
        return self.status == "OPTIMAL"

    @property
    def verdict(self) -> Status:
        return verdict(self.status)

    def value(self, expression: cp_model.LinearExprT) -> int:
        return int(self.solver.value(expression))

    def boolean_value(self, literal: cp_model.LiteralT) -> bool:
        return bool(self.solver.boolean_value(literal))


class CpSat:
    """Solves that share one budget: each may spend the seconds the earlier ones left,
    and none starts once the time is up or `stop` says so; the memory is counted from
    the making of this, so that building the models counts too."""

    def __init__(self, budget: Budget = UNLIMITED, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError(f"CP-SAT needs at least one worker, got {workers}")
        self.budget = budget
        self.workers = workers
        self.started = time.perf_counter()
        self.room = budget.room()
        self.solves = 0
        self.branches = 0          # over every solve: what a search's nodes are to CP-SAT

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def stopped(self) -> bool:
        return self.budget.stop is not None and self.budget.stop()

    def seconds_left(self) -> float | None:
        """None without a time limit; 0 once the time is up or the budget says stop."""
        if self.stopped():
            return 0.0
        if self.budget.seconds is None:
            return None
        return max(0.0, self.budget.seconds - self.elapsed())

    def solve(self, model: cp_model.CpModel) -> Solved:
        """The model solved within what is left of the budget; UNKNOWN at once when
        nothing is left, and within POLL_SECONDS of `stop` saying so; stopped as at its
        time limit within POLL_SECONDS of the memory filling."""
        solver = cp_model.CpSolver()
        left = self.seconds_left()
        if left is not None and left <= 0:
            return Solved("UNKNOWN", solver)
        if left is not None:
            solver.parameters.max_time_in_seconds = left
        solver.parameters.num_workers = self.workers
        status = _solve(solver, model, self.budget.stop, self.room)
        self.solves += 1
        self.branches += solver.num_branches
        return Solved(status, solver)


def _solve(solver: cp_model.CpSolver, model: cp_model.CpModel,
           stop: Callable[[], bool] | None, room: Room) -> CpStatus:
    done = threading.Event()

    def watch() -> None:
        # stop_search is a no-op until the solve has begun, so it is repeated until done
        while not done.wait(POLL_SECONDS):
            if (stop is not None and stop()) or room.full():
                solver.stop_search()

    watcher = threading.Thread(target=watch, name="cp-sat stop", daemon=True)
    watcher.start()
    try:
        solver.solve(model)
    finally:
        done.set()
        watcher.join()
    status = _name(solver)
    if status not in ("OPTIMAL", "INFEASIBLE") and stop is not None and stop():
        return "UNKNOWN"     # stopped: only a proof still answers
    return status


def _name(solver: cp_model.CpSolver) -> CpStatus:
    name = solver.status_name()
    if name not in ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "MODEL_INVALID", "UNKNOWN"):
        raise RuntimeError(f"CP-SAT answered an unknown status {name!r}")
    return name  # type: ignore[return-value]
