"""Combat on one battlefield (docs/stronghold.md C.4): both sides' pools of effective
Might are dealt at once; each side kills the valid kill set that hurts the other most.

A kill set K for a pool X is valid when its lethal thresholds fit (sum of L <= X), it
kills every Tank before any other unit, and it could not go on: K is everything, or some
unit that could be next (a Tank while one lives, else any survivor) needs more than the
damage left. Of the valid sets the casualty policy takes the most killed effective Might,
then the most units, then the lowest ids: deterministic, and the worst case for the
side being hit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from solver.stronghold.position import Unit


@dataclass(frozen=True)
class Combat:
    attackers_left: tuple[Unit, ...]
    defenders_left: tuple[Unit, ...]


def resolve(attackers: Sequence[Unit], defenders: Sequence[Unit]) -> Combat:
    """Who survives when `attackers` move onto `defenders` (attack values might + assault,
    defence values might + shield)."""
    pool_a = sum(u.attack() for u in attackers)
    pool_d = sum(u.defence() for u in defenders)
    killed_d = kill_set(defenders, pool_a, Unit.defence)
    killed_a = kill_set(attackers, pool_d, Unit.attack)
    return Combat(tuple(u for u in attackers if u not in killed_a),
                  tuple(u for u in defenders if u not in killed_d))


def kill_set(targets: Sequence[Unit], pool: int,
             value: Callable[[Unit], int]) -> frozenset[Unit]:
    """The units `pool` damage kills among `targets`, by the casualty policy. Every subset
    is weighed, by index (a combat may hold a player's every unit: 2^16 subsets)."""
    ordered = sorted(targets, key=lambda u: u.id)
    lethal = [max(1, value(u)) for u in ordered]
    everyone = frozenset(range(len(ordered)))
    tanks = frozenset(k for k in everyone if ordered[k].tank)
    best: tuple[tuple[int, int, list[str]], tuple[int, ...]] | None = None
    for size in range(len(ordered) + 1):
        for chosen in combinations(range(len(ordered)), size):
            left = pool - sum(lethal[k] for k in chosen)
            if left < 0:
                continue
            tanks_alive = tanks.difference(chosen)
            if tanks_alive and not tanks.issuperset(chosen):
                continue
            next_ones = tanks_alive or everyone.difference(chosen)
            if next_ones and all(lethal[k] <= left for k in next_ones):
                continue        # it could go on
            key = (-sum(value(ordered[k]) for k in chosen), -size,
                   [ordered[k].id for k in chosen])
            if best is None or key < best[0]:
                best = (key, chosen)
    assert best is not None     # killing greedily, Tanks first, till none fits is valid
    return frozenset(ordered[k] for k in best[1])
