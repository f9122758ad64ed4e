"""Mutations of JSON values and their bytes, to fuzz the position readers with: a value
replaced by another (huge, negative, a list where a card goes, ...; with NOT_FINITE, a
number JSON has not), a key dropped or added, a list item dropped or doubled, a value
wrapped, or the bytes spoiled (not UTF-8, a byte-order mark, cut short, nested deep).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 7, 10**20, -10**20, 1.5, float("1e308"), "", "x", "7H",
    "red-7", "joker", "A1", "D", "O1", "base", [], [1], ["7H"], [["7H"]], {}, {"a": 1},
    {"card": "7H"}, "play katapult", 2**63, 2**64, "\u0000", "ü" * 50,
]
# Python's numbers that json.dumps writes as NaN, Infinity and -Infinity, which JSON has
# not: for the bytes of a position, never for a reader's value (JSON's reader gives none)
NOT_FINITE: list[Any] = [float("nan"), float("inf"), float("-inf")]


def mutate(value: Any, rng: random.Random, odd: Sequence[Any] = ODD_VALUES) -> Any:
    """One mutation somewhere in `value` (a copy); a value put in is one of `odd`."""
    value = copy.deepcopy(value)
    path = _random_path(value, rng)
    if not path:
        return rng.choice([*odd, [value], {"x": value}])
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    action = rng.random()
    if action < 0.45:
        parent[key] = rng.choice(odd)
    elif action < 0.6:
        parent[key] = _nudge(parent[key], rng)
    elif action < 0.75 and isinstance(parent, dict):
        del parent[key]
    elif action < 0.85 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif action < 0.9 and isinstance(parent, list):
        del parent[key]
    elif action < 0.95 and isinstance(parent, dict):
        parent[rng.choice(["extra", "game", "winner", "seed", "round"])] = rng.choice(odd)
    else:
        parent[key] = [parent[key]] if rng.random() < 0.5 else {"v": parent[key]}
    return value


def _nudge(item: Any, rng: random.Random) -> Any:
    if isinstance(item, bool):
        return not item
    if isinstance(item, int):
        return item + rng.choice([-2, -1, 1, 2, 100, -100, 10**9])
    if isinstance(item, str) and item:
        return item[:-1] if rng.random() < 0.5 else item + rng.choice("7XS-")
    return item


def _random_path(value: Any, rng: random.Random) -> list[Any]:
    path: list[Any] = []
    while isinstance(value, (dict, list)) and value and rng.random() < 0.8:
        key = rng.choice(list(value) if isinstance(value, dict) else range(len(value)))
        path.append(key)
        value = value[key]
    return path


def spoil(raw: bytes, rng: random.Random) -> bytes:
    """Bytes a file could hold instead of clean JSON."""
    choice = rng.randrange(4)
    if choice == 0:
        return b"\xef\xbb\xbf" + raw
    if choice == 1:
        cut = rng.randrange(len(raw) + 1)
        return raw[:cut] + b"\xff\xfe" + raw[cut:]
    if choice == 2:
        return raw[: rng.randrange(len(raw) + 1)]
    return b"[" * 5000 + raw + b"]" * 5000
