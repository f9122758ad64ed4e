"""Combat on one battlefield (spec C.4): both sides' pools of effective Might are dealt
at once; each side kills the valid kill set that hurts the other most.

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
    """The units `pool` damage kills among `targets`, by the casualty policy."""
    def lethal(u: Unit) -> int:
        return max(1, value(u))

    def valid(chosen: tuple[Unit, ...]) -> bool:
        left = pool - sum(lethal(u) for u in chosen)
        alive = [u for u in targets if u not in chosen]
        tanks_alive = [u for u in alive if u.tank]
        if left < 0 or (tanks_alive and any(not u.tank for u in chosen)):
            return False
        next_ones = tanks_alive or alive
        return not next_ones or any(lethal(u) > left for u in next_ones)

    ordered = sorted(targets, key=lambda u: u.id)
    sets = [chosen for size in range(len(ordered) + 1)
            for chosen in combinations(ordered, size) if valid(chosen)]
    best = min(sets, key=lambda chosen: (-sum(value(u) for u in chosen), -len(chosen),
                                         [u.id for u in chosen]))
    return frozenset(best)
