"""One test per card effect per table on the Classic and Belagerung tables (docs/farbduell.md
§1–§4): numbers, Skip, Reverse, +2, Joker, +4 Joker, the Bomb (Classic),
the Shield (Belagerung), and the last card having no effect. Every position states its
cards; the draw pile starts with the cards a test names, then the rest in table order.
Tag & Nacht's faces are tested in test_tag_nacht.py."""

from __future__ import annotations

from collections import Counter

import pytest

from solver.errors import IllegalMove, InvalidInput
from solver.farbduell.data import load_tables
from solver.farbduell.position import Fuse, Position
from solver.farbduell.rules import legal_actions
from tests.support.farbduell import play

TABLES = load_tables()
BOTH = pytest.mark.parametrize("table", ["classic", "belagerung"])
COLOURS = ("red", "yellow", "green", "blue")
BOOM = ("green-2", "green-3", "yellow-5", "yellow-6")   # what a BOOM deals, matching no red-1


def position(table: str, *hands: list[str], top: str = "red-9", pile: tuple[str, ...] = (),
             **fields) -> Position:
    """A position on `table` with `top` on the discard pile and `pile` on top of the draw
    pile, then every card placed nowhere, in table order."""
    deck = TABLES[table].deck
    placed = Counter(TABLES[table].card(text) for text in [*sum(hands, []), top, *pile])
    rest = sorted((Counter(deck) - placed).elements(), key=deck.index)
    return Position.from_json({"table": table, "hands": list(hands), "discard": [top],
                               "draw_pile": [*pile, *map(str, rest)], **fields}, TABLES)



def moves(state: Position) -> set[str]:
    """The legal actions as text: "play CARD", "play CARD COLOUR", "draw", "keep"."""
    return {str(action) for action in legal_actions(state)}


def wilds(card: str) -> set[str]:
    """The plays of a wild, one per colour it may name."""
    return {f"play {card} {colour}" for colour in COLOURS}


def hand(state: Position, seat: int) -> list[str]:
    return sorted(map(str, state.hands[seat]))


# ---------------------------------------------------------------- number cards

@BOTH
def test_a_number_card_matches_by_colour_or_number_and_only_passes_the_turn(table):
    state = position(table, ["red-3", "blue-9", "green-4", "draw4"], ["yellow-1"], ["yellow-2"])
    assert moves(state) == {"play red-3", "play blue-9", *wilds("draw4"), "draw"}
    for card, colour in (("red-3", "red"), ("blue-9", "blue")):
        after = play(state, card)
        assert (after.to_move, after.colour, after.direction) == (1, colour, 1)
        assert (after.pending, after.pending_kind, after.fuse, after.shields) == (
            0, None, None, (0, 0, 0))
        assert after.top == state.table.card(card) and after.draw_pile == state.draw_pile
        assert after.hands[1:] == state.hands[1:] and len(after.hands[0]) == 3


@BOTH
def test_a_card_that_does_not_match_is_refused_with_the_reason(table):
    state = position(table, ["green-4", "red-3"], ["yellow-1"])
    with pytest.raises(IllegalMove, match="green-4 matches neither red nor 9"):
        play(state, "green-4")
    with pytest.raises(IllegalMove, match="blue-9 is not in the hand"):
        play(state, "blue-9")
    with pytest.raises(IllegalMove, match="red-3 names no colour"):
        play(state, "red-3 blue")


# ---------------------------------------------------------------- Skip

@BOTH
@pytest.mark.parametrize("direction,skipped,to_move", [(1, 1, 2), (-1, 2, 1)])
def test_skip_with_three_players_skips_the_next_player(table, direction, skipped, to_move):
    state = position(table, ["blue-skip", "red-1"], ["yellow-1"], ["yellow-2"], top="red-skip",
                     direction=direction)
    assert "play blue-skip" in moves(state)          # Skip on Skip, any colour
    after = play(state, "blue-skip")
    assert (after.to_move, after.colour, after.direction) == (to_move, "blue", direction)
    assert after.hands[skipped] == state.hands[skipped] and after.pending == 0


@BOTH
def test_skip_with_two_players_lets_the_same_player_play_again(table):
    state = play(position(table, ["red-skip", "red-1", "blue-2"], ["yellow-1"]), "red-skip")
    assert (state.to_move, state.colour, state.direction) == (0, "red", 1)
    assert moves(state) == {"play red-1", "draw"} and hand(state, 1) == ["yellow-1"]


# ---------------------------------------------------------------- Reverse

@BOTH
def test_reverse_with_three_players_flips_the_direction(table):
    hands = (["red-reverse", "red-1"], ["red-2"], ["green-reverse", "red-3"])
    state = play(position(table, *hands), "red-reverse")
    assert (state.direction, state.to_move, state.colour) == (-1, 2, "red")   # previous seat
    assert play(state, "red-3").to_move == 1                                  # and on: 2 -> 1
    back = play(position(table, *hands, top="green-9", direction=-1, to_move=2), "green-reverse")
    assert (back.direction, back.to_move, back.colour) == (1, 0, "green")


@BOTH
def test_reverse_with_two_players_lets_the_same_player_play_again(table):
    state = play(position(table, ["red-reverse", "red-1"], ["yellow-1"]), "red-reverse")
    assert state.to_move == 0 and state.direction == -1
    assert moves(state) == {"play red-1", "draw"} and hand(state, 1) == ["yellow-1"]


# ---------------------------------------------------------------- +2

@BOTH
def test_draw2_puts_two_on_the_next_player_and_each_answer_grows_the_stack(table):
    hands = (["red-draw2", "red-1"], ["blue-draw2", "red-2"], ["green-draw2", "red-3"],
             ["yellow-4", "red-4"])
    state = play(position(table, *hands), "red-draw2")
    assert (state.pending, state.pending_kind, state.to_move) == (2, "draw2", 1)
    assert hand(state, 1) == ["blue-draw2", "red-2"]     # put on the player, not dealt
    state = play(state, "blue-draw2")
    assert (state.pending, state.to_move, state.colour) == (4, 2, "blue")
    state = play(state, "green-draw2")
    assert (state.pending, state.pending_kind, state.to_move, state.colour) == (
        6, "draw2", 3, "green")


def test_classic_draw2_stack_is_answered_by_draw2_only():
    hand_b = ["blue-draw2", "red-4", "red-skip", "red-reverse", "red-bomb", "joker", "draw4"]
    state = play(position("classic", ["red-draw2", "red-1"], hand_b, ["green-1"]), "red-draw2")
    assert moves(state) == {"play blue-draw2", "draw"}
    for card in ("red-4", "red-skip", "red-reverse", "red-bomb", "joker red", "draw4 red"):
        with pytest.raises(IllegalMove, match="a stack of 2 waits: draw2 may answer it, or draw"):
            play(state, card)


def test_belagerung_draw2_stack_is_answered_by_draw2_draw4_or_shield():
    hand_b = ["blue-draw2", "draw4", "yellow-shield", "red-4", "red-skip", "red-reverse", "joker"]
    state = play(position("belagerung", ["red-draw2", "red-1"], hand_b, ["green-1"]),
                 "red-draw2")
    assert moves(state) == {"play blue-draw2", *wilds("draw4"), "play yellow-shield", "draw"}
    for card in ("red-4", "red-skip", "red-reverse", "joker red"):
        with pytest.raises(IllegalMove, match="draw2 or draw4 or shield may answer it"):
            play(state, card)


@BOTH
def test_draw_collects_the_whole_stack_and_ends_the_turn(table):
    pile = ("green-5", "blue-1", "blue-2", "yellow-3", "yellow-4", "red-5", "red-6")
    state = position(table, ["red-1"], ["green-2", "yellow-9"], ["red-3"], top="green-draw2",
                     to_move=1, pending=6, pending_kind="draw2", pile=pile)
    assert moves(state) == {"draw"}
    after = play(state, "draw")
    assert hand(after, 1) == sorted(["green-2", "yellow-9", *pile[:6]])
    assert (after.pending, after.pending_kind, after.drawn) == (0, None, None)
    assert (after.to_move, after.colour) == (2, "green")   # no play-or-keep after a collect
    assert after.draw_pile[0] == state.table.card("red-6")


# ---------------------------------------------------------------- Joker

@BOTH
def test_a_joker_is_playable_on_anything_and_names_a_colour(table):
    state = position(table, ["joker", "blue-1"], ["yellow-1"], ["yellow-2"], top="green-skip")
    assert moves(state) == {*wilds("joker"), "draw"}
    with pytest.raises(IllegalMove, match="joker names a colour: play joker COLOUR"):
        play(state, "joker")
    with pytest.raises(IllegalMove, match="purple is not a colour of this table"):
        play(state, "joker purple")
    after = play(state, "joker blue")
    assert (after.colour, after.to_move, after.pending, after.direction) == ("blue", 1, 0, 1)
    assert after.hands[1:] == state.hands[1:]


@BOTH
def test_after_a_joker_the_next_player_must_follow_the_named_colour(table):
    state = play(position(table, ["joker", "red-1"], ["red-4", "blue-2", "green-9"]),
                 "joker blue")
    assert moves(state) == {"play blue-2", "draw"}
    with pytest.raises(IllegalMove, match="red-4 matches neither blue nor joker"):
        play(state, "red-4")
    assert play(state, "blue-2").colour == "blue"


@BOTH
def test_a_joker_is_not_playable_while_a_stack_waits(table):
    state = position(table, ["joker", "red-1"], ["yellow-1"], top="red-draw2", pending=2,
                     pending_kind="draw2")
    assert moves(state) == {"draw"}
    with pytest.raises(IllegalMove, match="a stack of 2 waits"):
        play(state, "joker blue")


# ---------------------------------------------------------------- +4 Joker

def test_classic_draw4_names_a_colour_and_the_next_player_can_only_collect_four():
    pile = ("red-5", "green-5", "blue-5", "yellow-5")
    hands = (["draw4", "red-1"], ["draw4", "red-draw2", "green-4"], ["green-1", "red-2"])
    state = play(position("classic", *hands, pile=pile), "draw4 green")
    assert (state.colour, state.pending, state.pending_kind, state.to_move) == (
        "green", 4, "draw4", 1)
    assert moves(state) == {"draw"}
    for card in ("draw4 red", "red-draw2", "green-4"):
        with pytest.raises(IllegalMove, match="a stack of 4 waits: nothing may answer it"):
            play(state, card)
    state = play(state, "draw")
    assert hand(state, 1) == sorted([*hands[1], *pile])
    assert (state.pending, state.to_move, state.colour) == (0, 2, "green")
    assert moves(state) == {"play green-1", "draw"}


def test_belagerung_draw4_ladder_answers_draw2_and_draw4_but_draw2_never_draw4():
    hands = (["red-draw2", "red-1"], ["draw4", "red-2"], ["blue-draw2", "draw4", "red-3"],
             ["yellow-4", "red-4"])
    state = play(position("belagerung", *hands), "red-draw2", "draw4 yellow")
    assert (state.pending, state.pending_kind, state.colour, state.to_move) == (
        6, "draw4", "yellow", 2)
    assert moves(state) == {*wilds("draw4"), "draw"}
    with pytest.raises(IllegalMove, match="a stack of 6 waits: draw4 or shield may answer it"):
        play(state, "blue-draw2")
    state = play(state, "draw4 blue")
    assert (state.pending, state.pending_kind, state.colour, state.to_move) == (
        10, "draw4", "blue", 3)                           # the level stays +4
    state = play(state, "draw")
    assert len(state.hands[3]) == 2 + 10 and state.pending == 0 and state.to_move == 0


def test_belagerung_draw4_on_an_open_table_starts_a_stack_at_level_draw4():
    hands = (["draw4", "red-1"], ["blue-draw2", "draw4", "red-shield"])
    state = play(position("belagerung", *hands), "draw4 red")
    assert (state.pending, state.pending_kind, state.colour, state.to_move) == (
        4, "draw4", "red", 1)
    assert moves(state) == {*wilds("draw4"), "play red-shield", "draw"}


# ---------------------------------------------------------------- Bomb (Classic)

def test_the_bomb_is_classic_only_and_the_shield_belagerung_only():
    assert TABLES["classic"].card("red-bomb") in TABLES["classic"].deck
    assert TABLES["belagerung"].card("red-shield") in TABLES["belagerung"].deck
    with pytest.raises(InvalidInput, match="the belagerung table has no card red-bomb"):
        TABLES["belagerung"].card("red-bomb")
    with pytest.raises(InvalidInput, match="the classic table has no card red-shield"):
        TABLES["classic"].card("red-shield")


def test_a_bomb_lights_a_fuse_of_four_and_matches_by_its_symbol():
    state = position("classic", ["blue-bomb", "red-1"], ["yellow-1"], ["yellow-2"],
                     top="red-bomb")
    assert moves(state) == {"play blue-bomb", "play red-1", "draw"}
    after = play(state, "blue-bomb")
    assert after.fuse == Fuse(4, 3, skip_next=False)     # the handover ending it: not counted
    assert (after.to_move, after.colour) == (1, "blue") and after.hands[1:] == state.hands[1:]


@pytest.mark.parametrize("players,turns,victim", [
    (2, ["red-bomb", "red-2", "red-1", "red-6"], 0),
    (3, ["red-bomb", "red-2", "red-3", "red-1"], 1),
    (4, ["red-bomb", "red-2", "red-3", "red-4"], 0),
])
def test_after_a_normal_round_the_bomb_hits_as_the_seed_says(players, turns, victim):
    """Seed: with 3 players the explosion hits the player after the bomber, with 2 or 4
    players the bomber; the BOOM deals 4 cards to the player receiving the turn."""
    hands = [["red-bomb", "red-1", "green-9"]] + [
        [f"red-{seat + 1}", f"red-{seat + 5}", f"blue-{seat}"] for seat in range(1, players)]
    state = play(position("classic", *hands, pile=BOOM), turns[0])
    for turn, count in zip(turns[1:3], (2, 1), strict=True):
        state = play(state, turn)
        assert state.fuse == Fuse(4, count, skip_next=False)
    held = hand(state, victim)
    state = play(state, turns[3])
    assert state.fuse is None and state.to_move == victim
    assert hand(state, victim) == sorted([*held, *BOOM])


@pytest.mark.parametrize("size", [4, 6])
def test_a_bomb_on_a_burning_fuse_adds_two_and_resets_the_count(size):
    """The fuse was at its last handover: the re-light puts it back to 3, so nobody is hit
    now, and three counted handovers later the next player draws two cards more."""
    hands = (["blue-bomb", "red-1", "blue-1"], ["blue-2", "red-3"], ["blue-4", "red-5"])
    burning = {"size": size, "count": 1, "skip_next": False}
    state = play(position("classic", *hands, top="red-bomb", fuse=burning), "blue-bomb")
    assert state.fuse == Fuse(size + 2, 3, skip_next=False) and hand(state, 1) == hands[1]
    state = play(state, "blue-2", "blue-4")
    assert state.fuse == Fuse(size + 2, 1, skip_next=False)
    state = play(state, "blue-1")
    assert state.fuse is None and state.to_move == 1 and len(state.hands[1]) == 1 + size + 2


def test_the_boom_victim_then_plays_normally():
    burning = {"size": 4, "count": 1, "skip_next": False}
    hands = (["red-1", "red-2"], ["blue-3", "red-4"], ["green-5"])
    state = play(position("classic", *hands, fuse=burning, pile=BOOM), "red-1")
    assert state.fuse is None and state.to_move == 1
    assert hand(state, 1) == sorted([*hands[1], *BOOM])
    assert moves(state) == {"play red-4", "draw"}
    state = play(state, "red-4")
    assert state.to_move == 2 and hand(state, 2) == ["green-5"] and len(state.hands[1]) == 5


def test_a_boom_victim_with_a_waiting_stack_draws_the_boom_first_then_faces_the_stack():
    burning = {"size": 4, "count": 1, "skip_next": False}
    hands = (["red-draw2", "red-2"], ["blue-draw2", "red-4"], ["green-5"])
    state = play(position("classic", *hands, fuse=burning, pile=BOOM), "red-draw2")
    assert hand(state, 1) == sorted([*hands[1], *BOOM])
    assert (state.pending, state.to_move) == (2, 1)
    assert moves(state) == {"play blue-draw2", "draw"}


# ---------------------------------------------------------------- Shield (Belagerung)

@pytest.mark.parametrize("pending,kind,top", [(2, "draw2", "red-draw2"), (4, "draw4", "draw4"),
                                              (12, "draw4", "draw4")])
def test_a_shield_answer_cancels_a_stack_of_any_size(pending, kind, top):
    """Nobody draws, the shielder's turn ends, the Shield's colour is in force; an answer
    leaves no standing shield."""
    hands = (["red-1"], ["yellow-shield", "red-2"], ["yellow-3", "red-4", "green-5"])
    state = position("belagerung", *hands, top=top, colour="red", to_move=1, pending=pending,
                     pending_kind=kind)
    after = play(state, "yellow-shield")
    assert (after.pending, after.pending_kind, after.to_move, after.colour) == (
        0, None, 2, "yellow")
    assert after.shields == (0, 0, 0) and after.draw_pile == state.draw_pile
    assert (hand(after, 0), hand(after, 1), hand(after, 2)) == (
        ["red-1"], ["red-2"], sorted(hands[2]))
    assert moves(after) == {"play yellow-3", "draw"}


def test_a_shield_played_normally_stands_at_most_one():
    hands = (["blue-shield", "red-1", "red-2"], ["yellow-1"], ["yellow-2"])
    state = position("belagerung", *hands, top="red-shield")
    assert "play blue-shield" in moves(state)           # Shield on Shield, any colour
    after = play(state, "blue-shield")
    assert (after.shields, after.to_move, after.colour, after.pending) == ((1, 0, 0), 1, "blue", 0)
    again = play(position("belagerung", *hands, top="red-shield", shields=[1, 0, 0]),
                 "blue-shield")
    assert again.shields == (1, 0, 0)


@pytest.mark.parametrize("pending,kind,top", [(2, "draw2", "red-draw2"), (8, "draw4", "draw4")])
def test_a_standing_shield_is_consumed_when_its_owner_collects(pending, kind, top):
    state = position("belagerung", ["red-1"], ["green-2", "red-3"], ["red-5"], top=top,
                     colour="red", to_move=1, pending=pending, pending_kind=kind,
                     shields=[0, 1, 0])
    after = play(state, "draw")
    assert after.shields == (0, 0, 0) and hand(after, 1) == ["green-2", "red-3"]
    assert (after.pending, after.pending_kind, after.to_move) == (0, None, 2)
    assert after.draw_pile == state.draw_pile


@pytest.mark.parametrize("answer,pending", [("blue-draw2", 4), ("draw4 green", 6),
                                            ("green-shield", 0)])
def test_answering_a_stack_keeps_the_standing_shield(answer, pending):
    hands = (["red-1"], ["blue-draw2", "draw4", "green-shield", "red-3"], ["red-5"])
    state = position("belagerung", *hands, top="red-draw2", to_move=1, pending=2,
                     pending_kind="draw2", shields=[0, 1, 0])
    after = play(state, answer)
    assert after.shields == (0, 1, 0) and (after.pending, after.to_move) == (pending, 2)


def test_a_standing_shield_does_not_stop_an_ordinary_draw():
    state = position("belagerung", ["blue-1"], ["yellow-1"], pile=("green-5",), shields=[1, 0])
    after = play(state, "draw")
    assert hand(after, 0) == ["blue-1", "green-5"] and after.shields == (1, 0)
    assert after.to_move == 1


# ---------------------------------------------------------------- the last card

@pytest.mark.parametrize("table,card", [
    ("classic", "red-draw2"), ("classic", "red-skip"), ("classic", "red-reverse"),
    ("classic", "red-bomb"), ("belagerung", "red-draw2"), ("belagerung", "red-skip"),
    ("belagerung", "red-reverse"), ("belagerung", "red-shield"),
])
def test_an_action_card_as_last_card_has_no_effect(table, card):
    state = position(table, [card], ["yellow-1", "yellow-2"], ["yellow-3"])
    after = play(state, card)
    assert after.winner == 0 and moves(after) == set()
    assert (after.pending, after.pending_kind, after.fuse, after.shields, after.direction) == (
        0, None, None, (0, 0, 0), 1)
    assert after.hands[1:] == state.hands[1:] and after.draw_pile == state.draw_pile
    with pytest.raises(IllegalMove, match="the game is over: player 0 won"):
        play(after, "draw")


@BOTH
@pytest.mark.parametrize("wild", ["joker", "draw4"])
def test_a_wild_as_last_card_still_names_its_colour_and_deals_nothing(table, wild):
    state = position(table, [wild], ["yellow-1", "yellow-2"])
    with pytest.raises(IllegalMove, match="names a colour"):
        play(state, wild)
    after = play(state, f"{wild} green")
    assert (after.winner, after.colour, after.pending) == (0, "green", 0)
    assert after.hands[1] == state.hands[1]


@pytest.mark.parametrize("table,card", [("classic", "blue-draw2"), ("belagerung", "blue-draw2"),
                                        ("belagerung", "draw4 blue"),
                                        ("belagerung", "blue-shield")])
def test_a_last_card_answering_a_stack_wins_and_nobody_draws(table, card):
    state = position(table, ["red-1"], [card.split()[0]], ["yellow-3"], top="red-draw2",
                     to_move=1, pending=2, pending_kind="draw2")
    after = play(state, card)
    assert after.winner == 1 and moves(after) == set()
    assert (after.pending, after.pending_kind) == (0, None)   # the stack is void
    assert after.hands[::2] == state.hands[::2] and after.draw_pile == state.draw_pile
