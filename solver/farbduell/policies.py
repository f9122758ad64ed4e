"""Simple ways to choose an action: at random, and greedily (the dearest card that can
be played by the face in play, a wild naming the colour the hand holds most of; else
draw, and keep a drawn card only when it cannot be played)."""

from __future__ import annotations

import random
from collections import Counter

from solver.farbduell.actions import Action, Choose, Draw, Keep, Play
from solver.farbduell.position import Position
from solver.farbduell.rules import legal_actions


def random_action(state: Position, rng: random.Random) -> Action:
    return rng.choice(legal_actions(state))


def greedy_action(state: Position) -> Action:
    if not state.colour:   # the table turned over onto a wild
        return Choose(favourite_colour(state, state.table.colours(state.side)))
    plays = [action for action in legal_actions(state) if isinstance(action, Play)]
    if not plays:
        return Keep() if state.drawn is not None else Draw()
    best = max(plays, key=lambda play: state.table.points(play.card, state.side))
    if best.colour is None:
        return best
    # a wild, or a Tischwende turning up a wild: one play per colour it may name
    named = tuple(play.colour for play in plays if play.card == best.card and play.colour)
    return Play(best.card, favourite_colour(state, named))


def favourite_colour(state: Position, colours: tuple[str, ...]) -> str:
    """Of `colours`, the one the mover's hand holds most of by the faces in play (the
    first on a tie)."""
    held = Counter(state.face(card).colour for card in state.hands[state.to_move])
    return max(colours, key=lambda colour: held[colour])
