"""The Farbduell rules on the Classic and Belagerung tables: the test vectors of the
docs/farbduell.md §8 and the seed's Bomb cases."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import IllegalMove, InvalidInput
from solver.farbduell.actions import Draw, Keep, Play
from solver.farbduell.position import Position
from solver.farbduell.rules import apply, legal_actions, new_game, scores
from tests.support.farbduell import TABLES, play, position


def test_the_tables_hold_112_cards():
    assert {name: len(table.deck) for name, table in TABLES.items()} == {
        "classic": 112, "belagerung": 112, "tag_nacht": 112}


def test_scoring_example_of_the_seed():
    state = position([], ["red-skip", "joker", "blue-9"], ["green-bomb", "yellow-0"],
                     winner=0)
    assert scores(state) == (99, 20, 79)


def test_bomb_with_three_players_hits_the_next_player():
    a, b, c = ["red-bomb", "red-1", "red-2"], ["red-3", "red-4"], ["red-5", "red-6"]
    state = play(position(a, b, c), "red-bomb", "red-3", "red-5", "red-1")
    assert state.to_move == 1 and len(state.hands[1]) == 1 + 4 and state.fuse is None


def test_bomb_with_four_players_hits_the_bomber():
    hands = [["red-bomb", "red-1"], ["red-2", "red-3"], ["red-4", "red-5"], ["red-6", "red-7"]]
    state = play(position(*hands), "red-bomb", "red-2", "red-4", "red-6")
    assert state.to_move == 0 and len(state.hands[0]) == 1 + 4


def test_bomb_with_two_players_hits_the_bomber():
    state = play(position(["red-bomb", "red-1", "red-2"], ["red-3", "red-4", "red-5"]),
                 "red-bomb", "red-3", "red-1", "red-4")
    assert state.to_move == 0 and len(state.hands[0]) == 1 + 4


def test_a_skip_changes_who_the_bomb_hits_with_two_players():
    state = play(position(["red-bomb", "red-1", "red-2"], ["red-skip", "red-3", "red-5"]),
                 "red-bomb", "red-skip", "red-3", "red-1")
    assert state.to_move == 1 and len(state.hands[1]) == 1 + 4


def test_a_second_bomb_relights_the_fuse_with_two_more_cards():
    a, b, c = ["red-bomb", "blue-1", "red-2"], ["blue-bomb", "blue-3", "red-4"], ["blue-5", "red-6"]
    state = play(position(a, b, c), "red-bomb", "blue-bomb")
    assert state.fuse is not None and state.fuse.size == 6
    state = play(state, "blue-5", "blue-1", "blue-3")
    assert state.to_move == 2 and len(state.hands[2]) == 1 + 6 and state.fuse is None


def test_classic_stack_of_draw2_grows_and_is_collected_whole():
    hands = [["red-draw2", "red-1"], ["blue-draw2", "red-2"], ["green-draw2", "red-3"],
             ["yellow-5", "red-4"]]
    state = play(position(*hands), "red-draw2", "blue-draw2", "green-draw2")
    assert (state.pending, state.to_move) == (6, 3)
    assert legal_actions(state) == [Draw()]
    state = play(state, "draw")
    assert len(state.hands[3]) == 2 + 6 and state.pending == 0 and state.to_move == 0


def test_classic_draw4_cannot_be_answered():
    state = play(position(["draw4", "red-1"], ["blue-draw2", "draw4", "red-2"]), "draw4 blue")
    assert state.colour == "blue" and legal_actions(state) == [Draw()]
    with pytest.raises(IllegalMove, match="a stack of 4 waits"):
        play(state, "draw4 red")
    assert len(play(state, "draw").hands[1]) == 3 + 4


def test_belagerung_ladder_and_shield():
    hands = [["red-draw2", "draw4", "red-1"], ["draw4", "blue-draw2", "red-2"],
             ["green-shield", "red-3"]]
    state = play(position(*hands, table="belagerung"), "red-draw2", "draw4 green")
    assert (state.pending, state.pending_kind) == (6, "draw4")
    with pytest.raises(IllegalMove):
        play(state, "blue-draw2")
    state = play(state, "green-shield")
    assert state.pending == 0 and state.to_move == 0 and state.colour == "green"
    assert len(state.hands[2]) == 1


def test_belagerung_standing_shield_takes_the_next_stack():
    hands = [["red-shield", "red-1"], ["red-draw2", "red-2"]]
    state = play(position(*hands, table="belagerung"), "red-shield", "red-draw2", "draw")
    assert state.shields == (0, 0) and len(state.hands[0]) == 1 and state.to_move == 1


def test_last_card_has_no_effect():
    state = play(position(["red-draw2"], ["red-1", "red-2"]), "red-draw2")
    assert state.winner == 0 and state.pending == 0 and len(state.hands[1]) == 2


def test_a_joker_as_last_card_still_names_its_colour():
    state = play(position(["joker"], ["red-1"]), "joker blue")
    assert state.winner == 0 and state.colour == "blue"


def test_two_players_skip_and_reverse_play_again():
    state = play(position(["red-skip", "red-reverse", "red-1"], ["red-2"]), "red-skip")
    assert state.to_move == 0
    assert play(state, "red-reverse").to_move == 0


def test_drawing_a_playable_card_offers_play_or_keep():
    state = play(position(["blue-1"], ["green-2"]), "draw")   # the pile starts with red-0
    assert state.drawn == state.table.card("red-0") and state.to_move == 0
    assert legal_actions(state) == [Play(state.drawn), Keep()]
    assert play(state, "keep").to_move == 1


def test_drawing_an_unplayable_card_ends_the_turn():
    state = play(position(["blue-1"], ["green-2"], top="blue-9"), "draw")
    assert state.drawn is None and state.to_move == 1 and len(state.hands[0]) == 2


def test_bad_positions_are_refused_with_their_reasons():
    with pytest.raises(InvalidInput) as info:
        Position.from_json({"hands": [["red-11"], ["joker"] * 5], "discard": ["red-9"]}, TABLES)
    assert any("'red-11' is not a card" in p for p in info.value.problems)
    assert any("joker 5 times (the deck has 4)" in p for p in info.value.problems)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6),
       table=st.sampled_from(sorted(TABLES)))
def test_random_playouts_keep_every_card_and_round_trip(seed, players, table):
    state, rng = new_game(TABLES[table], players, seed), random.Random(seed)
    for _ in range(300):
        if state.winner is not None:
            break
        state = apply(state, rng.choice(legal_actions(state)))
        assert sum(map(len, state.hands)) + len(state.draw_pile) + len(state.discard) == 112
    assert Position.from_json(state.to_json(), TABLES) == state
