"""Farbduell hints that tell the truth: a go-out this turn is a win with its chain, ranked
first and valued 1; cards the mover knows alike are one action, ranked once."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.budget import Budget, Meter, Status
from solver.farbduell.actions import Play
from solver.farbduell.chains import best_chain
from solver.farbduell.going_out import winning_line
from solver.farbduell.hints import Settings, hint, sample_world
from solver.farbduell.position import Position
from solver.farbduell.puzzles import solve_puzzle
from solver.farbduell.rules import apply, legal_actions, new_game
from tests.support.farbduell import GOES_OUT, TABLES, WILD

FAST = Settings(worlds=3)
UNBOUNDED = Budget(seconds=None, nodes=None, table_entries=None)
NOTHING_KNOWN = [{"opponent_hand": [], "deck_top": []}] * 2
# Two jokers that differ only in their night face, which their holder has not seen.
TWIN_JOKERS = {"table": "tag_nacht", "knows": NOTHING_KNOWN,
               "hands": [["joker/purple-9", "joker/teal-7", "blue-8/orange-8"],
                         ["green-1/pink-1", "yellow-2/purple-4"]],
               "discard": ["red-3/teal-2"]}


def read(data: dict) -> Position:
    return Position.from_json(data, TABLES)


def seen(state: Position, text: str) -> str:
    """An action's text as its player tells it: a card by its face in play."""
    word, *rest = text.split()
    if word != "play":
        return text
    card = state.table.card(rest[0])
    return " ".join(["play", str(state.face(card)), *rest[1:]])


def test_cards_told_apart_only_by_an_unseen_face_are_one_action():
    state = read(TWIN_JOKERS)
    answer = hint(state, settings=FAST).to_json()
    ranked = [answer["action"], *(other["action"] for other in answer["runners_up"])]
    told = [seen(state, text) for text in ranked]
    assert sorted(told) == ["draw", *(f"play joker {colour}"
                                      for colour in ("blue", "green", "red", "yellow"))]


def test_the_first_hint_of_tag_nacht_deal_661_is_the_same_in_a_world_it_cannot_tell_apart():
    """The case that showed it: the mover's two jokers differ only in their night faces;
    another world deals those faces afresh, and the hint must not change."""
    state = new_game(TABLES["tag_nacht"], 2, 661)
    jokers = [card for card in state.hands[state.to_move] if state.face(card).wild]
    assert len(jokers) == 2 and jokers[0].night != jokers[1].night
    world = replace(sample_world(state, random.Random(662)), knows=state.knows)
    rankings = []
    for position in (state, world):
        answer = hint(position, settings=FAST, seed=661).to_json()
        rankings.append(sorted((seen(position, entry["action"]), entry["value"])
                               for entry in [answer, *answer["runners_up"]]))
    assert rankings[0] == rankings[1]
    assert len(rankings[0]) == len({action for action, _ in rankings[0]}) == 5


def test_cards_whose_both_faces_the_mover_knows_stay_apart():
    """Without "knows" a position keeps the old assumption: the mover knows their cards
    whole, so the two jokers are two cards."""
    state = read({key: value for key, value in TWIN_JOKERS.items() if key != "knows"})
    answer = hint(state, settings=FAST)
    assert len(answer.runners_up) == 8


def test_a_go_out_is_a_win_this_turn_with_its_chain():
    state = read(GOES_OUT)
    answer = hint(state, settings=FAST)
    plays = [Play(state.table.card(card)) for card in ("red-skip", "blue-skip", "blue-7")]
    assert answer.status is Status.SOLVED and answer.wins
    assert (answer.action, answer.value, answer.chain) == (plays[0], 1.0, tuple(plays))
    assert answer.chain == best_chain(state).plays
    assert answer.chain == tuple(action for _, action in solve_puzzle(state).line)
    assert [str(action) for action, _ in answer.runners_up] == ["draw"]
    assert answer.winning == {plays[0]}
    data = answer.to_json()
    assert (data["wins"], data["value"], data["chain"]) == \
        (True, 1.0, ["play red-skip", "play blue-skip", "play blue-7"])
    assert data["runners_up"][0]["wins"] is False


def test_a_hand_that_cannot_go_out_has_no_win_and_an_estimated_chance():
    answer = hint(read(WILD), settings=FAST)
    assert not answer.wins and answer.chain == () and answer.winning == frozenset()
    assert answer.value is not None and 0 < answer.value < 1
    assert not any(entry["wins"] for entry in answer.to_json()["runners_up"])


def test_the_last_card_is_a_win_even_as_the_only_play():
    state = read({"hands": [["red-5"], ["green-1", "green-2"]], "discard": ["red-9"]})
    answer = hint(state, settings=FAST)
    assert answer.wins and answer.value == 1.0 and [str(a) for a in answer.chain] == \
        ["play red-5"]
    assert [str(action) for action, _ in answer.runners_up] == ["draw"]


def test_every_winning_action_ranks_above_every_other():
    # the two Skips then the 7 go out; the 7 first passes the turn with the Skips in hand
    state = read({"hands": [["red-skip", "red-7", "red-skip"], ["green-1"]],
                  "discard": ["red-9"]})
    answer = hint(state, settings=FAST)
    assert answer.wins and str(answer.action) == "play red-skip"
    assert len(answer.chain) == 3
    assert all(action not in answer.winning for action, _ in answer.runners_up)


def test_a_win_that_needs_an_unseen_face_is_not_claimed():
    """Tag & Nacht: the Skip keeps the turn, the clock strikes at that handover and
    turns the table over, and the last card's night face (never seen by its holder)
    happens to be playable. It wins here, but not in every world the mover cannot tell
    from this one: no proof."""
    state = read({"table": "tag_nacht", "knows": NOTHING_KNOWN,
                  "hands": [["red-skip/teal-1", "red-2/teal-3"], ["green-1/pink-1"]],
                  "discard": ["red-3/teal-2"], "clock": {"count": 1, "skip_next": False}})
    skip, last = (Play(state.table.card(card)) for card in ("red-skip/teal-1", "red-2/teal-3"))
    turned = apply(state, skip)
    assert (turned.side, turned.to_move) == ("night", 0)
    assert apply(turned, last).winner == 0
    assert winning_line(state, skip, Meter(UNBOUNDED)) is None
    assert not hint(state, settings=FAST).wins


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 120),
       table=st.sampled_from(["classic", "belagerung"]))
def test_a_proven_win_this_turn_is_exactly_a_go_out_chain(seed, steps, table):
    """Two players on a one-faced table: some action begins a proven win exactly when
    the CP-SAT chain goes out (two searches of different kinds agree)."""
    state, rng = new_game(TABLES[table], 2, seed), random.Random(seed)
    for _ in range(steps):
        if state.winner is not None:
            return
        state = apply(state, rng.choice(legal_actions(state)))
    if state.winner is not None or not state.hands[state.to_move]:
        return
    meter = Meter(UNBOUNDED)
    wins = [action for action in legal_actions(state)
            if winning_line(state, action, meter) is not None]
    assert bool(wins) == best_chain(state).goes_out


def test_a_winning_line_ends_in_the_movers_win():
    state = read(GOES_OUT)
    for action in legal_actions(state):
        line = winning_line(state, action, Meter(UNBOUNDED))
        if line is None:
            continue
        for step in line:
            assert state.to_move == 0
            state = apply(state, step)
        assert state.winner == 0
