"""Hypothesis strategies of Fortress Fight Kingdom positions for the never-crash tests:
mutations of real positions (most are refused) and plausible ones (most are read)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from solver.ffkingdom import State, new_game
from solver.ffkingdom.data import CARD_TYPES
from solver.ffkingdom.schema import MAX_GOLD, MAX_PRODUCERS, MAX_ROUND, MAX_TICK, MAX_WALL
from tests.support.ffkingdom import RULES, playout


def view_of(state: State) -> dict[str, Any]:
    """What the player to move sees: the opponent's hand and the deck left out."""
    data = state.to_json()
    del data["deck"]
    del data["players"][1 - data["to_move"]]["hand"]
    return data


def _real_positions() -> list[dict[str, Any]]:
    positions = []
    for seed in (1, 2, 3):
        states = playout(new_game(RULES, seed), seed, limit=40)
        for state in (states[0], states[len(states) // 2]):
            if state.winner is None:
                positions += [state.to_json(), view_of(state)]
    positions.append({"players": [{"W": 4, "hand": ["angriff", "mauer"]},
                                  {"castle": 6, "wall": 0}]})
    positions.append({"players": [{"hand": []}, {"hand": []}], "discard": list(RULES.deck())})
    return positions


REAL = _real_positions()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=12) | st.sampled_from(["katapult", "mauer", "bau", "schild"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=8)
                      | st.sampled_from(["players", "hand", "castle"]), children, max_size=4),
    max_leaves=20)

ODD = st.sampled_from([None, True, 0, -1, 2, 10**20, -10**20, 2**32, 2**64, 1.5, 1e308, "",
                       "katapult", ["katapult"], {"card": "katapult"}, [["mauer"]], {}, [],
                       "ü" * 60, [{"per": 2, "ticks": 3}]]) | json_values


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A real position changed in one to three places: a value replaced (a list where a
    card goes, a huge or negative number, ...), a key dropped or added, an item dropped or
    doubled, or the value nested deeper."""
    data: Any = copy.deepcopy(draw(st.sampled_from(REAL)))
    for _ in range(draw(st.integers(1, 3))):
        path: list[Any] = []
        node = data
        while isinstance(node, (dict, list)) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict)
                                       else range(len(node))))
            path.append(key)
            node = node[key]
        if not path:
            data = copy.deepcopy(draw(ODD | st.just([data]) | st.just({"position": data})))
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        action = draw(st.sampled_from(["replace", "drop", "double", "add", "nest"]))
        if action == "replace":
            parent[key] = copy.deepcopy(draw(ODD))
        elif action == "drop":
            del parent[key]
        elif action == "double" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif action == "add" and isinstance(parent, dict):
            name = draw(st.sampled_from(["extra", "game", "hand", "deck", "round"]))
            parent[name] = copy.deepcopy(draw(ODD))
        else:
            parent[key] = [parent[key]] if draw(st.booleans()) else {"v": parent[key]}
    return data


_RANGES = {"castle": 100, "wall": MAX_WALL, "Z": 200, "W": 200, "K": 200, "G": MAX_GOLD,
           "builders": MAX_PRODUCERS, "mages": 30, "guards": 3, "shields": 2}


@st.composite
def plausible(draw: st.DrawFn) -> Any:
    """A view of a real position with its numbers anywhere in their ranges, cards taken
    from the hand, effects and locks: positions that read, to put to the questions."""
    data: Any = copy.deepcopy(draw(st.sampled_from([d for d in REAL if "deck" not in d])))
    for _ in range(draw(st.integers(1, 4))):
        player = data["players"][draw(st.integers(0, 1))]
        change = draw(st.sampled_from(["number", "card", "effect", "lock", "turn"]))
        if change == "number":
            key = draw(st.sampled_from(sorted(_RANGES)))
            player[key] = draw(st.integers(0, _RANGES[key]))
        elif change == "card" and player.get("hand"):
            player["hand"].pop(draw(st.integers(0, len(player["hand"]) - 1)))
        elif change == "effect":
            ticks = st.fixed_dictionaries({"per": st.integers(1, MAX_TICK),
                                           "ticks": st.integers(1, 5)})
            player[draw(st.sampled_from(["poison", "heal"]))] = draw(st.lists(ticks, max_size=3))
        elif change == "lock":
            player["locked"] = draw(st.sampled_from([None, *CARD_TYPES]))
            player["double_next"] = draw(st.booleans())
        else:
            data["actions_left"] = draw(st.integers(0, 4))
            data["round"] = draw(st.integers(1, MAX_ROUND))
            data["resource_win"] = draw(st.booleans())
    return data
