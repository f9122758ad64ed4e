"""Hypothesis strategies of Farbduell positions for the never-crash tests: real positions
(deals and positions along random games on every table, hand-made ones with what is rare
in play) and their mutations, mild (what still reads now and then) or harsh."""

from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import strategies as st

from solver.farbduell.data import default_tables
from solver.farbduell.rules import apply, legal_actions, new_game

TABLES = default_tables()


def _positions() -> list[dict[str, Any]]:
    """Deals and positions along random games on every table, and hand-made ones with
    what is rare in play: a stack, a hunt, a fuse, a clock, a colour to be named."""
    found: list[dict[str, Any]] = [
        {"hands": [["red-skip", "blue-skip", "blue-7"], ["green-1"]], "discard": ["red-9"]},
        {"table": "belagerung", "hands": [["red-1"], ["blue-2"], []], "discard": ["blue-draw2"],
         "pending": 4, "pending_kind": "draw2", "shields": [0, 1, 0], "to_move": 1,
         "direction": -1, "seed": 2**62, "winner": None, "drawn": None},
        {"hands": [["red-1", "green-bomb"], ["blue-2"]], "discard": ["joker"],
         "colour": "green", "fuse": {"size": 6, "count": 1, "skip_next": True}},
        {"table": "tag_nacht", "hands": [["red-1/pink-1"], ["blue-2/teal-2"]],
         "discard": ["red-3/joker"], "colour": None, "side": "night", "clock": None},
        {"table": "tag_nacht", "hands": [["red-1/pink-1"], ["blue-2/teal-2"]],
         "discard": ["yellow-3/joker"], "colour": "orange", "side": "night",
         "pending": 1, "pending_kind": "hunt", "hunt_colour": "orange",
         "clock": {"count": 2, "skip_next": False}},
    ]
    rng = random.Random(5)
    for name in sorted(TABLES):
        for players in (2, 3):
            state = new_game(TABLES[name], players, rng.randrange(1000))
            found.append(state.to_json())
            for _ in range(rng.randrange(5, 60)):
                if state.winner is not None:
                    break
                state = apply(state, rng.choice(legal_actions(state)))
            found.append(state.to_json())
    return found


POSITIONS = _positions()
KEYS = sorted(POSITIONS[1].keys() | POSITIONS[-1].keys())

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(
    max_size=12) | st.sampled_from(["red-7", "joker", "red-7/teal-skipall", "pink", "hunt",
                                    "draw2", "night", "classic", "tag_nacht", "farbduell"])
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner,
                                        max_size=4), max_leaves=12)
numbers = st.sampled_from([-1, 0, 1, 2, 5, 6, 7, 12, 2**31, 2**64, -(10**20), 10**20])


def _nested(depth: int) -> Any:
    value: Any = "red-7"
    for _ in range(depth):
        value = [value]
    return value


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside `value` down to a depth of 6, itself first."""
    places = [path]
    if len(path) == 6:
        return places
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, inner in items:
        places.extend(_places(inner, (*path, key)))
    return places


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A real position with a few things changed: mildly (a card moved to another hand or
    pile, a small number or a null set, a key dropped: what still reads now and then) or
    harshly (a value replaced by any JSON, an item duplicated or wrapped in a list or an
    object, a number out of range, a value nested deep, a key added)."""
    data = copy.deepcopy(draw(st.sampled_from(POSITIONS)))
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            _mild(draw, data)
        else:
            _harsh(draw, data)
    return data


def _mild(draw: st.DrawFn, data: dict[str, Any]) -> None:
    hands = data.get("hands")
    piles = [hand for hand in hands if isinstance(hand, list)] if isinstance(hands, list) else []
    piles += [data[key] for key in ("draw_pile", "discard") if isinstance(data.get(key), list)]
    change = draw(st.sampled_from(["move", "number", "null", "drop"]))
    if change == "move":
        if any(piles):
            source = draw(st.sampled_from([pile for pile in piles if pile]))
            card = source.pop(draw(st.integers(0, len(source) - 1)))
            draw(st.sampled_from(piles)).append(card)
    elif change == "number":
        key = draw(st.sampled_from(["to_move", "winner", "pending", "direction", "seed"]))
        data[key] = draw(st.integers(-1, 4))
    else:
        key = draw(st.sampled_from(KEYS))
        if change == "null":
            data[key] = None
        else:
            data.pop(key, None)


def _harsh(draw: st.DrawFn, data: dict[str, Any]) -> None:
    path = draw(st.sampled_from(_places(data)))
    if not path:
        data[draw(st.sampled_from(KEYS))] = draw(values | numbers)
        return
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    change = draw(st.sampled_from(["replace", "number", "drop", "twice", "list", "object",
                                   "deep"]))
    if change == "replace":
        parent[last] = draw(values)
    elif change == "number":
        parent[last] = draw(numbers)
    elif change == "drop":
        del parent[last]
    elif change == "twice" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    elif change == "list":
        parent[last] = [parent[last]]
    elif change == "object":
        parent[last] = {"card": parent[last]}
    else:
        parent[last] = _nested(draw(st.sampled_from([3, 40, 300])))
