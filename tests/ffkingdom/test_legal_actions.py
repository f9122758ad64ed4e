"""The legal actions against a plain statement of the rule: the engine's fast path must
find the same plays, in the same order, as reading the card table afresh, and refuse a
card (why_not_playable) exactly when it leaves it out."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.ffkingdom import Discard, Play, State, apply, new_game, why_not_playable
from solver.ffkingdom.data import CARD_TYPES, PRODUCERS, RESOURCES
from solver.ffkingdom.policies import greedy_action, random_action
from solver.ffkingdom.rules import discards, legal_actions, plays, waits
from tests.support.ffkingdom import EVERY_STEP, RULES, playout, with_config

PER_TYPE = with_config(producer_surcharge_scope="per_type")
rule_sets = st.sampled_from([RULES, EVERY_STEP, PER_TYPE,
                             with_config(producer_surcharge_step=1)])
seeds = st.integers(0, 2**32)


def reference_plays(state: State) -> list[Play]:
    """Each distinct card in hand, in hand order, whose type is not locked and whose cost
    (producers: plus the step for every producer card played, of any kind or of its own)
    every stock covers; a Blockade once per card type it may lock."""
    if state.winner is not None:
        return []
    rules, player = state.rules, state.mover
    config = rules.config
    result = []
    for card_id in sorted(set(player.hand), key=player.hand.index):
        card = rules.cards[card_id]
        if player.locked == card.type:
            continue
        extra = 0
        if card.surcharge:
            played = player.producers_played
            if config.producer_surcharge_scope == "global":
                extra = config.producer_surcharge_step * sum(played)
            else:
                extra = (config.producer_surcharge_step
                         * played[PRODUCERS.index(card.producer)])
        if all(player.stocks[RESOURCES.index(resource)] >= amount + extra
               for resource, amount in card.cost.items()):
            if "lock_type" in card.effect:
                result.extend(Play(card_id, kind) for kind in CARD_TYPES)
            else:
                result.append(Play(card_id))
    return result


def reference_discards(state: State) -> list[Discard]:
    """Every distinct set of 1..discard_max cards of the hand, in the order they first come
    up taking the hand's cards in order."""
    if state.winner is not None:
        return []
    result: list[Discard] = []
    for size in range(1, state.rules.config.discard_max + 1):
        for cards in combinations(state.mover.hand, size):
            if Discard(cards) not in result:
                result.append(Discard(cards))
    return result


def shaken(state: State, rng: random.Random) -> State:
    """The position with the mover's stocks, producer cards played and lock redrawn, so
    that every card is now and then just affordable, just not, or locked."""
    mover = replace(state.mover,
                    stocks=tuple(rng.randrange(25) for _ in RESOURCES),  # type: ignore[arg-type]
                    producers_played=tuple(rng.randrange(4) for _ in PRODUCERS),  # type: ignore[arg-type]
                    locked=rng.choice([None, None, *CARD_TYPES]))
    return state.with_player(state.to_move, mover)


def positions(rules, seed: int) -> list[State]:
    """Positions of a random game, each as played and shaken."""
    rng = random.Random(seed)
    states = [state for state in playout(new_game(rules, seed), seed, limit=300)[::3]
              if state.winner is None]
    return [*states, *(shaken(state, rng) for state in states)]


@settings(max_examples=20, deadline=None)
@given(rules=rule_sets, seed=seeds)
def test_a_card_is_refused_exactly_when_it_is_not_among_the_plays(rules, seed):
    for state in positions(rules, seed):
        played = {play.card for play in plays(state)}
        for card_id in [*rules.cards, "nichts"]:
            assert (why_not_playable(state, card_id) is None) == (card_id in played), (
                card_id, state)


@settings(max_examples=20, deadline=None)
@given(rules=rule_sets, seed=seeds)
def test_plays_and_discards_follow_the_plain_rule(rules, seed):
    for state in positions(rules, seed):
        assert plays(state) == reference_plays(state)
        assert discards(state) == reference_discards(state)


def test_fixed_seed_games_play_out_as_the_plain_rule_says():
    """A random game chooses from the plain rule's actions exactly as from the engine's
    (the same list, so the same choice from the same random numbers); a greedy game
    meets only positions where the engine's plays are the plain rule's."""
    for rules in (RULES, PER_TYPE):
        for seed in (1, 2, 3, 7, 42):
            state, reference = new_game(rules, seed), new_game(rules, seed)
            ours, theirs = random.Random(seed), random.Random(seed)
            while state.winner is None:
                action = random_action(state, ours)
                expected = theirs.choice([*reference_plays(reference),
                                          *reference_discards(reference), *waits(reference)])
                assert action == expected
                state, reference = apply(state, action), apply(reference, expected)
            state = new_game(rules, seed)
            while state.winner is None and state.round <= 300:
                assert plays(state) == reference_plays(state)
                assert legal_actions(state)[:len(plays(state))] == reference_plays(state)
                state = apply(state, greedy_action(state))
