"""Reading positions never crashes: any JSON value, mutations of real positions and
spoiled bytes give a position or one InvalidInput naming the faults; the positions that
read fine are answered by both questions (or refused) without any other exception.
Also: the wire schema agrees with the rules and the descriptor reads what it writes."""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.ffkingdom import NAME, Position, State, apply, legal_actions, load, new_game
from solver.ffkingdom.data import CARD_TYPES
from solver.ffkingdom.game import GAME as DESCRIPTOR
from solver.ffkingdom.game import HINT, PUZZLE, HintOptions, PuzzleOptions
from solver.ffkingdom.hints import Hint
from solver.ffkingdom.puzzles import PuzzleAnswer
from solver.ffkingdom.schema import MAX_CARDS, CardType, PlayerSchema, PositionSchema
from solver.reading import MAX_BYTES, MAX_UNKNOWN_KEYS
from tests.support.ffkingdom import RULES
from tests.support.ffkingdom_strategies import REAL, json_values, mutated, plausible, view_of

SMALL = Budget(seconds=0.05, nodes=2_000, table_entries=None)


def _read(data: Any) -> Position | None:
    try:
        return load(data)
    except InvalidInput as error:
        assert error.problems and all(error.problems)
        assert all("\n" not in problem for problem in error.problems)
        return None


def _ask(position: Position) -> None:
    """Both questions answer or refuse with InvalidInput; nothing else escapes."""
    for question, options in ((PUZZLE, PuzzleOptions(1)), (PUZZLE, PuzzleOptions(2)),
                              (HINT, HintOptions(worlds=2))):
        try:
            answer = question.ask(position, options, SMALL)
        except InvalidInput:
            continue
        assert isinstance(answer.status, Status)
        json.dumps(answer.to_json())


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_value_is_a_position_or_refused(data):
    _read(data)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_position_is_a_position_or_refused(data):
    _read(data)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated() | plausible())
def test_what_reads_fine_is_answered_or_refused(data):
    position = _read(data)
    if position is not None:
        _ask(position)


@pytest.mark.parametrize("data", REAL[:4], ids=lambda data: f"{len(json.dumps(data))}B")
def test_real_positions_are_answered(data):
    position = load(data)
    _ask(position)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["katapult", "mauer", ["mauer"], {"id": "mauer"}, 7, None]),
                max_size=6), st.booleans())
def test_cards_that_are_lists_or_objects_are_named(hand, in_deck):
    """The crash the issue names: a card that is a list or an object."""
    data: dict[str, Any] = {"players": [{"hand": hand}, {}]}
    if in_deck:
        data = {"players": [{"hand": []}, {}], "deck": hand}
    position = _read(data)
    if any(not isinstance(card, str) for card in hand):
        assert position is None


def test_a_key_with_a_line_break_is_named_on_one_line():
    with pytest.raises(InvalidInput) as caught:
        load({"players": [{"hand": []}, {}], "a\nb": 1})
    assert "\n" not in str(caught.value)


# ---------------------------------------------------------------- bytes


def test_bytes_that_are_not_utf8_are_one_line():
    with pytest.raises(InvalidInput) as caught:
        DESCRIPTOR.read(b'{"players": [\xff\xfe]}', "position.json")
    assert str(caught.value) == "position.json is not UTF-8 text (byte 13 is 0xff)"


def test_a_byte_order_mark_is_accepted():
    raw = json.dumps(REAL[0]).encode()
    assert DESCRIPTOR.read(b"\xef\xbb\xbf" + raw) == DESCRIPTOR.read(raw)


def test_more_than_a_megabyte_is_refused_with_its_size():
    raw = json.dumps({"players": [{"hand": []}, {}], "pad": " " * MAX_BYTES}).encode()
    with pytest.raises(InvalidInput, match=r"input is 1,000,\d{3} bytes; a position is at most"):
        DESCRIPTOR.read(raw)


def test_deep_nesting_is_refused():
    with pytest.raises(InvalidInput, match="nests too deeply"):
        DESCRIPTOR.read(b"[" * 100_000 + b"]" * 100_000)


@pytest.mark.parametrize(("data", "fault"), [
    ({"players": [{"hand": ["mauer"] * (MAX_CARDS + 1)}, {}]},
     f"players[0].hand: has {MAX_CARDS + 1} items, at most {MAX_CARDS}"),
    ({"players": [{"hand": []}, {}], "discard": [7] * 100_000},
     f"discard: has 100000 items, at most {MAX_CARDS}"),
    ({"players": [{"hand": []}, {}, {}]}, "players: has 3 items, at most 2"),
    ({"players": [{"hand": [], "poison": [{"per": 1, "ticks": 1}] * 101}, {}]},
     "players[0].poison: has 101 items, at most 100"),
    ({"players": [{"hand": [], **{f"k{k}": 0 for k in range(3_000)}}, {}]},
     f"players[0]: has 3001 items, at most {len(PlayerSchema.model_fields) + MAX_UNKNOWN_KEYS}"),
    ({"players": [{"hand": []}, {}], **{f"k{k}": 0 for k in range(3_000)}},
     f"a position has 3001 items, at most {len(PositionSchema.model_fields) + MAX_UNKNOWN_KEYS}"),
])
def test_a_list_or_object_longer_than_the_game_allows_is_one_fault(data, fault):
    """Refused by its length before any item is read: one fault, however many items."""
    with pytest.raises(InvalidInput) as caught:
        load(data)
    assert caught.value.problems == [fault]


# ---------------------------------------------------------------- the schema and the descriptor


def test_the_schema_names_the_game_and_the_card_types():
    assert PositionSchema.model_fields["game"].default == NAME == DESCRIPTOR.name
    assert get_args(CardType) == CARD_TYPES


def test_the_schema_lists_every_card():
    document = DESCRIPTOR.schema()
    assert document["$id"].endswith(f"/{NAME}.json")
    card = document["properties"]["discard"]["items"]
    assert card["enum"] == list(RULES.cards)


@pytest.mark.parametrize("data", REAL, ids=lambda data: f"{len(json.dumps(data))}B")
def test_the_descriptor_reads_back_what_it_writes(data):
    position = DESCRIPTOR.from_json(data)
    written = DESCRIPTOR.to_json(position)
    assert written["game"] == NAME
    again = DESCRIPTOR.from_json(json.loads(json.dumps(written)))
    assert again == position  # the same state, the same parts known


def test_a_view_keeps_the_opponents_hand_and_the_deck_unknown():
    state = new_game(RULES, 4)
    written = Position.from_json(view_of(state)).to_json()
    opponent = written["players"][1 - state.to_move]
    assert "deck" not in written and written["deck_size"] == len(state.deck)
    assert "hand" not in opponent and opponent["hand_size"] == 9


def test_a_complete_state_reads_back_as_a_state():
    state = new_game(RULES, 5)
    assert State.from_json(state.to_json()) == state
    assert State.NAME == Position.NAME == NAME


def test_unknown_answers_are_unknown():
    for answer in (PuzzleAnswer.unknown(0.5), Hint.unknown(0.5)):
        assert answer.status is Status.UNKNOWN
        assert answer.stats.seconds == 0.5
        assert answer.to_json()["status"] == "unknown"


# ---------------------------------------------------------------- an empty hand


def test_an_empty_hand_can_only_time_out():
    """A position may give the player to move no cards: the timer runs out, the hand is
    refilled. The searches and the hint offer that rather than failing."""
    state = load({"players": [{"hand": []}, {"hand": []}],
                  "discard": list(RULES.deck())}).state
    assert [str(action) for action in legal_actions(state)] == ["timeout"]
    after = apply(state, legal_actions(state)[0])
    assert after.to_move == 1 and len(after.players[0].hand) == 9
    position = Position(state, True, True)
    assert PUZZLE.ask(position, PuzzleOptions(2), SMALL).status is not Status.SOLVED
    advice = HINT.ask(position, HintOptions(worlds=2), SMALL)
    assert [str(action) for action in advice.plan] == ["timeout"]
