"""Grading every move: each "wins in N" leads to a position whose optimal length, by the
other engine, is N - 1; each "loses" to one that engine proves unwinnable."""

from __future__ import annotations

import pytest

from solver.beleaguered import Algorithm, Engine, Mode, apply, deal, legal_moves, replay, solve
from solver.beleaguered.grading import Graded, Outcome, grade_moves
from solver.beleaguered.variant import find_variant
from solver.budget import Budget, Status
from tests.support.engines import by

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
        reference = by(Engine.PYTHON, solve, apply(position, g.move), Mode.OPTIMAL,
                       Algorithm.ASTAR, BUDGET)
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


@pytest.mark.parametrize(("variant", "number", "played"), [(None, 6, 5), ("freecell", 2, 0)])
def test_a_short_budget_gives_every_move_a_verdict_the_other_engine_agrees_with(
        variant, number, played):
    """20,000 nodes, of which an optimal solve of the first move alone would spend all:
    the moves share them, a quick verdict for each first, so every move is graded; each
    win the Python engine wins too (in N - 1 where N is given), each loss it proves."""
    start = deal(number, None if variant is None else find_variant(variant))
    position = replay(start, solve(start, Mode.OPTIMAL, Algorithm.ASTAR, BUDGET).moves[:played])
    graded = grade_moves(position, Budget(nodes=20_000)).moves
    assert sorted(str(g.move) for g in graded) == sorted(str(m) for m in legal_moves(position))
    assert all(g.outcome is not Outcome.UNKNOWN for g in graded)
    for g in graded:
        mode = Mode.ANY if g.moves_left is None else Mode.OPTIMAL
        reference = by(Engine.PYTHON, solve, apply(position, g.move), mode, Algorithm.ASTAR,
                       BUDGET)
        if g.outcome is Outcome.LOSES:
            assert reference.status is Status.UNSOLVABLE
        else:
            assert reference.status is Status.SOLVED
            assert g.moves_left is None or g.moves_left == reference.length + 1


def test_a_spent_budget_grades_unknown_never_a_guess():
    grading = grade_moves(deal(2), Budget(seconds=1e-9))
    graded = grading.moves
    assert grading.status is Status.UNKNOWN and graded
    assert all(g.outcome is Outcome.UNKNOWN and g.moves_left is None for g in graded)


def test_the_hints_move_wins_whatever_budget_the_grading_had_left():
    from solver.beleaguered import hint

    position = mid_game(2, 10)
    advice = hint(position, BUDGET)
    spent = grade_moves(position, Budget(seconds=1e-9))
    grading = spent.with_hint(advice)
    assert grading.moves[0] == Graded(advice.move, Outcome.WINS, advice.moves_left)
    assert all(g.outcome is Outcome.UNKNOWN for g in grading.moves[1:])
    assert grading.status is Status.UNKNOWN and len(grading.moves) == len(spent.moves)


def test_a_hints_line_not_proven_shortest_still_makes_its_move_a_win():
    """Deal 23 with 8000 nodes a search: the hint finds a line, not the shortest; the
    grading's own searches of its move find no proof of a length either (a line of
    their own at most)."""
    from solver.beleaguered import hint

    small = Budget(nodes=8000)
    advice = hint(deal(23), small)
    assert advice.status is Status.SOLVED and not advice.optimal
    before = grade_moves(deal(23), small)
    own = next(g for g in before.moves if g.move == advice.move)
    assert own.outcome is not Outcome.LOSES and own.moves_left is None
    graded = before.with_hint(advice).moves
    assert next(g for g in graded if g.move == advice.move) == Graded(advice.move,
                                                                      Outcome.WINS, None)
    assert [g.outcome for g in graded] == sorted((g.outcome for g in graded),
                                                 key=[Outcome.WINS, Outcome.UNKNOWN,
                                                      Outcome.LOSES].index)


def test_a_hint_that_found_no_win_changes_no_grade():
    from solver.beleaguered import hint

    grading = grade_moves(deal(1), BUDGET)  # deal 1 cannot be won
    assert grading.with_hint(hint(deal(1), BUDGET)) == grading
