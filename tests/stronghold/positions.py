"""Positions the Stronghold tests share: docs/stronghold.md E.3's cases, built from unit lists."""

from __future__ import annotations

from solver.stronghold.position import Position


def siege(mode: str, attackers: dict[str, list[int]], defenders: dict[str, list[int]],
          **fields) -> Position:
    """Attacker units ready in base, defender units on the named battlefields, turn 1."""
    units = [{"id": f"{owner.lower()}{k}", "owner": owner, "might": might}
             for owner, mights in attackers.items() for k, might in enumerate(mights, 1)]
    units += [{"id": f"d{where}{k}", "owner": "D", "might": might, "loc": where}
              for where, mights in defenders.items() for k, might in enumerate(mights, 1)]
    return Position.from_json({"mode": mode, "units": units, **fields})


EACH_22 = {"A1": [2, 2], "A2": [2, 2], "A3": [2, 2]}
E3 = {   # case -> (position, winner, T), docs/stronghold.md E.3
    1: (siege("1v3", {"A1": [2], "A2": [2], "A3": [2]}, {"O1": [1], "O2": [1]}),
        "attackers", 20),
    2: (siege("1v3", EACH_22, {"O1": [1], "O2": [1]}), "attackers", 16),
    3: (siege("1v3", {"A1": [2], "A2": [2], "A3": [2]}, {"O1": [5], "O2": [5], "O3": [5]}),
        "defender", 9),
    4: (siege("1v2", {"A1": [3, 3], "A2": [3, 3]}, {"O1": [1], "O2": [1]}), "attackers", 14),
    5: (siege("1v3", {"A1": [4], "A2": [4], "A3": [4]}, {"O1": [3], "O2": [3], "O3": [3]}),
        "attackers", 20),
    6: (siege("1v3", EACH_22, {"O1": [3], "O2": [3], "O3": [3]}), "attackers", 19),
}
