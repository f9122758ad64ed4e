"""Positions: JSON in and out, filling in the unseen cards, and refusal of bad input with
messages that name each fault."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import InvalidInput
from solver.ffkingdom import NAME, load, new_game, parse
from tests.support.ffkingdom import RULES, has, playout, position, problems_of, rest_of_deck

HAND = ["katapult", "mauer", "turm"]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32))
def test_str_parses_back_to_the_same_state(seed):
    for state in playout(new_game(RULES, seed), seed, limit=150):
        assert parse(str(state), RULES) == state


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_to_json_loads_back_complete(seed):
    for state in playout(new_game(RULES, seed), seed, limit=60)[::5]:
        loaded = load(json.loads(json.dumps(state.to_json())), RULES)
        assert loaded.complete
        assert loaded.state == state
        assert loaded.state.rules is RULES


def test_str_is_one_compact_json_line():
    state = position({"hand": HAND}, {})
    text = str(state)
    assert "\n" not in text and ", " not in text
    data = json.loads(text)
    assert data["game"] == NAME
    assert list(data) == ["game", "round", "to_move", "first_player", "actions_left",
                          "resource_win", "winner", "seed", "players", "deck", "discard"]


def test_missing_fields_take_the_start_values():
    state = position({"castle": 20, "W": 10, "hand": ["katapult"]}, {"wall": 5, "castle": 20})
    me, them = state.players
    assert (me.castle, me.wall, me.stocks, me.producers) == (20, 22, (6, 10, 6, 5), (2, 2, 2, 0))
    assert (them.castle, them.wall, them.stocks) == (20, 5, (6, 6, 6, 5))
    assert (state.round, state.to_move, state.actions_left, state.winner) == (1, 0, 1, None)
    assert state.resource_win is True


def test_unseen_cards_fill_the_opponent_hand_then_the_deck_in_table_order():
    loaded = load({"players": [{"hand": ["katapult"]}, {}]}, RULES)
    assert not loaded.opponent_hand_known and not loaded.deck_known and not loaded.complete
    state = loaded.state
    assert state.players[1].hand == tuple(sorted(["mauer"] * 4 + ["wehrgang"] * 3
                                                 + ["bollwerk"] * 2))
    assert list(state.deck) == rest_of_deck(["katapult"], state.players[1].hand)
    assert len(state.deck) == 62
    assert sum(state.cards().values()) == 72


def test_hidden_hand_size_is_honoured():
    state = position({"hand": HAND}, {"hand_size": 4})
    assert state.players[1].hand == ("mauer", "mauer", "mauer", "wehrgang")
    assert len(state.deck) == 72 - 3 - 4


def test_given_opponent_hand_and_deck_make_the_position_complete():
    rest = rest_of_deck(HAND, ["drache"])
    loaded = load({"players": [{"hand": HAND}, {"hand": ["drache"]}], "deck": rest[:10],
                   "discard": rest[10:]}, RULES)
    assert loaded.complete
    assert loaded.state.discard == tuple(rest[10:])


def test_parse_refuses_a_position_with_unseen_cards():
    text = json.dumps({"players": [{"hand": HAND}, {}]})
    with pytest.raises(InvalidInput, match="opponent's hand or the deck unknown"):
        parse(text, RULES)


def test_parse_refuses_text_that_is_not_json():
    with pytest.raises(InvalidInput, match="not JSON"):
        parse("{players: }", RULES)


# --- refusals ---------------------------------------------------------------------------------
# Each fault is named by the path of its field, as the wire schema's are.

def test_unknown_card_id_is_named():
    problems = problems_of({"players": [{"hand": ["katapult", "drache2"]}, {}]})
    assert has(problems, "players[0].hand", "'drache2'", "no card is called")


def test_unknown_card_in_a_given_hand_is_the_only_problem():
    """The hand was given; it must not also be reported as missing."""
    problems = problems_of({"players": [{"hand": ["katapult", "drache2"]}, {}]})
    assert problems == ["players[0].hand: holds 'drache2', which no card is called"]


def test_unknown_card_in_the_deck_is_named():
    problems = problems_of({"players": [{"hand": HAND}, {}], "deck": ["mauer", "moat"]})
    assert has(problems, "deck", "'moat'")


@pytest.mark.parametrize("card", [["katapult"], {"id": "katapult"}, 7, None, True])
def test_a_card_that_is_not_a_string_is_named(card):
    problems = problems_of({"players": [{"hand": ["mauer", card]}, {}]})
    assert len(problems) == 1
    assert has(problems, "players[0].hand[1]: must be a string")


def test_more_copies_than_the_deck_has_is_refused():
    problems = problems_of({"players": [{"hand": ["festung"]}, {"hand": ["festung"]}],
                            "discard": ["festung"]})
    assert problems == ["position holds festung 3 times (the deck has 1)"]


def test_shields_count_as_schild_cards():
    problems = problems_of({"players": [{"hand": ["schild"], "shields": 2}, {}]})
    assert problems == ["position holds schild 3 times (the deck has 2)"]


def test_hand_over_nine_cards_is_refused():
    problems = problems_of({"players": [{"hand": ["mauer"] * 4 + ["angriff"] * 6}, {}]})
    assert problems == ["players[0].hand: holds 10 cards, more than 9"]


def test_negative_castle_is_refused():
    problems = problems_of({"players": [{"hand": HAND, "castle": -1}, {}]})
    assert problems == ["players[0].castle: must be at least 0, not -1"]


def test_castle_above_100_is_refused():
    problems = problems_of({"players": [{"hand": HAND}, {"castle": 101}]})
    assert problems == ["players[1].castle: must be at most 100, the castle that wins, not 101"]


@pytest.mark.parametrize(("fields", "fault"), [
    ({"wall": 10**20}, "players[0].wall: must be at most 10000, not 100000000000000000000"),
    ({"builders": 500}, "players[0].builders: must be at most 100, not 500"),
    ({"G": 2**32}, "players[0].G: must be at most 1000000, not 4294967296"),
])
def test_numbers_past_what_a_game_reaches_are_refused(fields, fault):
    """As a server refuses them: every range fits the message's fields."""
    assert problems_of({"players": [{"hand": HAND, **fields}, {}]}) == [fault]


def test_a_round_past_what_a_game_reaches_is_refused():
    problems = problems_of({"round": 10**9, "players": [{"hand": HAND}, {}]})
    assert problems == ["round: must be at most 1000, not 1000000000"]


def test_unknown_fields_are_refused():
    problems = problems_of({"players": [{"hand": HAND, "moat": 1}, {}], "weather": "rain"})
    assert sorted(problems) == ["players[0].moat: is not a field of this position",
                                "weather: is not a field of this position"]


def test_wrong_game_is_refused():
    problems = problems_of({"game": "castle-wars", "players": [{"hand": HAND}, {}]})
    assert problems == ["game: input should be 'fortress-fight-kingdom', not \"castle-wars\""]


def test_to_move_two_is_refused():
    problems = problems_of({"to_move": 2, "players": [{"hand": HAND}, {}]})
    assert problems == ["to_move: must be at most 1, not 2"]


def test_mover_hand_must_be_given():
    problems = problems_of({"to_move": 1, "players": [{"hand": HAND}, {}]})
    assert problems == ["players[1].hand: must be given, as player 1 is to move"]


@pytest.mark.parametrize(("entry", "fault"), [
    ({"per": 2}, "players[1].poison[1].ticks: is missing"),
    ({"per": 0, "ticks": 2}, "players[1].poison[1].per: must be at least 1, not 0"),
    ({"per": 2, "ticks": "4"}, "players[1].poison[1].ticks: must be a whole number, not \"4\""),
    ({"per": 2, "ticks": 4, "from": 0}, "players[1].poison[1].from: is not a field"),
    (7, "players[1].poison[1]: must be an object, not 7"),
])
def test_bad_poison_entry_is_refused(entry, fault):
    problems = problems_of({"players": [{"hand": HAND}, {"poison": [{"per": 2, "ticks": 1},
                                                                     entry]}]})
    assert len(problems) == 1
    assert has(problems, fault), problems


def test_poison_that_is_not_a_list_is_refused():
    problems = problems_of({"players": [{"hand": HAND, "poison": {"per": 2, "ticks": 1}}, {}]})
    assert has(problems, "players[0].poison: must be a list")


@pytest.mark.parametrize(("fields", "fragment"), [
    ({"locked": "feuer"}, "players[0].locked: input should be 'bau', 'angriff', 'magie' or "
                          "'gold', not \"feuer\""),
    ({"double_next": 1}, "players[0].double_next: must be true or false, not 1"),
    ({"shields": -1}, "players[0].shields: must be at least 0, not -1"),
    ({"producers_played": {"wizards": 1}},
     "players[0].producers_played.wizards: is not a field of this position"),
    ({"G": 2.5}, "players[0].G: must be a whole number, not 2.5"),
    ({"castle": None}, "players[0].castle: must be a whole number, not null"),
    ({"hand_size": 2}, "players[0].hand_size: is 2, but the hand lists 3 cards"),
])
def test_bad_player_fields_are_refused(fields, fragment):
    problems = problems_of({"players": [{"hand": HAND, **fields}, {}]})
    assert has(problems, fragment), problems


def test_a_hidden_hand_over_nine_is_refused():
    problems = problems_of({"players": [{"hand": HAND}, {"hand_size": 12}]})
    assert problems == ["players[1].hand_size: must be at most 9, a full hand, not 12"]


@pytest.mark.parametrize(("fields", "fragment"), [
    ({"round": 0}, "round: must be at least 1, not 0"),
    ({"winner": 2}, "winner: must be at most 1, not 2"),
    ({"resource_win": "no"}, "resource_win: must be true or false, not \"no\""),
    ({"deck_size": 3}, "deck_size: is 3, but 62 cards are unplaced"),
    ({"deck": ["drache"], "deck_size": 3}, "deck_size: is 3, but the deck lists 1 cards"),
    ({"seed": -1}, "seed: must be at least 0, not -1"),
    ({"seed": 2**64}, "seed: must be at most 18446744073709551615"),
])
def test_bad_position_fields_are_refused(fields, fragment):
    problems = problems_of({"players": [{"hand": ["katapult"]}, {}], **fields})
    assert has(problems, fragment), problems


def test_cards_left_unplaced_are_refused():
    problems = problems_of({"players": [{"hand": HAND}, {"hand": []}], "deck": ["drache"]})
    assert has(problems, "position places 4 of 72 cards; missing: mauer, mauer")


@pytest.mark.parametrize(("data", "fault"), [
    ([], "a position must be a JSON object"),
    ({"players": [{"hand": HAND}]}, "players: has 1 items, at least 2"),
    ({"players": "two"}, "players: must be a list, not \"two\""),
    ({}, "players: is missing"),
])
def test_not_a_position_is_refused(data, fault):
    assert problems_of(data) == [fault]


def test_several_problems_are_listed_at_once():
    problems = problems_of({"game": "castle-wars", "to_move": 2, "weather": "rain",
                            "players": [{"hand": HAND, "castle": -1},
                                        {"poison": [{"per": 2}]}]})
    assert len(problems) == 5
    assert has(problems, "castle-wars")
    assert has(problems, "to_move", "not 2")
    assert has(problems, "weather: is not a field")
    assert has(problems, "players[0].castle", "not -1")
    assert has(problems, "players[1].poison[0]")
