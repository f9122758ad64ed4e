"""Is this move a mistake? Every legal move of a position graded by an optimal solve of
the position it leads to: still winnable in N moves (counting the move), lost (proven),
or unknown within the budget. Game clients warn a player before a losing move. A hint's
move wins whatever the grading's budget: the hint found a winning line through it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from solver.beleaguered.position import Position
from solver.beleaguered.rules import Move, apply, legal_moves
from solver.beleaguered.sequences import single_cards
from solver.beleaguered.solve import Algorithm, Hint, Metric, Mode, solve
from solver.budget import DEFAULT_BUDGET, Budget, SearchStats, Status
from solver.shared_budget import SharedBudget


class Outcome(StrEnum):
    WINS = "wins"
    LOSES = "loses"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Graded:
    move: Move
    outcome: Outcome
    moves_left: int | None  # with the move itself: 1 + the optimal length after it

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move.to_json(), "outcome": self.outcome.value,
                "moves_left": self.moves_left}


@dataclass(frozen=True)
class Grading:
    """Every legal move graded: SOLVED when each got a verdict, UNKNOWN when the budget
    ran out for some (they are graded unknown)."""

    status: Status
    moves: tuple[Graded, ...]
    stats: SearchStats  # the nodes of every solve, the seconds of all

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value, "all_moves": [g.to_json() for g in self.moves]}

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
        return _graded(moves, self.stats)

    def covering(self, moves: Iterable[Move]) -> Grading:
        """This grading with each of `moves` it has no grade for graded unknown: the
        moves of a grading its budget ran out before (Grading.unknown, no move graded)."""
        graded = {g.move for g in self.moves}
        missing = [Graded(move, Outcome.UNKNOWN, None) for move in moves if move not in graded]
        return _graded([*self.moves, *missing], self.stats) if missing else self


_ORDER = {Outcome.WINS: 0, Outcome.UNKNOWN: 1, Outcome.LOSES: 2}


def grade_moves(position: Position, budget: Budget = DEFAULT_BUDGET,
                metric: Metric = Metric.MOVES) -> Grading:
    """Every legal move, best first: the winning ones by moves left, then the unknown,
    then the lost. The moves share the budget (its seconds and nodes): each is solved
    within what the ones before it left, and those it leaves nothing for are unknown.
    Moves left are counted in `metric`: in cards, a sequence move counts the single-card
    moves it is."""
    shared = SharedBudget(budget)
    graded = []
    for move in legal_moves(position):
        left = shared.left()
        if left is None:
            graded.append(Graded(move, Outcome.UNKNOWN, None))
            continue
        solution = solve(apply(position, move), Mode.OPTIMAL, Algorithm.ASTAR, left, metric)
        shared.spend(solution.stats)
        if solution.status is Status.SOLVED and solution.optimal:
            cost = 1 if metric is Metric.MOVES else len(single_cards(position, move))
            graded.append(Graded(move, Outcome.WINS, cost + len(solution.moves)))
        elif solution.status is Status.UNSOLVABLE:
            graded.append(Graded(move, Outcome.LOSES, None))
        else:  # out of budget (a line found but not proven shortest included)
            graded.append(Graded(move, Outcome.UNKNOWN, None))
    return _graded(graded, SearchStats(shared.nodes, shared.elapsed(), 0))


def _graded(graded: list[Graded], stats: SearchStats) -> Grading:
    """The moves best first: the wins by moves left (those whose count is unknown last),
    then the unknown, then the lost."""
    done = Status.UNKNOWN if any(g.outcome is Outcome.UNKNOWN for g in graded) \
        else Status.SOLVED
    order = sorted(graded, key=lambda g: (_ORDER[g.outcome], g.moves_left is None,
                                          g.moves_left or 0))
    return Grading(done, tuple(order), stats)
