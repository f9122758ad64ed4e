"""Properties of whole games of random legal actions."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.ffkingdom import apply, legal_actions, new_game
from tests.support.ffkingdom import EVERY_STEP, RULES, playout, with_config

FULL_DECK = Counter(RULES.deck())
LIMIT = 5000
seeds = st.integers(0, 2**32)
rule_sets = st.sampled_from([RULES, EVERY_STEP, with_config(rounding="round_half_up"),
                             with_config(producer_surcharge_scope="per_type")])
leaders = st.sampled_from([None, *RULES.leaders])


def game(rules, seed, first_leader=None, second_leader=None, resource_win=None, limit=LIMIT):
    start = new_game(rules, seed, leaders=(first_leader, second_leader),
                     resource_win=resource_win)
    return playout(start, seed, limit=limit)


@settings(max_examples=25, deadline=None)
@given(rules=rule_sets, seed=seeds, first=leaders, second=leaders, resource_win=st.booleans())
def test_nothing_ever_goes_below_zero(rules, seed, first, second, resource_win):
    for state in game(rules, seed, first, second, resource_win, limit=600):
        for player in state.players:
            assert player.castle >= 0 and player.wall >= 0
            assert min(player.stocks) >= 0
            assert player.castle <= 100
            assert player.shields >= 0 and player.guards >= 0


@settings(max_examples=25, deadline=None)
@given(rules=rule_sets, seed=seeds, resource_win=st.booleans())
def test_all_72_cards_are_always_accounted_for(rules, seed, resource_win):
    for state in game(rules, seed, resource_win=resource_win, limit=600):
        assert sum(state.cards().values()) == 72
        assert state.cards() == FULL_DECK
        assert all(len(player.hand) <= 9 for player in state.players)


@settings(max_examples=25, deadline=None)
@given(rules=rule_sets, seed=seeds)
def test_every_game_ends_within_the_limit(rules, seed):
    states = game(rules, seed)
    assert states[-1].winner in (0, 1)
    assert len(states) - 1 <= LIMIT


@settings(max_examples=10, deadline=None)
@given(rules=rule_sets, seed=seeds)
def test_every_legal_action_applies(rules, seed):
    for state in game(rules, seed)[::7]:
        for action in legal_actions(state):
            after = apply(state, action)
            assert after.cards() == FULL_DECK


@settings(max_examples=15, deadline=None)
@given(rules=rule_sets, seed=seeds)
def test_same_seed_and_actions_give_the_same_states(rules, seed):
    assert game(rules, seed) == game(rules, seed)


@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_a_finished_turn_leaves_nine_cards_and_no_lock(seed):
    states = game(RULES, seed)
    for before, after in zip(states, states[1:], strict=False):
        if after.to_move != before.to_move:
            assert len(after.players[before.to_move].hand) == 9
            assert after.players[before.to_move].locked is None
            assert after.actions_left == 1


@settings(max_examples=25, deadline=None)
@given(rules=rule_sets, seed=seeds)
def test_a_won_game_shows_its_win_condition(rules, seed):
    final = game(rules, seed)[-1]
    won, lost = final.players[final.winner], final.players[1 - final.winner]
    assert won.castle == 100 or lost.castle == 0 or max(won.stocks[:3]) >= 100
