"""Simple ways to choose an action: at random, and greedily (the dearest card that can
be played, a wild naming the colour the hand holds most of; else draw, and keep a
drawn card only when it cannot be played)."""

from __future__ import annotations

import random
from collections import Counter

from solver.farbduell.engine import Action, Draw, Keep, Play, State, legal_actions


def random_action(state: State, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state))


def greedy_action(state: State) -> Action:
    plays = [action for action in legal_actions(state) if isinstance(action, Play)]
    if not plays:
        return Keep() if state.drawn is not None else Draw()
    best = max(plays, key=lambda play: state.table.points(play.card))
    if not best.card.wild:
        return best
    return Play(best.card, favourite_colour(state))


def favourite_colour(state: State) -> str:
    """The colour the mover's hand holds most of (the table's first on a tie)."""
    held = Counter(card.colour for card in state.hands[state.to_move] if not card.wild)
    return max(state.table.config.colours, key=lambda colour: held[colour])
