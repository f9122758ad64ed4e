"""Farbduell policies, hints and bots: legal choices, hints that depend on nothing but
what the mover knows, deterministic games."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.budget import Status
from solver.farbduell.actions import Action, Choose, Draw, Play
from solver.farbduell.bots import BOTS, play_game
from solver.farbduell.hints import Settings, hint, sample_world
from solver.farbduell.policies import greedy_action
from solver.farbduell.position import Position
from solver.farbduell.rules import apply, legal_actions, new_game
from solver.selfplay import seatings, tally
from tests.support.farbduell import TABLES, position

FAST = Settings(worlds=3)


def playout_state(seed: int, steps: int, table: str = "classic"):
    state, rng = new_game(TABLES[table], 2, seed), random.Random(seed)
    for _ in range(steps):
        if state.winner is not None:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def test_greedy_plays_the_dearest_card_and_names_its_main_colour():
    state = position(["joker", "red-5", "blue-1", "blue-2"], ["green-1"])
    assert greedy_action(state) == Play(state.table.card("joker"), "blue")
    state = position(["red-5", "red-skip"], ["green-1"])
    assert greedy_action(state) == Play(state.table.card("red-skip"))
    assert greedy_action(position(["blue-1"], ["green-1"])) == Draw()


def _seen(state: Position, action: Action) -> str:
    """An action as its player tells it: a card by its face in play."""
    return f"play {state.face(action.card)} {action.colour}" if isinstance(action, Play) \
        else str(action)


def _ranking(state: Position, answer) -> list[tuple[str, float]]:
    return sorted([(_seen(state, answer.action), answer.value),
                   *((_seen(state, action), value) for action, value in answer.runners_up)])


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 80),
       table=st.sampled_from(sorted(TABLES)), knowing=st.booleans())
def test_hint_is_legal_and_depends_only_on_what_the_mover_knows(seed, steps, table, knowing):
    """Another world the mover cannot tell from this one (what they do not know dealt
    afresh, what they know kept: their knowledge holds there too) gets the same hint."""
    state = playout_state(seed, steps, table)
    if state.winner is not None:
        return
    fast = replace(FAST, knowing=knowing)
    answer = hint(state, settings=fast, seed=seed)
    assert answer.status is Status.SOLVED and answer.action in legal_actions(state)
    shuffled = replace(sample_world(state, random.Random(seed + 1), knowing),
                       knows=state.knows if knowing else None)
    assert _ranking(shuffled, hint(shuffled, settings=fast, seed=seed)) == \
        _ranking(state, answer)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 40),
       table=st.sampled_from(sorted(TABLES)))
def test_a_blind_world_keeps_what_the_mover_sees_and_the_games_cards(seed, steps, table):
    state = playout_state(seed, steps, table)
    world = sample_world(state, random.Random(seed), knowing=False)
    me = state.to_move
    assert world.hands[me] == state.hands[me] and world.discard == state.discard
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
    assert every_card(world) == every_card(state)


def every_card(state) -> Counter:
    cards = Counter(state.draw_pile) + Counter(state.discard)
    for hand in state.hands:
        cards.update(hand)
    return cards


def test_greedy_reads_the_faces_in_play_on_tag_nacht():
    tn = TABLES["tag_nacht"]
    # by night the red-7 shows a Farbjagd: a wild, the dearest card, naming teal (held most)
    state = Position.from_json({"table": "tag_nacht", "side": "night", "hands": [
        ["red-1/teal-3", "red-2/teal-4", "red-7/hunt", "blue-9/pink-2"], ["green-1/orange-1"]],
        "discard": ["yellow-5/pink-5"]}, TABLES)
    assert greedy_action(state) == Play(tn.card("red-7/hunt"), "teal")
    # the table turned over onto a wild: the colour is named first
    turned = replace(state, colour="")
    assert greedy_action(turned) == Choose("teal")


@pytest.mark.parametrize("table", sorted(TABLES))
def test_hint_bot_plays_whole_games_on_every_table(table):
    result = play_game(("hint", "greedy"), 3, TABLES[table])
    assert result.winner is not None and result.hints > 0


def test_games_are_functions_of_their_seeds():
    seats = ("greedy", "random")
    assert play_game(seats, 7, TABLES["classic"]) == play_game(seats, 7, TABLES["classic"])


def test_the_blind_hint_is_a_bot_beside_the_hint():
    assert BOTS == ("random", "greedy", "hint", "hint-blind")
    result = play_game(("hint", "hint-blind"), 3, TABLES["classic"])
    assert result.winner is not None and result.hints > 0
    with pytest.raises(ValueError, match="no bot is called 'hint-deaf'"):
        play_game(("hint", "hint-deaf"), 3, TABLES["classic"])


def test_greedy_beats_random_over_twenty_seeded_games():
    games = seatings(("greedy", "random"), 20, 1)
    winners = [play_game(seats, seed, TABLES["classic"]).winner for seats, seed in games]
    assert tally(("greedy", "random"), winners) == {"greedy": 20, "random": 0}
