"""Hints within a second: a patience hint or grade asked with no budget searches for the
default second (HINT_SECONDS), not the server's limit, and answers the best line found
with bounds that hold (`at_least <= moves_left`), or the optimal move when proven in
time; the server keeps that line, so each hint along it after the first comes from its
cache, without a search, and replayed they win in the moves the first said were left; a
larger budget searches again, for the proof. Over a real server
(tests/support/servers.py), and the command line's help."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from service.api import fortress_solver_pb2 as pb
from service.messages import asked_budget
from solver.beleaguered import Position, apply, deal, legal_moves
from solver.beleaguered.game import GRADE, HINT, SOLVE
from solver.beleaguered.variant import find_variant
from solver.budget import HINT_MEMORY_MIB, HINT_SECONDS
from solver.ffkingdom.game import HINT as FFK_HINT
from tests.support.cli import run
from tests.support.servers import connect, moves_from_proto, position_source, running_server

FREECELL = find_variant("freecell")


@pytest.fixture(scope="module")
def server():
    with running_server(workers=2) as running:
        yield running


@pytest.fixture
def stub(server) -> Iterator:
    with connect(server) as opened:
        yield opened


def quick_hint(stub, position: Position, **budget: float) -> pb.HintResponse:
    """The server's hint, with no budget unless one is given."""
    request = pb.HintRequest(position=position_source(position))
    if budget:
        request.budget.CopyFrom(pb.Budget(**budget))
    return stub.Hint(request, timeout=30)


def bounds(hint: pb.HintResponse) -> tuple[bool, int | None]:
    """Whether the hint is proven optimal, and its lower bound when it is not."""
    proven = not hint.HasField("optimal") or hint.optimal
    return proven, None if proven else hint.at_least


def test_a_hint_with_no_budget_wins_along_a_line_the_cache_then_answers(stub):
    """FreeCell deal 5, whose proof takes a minute: the hint's move and each cached hint
    after it replay to a win in the moves the first said were left, the bounds honest
    all along (the lower bound counted down with the moves played)."""
    position = deal(5, FREECELL)
    first = quick_hint(stub, position)
    assert first.status == pb.STATUS_SOLVED and first.winnable and not first.cached
    proven, least = bounds(first)
    assert proven or (first.HasField("at_least") and 0 < least <= first.moves_left)
    hint, played = first, 0
    while hint.HasField("move"):
        [move] = moves_from_proto([hint.move])
        assert move in legal_moves(position)
        position, played = apply(position, move), played + 1
        hint = quick_hint(stub, position)
        assert hint.cached, played  # known without a search
        assert hint.status == pb.STATUS_SOLVED and hint.moves_left == first.moves_left - played
        if hint.moves_left == 0:  # won: nothing shorter
            assert bounds(hint) == (True, None)
        else:
            assert bounds(hint) == (proven, None if proven else max(0, least - played))
            assert proven or hint.at_least <= hint.moves_left
    assert position.is_won and played == first.moves_left and hint.moves_left == 0


def test_a_larger_budget_searches_again_for_the_proof(stub):
    """Along a quick hint's line not proven shortest, a call with more than the default
    second searches (not cached); one with the default second is answered from the
    cache."""
    position = deal(1, FREECELL)
    first = quick_hint(stub, position)
    assert first.status == pb.STATUS_SOLVED
    if bounds(first)[0]:
        pytest.skip("the proof came within the second: no line not proven to search again")
    [move] = moves_from_proto([first.move])
    after = apply(position, move)
    assert quick_hint(stub, after, seconds=HINT_SECONDS).cached
    longer = quick_hint(stub, after, seconds=2 * HINT_SECONDS)
    assert not longer.cached and longer.status == pb.STATUS_SOLVED
    assert quick_hint(stub, after).cached


def test_a_grade_with_no_budget_grades_every_move(stub):
    """The grade question asked with no budget (QuestionOptions): every legal move of
    FreeCell deal 2 graded, most with a verdict, within the default second."""
    position = deal(2, FREECELL)
    request = pb.SolveRequest(position=position_source(position),
                              question_options=pb.QuestionOptions(question="grade"))
    answer = json.loads(stub.Solve(request, timeout=30).answer_json)
    graded = {(g["move"]["card"], g["move"]["from"], g["move"]["to"]): g
              for g in answer["all_moves"]}
    assert sorted(graded) == sorted((str(m.card), str(m.source), str(m.target))
                                    for m in legal_moves(position))
    assert all(g["outcome"] in ("wins", "loses", "unknown") for g in graded.values())


def test_only_a_quick_question_given_no_seconds_has_its_own():
    """A patience hint or grade with no seconds: the default second; with seconds: its
    own; a solve, or another game's hint: the server's limit (0 kept)."""
    for question in (HINT, GRADE):
        assert question.quick and question.seconds == HINT_SECONDS
        assert asked_budget(pb.Budget(nodes=5), question) == pb.Budget(
            seconds=HINT_SECONDS, nodes=5, memory_mib=HINT_MEMORY_MIB)
        assert asked_budget(pb.Budget(memory_mib=700), question).memory_mib == 700
        assert asked_budget(pb.Budget(seconds=30), question) == pb.Budget(seconds=30)
    for question in (SOLVE, FFK_HINT):
        assert asked_budget(pb.Budget(), question) == pb.Budget()


def test_hint_help_says_a_larger_seconds_buys_the_proof(capsys):
    for command in ("hint", "grade"):
        code, out, _ = run(capsys, command, "--help")
        said = " ".join(out.split())
        assert code == 0 and "--seconds SECONDS time budget in seconds" in said
        assert "a larger --seconds buys the proof (default: 1.0)" in said
        assert f"leaves (default: {HINT_MEMORY_MIB})" in said


@pytest.mark.timing
@pytest.mark.parametrize("number", [5, 7, 10])
def test_a_hint_with_no_budget_answers_within_about_a_second(stub, number):
    """The whole call, with its grading too (all_moves), on FreeCell deals whose proofs
    take far longer (5, 10) or less (7): the default second and the server's own time."""
    source = position_source(deal(number, FREECELL))
    for options in (None, pb.BeleagueredHintOptions(all_moves=True)):
        request = pb.HintRequest(position=source, beleaguered=options)
        started = time.perf_counter()
        answer = stub.Hint(request, timeout=30)
        assert answer.status == pb.STATUS_SOLVED
        assert time.perf_counter() - started < HINT_SECONDS + 0.5
