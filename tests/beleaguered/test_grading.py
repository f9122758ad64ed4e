"""Grading every move: each "wins in N" leads to a position whose optimal length, by the
other engine, is N - 1; each "loses" to one that engine proves unwinnable."""

from __future__ import annotations

import pytest

from solver.beleaguered import Algorithm, Engine, Mode, apply, deal, legal_moves, solve
from solver.beleaguered.grading import Outcome, grade_moves
from solver.budget import Budget, Status

BUDGET = Budget(seconds=600)  # a guard: every search here ends by itself


def mid_game(number: int, played: int):
    """The position after `played` moves of an optimal solution of deal `number` (the
    deal itself when it cannot be won)."""
    position = deal(number)
    solution = solve(position, Mode.OPTIMAL, Algorithm.ASTAR, BUDGET)
    for move in solution.moves[:played]:
        position = apply(position, move)
    return position


# Mid-game positions where some moves keep the win and others lose it, and two deals that
# cannot be won (every move loses).
CASES = [(2, 10), (6, 5), (6, 20), (13, 10), (15, 5), (22, 5), (23, 20), (28, 10),
         (1, 0), (4, 0)]


@pytest.mark.parametrize("number,played", CASES)
def test_every_graded_move_agrees_with_the_python_engine(number, played):
    position = mid_game(number, played)
    graded = grade_moves(position, BUDGET).moves
    assert sorted(str(g.move) for g in graded) == sorted(str(m) for m in legal_moves(position))
    assert {g.outcome for g in graded} == ({Outcome.LOSES} if played == 0
                                           else {Outcome.WINS, Outcome.LOSES})
    for g in graded:
        reference = solve(apply(position, g.move), Mode.OPTIMAL, Algorithm.ASTAR, BUDGET,
                          Engine.PYTHON)
        if g.outcome is Outcome.WINS:
            assert reference.status is Status.SOLVED and g.moves_left == reference.length + 1
        else:
            assert reference.status is Status.UNSOLVABLE and g.moves_left is None
    order = [(g.outcome is not Outcome.WINS, g.outcome is Outcome.LOSES, g.moves_left or 0)
             for g in graded]
    assert order == sorted(order)  # best first


def test_the_best_graded_move_is_as_short_as_the_hint():
    from solver.beleaguered import hint

    position = mid_game(2, 10)
    graded = grade_moves(position, BUDGET).moves
    assert graded[0].outcome is Outcome.WINS
    assert graded[0].moves_left == hint(position, BUDGET).moves_left


def test_a_spent_budget_grades_unknown_never_a_guess():
    grading = grade_moves(deal(2), Budget(seconds=1e-9))
    graded = grading.moves
    assert grading.status is Status.UNKNOWN and graded
    assert all(g.outcome is Outcome.UNKNOWN and g.moves_left is None for g in graded)
