"""Farbduell policies, hints and bots: legal choices, hints blind to hidden cards,
deterministic games."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.budget import Status
from solver.farbduell.bots import play_game
from solver.farbduell.engine import Draw, Play, apply, legal_actions, new_game
from solver.farbduell.hints import Settings, hint, sample_world
from solver.farbduell.policies import greedy_action
from solver.selfplay import seatings, tally

from .test_engine import TABLES, position

FAST = Settings(worlds=3)


def playout_state(seed: int, steps: int):
    state, rng = new_game(TABLES["classic"], 2, seed), random.Random(seed)
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


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 40))
def test_hint_is_legal_and_blind_to_the_cards_it_cannot_see(seed, steps):
    state = playout_state(seed, steps)
    if state.winner is not None:
        return
    answer = hint(state, settings=FAST, seed=seed)
    assert answer.status is Status.SOLVED and answer.action in legal_actions(state)
    shuffled = sample_world(state, random.Random(seed + 1))
    assert hint(shuffled, settings=FAST, seed=seed).action == answer.action


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 40))
def test_sample_world_keeps_what_the_mover_sees(seed, steps):
    state = playout_state(seed, steps)
    world = sample_world(state, random.Random(seed))
    me = state.to_move
    assert world.hands[me] == state.hands[me] and world.discard == state.discard
    assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
    cards = Counter(world.draw_pile) + Counter(world.discard)
    for hand in world.hands:
        cards.update(hand)
    assert cards == Counter(state.table.deck)


def test_games_are_functions_of_their_seeds():
    seats = ("greedy", "random")
    assert play_game(seats, 7, TABLES["classic"]) == play_game(seats, 7, TABLES["classic"])


def test_greedy_beats_random_over_twenty_seeded_games():
    games = seatings(("greedy", "random"), 20, 1)
    winners = [play_game(seats, seed, TABLES["classic"]).winner for seats, seed in games]
    assert tally(("greedy", "random"), winners) == {"greedy": 20, "random": 0}
