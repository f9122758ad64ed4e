"""Simple ways to choose an action: at random, and greedily one action ahead."""

from __future__ import annotations

import random

from solver.ffkingdom.actions import Action, Discard, Timeout
from solver.ffkingdom.evaluate import card_value, evaluate
from solver.ffkingdom.position import State
from solver.ffkingdom.rules import apply, legal_actions, plays


def random_action(state: State, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state))


def greedy_action(state: State) -> Action:
    """The play that most improves the board right now, or else discarding the card
    furthest out of reach; it never looks past its own action."""
    me = state.to_move
    player = state.mover
    if not player.hand:
        return Timeout()
    worst = min(player.hand, key=lambda card: card_value(player, card, state.rules))
    options: list[Action] = [*plays(state), Discard((worst,))]
    return max(options, key=lambda action: evaluate(apply(state, action), me))


def greedy_turn(state: State) -> State:
    """The state after the player to move plays out the turn greedily."""
    me = state.to_move
    while state.winner is None and state.to_move == me:
        state = apply(state, greedy_action(state))
    return state
