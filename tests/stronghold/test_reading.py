"""Reading positions never crashes: any JSON value, mutations of real positions and
spoiled bytes give a position or one InvalidInput naming the faults; the positions that
read fine are answered by every question (or refused) without any other exception, in
the library and through the command line. Also: comments, the byte limit and the time a
megabyte takes, and the descriptor reading what it writes."""

from __future__ import annotations

import copy
import json
import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.cli import main
from solver.budget import Budget, Status
from solver.errors import InvalidInput, OutOfRange
from solver.reading import MAX_BYTES
from solver.stronghold.answers import Outcome, Plan, Race
from solver.stronghold.game import CLEAR, GAME, PLAN, RACE, ClearOptions, PlanOptions
from solver.stronghold.position import Position
from solver.stronghold.schema import MAX_SCHEDULE, MAX_UNITS, loads
from tests.support.stronghold import CASE_1, E2, NEAR_END, RICH, SPEC_EXAMPLE, unit

SMALL = Budget(seconds=0.05, nodes=500, table_entries=None)


REAL: list[dict[str, Any]] = [SPEC_EXAMPLE, E2, CASE_1, NEAR_END, RICH]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20)

_ODD: list[Any] = [None, True, False, 0, -1, 1, 3, 10**20, -10**20, 2**32, 1.5, 1e308, "", "x",
                   "A1", "D", "O1", "S3", "base", "attackers", "1v2", [], ["O1"], [["O1", 1]],
                   {}, {"A1": [5]}, {"turn": 3, "might": 2}, "a b", "\u0000", "ü" * 40]


def _mutate(value: Any, rng: random.Random) -> Any:
    """One change somewhere in a copy of `value`: a value replaced (by an odd one, a
    nudged one, itself in a list), a key or an item dropped or doubled, a key added."""
    value = copy.deepcopy(value)
    path: list[Any] = []
    node = value
    while isinstance(node, (dict, list)) and node and rng.random() < 0.75:
        key = rng.choice(list(node) if isinstance(node, dict) else range(len(node)))
        path.append(key)
        node = node[key]
    if not path:
        return rng.choice([*_ODD, [value], {"x": value}])
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    action = rng.randrange(7)
    if action == 0:
        parent[key] = rng.choice(_ODD)
    elif action == 1:
        old = parent[key]
        parent[key] = (not old if isinstance(old, bool) else
                       old + rng.choice([-3, -1, 1, 2, 1000]) if isinstance(old, int) else
                       old + rng.choice(["1", "x", " "]) if isinstance(old, str) else old)
    elif action == 2 and isinstance(parent, dict):
        del parent[key]
    elif action == 3 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif action == 4 and isinstance(parent, list):
        del parent[key]
    elif action == 5 and isinstance(parent, dict):
        parent[rng.choice(["speed", "game", "winner", "turn", "loc", "ready"])] = rng.choice(_ODD)
    else:
        parent[key] = [parent[key]] if rng.random() < 0.5 else {"v": parent[key]}
    return value


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    rng = random.Random(draw(st.integers(0, 2**32)))
    data = rng.choice(REAL)
    for _ in range(draw(st.integers(1, 3))):
        data = _mutate(data, rng)
    return data


def _read(data: Any) -> Position | None:
    try:
        return Position.from_json(data)
    except InvalidInput as error:
        assert error.problems and all(error.problems)
        return None


QUESTIONS = [(PLAN, PlanOptions()), (PLAN, PlanOptions(exact=True)),
             (CLEAR, ClearOptions(max_turns=8)),
             (CLEAR, ClearOptions(max_turns=8, method="search")),
             (RACE, ClearOptions(defender="greedy", max_turns=8))]


def _ask(position: Position) -> None:
    """Every question answers or refuses with InvalidInput, and ends: its budget is a
    twentieth of a second, a minute is only a guard against one that ignores it."""
    for question, options in QUESTIONS:
        started = time.perf_counter()
        try:
            answer = question.ask(position, options, SMALL)
        except InvalidInput:
            continue
        assert time.perf_counter() - started < 60, (question.name, options)
        assert isinstance(answer.status, Status)
        json.dumps(answer.to_json())


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value_is_a_position_or_refused(data):
    _read(data)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_position_is_a_position_or_refused(data):
    _read(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_what_reads_fine_is_answered_or_refused(data):
    position = _read(data)
    if position is not None:
        _ask(position)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mutated(), st.sampled_from([
    ["plan", "--seconds", "0.05"], ["plan", "--exact", "--json", "--seconds", "0.05"],
    ["clear", "--seconds", "0.05", "--max-turns", "6"],
    ["race", "--seconds", "0.05", "--max-turns", "6", "--defender", "greedy", "--json"]]))
def test_the_command_line_answers_or_names_the_fault(tmp_path, capsys, data, command):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    capsys.readouterr()
    code = main(["stronghold", command[0], str(path), *command[1:]])
    out, err = capsys.readouterr()
    assert code in (0, 2)
    if code == 2:
        assert out == "" and len(err.strip().splitlines()) == 1
    else:
        assert out and not err


@pytest.mark.parametrize("data", REAL, ids=lambda data: f"{len(json.dumps(data))}B")
def test_real_positions_are_answered(data):
    _ask(Position.from_json(data))


@pytest.mark.parametrize("fields", [
    {"units": [unit("a", "A1", True)]}, {"units": [unit("a", ["A1"], 2)]},
    {"units": [unit("a", "A1", 2, True)]}, {"control": "O1"}, {"control": {"O1": True}},
    {"removed": True}, {"removed": [True, "O1"]}, {"burnouts": {"A1": True}},
    {"reinforcements": {"A1": {"turn": 2}}}, {"counters": "x"}, {"grid": {"O": "O1O2O3"}},
    {"turn_order": "DA1A2A3"}, {"consoled": [["O1"]]}, {"units": [[]]},
])
def test_the_crashes_the_issue_names_are_faults(fields):
    """`'<' not supported between bool and str`, `'str' object has no attribute
    'items'`, `'bool' object is not iterable`: wrong types where names, objects and lists
    go."""
    assert _read(fields) is None


@pytest.mark.parametrize(("fields", "fault"), [
    ({"units": [unit(f"u{k}", "A1", 1) for k in range(MAX_UNITS + 1)]},
     f"units: has {MAX_UNITS + 1} items, at most {MAX_UNITS}"),
    ({"control": {f"b{k}": 1 for k in range(20_000)}}, "control: has 20000 items, at most 9"),
    ({"reinforcements": {"A1": [{"turn": 2, "might": 1}] * (MAX_SCHEDULE + 1)}},
     f"reinforcements.A1: has {MAX_SCHEDULE + 1} items, at most {MAX_SCHEDULE}"),
    ({"counters": {"consolation": {f"A{k}": "x" for k in range(20_000)}}},
     f"counters.consolation: has 20000 items, at most {MAX_UNITS}"),
])
def test_a_list_or_map_longer_than_the_game_allows_is_one_fault(fields, fault):
    """Refused by its length before any item is read: one fault, however many items."""
    with pytest.raises(InvalidInput) as caught:
        Position.from_json(fields)
    assert caught.value.problems == [fault]


# ---------------------------------------------------------------- bytes and dialect


def test_bytes_that_are_not_utf8_are_one_line():
    with pytest.raises(InvalidInput) as caught:
        GAME.read(b'{"units": [\xff\xfe]}', "position.json")
    assert str(caught.value) == "position.json is not UTF-8 text (byte 11 is 0xff)"


def test_a_byte_order_mark_is_accepted():
    raw = json.dumps(REAL[1]).encode()
    assert GAME.read(b"\xef\xbb\xbf" + raw) == GAME.read(raw)


def test_comments_and_trailing_commas_are_allowed():
    text = '{ // A1 to move\n "turn": 2, /* the units */ "units": [\n' \
           '  {"id": "u1", "owner": "A1", "might": 4,},  // in base\n],\n}'
    position = GAME.read(text.encode())
    assert position.turn == 2 and [u.id for u in position.units] == ["u1"]
    assert loads('["/*", "//", 1,]') == ["/*", "//", 1]


@pytest.mark.parametrize("text", ['{"turn": 2', '{turn: 2}', '{"turn": 2} /* open',
                                  '{"turn": 2,, }', "'x'"])
def test_what_is_not_json_with_comments_is_refused(text):
    with pytest.raises(InvalidInput, match="^input is not JSON: "):
        GAME.read(text.encode())


def test_more_than_a_megabyte_is_refused_with_its_size():
    raw = json.dumps({"units": [], "pad": " " * MAX_BYTES}).encode()
    with pytest.raises(InvalidInput, match=r"input is 1,000,\d{3} bytes; a position is at most"):
        GAME.read(raw)


def test_deep_nesting_is_refused():
    with pytest.raises(InvalidInput, match="nests too deeply"):
        GAME.read(b"[" * 100_000 + b"]" * 100_000)


@pytest.mark.parametrize("name, raw", [
    ("units", json.dumps({"units": [unit(f"u{k}", "A1", 1) for k in range(20_000)]})),
    ("keys", json.dumps({f"k{k}": k for k in range(60_000)})),
    ("comments", "{" + "/* x */" * 140_000 + "}"),
    ("comment soup", "/*" * 499_000),
    ("commas", "[" + "1," * 499_000 + "]"),
    ("strings", '["' + "\\u00fc" * 160_000 + '", ]'),
    ("quotes", '"\\' * 499_000),
])
def test_a_megabyte_is_read_or_refused_at_once(name, raw):
    """Linear in the input: well under a second when the machine is idle, where a
    quadratic reader takes minutes; the bound of a minute tells the two apart."""
    data = raw.encode()
    assert len(data) <= MAX_BYTES, len(data)
    started = time.perf_counter()
    try:
        GAME.read(data)
    except InvalidInput:
        pass
    assert time.perf_counter() - started < 60, name


# ---------------------------------------------------------------- the descriptor


@pytest.mark.parametrize("data", REAL, ids=lambda data: f"{len(json.dumps(data))}B")
def test_the_descriptor_reads_back_what_it_writes(data):
    position = GAME.from_json(data)
    written = GAME.to_json(position)
    assert written["game"] == GAME.name == "stronghold"
    assert GAME.from_json(json.loads(json.dumps(written))) == position


def test_the_schema_names_the_game():
    document = GAME.schema()
    assert document["$id"].endswith("/stronghold.json")
    assert document["properties"]["game"]["const"] == "stronghold"


def test_unknown_answers_are_unknown():
    for answer in (Plan.unknown(0.5), Outcome.unknown(0.5), Race.unknown(0.5)):
        assert answer.status is Status.UNKNOWN
        assert answer.stats.seconds == 0.5
    assert Race.unknown(0.5).to_json()["defender_first"] is None
    assert Outcome.unknown(0.5).to_json()["winner"] is None
    assert Plan.unknown(0.5).to_json()["status"] == "unknown"


def test_options_are_checked():
    with pytest.raises(InvalidInput, match="defender must be one of greedy, passive"):
        ClearOptions(defender="angry")
    with pytest.raises(InvalidInput, match="method must be one of cpsat, search"):
        ClearOptions(method="guess")
    with pytest.raises(InvalidInput, match="max_turns must be at least 1"):
        ClearOptions(max_turns=0)
    with pytest.raises(OutOfRange, match="max_turns 1001 is more than the limit of 1000"):
        ClearOptions(max_turns=1001)
    assert ClearOptions(max_turns=1000).max_turns == 1000
