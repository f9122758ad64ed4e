"""The evaluation: zero-sum between the players, +-WIN for a finished game, the board
weights blind to hands, castle points worth having, and card values and hand features
that agree with a plain reading of the card table."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from importlib.resources import files

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.ffkingdom import Play, State, apply, new_game
from solver.ffkingdom.data import PRODUCED, PRODUCERS, CardTable
from solver.ffkingdom.evaluate import (
    BOARD_FEATURES,
    BOARD_WEIGHTS,
    FEATURES,
    FITTED_WEIGHTS,
    WIN,
    card_value,
    evaluate,
    side_features,
)
from solver.ffkingdom.position import Player
from solver.ffkingdom.rules import cost
from tests.support.ffkingdom import RULES, playout, position, with_config

WEIGHT_SETS = pytest.mark.parametrize("weights", [BOARD_WEIGHTS, FITTED_WEIGHTS],
                                      ids=["board", "fitted"])
seeds = st.integers(0, 2**32)


def with_castle(state: State, player: int, castle: int) -> State:
    return state.with_player(player, replace(state.players[player], castle=castle))


def swap_hands(state: State) -> State:
    first, second = state.players
    return replace(state, players=(replace(first, hand=second.hand),
                                   replace(second, hand=first.hand)))


@settings(max_examples=10, deadline=None)
@given(seed=seeds, weights=st.sampled_from([BOARD_WEIGHTS, FITTED_WEIGHTS]))
def test_evaluation_is_zero_sum_between_the_players(seed, weights):
    for state in playout(new_game(RULES, seed), seed, limit=300)[::3]:
        assert evaluate(state, 0, weights) == -evaluate(state, 1, weights)


@settings(max_examples=10, deadline=None)
@given(seed=seeds, weights=st.sampled_from([BOARD_WEIGHTS, FITTED_WEIGHTS]))
def test_a_finished_game_is_win_for_the_winner_and_minus_win_for_the_loser(seed, weights):
    final = playout(new_game(RULES, seed), seed)[-1]
    assert final.winner in (0, 1)
    assert evaluate(final, final.winner, weights) == WIN
    assert evaluate(final, 1 - final.winner, weights) == -WIN


@WEIGHT_SETS
def test_a_won_position_is_win_whatever_the_board(weights):
    state = position({"castle": 1, "W": 4, "hand": ["angriff", "mauer"]},
                     {"castle": 6, "wall": 0, "builders": 9})
    over = apply(state, Play("angriff"))
    assert over.winner == 0
    assert (evaluate(over, 0, weights), evaluate(over, 1, weights)) == (WIN, -WIN)


@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_board_weights_ignore_the_hands(seed):
    for state in playout(new_game(RULES, seed), seed, limit=300)[::3]:
        if state.winner is None:
            swapped = swap_hands(state)
            assert evaluate(swapped, 0, BOARD_WEIGHTS) == evaluate(state, 0, BOARD_WEIGHTS)
            assert evaluate(swapped, 1, BOARD_WEIGHTS) == evaluate(state, 1, BOARD_WEIGHTS)


def test_fitted_weights_read_the_hands():
    state = position({"hand": ["drache", "katapult", "belagerung"]},
                     {"hand": ["mauer"]})
    assert evaluate(swap_hands(state), 0, FITTED_WEIGHTS) != evaluate(state, 0, FITTED_WEIGHTS)


def test_there_is_one_weight_per_feature():
    fitted = tomllib.loads(files("solver.ffkingdom").joinpath("fitted_eval.toml")
                           .read_text(encoding="utf-8"))["weights"]
    assert set(fitted) == set(FEATURES)
    assert len(FITTED_WEIGHTS) == len(FEATURES) == 20
    assert len(BOARD_WEIGHTS) == len(BOARD_FEATURES) == 15
    assert FITTED_WEIGHTS == tuple(float(fitted[name]) for name in FEATURES)
    state = new_game(RULES, 1)
    assert len(side_features(state.players[0], state)) == 20
    assert len(side_features(state.players[0], state, hands=False)) == 15


def test_board_weights_weigh_no_hand_feature():
    assert not any(name.startswith("hand_") for name in BOARD_FEATURES)
    assert FEATURES[len(BOARD_WEIGHTS):] == tuple(name for name in FEATURES
                                                   if name.startswith("hand_"))


@WEIGHT_SETS
@pytest.mark.parametrize("player", [0, 1])
def test_more_castle_is_better_other_things_equal(weights, player):
    state = position({"hand": ["mauer", "turm"]}, {"hand": ["angriff"]})
    values = [evaluate(with_castle(state, player, castle), player, weights)
              for castle in range(0, 101)]
    assert all(low < high for low, high in zip(values, values[1:], strict=False))
    theirs = [evaluate(with_castle(state, 1 - player, castle), player, weights)
              for castle in range(0, 101)]
    assert all(low > high for low, high in zip(theirs, theirs[1:], strict=False))


def test_board_weights_price_castle_points_by_band():
    state = position({"hand": ["mauer"]}, {"hand": ["mauer"]})

    def gain(castle: int) -> float:
        return (evaluate(with_castle(state, 0, castle + 1), 0, BOARD_WEIGHTS)
                - evaluate(with_castle(state, 0, castle), 0, BOARD_WEIGHTS))

    assert [round(gain(c), 6) for c in (10, 50, 80)] == [0.7, 1.0, 1.6]




def reference_card_value(player: Player, card_id: str, rules: CardTable) -> float:
    """card_value as its docstring states it, from the card's price now (`cost`) and what
    each stock will hold next turn (stock plus production)."""
    price = cost(player, rules.cards[card_id], rules)
    shortfall = sum(max(0, amount - player.stock(resource) - _production(player, resource, rules))
                    for resource, amount in price.items())
    return 0.15 * (2.0 + 0.4 * sum(price.values())) / (1.0 + shortfall)


def reference_hand(player: Player, rules: CardTable) -> tuple[int, ...]:
    """The hand features read from the card table: damage, castle, wall, producers, and
    the cards some stock cannot pay for even after next turn's production."""
    effects = [rules.cards[card_id].effect for card_id in player.hand]
    out_of_reach = sum(
        any(player.stock(resource) + _production(player, resource, rules) < amount
            for resource, amount in cost(player, rules.cards[card_id], rules).items())
        for card_id in player.hand)
    return (sum(e.get("dmg", 0) + e.get("direct", 0) for e in effects),
            sum(e.get("castle", 0) for e in effects), sum(e.get("wall", 0) for e in effects),
            sum("producer" in e for e in effects), out_of_reach)


def _production(player: Player, resource: str, rules: CardTable) -> int:
    """What a turn's production adds to a stock (PRODUCED: builders make Z, ...)."""
    kind = next(kind for kind, made in PRODUCED.items() if made == resource)
    per_unit = rules.config.market_gold_per_turn if resource == "G" else 1
    return player.producers[PRODUCERS.index(kind)] * per_unit


# No gold but a market making 3 G a turn: next turn's gold then often decides.
MARKETS = replace(with_config(market_gold_per_turn=3), start={**RULES.start, "G": 0, "markets": 1})


@settings(max_examples=25, deadline=None)
@given(seed=seeds, rules=st.sampled_from([RULES, with_config(producer_surcharge_scope="per_type"),
                                         MARKETS]))
def test_card_values_and_hand_features_follow_the_card_table(seed, rules):
    """The fast path (each card's terms worked out once) against the plain reading."""
    for state in playout(new_game(rules, seed), seed, limit=300)[::3]:
        for player in state.players:
            assert side_features(player, state)[len(BOARD_FEATURES):] == \
                reference_hand(player, rules)
            for card_id in player.hand:
                assert card_value(player, card_id, rules) == \
                    reference_card_value(player, card_id, rules)
