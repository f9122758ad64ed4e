"""Reading Farbduell positions never crashes: arbitrary JSON values and mutations of real
positions give a position or one InvalidInput naming the fault, and a position that reads
can be asked every question; bytes that are not a position are refused in one line; the
published schema admits every position the game deals or writes."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.budget import Budget
from solver.errors import InvalidInput
from solver.farbduell.game import CHAIN, GAME, HINT, PUZZLE, HintOptions, PuzzleOptions
from solver.farbduell.rules import apply, legal_actions, new_game
from solver.farbduell.state import State
from solver.farbduell.tables import default_tables
from solver.farbduell.wire import MAX_CARDS, MAX_SEATS
from solver.reading import MAX_BYTES

TABLES = default_tables()
SMALL = Budget(seconds=0.2, nodes=200, table_entries=10_000)


def _positions() -> list[dict[str, Any]]:
    """Deals and positions along random games on every table, and hand-made ones with
    what is rare in play: a stack, a hunt, a fuse, a clock, a colour to be named."""
    found: list[dict[str, Any]] = [
        {"hands": [["red-skip", "blue-skip", "blue-7"], ["green-1"]], "discard": ["red-9"]},
        {"table": "belagerung", "hands": [["red-1"], ["blue-2"], []], "discard": ["blue-draw2"],
         "pending": 4, "pending_kind": "draw2", "shields": [0, 1, 0], "to_move": 1,
         "direction": -1, "seed": 2**62, "winner": None, "drawn": None},
        {"hands": [["red-1", "green-bomb"], ["blue-2"]], "discard": ["joker"],
         "colour": "green", "fuse": {"size": 6, "count": 1, "skip_next": True}},
        {"table": "tag_nacht", "hands": [["red-1/pink-1"], ["blue-2/teal-2"]],
         "discard": ["red-3/joker"], "colour": None, "side": "night", "clock": None},
        {"table": "tag_nacht", "hands": [["red-1/pink-1"], ["blue-2/teal-2"]],
         "discard": ["yellow-3/joker"], "colour": "orange", "side": "night",
         "pending": 1, "pending_kind": "hunt", "hunt_colour": "orange",
         "clock": {"count": 2, "skip_next": False}},
    ]
    rng = random.Random(5)
    for name in sorted(TABLES):
        for players in (2, 3):
            state = new_game(TABLES[name], players, rng.randrange(1000))
            found.append(state.to_json())
            for _ in range(rng.randrange(5, 60)):
                if state.winner is not None:
                    break
                state = apply(state, rng.choice(legal_actions(state)))
            found.append(state.to_json())
    return found


POSITIONS = _positions()
KEYS = sorted(POSITIONS[1].keys() | POSITIONS[-1].keys())

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(
    max_size=12) | st.sampled_from(["red-7", "joker", "red-7/teal-skipall", "pink", "hunt",
                                    "draw2", "night", "classic", "tag_nacht", "farbduell"])
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner,
                                        max_size=4), max_leaves=12)
numbers = st.sampled_from([-1, 0, 1, 2, 5, 6, 7, 12, 2**31, 2**64, -(10**20), 10**20])


def _nested(depth: int) -> Any:
    value: Any = "red-7"
    for _ in range(depth):
        value = [value]
    return value


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside `value` down to a depth of 6, itself first."""
    places = [path]
    if len(path) == 6:
        return places
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, inner in items:
        places.extend(_places(inner, (*path, key)))
    return places


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A real position with a few things changed: mildly (a card moved to another hand or
    pile, a small number or a null set, a key dropped: what still reads now and then) or
    harshly (a value replaced by any JSON, an item duplicated or wrapped in a list or an
    object, a number out of range, a value nested deep, a key added)."""
    data = copy.deepcopy(draw(st.sampled_from(POSITIONS)))
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            _mild(draw, data)
        else:
            _harsh(draw, data)
    return data


def _mild(draw: st.DrawFn, data: dict[str, Any]) -> None:
    hands = data.get("hands")
    piles = [hand for hand in hands if isinstance(hand, list)] if isinstance(hands, list) else []
    piles += [data[key] for key in ("draw_pile", "discard") if isinstance(data.get(key), list)]
    change = draw(st.sampled_from(["move", "number", "null", "drop"]))
    if change == "move":
        if any(piles):
            source = draw(st.sampled_from([pile for pile in piles if pile]))
            card = source.pop(draw(st.integers(0, len(source) - 1)))
            draw(st.sampled_from(piles)).append(card)
    elif change == "number":
        key = draw(st.sampled_from(["to_move", "winner", "pending", "direction", "seed"]))
        data[key] = draw(st.integers(-1, 4))
    else:
        key = draw(st.sampled_from(KEYS))
        if change == "null":
            data[key] = None
        else:
            data.pop(key, None)


def _harsh(draw: st.DrawFn, data: dict[str, Any]) -> None:
    path = draw(st.sampled_from(_places(data)))
    if not path:
        data[draw(st.sampled_from(KEYS))] = draw(values | numbers)
        return
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    change = draw(st.sampled_from(["replace", "number", "drop", "twice", "list", "object",
                                   "deep"]))
    if change == "replace":
        parent[last] = draw(values)
    elif change == "number":
        parent[last] = draw(numbers)
    elif change == "drop":
        del parent[last]
    elif change == "twice" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    elif change == "list":
        parent[last] = [parent[last]]
    elif change == "object":
        parent[last] = {"card": parent[last]}
    else:
        parent[last] = _nested(draw(st.sampled_from([3, 40, 300])))


def _read(data: Any) -> State | None:
    """The position, or None when it is refused as it should be: one InvalidInput."""
    try:
        return State.from_json(data)
    except InvalidInput as error:
        assert error.problems and all(isinstance(p, str) and p for p in error.problems)
        return None


def _ask_everything(state: State) -> None:
    """Every question under a small budget answers or refuses the position, nothing else."""
    for question, options in ((PUZZLE, PuzzleOptions(2)), (CHAIN, None),
                              (HINT, HintOptions(worlds=2))):
        try:
            answer = question.ask(state, options, SMALL)
        except InvalidInput:
            continue
        json.dumps(answer.to_json())


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
        assert State.from_json(state.to_json()) == state
        _ask_everything(state)


@pytest.mark.parametrize("data", POSITIONS[:8])
def test_real_positions_are_answered(data):
    _ask_everything(State.from_json(data))


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
            State.from_json({**base, **fields})
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
        State.from_json({**base, **fields})
    assert caught.value.problems == [fault]


@pytest.mark.parametrize("text", ["\x85", "a\u2028b", "\u2029", "\x1c"])
def test_a_refused_value_is_quoted_on_one_line(text):
    """What splitlines() breaks on (U+0085, U+2028...) is escaped in a fault's quote, as
    it is in a field's name."""
    with pytest.raises(InvalidInput) as caught:
        State.from_json({"hands": text, "discard": ["red-9"], text: 1})
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
    assert GAME.read(raw.encode("utf-8")) == State.from_json(POSITIONS[0])


def test_the_schema_admits_every_position_dealt_or_written():
    schema = GAME.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for data in POSITIONS:
        validator.validate(data)
        validator.validate(State.from_json(data).to_json())
    assert not validator.is_valid({**POSITIONS[0], "direction": 2})
    assert not validator.is_valid({**POSITIONS[0], "to_move": -1})
