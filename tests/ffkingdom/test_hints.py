"""Hints: legal advice from what the mover can see, the shortest win when there is one,
and honest refusals (budget, finished game)."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.ffkingdom import Discard, Play, State, apply, legal_actions, load, new_game
from solver.ffkingdom.hints import Settings, hint, sample_world
from solver.ffkingdom.knowledge import NOTHING, known
from solver.ffkingdom.puzzles import win_this_turn
from tests.support.ffkingdom import RULES, playout, position

FULL_DECK = Counter(RULES.deck())
FAST = Settings(worlds=2, shortlist=3)
NODES = Budget(seconds=None, nodes=10_000, table_entries=None)
PUZZLES = Path(__file__).parent / "puzzles"
ONE_TURN_WINS = [path for path in sorted(PUZZLES.glob("*.json"))
                 if json.loads(path.read_text(encoding="utf-8"))["turns"] == 1
                 and json.loads(path.read_text(encoding="utf-8"))["answer"]["wins"]]

seeds = st.integers(0, 2**32)
picks = st.integers(0, 10**6)


def mid_game(seed: int, pick: int, limit: int = 200) -> State:
    """A state of a random game, not yet over."""
    states = [s for s in playout(new_game(RULES, seed), seed, limit=limit) if s.winner is None]
    return states[pick % len(states)]


def redealt(state: State, rng: random.Random) -> State:
    """The same position with the opponent's hand and the deck dealt afresh from the same
    unseen cards, around what the mover knows (its known cards stay in the opponent's
    hand, its known top on the deck); the opponent knows as many of the new deck's top
    cards as it knew of the old one's."""
    opponent, knows = state.opponent, state.mover.knows
    unseen = list((Counter(opponent.hand) + Counter(state.deck)
                   - Counter(knows.opponent_hand) - Counter(knows.deck_top)).elements())
    rng.shuffle(unseen)
    free = len(opponent.hand) - len(knows.opponent_hand)
    hand = tuple(sorted([*knows.opponent_hand, *unseen[:free]]))
    deck = (*knows.deck_top, *unseen[free:])
    theirs = replace(opponent.knows, deck_top=deck[:len(opponent.knows.deck_top)])
    moved = state.with_player(1 - state.to_move, replace(opponent, hand=hand, knows=theirs))
    return replace(moved, deck=deck)


def verdict(answer) -> tuple:
    return answer.status, answer.action, answer.value, answer.plan, answer.runners_up


def replay(state: State, plan) -> State:
    for action in plan:
        state = apply(state, action)
    return state


def assert_plan_replays_to_the_end_of_the_turn(state: State, plan) -> None:
    me = state.to_move
    assert plan
    for k, action in enumerate(plan):
        assert state.winner is None and state.to_move == me, (k, plan)
        assert action in legal_actions(state), (k, action)
        state = apply(state, action)
    assert state.winner is not None or state.to_move != me


@settings(max_examples=8, deadline=None)
@given(seed=seeds, pick=picks)
def test_hint_action_is_legal_and_its_plan_replays_to_the_end_of_the_turn(seed, pick):
    state = mid_game(seed, pick)
    answer = hint(state, NODES, FAST, seed=seed)
    if answer.action is None:
        assert answer.status is Status.UNKNOWN
        return
    assert answer.status is Status.SOLVED
    assert answer.action in legal_actions(state)
    assert answer.plan[0] == answer.action
    assert_plan_replays_to_the_end_of_the_turn(state, answer.plan)


@settings(max_examples=8, deadline=None)
@given(seed=seeds, pick=picks)
def test_runners_up_are_distinct_legal_actions_other_than_the_hint(seed, pick):
    state = mid_game(seed, pick)
    answer = hint(state, NODES, FAST, seed=seed)
    others = [action for action, _ in answer.runners_up]
    assert len(set(others)) == len(others)
    assert answer.action not in others
    legal = legal_actions(state)
    assert all(action in legal for action in others)
    values = [value for _, value in answer.runners_up]
    assert values == sorted(values, reverse=True)


@settings(max_examples=8, deadline=None)
@given(seed=seeds, pick=picks, hint_seed=st.integers(0, 2**32), shuffle=st.randoms())
def test_hint_is_the_same_whatever_the_opponent_holds_and_the_deck_order(
        seed, pick, hint_seed, shuffle):
    state = mid_game(seed, pick)
    other = redealt(state, shuffle)
    assert other.cards() == state.cards()
    assert other.mover == state.mover
    assert verdict(hint(other, NODES, FAST, hint_seed)) == \
        verdict(hint(state, NODES, FAST, hint_seed))


@settings(max_examples=20, deadline=None)
@given(seed=seeds, pick=picks, world_seed=st.integers(0, 2**32))
def test_sample_world_keeps_what_the_mover_sees(seed, pick, world_seed):
    state = mid_game(seed, pick)
    world = sample_world(state, random.Random(world_seed))
    me, them = state.to_move, 1 - state.to_move
    assert world.players[me] == replace(state.players[me], knows=known(state))
    assert replace(world.players[them], hand=(), knows=NOTHING) == \
        replace(state.players[them], hand=(), knows=NOTHING)
    assert len(world.players[them].hand) == len(state.players[them].hand)
    assert world.discard == state.discard
    assert len(world.deck) == len(state.deck)
    assert (world.to_move, world.first_player, world.round, world.actions_left,
            world.resource_win, world.winner) == \
        (state.to_move, state.first_player, state.round, state.actions_left,
         state.resource_win, state.winner)
    assert world.cards() == FULL_DECK
    assert Counter(world.opponent.hand) + Counter(world.deck) == \
        Counter(state.opponent.hand) + Counter(state.deck)


def test_sample_world_is_a_function_of_the_random_source():
    state = mid_game(5, 40)
    assert sample_world(state, random.Random(9)) == sample_world(state, random.Random(9))


def test_a_win_this_turn_is_taken_by_its_fewest_actions():
    state = position({"W": 2, "G": 2, "hand": ["flinker_bote", "flinker_bote", "sturmlaeufer",
                                                "angriff", "katapult", "mauer"]},
                     {"castle": 9, "wall": 0})
    answer = hint(state, settings=FAST)
    assert answer.status is Status.SOLVED
    assert answer.wins and answer.win_chance == 1.0
    assert answer.plan == (Play("flinker_bote"), Play("flinker_bote"), Play("sturmlaeufer"),
                           Play("angriff"))
    assert len(answer.plan) == len(win_this_turn(state).line) == 4
    assert answer.runners_up == ((Play("sturmlaeufer"), 1.0), (Play("mauer"), 1.0))
    assert_plan_replays_to_the_end_of_the_turn(state, answer.plan)
    assert replay(state, answer.plan).winner == 0


def test_a_one_action_win_is_preferred_to_a_longer_one():
    state = position({"W": 6, "hand": ["sturmlaeufer", "angriff", "mauer"]},
                     {"castle": 6, "wall": 0})
    answer = hint(state, settings=FAST)
    assert answer.plan == (Play("angriff"),)
    assert answer.wins and answer.win_chance == 1.0
    assert answer.runners_up == ((Play("mauer"), 1.0), (Play("sturmlaeufer"), 1.0))


@pytest.mark.parametrize("path", ONE_TURN_WINS, ids=lambda path: path.stem)
def test_hint_plan_is_as_short_as_the_puzzle_solver_win(path):
    state = load(json.loads(path.read_text(encoding="utf-8"))["position"], RULES).state
    answer = hint(state, settings=FAST)
    assert answer.status is Status.SOLVED
    assert answer.wins and answer.win_chance == 1.0
    assert len(answer.plan) == len(win_this_turn(state).line)
    assert_plan_replays_to_the_end_of_the_turn(state, answer.plan)
    assert replay(state, answer.plan).winner == state.to_move


def test_a_budget_that_runs_out_gives_unknown_and_no_action():
    state = new_game(RULES, 3)
    answer = hint(state, Budget(seconds=None, nodes=1, table_entries=None), FAST)
    assert answer.status is Status.UNKNOWN
    assert (answer.action, answer.value, answer.plan, answer.runners_up) == (None, None, (), ())


def test_a_finished_game_is_refused():
    state = position({"W": 4, "hand": ["angriff", "mauer"]}, {"castle": 6, "wall": 0})
    over = apply(state, Play("angriff"))
    assert over.winner == 0
    with pytest.raises(InvalidInput, match="the game is over: player 0 won"):
        hint(over)


def test_discards_in_a_plan_are_legal_discards():
    state = position({"Z": 0, "W": 0, "K": 0, "G": 0,
                      "hand": ["bollwerk", "drache", "katapult", "belagerung"]}, {})
    answer = hint(state, settings=FAST)
    assert answer.status is Status.SOLVED
    assert isinstance(answer.action, Discard)
    assert answer.action in legal_actions(state)
