"""Reading Farbduell positions never crashes: arbitrary JSON values and mutations of real
positions give a position or one InvalidInput naming the fault, and a position that reads
can be asked every question; bytes that are not a position are refused in one line; the
published schema admits every position the game deals or writes."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings

from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.farbduell.chains import Chain
from solver.farbduell.game import CHAIN, GAME, HINT, PUZZLE, HintOptions, PuzzleOptions
from solver.farbduell.hints import Hint
from solver.farbduell.position import Position
from solver.farbduell.puzzles import PuzzleAnswer
from solver.farbduell.rules import apply, legal_actions
from solver.farbduell.schema import MAX_CARDS, MAX_SEATS
from solver.reading import MAX_BYTES
from tests.support.farbduell_strategies import POSITIONS, mutated, values

SMALL = Budget(seconds=0.2, nodes=200, table_entries=10_000)


def _read(data: Any) -> Position | None:
    """The position, or None when it is refused as it should be: one InvalidInput."""
    try:
        return Position.from_json(data)
    except InvalidInput as error:
        assert error.problems and all(isinstance(p, str) and p for p in error.problems)
        return None


def _ask_everything(state: Position) -> dict[str, Any]:
    """Every question under a small budget: its answer, or the InvalidInput refusing the
    position (nothing else escapes); each answer is checked to be honest."""
    asked: dict[str, Any] = {}
    for question, options in ((PUZZLE, PuzzleOptions(2)), (CHAIN, None),
                              (HINT, HintOptions(worlds=2))):
        try:
            answer = question.ask(state, options, SMALL)
        except InvalidInput as refusal:
            asked[question.name] = refusal
            continue
        _assert_honest(state, answer)
        asked[question.name] = answer
    return asked


def _assert_honest(state: Position, answer: Any) -> None:
    """An answer's status is one the question gives, its JSON says the same, and what a
    SOLVED answer claims replays legally from the position: the puzzle's line to the
    mover's win (each action by the seat to move), the chain's plays within the mover's
    turn (all of its hand when it goes out), the hint's action and runners-up among the
    legal actions. An answer that is not SOLVED claims no moves."""
    assert json.loads(json.dumps(answer.to_json()))["status"] == answer.status.value
    legal = legal_actions(state)
    if isinstance(answer, PuzzleAnswer):
        assert answer.status in (Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN)
        if answer.status is not Status.SOLVED:
            assert answer.line == () and answer.turns is None
            return
        assert answer.turns is not None and 1 <= answer.turns <= 2 and answer.line
        replayed = state
        for seat, action in answer.line:
            assert seat == replayed.to_move and action in legal_actions(replayed)
            replayed = apply(replayed, action)
        assert replayed.winner == state.to_move
    elif isinstance(answer, Chain):
        assert answer.status in (Status.SOLVED, Status.UNKNOWN)
        if answer.status is not Status.SOLVED:
            assert answer.plays == ()
            return
        assert answer.cards == len(answer.plays)
        replayed = state
        for play in answer.plays:
            assert replayed.to_move == state.to_move and play in legal_actions(replayed)
            replayed = apply(replayed, play)
        assert answer.goes_out == (not replayed.hands[state.to_move])
    else:
        assert isinstance(answer, Hint) and answer.status in (Status.SOLVED, Status.UNKNOWN)
        if answer.status is not Status.SOLVED:
            assert answer.action is None and answer.runners_up == ()
            return
        others = [action for action, _ in answer.runners_up]
        assert answer.action in legal and answer.action not in others
        assert all(other in legal for other in others) and len(set(others)) == len(others)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values)
def test_arbitrary_json_is_read_or_refused(data):
    _read(data)


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_mutated_positions_are_read_or_refused_and_then_answered(data):
    state = _read(data)
    if state is not None:
        assert Position.from_json(state.to_json()) == state
        _ask_everything(state)


@pytest.mark.parametrize("data", POSITIONS[:8])
def test_real_positions_are_answered(data):
    """A game not yet over is hinted (and every answer is honest, see _assert_honest);
    a finished one is refused by every question, saying so."""
    state = Position.from_json(data)
    asked = _ask_everything(state)
    if state.winner is None:
        assert not isinstance(asked["hint"], InvalidInput), asked["hint"]
    else:
        assert all(isinstance(answer, InvalidInput) and "over" in str(answer)
                   for answer in asked.values()), asked


def test_faults_found_by_fuzzing_are_named():
    base = {"hands": [["red-1", "red-2"], ["blue-3"]], "discard": ["red-9"]}
    for fields, fault in [
        ({"shields": [0]}, "shields must hold one count per seat (2), not 1"),
        ({"shields": [0, 3]}, "shields[1]: a seat has at most 1 standing shields"),
        ({"to_move": 2}, "to_move must be a seat 0..1"),
        ({"winner": 4}, "winner must be null or a seat 0..1"),
        ({"drawn": "red-1", "colour": "blue"}, "the drawn card red-1 cannot be played now"),
        ({"hands": [["red-1"], [["red-2"]]]}, "hands[1][0]: must be a string"),
        ({"discard": []}, "discard: has 0 items, at least 1"),
        ({"pending": True}, "pending: must be a whole number, not true"),
        ({"seed": -3}, "seed: must be at least 0, not -3"),
        ({"fuse": {"size": 4, "count": 0, "skip_next": False}}, "fuse.count: must be at least 1"),
    ]:
        with pytest.raises(InvalidInput) as caught:
            Position.from_json({**base, **fields})
        assert any(fault in problem for problem in caught.value.problems), (fields, caught.value)


@pytest.mark.parametrize(("fields", "fault"), [
    ({"hands": [["red-1"]] * (MAX_SEATS + 1)},
     f"hands: has {MAX_SEATS + 1} items, at most {MAX_SEATS}"),
    ({"hands": [["red-1"] * 100_000, []]}, f"hands[0]: has 100000 items, at most {MAX_CARDS}"),
    ({"discard": ["red-9"] * (MAX_CARDS + 1)},
     f"discard: has {MAX_CARDS + 1} items, at most {MAX_CARDS}"),
    ({"knows": [{"hands": {str(seat): 1 for seat in range(20_000)}}, {}]},
     f"knows[0].hands: has 20000 items, at most {MAX_SEATS}"),
])
def test_a_list_or_map_longer_than_any_table_allows_is_one_fault(fields, fault):
    """Refused by its length before any item is read: one fault, however many items."""
    base = {"hands": [["red-1", "red-2"], ["blue-3"]], "discard": ["red-9"]}
    with pytest.raises(InvalidInput) as caught:
        Position.from_json({**base, **fields})
    assert caught.value.problems == [fault]


@pytest.mark.parametrize("text", ["\x85", "a\u2028b", "\u2029", "\x1c"])
def test_a_refused_value_is_quoted_on_one_line(text):
    """What splitlines() breaks on (U+0085, U+2028...) is escaped in a fault's quote, as
    it is in a field's name."""
    with pytest.raises(InvalidInput) as caught:
        Position.from_json({"hands": text, "discard": ["red-9"], text: 1})
    assert len(str(caught.value).splitlines()) == 1, str(caught.value)
    assert "hands: must be a list, not \"" in str(caught.value)


@pytest.mark.parametrize(("raw", "fault"), [
    (b"\xff\xfe{}", "is not UTF-8 text"),
    (b"{\"hands\": [", "is not JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "nests too deeply"),
    (b" " * (MAX_BYTES + 1), f"at most {MAX_BYTES:,}"),
])
def test_bytes_that_are_no_position_are_one_fault(raw, fault):
    with pytest.raises(InvalidInput) as caught:
        GAME.read(raw, "position.json")
    assert len(caught.value.problems) == 1 and fault in caught.value.problems[0]


def test_a_byte_order_mark_is_read():
    raw = "\ufeff" + json.dumps(POSITIONS[0])
    assert GAME.read(raw.encode("utf-8")) == Position.from_json(POSITIONS[0])


def test_the_schema_admits_every_position_dealt_or_written():
    schema = GAME.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for data in POSITIONS:
        validator.validate(data)
        validator.validate(Position.from_json(data).to_json())
    assert not validator.is_valid({**POSITIONS[0], "direction": 2})
    assert not validator.is_valid({**POSITIONS[0], "to_move": -1})
