"""Solving a position: optimal (proven fewest moves) or any (fastest verdict), and hints.

Every solution is replayed through the plain rules before it is returned, so a bug in
the fast search can never hand out a line that does not win.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from solver.beleaguered import heuristic, native
from solver.beleaguered.position import Position
from solver.beleaguered.problem import FortressProblem
from solver.beleaguered.rules import Move, replay
from solver.budget import DEFAULT_BUDGET, Budget, SearchStats, Status
from solver.search import astar, greedy, idastar
from solver.search.gc_pause import paused_gc


class Mode(StrEnum):
    OPTIMAL = "optimal"
    ANY = "any"


class Algorithm(StrEnum):
    ASTAR = "astar"
    IDASTAR = "idastar"


class Engine(StrEnum):
    """Which implementation searches: the compiled kernel, or the Python reference that
    the tests hold it to (as `decimal` is held to `_pydecimal`)."""

    NATIVE = "native"
    PYTHON = "python"


@dataclass(frozen=True)
class Solution:
    status: Status
    optimal: bool
    moves: tuple[Move, ...]
    stats: SearchStats

    @property
    def length(self) -> int | None:
        return len(self.moves) if self.status is Status.SOLVED else None

    @classmethod
    def unknown(cls, seconds: float) -> Solution:
        return cls(Status.UNKNOWN, False, (), SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "optimal": self.optimal,
            "length": self.length,
            "moves": [move.to_json() for move in self.moves],
            "stats": {"nodes": self.stats.nodes, "seconds": round(self.stats.seconds, 6),
                      "table_entries": self.stats.table_entries},
        }


@dataclass(frozen=True)
class Hint:
    status: Status
    move: Move | None  # None when the game is already won or cannot be won
    moves_left: int | None  # moves of an optimal solution from here
    stats: SearchStats

    @property
    def winnable(self) -> bool | None:
        return {Status.SOLVED: True, Status.UNSOLVABLE: False}.get(self.status)

    @classmethod
    def unknown(cls, seconds: float) -> Hint:
        return cls(Status.UNKNOWN, None, None, SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "move": None if self.move is None else self.move.to_json(),
            "moves_left": self.moves_left,
            "winnable": self.winnable,
        }


_SEARCHES = {  # the search of each mode and algorithm: Python's, and the kernel's
    (Mode.ANY, Algorithm.ASTAR): (greedy, "greedy"),
    (Mode.ANY, Algorithm.IDASTAR): (greedy, "greedy"),
    (Mode.OPTIMAL, Algorithm.ASTAR): (astar, "astar"),
    (Mode.OPTIMAL, Algorithm.IDASTAR): (idastar, "idastar"),
}


def solve(
    position: Position,
    mode: Mode = Mode.OPTIMAL,
    algorithm: Algorithm = Algorithm.ASTAR,
    budget: Budget = DEFAULT_BUDGET,
    engine: Engine = Engine.NATIVE,
) -> Solution:
    """`any` ignores `algorithm`: it always takes the greedy route to a verdict."""
    python_search, kind = _SEARCHES[Mode(mode), Algorithm(algorithm)]
    if Engine(engine) is Engine.NATIVE:
        status, moves, stats = native.search(position, kind, budget)
    else:
        problem = FortressProblem(position, thorough=Mode(mode) is Mode.OPTIMAL)
        with paused_gc():
            try:
                result = python_search(problem, budget)
            finally:
                heuristic.forget()
        status, stats = result.status, result.stats
        moves = tuple(problem.to_moves(result.steps)) if status is Status.SOLVED else ()
    if status is not Status.SOLVED:
        return Solution(status, False, (), stats)
    if not replay(position, moves).is_won:
        raise AssertionError(f"search returned a line that does not win from {position}")
    return Solution(status, Mode(mode) is Mode.OPTIMAL, moves, stats)


def hint(position: Position, budget: Budget = DEFAULT_BUDGET,
         engine: Engine = Engine.NATIVE) -> Hint:
    """The first move of an optimal solution and how many moves that solution has."""
    return hint_from(solve(position, Mode.OPTIMAL, Algorithm.ASTAR, budget, engine))


def hint_from(solution: Solution) -> Hint:
    """The hint an optimal solution (or a verdict without one) gives for its start."""
    return Hint(
        solution.status,
        solution.moves[0] if solution.moves else None,
        solution.length,
        solution.stats,
    )
