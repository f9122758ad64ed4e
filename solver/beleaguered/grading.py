"""Is this move a mistake? Every legal move of a position graded by the searches of the
position it leads to: still winnable in N moves (counting the move), winnable in a
number not proven (a line found, not proven shortest within the budget), lost (proven),
or unknown within the budget. Game clients warn a player before a losing move. A hint's
move wins whatever the grading's budget: the hint found a winning line through it. The
moves share the budget fairly, a quick verdict for each first, so that a short budget (a
hint's default second) grades every move, not the first alone."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from solver.beleaguered.notation import move_json
from solver.beleaguered.position import Position
from solver.beleaguered.rules import Move, apply, legal_moves
from solver.beleaguered.sequences import single_cards
from solver.beleaguered.solve import Algorithm, Hint, Metric, Mode, Solution, solve
from solver.budget import DEFAULT_BUDGET, Budget, SearchStats, Status
from solver.shared_budget import SharedBudget

# Of a budget that asks a hint and the grading of every move: the hint's search's part,
# the grading having the rest (and what the hint's search left of its part).
HINT_PART = 0.5
# Of a grading's budget: the most its first pass may spend, a verdict for every move by
# the quick search (a line found wins, none at all loses); its optimal solves have the
# rest, for the moves left.
VERDICTS_PART = 0.5


class Outcome(StrEnum):
    WINS = "wins"
    LOSES = "loses"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Graded:
    move: Move
    outcome: Outcome
    # with the move itself: 1 + the optimal length after it; None for a win whose line
    # was not proven shortest
    moves_left: int | None

    def to_json(self, position: Position | None = None) -> dict[str, Any]:
        """Its JSON; with the position it is a move of, the move's carries the cards it
        moves and its standard notation (notation.move_json)."""
        return {"move": move_json(position, self.move), "outcome": self.outcome.value,
                "moves_left": self.moves_left}


@dataclass(frozen=True)
class Grading:
    """Every legal move graded: SOLVED when each got a verdict, UNKNOWN when the budget
    ran out for some (they are graded unknown)."""

    status: Status
    moves: tuple[Graded, ...]
    stats: SearchStats  # the nodes of every solve, the seconds of all
    # the position graded, which the moves' JSON is written from (as Solution.start)
    start: Position | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value,
                "all_moves": [g.to_json(self.start) for g in self.moves]}

    @classmethod
    def unknown(cls, seconds: float) -> Grading:
        return cls(Status.UNKNOWN, (), SearchStats(0, seconds, 0))

    def with_hint(self, hint: Hint) -> Grading:
        """The hint's move graded as the hint knows it: a win, in its moves left when they
        are optimal, where the grading's own solve of it ran out of budget."""
        if hint.move is None or hint.status is not Status.SOLVED:
            return self
        known = Graded(hint.move, Outcome.WINS, hint.moves_left if hint.optimal else None)
        moves = [known if g.move == hint.move and g.moves_left is None else g
                 for g in self.moves]
        return _graded(moves, self.stats, self.start)

    def covering(self, moves: Iterable[Move]) -> Grading:
        """This grading with each of `moves` it has no grade for graded unknown: the
        moves of a grading its budget ran out before (Grading.unknown, no move graded)."""
        graded = {g.move for g in self.moves}
        missing = [Graded(move, Outcome.UNKNOWN, None) for move in moves if move not in graded]
        return _graded([*self.moves, *missing], self.stats, self.start) if missing else self


_ORDER = {Outcome.WINS: 0, Outcome.UNKNOWN: 1, Outcome.LOSES: 2}


def grade_moves(position: Position, budget: Budget = DEFAULT_BUDGET,
                metric: Metric = Metric.MOVES) -> Grading:
    """Every legal move, best first: the winning ones by moves left, then the unknown,
    then the lost. Two passes share the budget (its seconds and nodes): a verdict for
    every move by the quick search, in at most VERDICTS_PART of it, then an optimal
    solve of each move whose moves left are not known, in what is left. In each pass a
    move is solved within its fair part of what the ones before it left (that shared
    among it and the moves after it), and one left nothing keeps what it had, unknown
    at first. Moves left are counted in `metric`: in cards, a sequence move counts the
    single-card moves it is."""
    shared = SharedBudget(budget)
    moves = legal_moves(position)
    verdicts = SharedBudget(_scaled(budget, VERDICTS_PART))
    graded = {move: Graded(move, Outcome.UNKNOWN, None) for move in moves}
    for mode, within, asked in ((Mode.ANY, verdicts, moves),
                                (Mode.OPTIMAL, shared, [m for m in moves if _open(graded[m])])):
        for index, move in enumerate(asked):
            left = within.left()
            if left is None:
                break
            solution = solve(apply(position, move), mode, Algorithm.ASTAR,
                             _scaled(left, 1 / (len(asked) - index)), metric)
            for spent in {within, shared}:
                spent.spend(solution.stats)
            if solution.status is not Status.UNKNOWN:
                graded[move] = _grade(position, move, solution, metric)
    return _graded(list(graded.values()), SearchStats(shared.nodes, shared.elapsed(), 0),
                   position)


def _open(graded: Graded) -> bool:
    """Whether an optimal solve may tell more of a move: its moves left, or its verdict."""
    return graded.outcome is not Outcome.LOSES and graded.moves_left is None


def _grade(position: Position, move: Move, solution: Solution, metric: Metric) -> Graded:
    """A move graded by a solve of the position it leads to: its moves left known when
    the line is proven shortest (an optimal one, or one as short as its lower bound)."""
    if solution.status is Status.UNSOLVABLE:
        return Graded(move, Outcome.LOSES, None)
    shortest = solution.optimal or len(solution.moves) == solution.lower_bound
    cost = 1 if metric is Metric.MOVES else len(single_cards(position, move))
    return Graded(move, Outcome.WINS, cost + len(solution.moves) if shortest else None)


def _scaled(budget: Budget, part: float) -> Budget:
    """`part` of a budget's seconds and nodes (its table, memory and stop as they are)."""
    return replace(budget, seconds=None if budget.seconds is None else budget.seconds * part,
                   nodes=None if budget.nodes is None else max(1, int(budget.nodes * part)))


def hint_part(budget: Budget) -> Budget:
    """The part of a budget that asks a hint and the grading of every move which the
    hint's search may spend (HINT_PART of its seconds and nodes): the grading has the
    rest, so that it grades every move within the one budget, the default second too."""
    return _scaled(budget, HINT_PART)


def _graded(graded: list[Graded], stats: SearchStats, start: Position | None) -> Grading:
    """The moves best first: the wins by moves left (those whose count is unknown last),
    then the unknown, then the lost."""
    done = Status.UNKNOWN if any(g.outcome is Outcome.UNKNOWN for g in graded) \
        else Status.SOLVED
    order = sorted(graded, key=lambda g: (_ORDER[g.outcome], g.moves_left is None,
                                          g.moves_left or 0))
    return Grading(done, tuple(order), stats, start)
