"""Fortress Fight Kingdom hints that tell the truth: a proven win is a win (chance 1, the
plan that wins), never a sentinel number; otherwise a chance of winning between 0 and 1,
the mean over the sampled worlds of the fitted evaluation's logistic, with `value` its
log-odds."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.budget import Status
from solver.ffkingdom import apply, load, new_game
from solver.ffkingdom.evaluate import FITTED_WEIGHTS, chance, evaluate, log_odds, win_chance
from solver.ffkingdom.hints import Settings, hint
from solver.ffkingdom.puzzles import win_this_turn
from tests.ffkingdom.test_hints import mid_game, redealt
from tests.support.ffkingdom import RULES, WIN_THIS_TURN, playout

FAST = Settings(worlds=2, shortlist=3)


def numbers(data: object) -> list[float]:
    """Every number in a JSON value."""
    if isinstance(data, dict):
        return [n for value in data.values() for n in numbers(value)]
    if isinstance(data, list):
        return [n for value in data for n in numbers(value)]
    return [data] if isinstance(data, float | int) and not isinstance(data, bool) else []


def test_a_proven_win_is_a_win_not_a_sentinel():
    state = load(WIN_THIS_TURN, RULES).state
    answer = hint(state, settings=FAST)
    assert answer.status is Status.SOLVED and answer.wins
    assert (answer.win_chance, answer.value) == (1.0, None)
    assert answer.plan[0] == answer.action
    assert all(chance == 1.0 for _, chance in answer.runners_up)
    data = answer.to_json()
    assert (data["wins"], data["win_chance"], data["value"]) == (True, 1.0, None)
    assert all(entry["wins"] and entry["value"] is None for entry in data["runners_up"])
    assert max(numbers({key: value for key, value in data.items() if key != "seconds"})) == 1.0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 10**6))
def test_every_hint_gives_a_chance_of_winning_and_its_log_odds(seed, pick):
    state = mid_game(seed, pick)
    answer = hint(state, settings=FAST, seed=seed)
    assert answer.status is Status.SOLVED and answer.win_chance is not None
    assert 0 <= answer.win_chance <= 1
    chances = [answer.win_chance, *(chance for _, chance in answer.runners_up)]
    assert chances == sorted(chances, reverse=True) and all(0 <= c <= 1 for c in chances)
    if 0 < answer.win_chance < 1:
        assert answer.value == pytest.approx(math.log(answer.win_chance
                                                      / (1 - answer.win_chance)))
    else:
        assert answer.value is None


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), pick=st.integers(0, 10**6), shuffle=st.randoms())
def test_a_win_is_claimed_exactly_when_the_turn_wins_whatever_is_hidden(seed, pick, shuffle):
    state = mid_game(seed, pick)
    answer = hint(state, settings=FAST, seed=seed)
    assert answer.wins == (win_this_turn(state).status is Status.SOLVED)
    if answer.wins:
        for world in (state, redealt(state, shuffle)):
            for action in answer.plan:
                world = apply(world, action)
            assert world.winner == state.to_move


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_chance_is_the_fitted_logistic_and_certain_once_the_game_is_over(seed):
    states = playout(new_game(RULES, seed), seed)
    over = states[-1]
    assert over.winner is not None
    assert (win_chance(over, over.winner), win_chance(over, 1 - over.winner)) == (1.0, 0.0)
    for state in random.Random(seed).sample(states[:-1], 5):
        fitted = evaluate(state, 0, FITTED_WEIGHTS)
        assert win_chance(state, 0) == pytest.approx(1 / (1 + math.exp(-fitted)))
        assert win_chance(state, 0) + win_chance(state, 1) == pytest.approx(1)


def test_chance_and_log_odds_are_inverse_and_finite_at_the_ends():
    for odds in (-800.0, -3.0, 0.0, 0.5, 800.0):
        assert 0 <= chance(odds) <= 1
    for p in (0.01, 0.3, 0.5, 0.97):
        assert chance(log_odds(p)) == pytest.approx(p)
    assert (log_odds(0.0), log_odds(1.0)) == (None, None)


def test_the_json_of_an_estimate_names_its_chance():
    state = new_game(RULES, 3)
    data = json.loads(json.dumps(hint(state, settings=FAST).to_json()))
    assert data["wins"] is False and 0 < data["win_chance"] < 1
    assert data["value"] == pytest.approx(log_odds(data["win_chance"]), abs=2e-3)
    for entry in data["runners_up"]:
        assert set(entry) == {"action", "value", "win_chance", "wins"}
        assert entry["wins"] is False and 0 <= entry["win_chance"] <= data["win_chance"]
