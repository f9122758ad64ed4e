"""The Farbduell descriptor: its questions travel to a worker by reference, answer with
values, and say UNKNOWN honestly when nothing was searched."""

from __future__ import annotations

import json
import pickle

from solver.budget import Budget, Status
from solver.farbduell.game import CHAIN, GAME, HINT, PUZZLE, ChainOptions
from solver.farbduell.position import Position

GOES_OUT = {"hands": [["red-skip", "blue-skip", "blue-7"], ["green-1"]], "discard": ["red-9"]}


def test_the_descriptor_names_its_questions():
    assert GAME.name == "farbduell"
    assert [question.name for question in GAME.questions] == ["puzzle", "chain", "hint"]
    assert GAME.question("chain") is CHAIN


def test_questions_and_positions_pickle_for_the_workers():
    state = GAME.from_json(GOES_OUT)
    for question in GAME.questions:
        assert pickle.loads(pickle.dumps(question)) == question
    assert pickle.loads(pickle.dumps(state)) == state


def test_every_question_answers_with_a_value():
    state = GAME.from_json(GOES_OUT)
    budget = Budget(seconds=5)
    for question in (PUZZLE, CHAIN, HINT):
        answer = question.ask(state, None, budget)
        assert isinstance(answer, question.answer) and answer.status is Status.SOLVED
        assert json.loads(json.dumps(answer.to_json()))["status"] == "solved"
    assert CHAIN.ask(state, ChainOptions("points"), budget).points == 47


def test_unknown_answers_say_so():
    for question in GAME.questions:
        answer = question.answer.unknown(1.25)
        assert answer.status is Status.UNKNOWN and answer.stats.seconds == 1.25
        assert answer.to_json()["status"] == "unknown"


def test_positions_are_written_with_their_game():
    state = GAME.from_json(GOES_OUT)
    assert GAME.to_json(state)["game"] == "farbduell"
    assert Position.from_json(GAME.to_json(state)) == state
