"""Solving a position: optimal (proven fewest moves), any (a short line fast) or verdict
(the first win found, or a proof there is none, as fast as the kernel can), and hints.

Every solution is replayed through the plain rules before it is returned, so a bug in
the fast search can never hand out a line that does not win. An optimal search answers
at any time (solver/search/anytime.py, and the kernel's alike): it finds a line about as
fast as `any` mode, shorter ones as it goes, and then proves the last one shortest; a
search its budget stops answers the best line found, `optimal: false`, with the lower
bound it proved and, in its stats, how far into the search that line was found
(`line_seconds`). The budget's memory bounds the search's tables.

Where a variant has sequence moves, lengths have two measures: `moves`, a built run
moved as one move counting one (what its players and other programs count), and
`cards`, every card moved counting one. The metric asked for says which one an optimal
search minimises and which one `lower_bound` bounds: `moves` searches with sequence
moves, `cards` with single-card moves only. Every line also reports its length written
out in single cards (solver/beleaguered/sequences.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from solver.beleaguered import engines
from solver.beleaguered.engines import Engine
from solver.beleaguered.notation import line_json, move_json
from solver.beleaguered.position import Position
from solver.beleaguered.rules import Move, apply, replay
from solver.beleaguered.sequences import single_card_length, written_out
from solver.beleaguered.variant import SequenceMoves
from solver.budget import DEFAULT_BUDGET, Budget, SearchStats, Status

if TYPE_CHECKING:
    from solver.beleaguered.grading import Graded  # which grades with a Hint: no cycle

# The engines, imported by the first search (a command that deals or draws needs none;
# a search process imports them as it starts, the descriptor's `imports`).
ENGINES = ("solver.beleaguered.native", "solver.beleaguered.problem", "solver.search")
_NO_SEARCH = SearchStats(0, 0.0, 0)  # what an answer known without a search spent


class Mode(StrEnum):
    """What a search is for: the fewest moves, proven; a short line fast (best-first by
    the bound); or only the verdict, as fast as can be (its line replays, any length)."""

    OPTIMAL = "optimal"
    ANY = "any"
    VERDICT = "verdict"


class Algorithm(StrEnum):
    ASTAR = "astar"
    IDASTAR = "idastar"


class Metric(StrEnum):
    """What a line's length counts: moves (a sequence move is one) or single cards."""

    MOVES = "moves"
    CARDS = "cards"


@dataclass(frozen=True)
class Solution:
    status: Status
    optimal: bool
    moves: tuple[Move, ...]
    stats: SearchStats
    lower_bound: int | None = None  # proven, in `metric`: no winning line is shorter
    metric: Metric = Metric.MOVES
    single_card_moves: int | None = None  # the line written out in single cards
    single_cards: bool = False  # whether `moves` is written out so
    written_from: int | None = None  # when it is: the line's length before, in moves
    line_length: int | None = None  # the line's length, kept when its moves are left out
    steps: tuple[Position, ...] | None = None  # when asked: the position after each move
    # where the line starts, which its moves' JSON is written from (their cards carried
    # and standard notation); None for an answer without moves
    start: Position | None = field(default=None, compare=False, repr=False)

    @property
    def length(self) -> int | None:
        """The line's length in moves, a sequence move counting one (written out in
        single cards or not, its moves left out or not)."""
        if self.status is not Status.SOLVED:
            return None
        if self.line_length is not None:
            return self.line_length
        return self.written_from if self.single_cards else len(self.moves)

    def without_moves(self) -> Solution:
        """This answer with its moves left out and its length kept: a verdict, which a
        batch that counts wins needs and which travels small."""
        return replace(self, moves=(), line_length=self.length, start=None)

    def written_out(self, start: Position) -> Solution:
        """This solution with its line in single-card moves, from `start`."""
        if self.single_cards or self.status is not Status.SOLVED:
            return self
        line = written_out(start, self.moves)
        return replace(self, moves=line, single_cards=True, single_card_moves=len(line),
                       written_from=len(self.moves))

    def with_steps(self, start: Position) -> Solution:
        """This answer with the position after each of its moves, from `start`."""
        return replace(self, steps=tuple(accumulate(self.moves, apply, initial=start))[1:])

    @classmethod
    def unknown(cls, seconds: float) -> Solution:
        return cls(Status.UNKNOWN, False, (), SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "optimal": self.optimal,
            "length": self.length,
            "lower_bound": self.lower_bound,
            "moves": line_json(self.start, self.moves),
            "stats": {"nodes": self.stats.nodes, "seconds": round(self.stats.seconds, 6),
                      "table_entries": self.stats.table_entries,
                      "table_bytes": self.stats.table_bytes,
                      "line_seconds": None if self.stats.line_seconds is None
                      else round(self.stats.line_seconds, 6)},
            "metric": self.metric.value,
            "single_card_moves": self.single_card_moves,
            "single_cards": self.single_cards,
        } | ({} if self.steps is None else {"steps": [step.to_json() for step in self.steps]})


@dataclass(frozen=True)
class Hint:
    status: Status
    move: Move | None  # None when the game is already won or cannot be won
    moves_left: int | None  # moves of the solution from here: optimal unless `optimal` is False
    stats: SearchStats
    optimal: bool = True
    at_least: int | None = None  # proven lower bound on the moves left
    all_moves: tuple[Graded, ...] | None = None  # every legal move graded, when asked
    metric: Metric = Metric.MOVES  # what `moves_left` counts
    known: bool = False  # known without a search: along a line found before, or a census
    # the position hinted, which the moves' JSON is written from (as Solution.start)
    start: Position | None = field(default=None, compare=False, repr=False)

    @property
    def winnable(self) -> bool | None:
        return {Status.SOLVED: True, Status.UNSOLVABLE: False}.get(self.status)

    @classmethod
    def unknown(cls, seconds: float) -> Hint:
        return cls(Status.UNKNOWN, None, None, SearchStats(0, seconds, 0))

    @classmethod
    def unwinnable(cls) -> Hint:
        """The hint of a position proven unwinnable before (a census, a line's proof):
        known without a search."""
        return cls(Status.UNSOLVABLE, None, None, _NO_SEARCH, known=True)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "status": self.status.value,
            "move": None if self.move is None else move_json(self.start, self.move),
            "moves_left": self.moves_left,
            "winnable": self.winnable,
        }
        if not self.optimal:  # a line found, its optimality not proven in the budget
            data |= {"optimal": False, "at_least": self.at_least}
        if self.all_moves is not None:
            data["all_moves"] = [graded.to_json(self.start) for graded in self.all_moves]
        return data


_SEARCHES = {  # the search of each mode and algorithm, by its name in both engines
    (Mode.ANY, Algorithm.ASTAR): "greedy",
    (Mode.ANY, Algorithm.IDASTAR): "greedy",
    (Mode.VERDICT, Algorithm.ASTAR): "verdict",
    (Mode.VERDICT, Algorithm.IDASTAR): "verdict",
    (Mode.OPTIMAL, Algorithm.ASTAR): "anytime",
    (Mode.OPTIMAL, Algorithm.IDASTAR): "anytime_idastar",
}


def search_kind(mode: Mode, algorithm: Algorithm) -> str:
    """The search a mode and algorithm take, by its name in both engines."""
    return _SEARCHES[Mode(mode), Algorithm(algorithm)]


def solve(
    position: Position,
    mode: Mode = Mode.OPTIMAL,
    algorithm: Algorithm = Algorithm.ASTAR,
    budget: Budget = DEFAULT_BUDGET,
    metric: Metric = Metric.MOVES,
) -> Solution:
    """`any` and `verdict` ignore `algorithm`: `any` takes the greedy route to a short
    line, `verdict` greedy flares under several orders (solver/search/flares.py). An
    optimal search proves with A* or IDA* (`algorithm`) once its weighted search has
    found short lines; stopped by its budget it answers the best line found, with
    `optimal: false`. The process's engine searches (solver/beleaguered/engines.py)."""
    mode, engine, metric = Mode(mode), engines.current(), Metric(metric)
    return _search(position, mode, Algorithm(algorithm), budget, engine, metric)


def _search(position: Position, mode: Mode, algorithm: Algorithm, budget: Budget,
            engine: Engine, metric: Metric) -> Solution:
    from solver.beleaguered import heuristic, native
    from solver.beleaguered.problem import FIRST_FLARE_NODES, FortressProblem
    from solver.search import anytime, greedy
    from solver.search.flares import flares
    from solver.search.gc_pause import paused_gc

    kind = _SEARCHES[mode, algorithm]
    sequences = (metric is Metric.MOVES
                 and position.variant.sequence_moves is not SequenceMoves.NONE)
    if engine is Engine.NATIVE:
        status, moves, stats, lower = native.search(position, kind, budget, sequences)
    else:
        problem = FortressProblem(position, thorough=mode is Mode.OPTIMAL, sequences=sequences)
        with paused_gc():
            try:
                if kind == "verdict":
                    result = flares(problem, problem.verdict_orders(), budget,
                                    FIRST_FLARE_NODES)
                elif kind == "greedy":
                    result = greedy(problem, budget)
                else:
                    result = anytime(problem, budget, "idastar" if kind == "anytime_idastar"
                                     else "astar")
                bound = result.bound
                lower = len(problem.opening) + (
                    problem.heuristic(problem.start()) if bound is None else bound)
            finally:
                heuristic.forget()
        status, stats = result.status, result.stats
        moves = tuple(problem.to_moves(result.steps)) if status is Status.SOLVED else ()
    if status is Status.UNSOLVABLE:
        return Solution(status, False, (), stats, metric=metric)
    if status is not Status.SOLVED:
        return Solution(status, False, (), stats, lower, metric)
    if not replay(position, moves).is_won:
        raise AssertionError(f"search returned a line that does not win from {position}")
    optimal = mode is Mode.OPTIMAL and lower >= len(moves)
    return Solution(status, optimal, moves, stats, len(moves) if optimal else lower, metric,
                    single_card_length(position, moves) if sequences else len(moves),
                    start=position)


def hint(position: Position, budget: Budget = DEFAULT_BUDGET,
         metric: Metric = Metric.MOVES) -> Hint:
    """The first move of an optimal solution and how many moves that solution has."""
    return hint_from(solve(position, Mode.OPTIMAL, Algorithm.ASTAR, budget, metric))


def hint_from(solution: Solution) -> Hint:
    """The hint a solution (or a verdict without one) gives for its start: an optimal
    one's first move, or the first move of the best line found and its bounds."""
    return Hint(
        solution.status,
        solution.moves[0] if solution.moves else None,
        solution.length,
        solution.stats,
        solution.optimal or solution.status is not Status.SOLVED,
        solution.lower_bound,
        metric=solution.metric,
        start=solution.start,
    )


def hints_along(start: Position, solution: Solution) -> Iterator[tuple[Position, Hint]]:
    """The hint of every position along a line (or a proven-empty answer) from `start`,
    known without a search: once a line is optimal from its start, its tail is optimal
    from every position on it, so one solve answers a whole game's worth of hints. Along
    a line not proven optimal each hint is `optimal: false`, its moves left the line's
    rest and its `at_least` the start's lower bound less the moves played (no line from
    there is shorter, or one from the start would be). None for an answer counted in
    single cards or written out in them (the hints are in moves, each a move as the
    search found it), or a verdict without its moves."""
    if solution.status is Status.UNSOLVABLE:
        yield start, Hint.unwinnable()
        return
    if (solution.status is not Status.SOLVED
            or solution.metric is not Metric.MOVES or solution.single_cards
            or solution.line_length is not None):
        return
    position, left, lower = start, len(solution.moves), solution.lower_bound
    for played, move in enumerate(solution.moves):
        yield position, Hint(Status.SOLVED, move, left, _NO_SEARCH, solution.optimal,
                             None if solution.optimal or lower is None
                             else max(0, lower - played), known=True, start=position)
        position = apply(position, move)
        left -= 1
    yield position, Hint(Status.SOLVED, None, 0, _NO_SEARCH, known=True)
