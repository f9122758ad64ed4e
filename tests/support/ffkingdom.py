"""Positions and playouts for the Fortress Fight Kingdom tests: states built from JSON
fields, actions played, random playouts, and the puzzles the server tests share."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from solver.errors import IllegalMove, InvalidInput
from solver.ffkingdom import (
    CardTable,
    State,
    apply,
    legal_actions,
    load,
    load_cards,
    new_game,
    parse_action,
)

RULES = load_cards()


def with_config(rules: CardTable = RULES, **changes) -> CardTable:
    return dataclasses.replace(rules, config=dataclasses.replace(rules.config, **changes))


EVERY_STEP = with_config(win_check="every_step")


def position(*players: dict, rules: CardTable = RULES, **fields) -> State:
    """A state from JSON fields; player 0 is to move unless `to_move` says otherwise."""
    return load({"players": list(players), **fields}, rules).state


def act(state: State, *texts: str) -> State:
    for text in texts:
        state = apply(state, parse_action(text))
    return state


def refused(state: State, text: str) -> str:
    with pytest.raises(IllegalMove) as info:
        act(state, text)
    return str(info.value)


def problems_of(data, rules: CardTable = RULES) -> list[str]:
    with pytest.raises(InvalidInput) as info:
        load(data, rules)
    assert str(info.value) == "; ".join(info.value.problems)
    return info.value.problems


def has(problems: list[str], *fragments: str) -> bool:
    """Some single problem mentions every fragment."""
    return any(all(f in p for f in fragments) for p in problems)


def rest_of_deck(*hands: list[str], rules: CardTable = RULES) -> list[str]:
    """The cards of a full deck that none of the hands hold, in table order."""
    rest = Counter(rules.deck())
    for hand in hands:
        rest -= Counter(hand)
    return sorted(rest.elements(), key=list(rules.cards).index)


def playout(state: State, seed: int, limit: int = 5000) -> list[State]:
    """Every state of a game of uniformly random legal actions, up to `limit` actions."""
    rng = random.Random(seed)
    states = [state]
    while state.winner is None and len(states) <= limit:
        state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


# Wins this turn in 3 actions: doppelzug (two more actions), then angriff and katapult.
WIN_THIS_TURN = {"players": [
    {"W": 20, "G": 6, "hand": ["doppelzug", "katapult", "angriff", "sturmlaeufer", "mauer"]},
    {"castle": 14, "wall": 0},
]}


def whole(data: dict) -> dict:
    """The position with its unseen cards filled in and given, as a complete position."""
    return load(data, RULES).state.to_json()


# A win within two turns whatever the opponent does, found in a few milliseconds.
TWO_TURNS = whole({"players": [
    {"Z": 0, "W": 9, "K": 0, "G": 0, "hand": ["katapult", "angriff"]},
    {"castle": 12, "wall": 0, "Z": 0, "W": 0, "K": 0, "G": 0,
     "hand": ["sturmlaeufer", "angriff"]},
]})


def view(seed: int) -> dict:
    """A new game as the player to move sees it: the opponent's hand and the deck unknown."""
    data = new_game(RULES, seed).to_json()
    del data["deck"]
    del data["players"][1 - data["to_move"]]["hand"]
    return data
