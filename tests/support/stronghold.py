"""Stronghold positions the tests share: docs/stronghold.md C.2's example, E.2's plan,
E.3's cases (as positions built from unit lists, and case 1 as its JSON), a near end,
a position of every field, and the fuzzer's small 1v3 game."""

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

SPEC_EXAMPLE = {   # docs/stronghold.md C.2, comments aside
    "mode": "1v3", "win_target": 6, "turn_order": ["D", "A1", "A2", "A3"], "turn": 5,
    "defender_turns_taken": 1,
    "grid": {"O": ["O1", "O2", "O3"], "I": ["I1", "I2", "I3"], "S": ["S1", "S2", "S3"]},
    "removed": [], "control": {"O1": "D", "O2": "A1"},
    "units": [
        {"id": "r1", "owner": "D", "might": 1, "assault": 0, "shield": 0, "tank": False,
         "ganking": False, "loc": "O1", "ready": True},
        {"id": "a", "owner": "A1", "might": 4, "assault": 0, "shield": 0, "tank": False,
         "ganking": False, "loc": "base", "ready": True}],
    "defender_score": 0, "reinforcements": {"A1": [{"turn": 6, "might": 2}]},
    "burnouts": {"D": [], "A1": []}, "counters": {"defender_bonus": 0, "consolation": {"A1": 0}},
}

# A 1v3 game at its start, every kind of unit (a shield, an assault bonus): where the
# fuzzer's Stronghold mutations begin, with the example above.
FUZZ_EXAMPLE = {"mode": "1v3", "turn": 1, "units": [
    {"id": "a1", "owner": "A1", "might": 3}, {"id": "a2", "owner": "A2", "might": 2},
    {"id": "a3", "owner": "A3", "might": 2, "assault": 1},
    {"id": "d1", "owner": "D", "might": 2, "loc": "O1"},
    {"id": "d2", "owner": "D", "might": 1, "loc": "O2", "shield": 1}]}


def unit(id: str, owner: str, might: int, loc: str | None = None, **extras) -> dict:
    """A unit's JSON: in base unless `loc` says, with any other field given."""
    return {"id": id, "owner": owner, "might": might, **({"loc": loc} if loc else {}), **extras}


# docs/stronghold.md E.2: A1 to move on turn 2, the Outer row O1 {3}, O2 {2, 2 Tank}, O3 empty; one
# defender unit in base.
E2 = {"mode": "1v3", "turn": 2, "units": [
    unit("u4", "A1", 4), unit("u3", "A1", 3), unit("u2", "A1", 2), unit("u1", "A1", 1),
    unit("d3", "D", 3, "O1"), unit("d2", "D", 2, "O2"), unit("t2", "D", 2, "O2", tank=True),
    unit("b2", "D", 2)]}
# docs/stronghold.md E.3 case 1: two Recruits against one Might-2 unit per attacker:
# cleared on turn 20.
CASE_1 = {"mode": "1v3", "units": [
    unit("r1", "D", 1, "O1"), unit("r2", "D", 1, "O2"),
    unit("a", "A1", 2), unit("b", "A2", 2), unit("c", "A3", 2)]}
# The Stronghold row active, A1 to move: cleared on turn 6 (passive) or 7 (greedy).
NEAR_END = {"turn": 2, "removed": ["O1", "O2", "O3", "I1", "I2", "I3"], "units": [
    unit("a1", "A1", 2), unit("a2", "A1", 2), unit("b1", "A2", 3),
    unit("d1", "D", 1, "S3"), unit("d2", "D", 1), unit("d0", "D", 4)]}

# Every field a position has, set to what its defaults are not.
RICH = {
    "mode": "1v2", "turn": 5, "win_target": 7, "defender_score": 3,
    "removed": ["O1", "O2", "O3"],
    "control": {"I1": "A1", "I3": "D"},
    "units": [unit("s", "A1", 3, "I1", assault=1, shield=2, tank=True, ganking=True,
                   ready=False),
              unit("g", "D", 4, "I3", ganking=True), unit("h", "A2", 0)],
    "reinforcements": {"D": [{"turn": 7, "might": 2, "shield": 1}],
                       "A2": [{"turn": 6, "might": 1, "tank": True}]},
    "burnouts": {"D": [9, 12]},
    "counters": {"defender_bonus": 1, "consolation": {"I2": 2}},
    "consoled": [["O2", 1]],
}
