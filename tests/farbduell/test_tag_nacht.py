"""The Tag & Nacht table: double-faced cards, the side in play, the Tischwende and the
Mitternachtsuhr, +1 and +5 stacks, Alle passen and the Farbjagd, and random playouts."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from importlib.resources import files

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import IllegalMove, InvalidInput
from solver.farbduell.actions import Choose, Draw, Keep, Play
from solver.farbduell.data import NUMBERS, Card, load_tables
from solver.farbduell.position import Clock, Position
from solver.farbduell.rules import apply, legal_actions, new_game, scores

TABLES = load_tables()
TN = TABLES["tag_nacht"]
DAY, NIGHT = ("red", "yellow", "green", "blue"), ("pink", "teal", "orange", "purple")


def position(*hands: list[str], top: str = "red-9/pink-9", pile: tuple[str, ...] = (),
             **fields) -> Position:
    """A Tag & Nacht position; the draw pile starts with `pile`, then every face placed
    nowhere, the day faces left over paired in table order with the night ones."""
    placed = [TN.card(text) for hand in hands for text in hand] + [TN.card(top)]
    placed += [TN.card(text) for text in pile]
    left = {}
    for side in ("day", "night"):
        faces = TN.faces(side)
        rest = Counter(faces) - Counter(card.face(side) for card in placed)
        left[side] = sorted(rest.elements(), key=faces.index)
    rest = [f"{day}/{night}" for day, night in zip(left["day"], left["night"], strict=True)]
    return Position.from_json({"table": "tag_nacht", "hands": list(hands), "discard": [top],
                               "draw_pile": [*pile, *rest], **fields}, TABLES)


def play(state: Position, *texts: str) -> Position:
    """Each text is a card, "CARD COLOUR" for a named colour, "draw", "keep" or
    "choose COLOUR"."""
    for text in texts:
        word, _, rest = text.partition(" ")
        if word in ("draw", "keep"):
            state = apply(state, Draw() if word == "draw" else Keep())
        elif word == "choose":
            state = apply(state, Choose(rest))
        else:
            state = apply(state, Play(TN.card(word), rest or None))
    return state


def card(text: str) -> Card:
    return TN.card(text)


def every_card(state: Position) -> Counter[Card]:
    cards = Counter(state.draw_pile) + Counter(state.discard)
    for hand in state.hands:
        cards.update(hand)
    return cards


# ---------------------------------------------------------------- the deck and the cards

def test_the_deck_holds_112_double_faced_cards_of_the_specified_faces():
    assert len(TN.deck) == 112 and all(card.night is not None for card in TN.deck)
    assert TN.colours("day") == DAY and TN.colours("night") == NIGHT
    day = Counter(face.rank for face in TN.faces("day"))
    night = Counter(face.rank for face in TN.faces("night"))
    numbers = {str(n): 8 for n in range(1, 10)}
    assert day == {**numbers, "draw1": 8, "skip": 8, "reverse": 8, "flip": 4, "clock": 4,
                   "joker": 8}
    assert night == {**numbers, "draw5": 8, "skipall": 8, "reverse": 8, "flip": 4, "clock": 4,
                     "joker": 4, "hunt": 4}
    assert {face.colour for face in TN.faces("night")} == {*NIGHT, ""}
    assert TN.answers == {"draw1": ("draw1",), "draw5": ("draw5",), "hunt": ()}


def test_a_faulty_double_faced_table_is_refused_with_its_reasons(tmp_path):
    shipped = files("solver.farbduell").joinpath("tables.toml").read_text(encoding="utf-8")
    config = shipped[:shipped.index("[tables.")]
    path = tmp_path / "tables.toml"
    path.write_text(config + """
[tables.odd]
answers = { draw1 = ["draw1"] }
[tables.odd.day]
colours = ["red", "blue"]
per_colour = { "1" = 2, draw1 = 1, flip = 1 }
wilds = { joker = 1 }
[tables.odd.night]
colours = ["blue", "teal"]
per_colour = { "1" = 2, draw5 = 1 }
wilds = { hunt = 1 }
[tables.flat]
per_colour = { "1" = 2, clock = 1 }
wilds = {}
answers = {}
""", encoding="utf-8")
    with pytest.raises(InvalidInput) as info:
        load_tables(path)
    problems = " | ".join(info.value.problems)
    assert "day and night colours must differ" in problems
    assert "has 9 day faces but 7 night faces" in problems
    assert "lacks the answers to draw5" in problems and "lacks the answers to hunt" in problems
    assert "'flat' has a clock card" in problems


def test_a_double_faced_card_shows_both_faces_and_reads_back():
    red_seven = card("red-7/teal-skipall")
    assert red_seven == Card("red", "7", Card("teal", "skipall"))
    assert str(red_seven) == "red-7/teal-skipall" and red_seven.face("night").rank == "skipall"
    for text in ("joker/pink-3", "blue-flip/hunt", "green-clock/joker",
                 "yellow-draw1/orange-draw5"):
        assert str(card(text)) == text and card(str(card(text))) == card(text)
    for text in ("red-7", "pink-7/red-7", "red-7/red-7", "red-draw5/pink-1", "hunt/pink-1",
                 "red-0/pink-1"):
        with pytest.raises(InvalidInput):
            card(text)
    with pytest.raises(InvalidInput):
        TABLES["classic"].card("red-7/teal-skipall")


def test_each_game_pairs_the_faces_at_random_from_its_seed():
    games = [new_game(TN, 3, seed) for seed in (1, 1, 2)]
    assert games[0] == games[1] and games[0] != games[2]
    pairings = [set(every_card(game)) for game in games]
    assert pairings[0] != pairings[2]
    for game in games:
        cards = every_card(game)
        assert sum(cards.values()) == 112
        for side in ("day", "night"):
            assert Counter(c.face(side) for c in cards.elements()) == Counter(TN.faces(side))
        assert game.side == "day" and game.top.rank in NUMBERS and game.colour == game.top.colour


def test_cards_match_by_their_face_on_the_side_in_play():
    hand = ["blue-9/teal-1", "red-1/teal-2", "blue-1/pink-4", "green-2/orange-9"]
    day = position(hand, ["red-2/pink-2"])
    assert {a.card for a in legal_actions(day) if isinstance(a, Play)} == {
        card("blue-9/teal-1"), card("red-1/teal-2")}
    night = position(hand, ["red-2/pink-2"], side="night", colour="pink")
    assert {a.card for a in legal_actions(night) if isinstance(a, Play)} == {
        card("blue-1/pink-4"), card("green-2/orange-9")}
    with pytest.raises(IllegalMove, match="teal-1 matches neither pink nor 9"):
        play(night, "blue-9/teal-1")


def test_scoring_counts_the_faces_of_the_side_in_play():
    hands = ([], ["red-draw1/pink-7", "joker/pink-3", "red-3/hunt"], ["blue-5/teal-skipall"])
    assert scores(position(*hands, winner=0)) == (78, 5, 73)         # 20+50+3, 5
    night = position(*hands, winner=0, side="night", colour="pink")
    assert scores(night) == (80, 20, 60)                             # 7+3+50, 20


# ---------------------------------------------------------------- each face, both sides

def test_day_plus_one_stacks_and_only_plus_one_answers_it():
    hands = [["red-draw1/pink-5", "red-1/pink-1"],
             ["blue-draw1/teal-2", "red-5/purple-draw5", "joker/teal-3"],
             ["green-4/pink-draw5", "red-6/joker"]]
    state = play(position(*hands), "red-draw1/pink-5")
    assert (state.pending, state.pending_kind, state.to_move) == (1, "draw1", 1)
    assert legal_actions(state) == [Play(card("blue-draw1/teal-2")), Draw()]
    state = play(state, "blue-draw1/teal-2")
    assert (state.pending, state.to_move, state.colour) == (2, 2, "blue")
    assert legal_actions(state) == [Draw()]
    state = play(state, "draw")
    assert len(state.hands[2]) == 2 + 2 and state.pending == 0 and state.to_move == 0


def test_night_plus_five_stacks_and_only_plus_five_answers_it():
    hands = [["green-2/pink-draw5", "red-1/pink-1"],
             ["yellow-3/teal-draw5", "blue-draw1/pink-4", "joker/pink-3"],
             ["red-draw1/orange-1", "red-4/purple-4"]]
    state = play(position(*hands, side="night", colour="pink"), "green-2/pink-draw5")
    assert (state.pending, state.pending_kind, state.to_move) == (5, "draw5", 1)
    assert legal_actions(state) == [Play(card("yellow-3/teal-draw5")), Draw()]
    with pytest.raises(IllegalMove, match="a stack of 5 waits: draw5 may answer it"):
        play(state, "blue-draw1/pink-4")
    state = play(state, "yellow-3/teal-draw5")
    assert (state.pending, state.to_move, state.colour) == (10, 2, "teal")
    assert legal_actions(state) == [Draw()]
    state = play(state, "draw")
    assert len(state.hands[2]) == 2 + 10 and state.pending == 0 and state.to_move == 0


def test_day_skip_skips_the_next_player_or_plays_again_with_two():
    three = play(position(["red-skip/pink-1", "red-1/pink-2"], ["red-2/teal-1"],
                          ["red-3/teal-2"]), "red-skip/pink-1")
    assert three.to_move == 2 and three.colour == "red"
    two = play(position(["red-skip/pink-1", "red-1/pink-2"], ["red-2/teal-1"]), "red-skip/pink-1")
    assert two.to_move == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_night_alle_passen_lets_the_player_play_again(players):
    hands = [["red-1/pink-skipall", "red-2/pink-3", "red-3/pink-4"]] + [[f"blue-{k}/teal-{k}"]
                                                        for k in range(1, players)]
    state = play(position(*hands, side="night", colour="pink"), "red-1/pink-skipall")
    assert state.to_move == 0 and state.colour == "pink" and state.hands[1:] == tuple(
        (card(f"blue-{k}/teal-{k}"),) for k in range(1, players))
    assert play(state, "red-2/pink-3").to_move == 1


@pytest.mark.parametrize("side,reverse,colour", [("day", "red-reverse/teal-1", "red"),
                                                 ("night", "blue-1/pink-reverse", "pink")])
def test_reverse_turns_the_direction_on_both_sides(side, reverse, colour):
    fields = {"side": side, "colour": "red" if side == "day" else "pink"}
    three = play(position([reverse, "green-1/orange-1"], ["green-2/orange-2"],
                          ["green-3/orange-3"], **fields), reverse)
    assert three.direction == -1 and three.to_move == 2 and three.colour == colour
    two = play(position([reverse, "green-1/orange-1"], ["green-2/orange-2"], **fields), reverse)
    assert two.direction == -1 and two.to_move == 0


@pytest.mark.parametrize("side,joker,colours", [("day", "joker/pink-3", DAY),
                                                ("night", "red-3/joker", NIGHT)])
def test_a_joker_names_a_colour_of_its_side(side, joker, colours):
    state = position([joker, "green-1/orange-1"], ["green-2/orange-2"], side=side,
                     colour="red" if side == "day" else "pink")
    assert [a for a in legal_actions(state) if isinstance(a, Play)] == [
        Play(card(joker), colour) for colour in colours]
    other = NIGHT[1] if side == "day" else DAY[1]
    with pytest.raises(IllegalMove, match="not a colour"):
        play(state, f"{joker} {other}")
    after = play(state, f"{joker} {colours[2]}")
    assert after.colour == colours[2] and after.to_move == 1 and after.side == side


def test_a_face_that_is_wild_on_the_other_side_names_no_colour():
    state = position(["red-3/joker", "red-1/pink-1"], ["green-2/orange-2"])
    with pytest.raises(IllegalMove, match="names no colour"):
        play(state, "red-3/joker pink")
    assert play(state, "red-3/joker").colour == "red"


def test_day_tischwende_turns_the_table_and_the_new_top_face_acts_not():
    hands = [["red-flip/pink-draw5", "red-1/pink-1"], ["blue-1/pink-4", "blue-2/teal-draw5",
                                                        "blue-3/teal-3"], ["green-1/orange-1"]]
    state = play(position(*hands), "red-flip/pink-draw5")
    assert state.side == "night" and state.face(state.top) == Card("pink", "draw5")
    assert state.colour == "pink" and state.pending == 0 and state.to_move == 1
    assert {a.card for a in legal_actions(state) if isinstance(a, Play)} == {
        card("blue-1/pink-4"), card("blue-2/teal-draw5")}


def test_night_tischwende_turns_the_table_back_to_day():
    hands = [["yellow-skip/pink-flip", "red-1/pink-1"], ["blue-1/teal-1"], ["green-1/orange-1"]]
    state = play(position(*hands, side="night", colour="pink"), "yellow-skip/pink-flip")
    assert state.side == "day" and state.colour == "yellow"
    assert state.to_move == 1 and state.pending == 0      # the day face's Skip is not executed


def test_a_tischwende_onto_a_wild_face_names_a_colour_of_the_new_side():
    state = position(["red-flip/hunt", "red-1/pink-1"], ["blue-1/teal-1"], ["green-1/orange-1"])
    flip = card("red-flip/hunt")
    assert [a for a in legal_actions(state) if isinstance(a, Play) and a.card == flip] == [
        Play(flip, colour) for colour in NIGHT]
    with pytest.raises(IllegalMove, match="turns the table over onto a wild"):
        play(state, "red-flip/hunt")
    with pytest.raises(IllegalMove, match="not a colour"):
        play(state, "red-flip/hunt red")
    after = play(state, "red-flip/hunt teal")
    assert after.side == "night" and after.colour == "teal"
    assert after.pending == 0 and after.hunt_colour is None and after.to_move == 1


def test_a_tischwende_as_last_card_has_no_effect():
    state = play(position(["red-flip/joker"], ["blue-1/teal-1"]), "red-flip/joker")
    assert state.winner == 0 and state.side == "day" and state.colour == "red"


def test_day_clock_flips_the_table_after_three_counted_handovers():
    a, b, c = (["red-clock/pink-1", "red-1/pink-2", "red-2/teal-5"],
               ["red-3/pink-3", "red-4/pink-4"], ["red-5/pink-5", "red-6/pink-6"])
    state = play(position(a, b, c), "red-clock/pink-1")
    assert state.clock == Clock(3, skip_next=False)     # A -> B is not counted
    state = play(state, "red-3/pink-3", "red-5/pink-5")   # B -> C (2), C -> A (1)
    assert state.clock == Clock(1, skip_next=False) and state.side == "day"
    state = play(state, "red-2/teal-5")                   # A -> B (0): the table turns over
    assert state.side == "night" and state.clock is None and state.to_move == 1
    assert state.colour == "teal" and state.face(state.top) == Card("teal", "5")


def test_night_clock_flips_the_table_back_to_day():
    a = ["blue-7/pink-clock", "red-1/pink-2", "red-2/pink-7"]
    b = ["red-3/pink-3", "red-4/pink-4", "red-5/pink-5"]
    state = play(position(a, b, side="night", colour="pink"),
                 "blue-7/pink-clock", "red-3/pink-3", "red-1/pink-2")
    assert state.side == "night" and state.clock == Clock(1, skip_next=False)
    state = play(state, "red-4/pink-4")
    assert state.side == "day" and state.colour == "red" and state.to_move == 0


def test_rewinding_the_clock_sets_it_back_to_three():
    a, b, c = (["red-clock/pink-1", "blue-2/pink-2", "blue-9/pink-3"],
               ["blue-clock/purple-1", "blue-3/teal-3", "blue-4/teal-4"],
               ["blue-5/orange-5", "blue-6/orange-6"])
    state = play(position(a, b, c), "red-clock/pink-1")   # A -> B (not counted)
    state = play(state, "blue-clock/purple-1")            # B winds again: B -> C (not counted)
    assert state.clock == Clock(3, skip_next=False) and state.colour == "blue"
    state = play(state, "blue-5/orange-5", "blue-2/pink-2")   # C -> A (2), A -> B (1)
    assert state.side == "day" and state.clock == Clock(1, skip_next=False)
    state = play(state, "blue-3/teal-3")                  # B -> C (0)
    assert state.side == "night" and state.to_move == 2 and state.colour == "teal"


def test_alle_passen_counts_one_handover_for_the_clock():
    hands = [["blue-7/pink-clock", "red-1/teal-1"],
             ["red-2/pink-skipall", "red-3/pink-3", "red-6/teal-6"],
             ["red-4/pink-4", "red-5/orange-5"]]
    night = position(*hands, side="night", colour="pink")
    state = play(night, "blue-7/pink-clock", "red-2/pink-skipall")     # A -> B (nc), B -> B (2)
    assert state.to_move == 1 and state.clock == Clock(2, skip_next=False)
    state = play(state, "red-3/pink-3")                                 # B -> C (1)
    assert state.side == "night"
    state = play(state, "red-4/pink-4")                                 # C -> A (0)
    assert state.side == "day" and state.to_move == 0 and state.colour == "red"


def test_a_clock_flip_onto_a_wild_face_lets_the_next_player_name_the_colour():
    a = ["red-clock/pink-1", "red-1/pink-2", "red-2/pink-3"]
    b = ["red-3/pink-4", "red-5/joker", "red-6/teal-6"]
    state = play(position(a, b), "red-clock/pink-1", "red-3/pink-4", "red-1/pink-2")
    state = play(state, "red-5/joker")                    # B -> A (0): night, a Joker on top
    assert state.side == "night" and state.to_move == 0 and state.colour == ""
    assert legal_actions(state) == [Choose(colour) for colour in NIGHT]
    with pytest.raises(IllegalMove, match="name the colour first"):
        play(state, "draw")
    assert Position.from_json(state.to_json(), TABLES) == state
    assert state.to_json()["colour"] is None
    state = play(state, "choose orange")
    assert state.colour == "orange" and state.to_move == 0
    assert Draw() in legal_actions(state)


def test_a_plus_one_stack_after_a_flip_can_only_be_collected():
    a = ["red-clock/pink-1", "red-1/pink-2", "green-draw1/pink-draw5", "red-draw1/orange-1"]
    b = ["red-4/orange-4", "red-draw1/teal-7", "red-5/orange-5"]
    state = play(position(a, b), "red-clock/pink-1", "red-4/orange-4", "red-1/pink-2")
    state = play(state, "red-draw1/teal-7")              # B -> A (0): the stack meets the night
    assert state.side == "night" and state.to_move == 0 and state.colour == "teal"
    assert (state.pending, state.pending_kind) == (1, "draw1")
    assert legal_actions(state) == [Draw()]              # no +1 by night, and +5 answers no +1
    state = play(state, "draw")
    assert len(state.hands[0]) == 2 + 1 and state.pending == 0 and state.to_move == 1


def test_farbjagd_draws_until_a_night_face_of_the_colour():
    hands = [["red-1/hunt", "red-2/pink-2"], ["blue-1/orange-1", "blue-2/teal-2"],
             ["green-1/purple-1"]]
    pile = ("red-3/pink-3", "blue-5/joker", "yellow-6/hunt", "joker/teal-4", "red-4/orange-7",
            "red-5/orange-8")
    state = play(position(*hands, pile=pile, side="night", colour="pink"), "red-1/hunt orange")
    assert (state.pending, state.pending_kind, state.hunt_colour) == (1, "hunt", "orange")
    assert state.colour == "orange" and state.to_move == 1
    assert legal_actions(state) == [Draw()]              # not even the orange card in hand
    with pytest.raises(IllegalMove, match="a hunt for orange waits"):
        play(state, "blue-1/orange-1")
    state = play(state, "draw")
    drawn = Counter(state.hands[1]) - Counter(map(card, hands[1]))
    assert drawn == Counter(map(card, pile[:5]))         # wild faces do not end the hunt
    assert state.to_move == 2 and state.pending == 0 and state.hunt_colour is None
    assert state.draw_pile[0] == card("red-5/orange-8") and state.colour == "orange"


def test_farbjagd_stops_when_no_card_is_left():
    state = position(["red-1/hunt", "red-2/pink-2"], ["blue-1/teal-1"], side="night",
                     colour="pink")
    state = replace(state, draw_pile=(card("red-3/pink-3"), card("joker/teal-4")))
    state = play(state, "red-1/hunt orange", "draw")     # the two, then the old top reshuffled
    assert len(state.hands[1]) == 1 + 3 and state.draw_pile == () and state.to_move == 0
    assert state.discard == (card("red-1/hunt"),)


def test_a_hunt_waiting_across_a_flip_still_draws_by_night_faces():
    a = ["red-1/pink-clock", "red-2/pink-2", "red-3/orange-2"]
    b = ["red-4/pink-3", "red-5/hunt", "red-6/pink-5"]
    pile = ("blue-1/teal-1", "green-9/purple-9", "yellow-1/orange-1", "yellow-2/orange-3")
    night = position(a, b, side="night", colour="pink", pile=pile)
    state = play(night, "red-1/pink-clock", "red-4/pink-3", "red-2/pink-2")
    state = play(state, "red-5/hunt orange")             # B -> A (0): back to day
    assert state.side == "day" and state.colour == "red" and state.pending_kind == "hunt"
    assert legal_actions(state) == [Draw()]
    state = play(state, "draw")
    assert len(state.hands[0]) == 1 + 3 and state.to_move == 1


def test_bad_tag_nacht_positions_are_refused_with_their_reasons():
    hands = [["red-7", "red-draw1/pink-1"] + ["joker/hunt"] * 5, ["blue-1/teal-1"]]
    with pytest.raises(InvalidInput) as info:
        Position.from_json({"table": "tag_nacht", "hands": hands, "discard": ["red-9/pink-9"],
                            "pending": 1, "pending_kind": "hunt"}, TABLES)
    problems = info.value.problems
    assert any("cards have two faces" in p for p in problems)
    assert any("the night face hunt 5 times (the deck has 4)" in p for p in problems)
    assert any("hunt_colour goes with pending_kind hunt" in p for p in problems)
    with pytest.raises(InvalidInput, match="side: .*'day' or 'night'"):
        position(["red-1/pink-1"], ["blue-1/teal-1"], side="dusk")
    with pytest.raises(InvalidInput, match="colour must be one of pink"):
        position(["red-1/pink-1"], ["blue-1/teal-1"], side="night", colour="red")
    with pytest.raises(InvalidInput, match="unknown field 'side'"):
        Position.from_json({"hands": [["red-1"], ["red-2"]], "discard": ["red-9"], "side": "day"},
                           TABLES)


# ---------------------------------------------------------------- random playouts

def playout(seed: int, players: int, steps: int) -> list[Position]:
    state, rng = new_game(TN, players, seed), random.Random(seed)
    states = [state]
    for _ in range(steps):
        if state.winner is not None:
            break
        state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


@settings(max_examples=10, deadline=None)  # 400 moves each, new games every run
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_random_playouts_keep_all_112_cards_and_round_trip(seed, players):
    states = playout(seed, players, 400)
    cards = every_card(states[0])
    assert sum(cards.values()) == 112
    for k, state in enumerate(states):
        assert every_card(state) == cards       # the same physical cards, faces paired alike
        assert (state.pending_kind == "hunt") == (state.hunt_colour is not None)
        assert state.colour in TN.colours(state.side) or (
            state.colour == "" and state.face(state.top).wild)
        if k % 40 == 0 or k == len(states) - 1:
            assert Position.from_json(state.to_json(), TABLES) == state


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6))
def test_games_are_functions_of_their_seeds(seed, players):
    assert playout(seed, players, 200) == playout(seed, players, 200)
