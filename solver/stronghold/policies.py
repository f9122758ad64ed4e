"""The defender policies of docs/stronghold.md C.6, which make the attackers' questions
single-agent: PASSIVE never moves; GREEDY-DENY sends the cheapest force that denies each
threatened battlefield, most urgent first, then its smallest base unit to each empty
battlefield."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from solver.stronghold.data import DEFENDER
from solver.stronghold.position import BASE, Position, Unit
from solver.stronghold.rules import Moves, destinations

DefenderPolicy = Callable[[Position], Moves]


def passive(position: Position) -> Moves:
    return {}


def greedy_deny(position: Position) -> Moves:
    """The defender's moves at its action step (after its hold step)."""
    p = position
    free = [u for u in p.units if u.owner == DEFENDER and u.ready]
    moves: dict[str, str] = {}
    for b in sorted((b for b in p.active if p.occupant(b) not in (None, DEFENDER)),
                    key=lambda b: (not _clears_row(p, b), p.garrison(b), b)):
        able = [u for u in free if b in destinations(p, u)]
        force = _cheapest(able, p.garrison(b))
        for u in force:
            moves[u.id] = b
            free.remove(u)
    for b in p.active:
        if p.controller.get(b) is None and p.occupant(b) is None:
            at_base = [u for u in free if u.loc == BASE]
            if at_base:
                smallest = min(at_base, key=lambda u: (u.attack(), u.id))
                moves[smallest.id] = b
                free.remove(smallest)
    return moves


def _clears_row(p: Position, b: str) -> bool:
    """Whether the hold of b by its attacker would bring the row down."""
    holder = p.occupant(b)
    if len(p.active) == 2:
        return True
    return sum(p.occupant(x) == holder for x in p.active) >= 2


def _cheapest(units: list[Unit], garrison: int) -> tuple[Unit, ...]:
    """The non-empty subset with the least attack Might X >= garrison (then fewer units,
    then lower ids), or none."""
    best: tuple[tuple[int, int, list[str]], tuple[Unit, ...]] | None = None
    for size in range(1, len(units) + 1):
        for force in combinations(sorted(units, key=lambda u: u.id), size):
            might = sum(u.attack() for u in force)
            if might >= garrison:
                key = (might, size, [u.id for u in force])
                if best is None or key < best[0]:
                    best = (key, force)
    return best[1] if best else ()


POLICIES: dict[str, DefenderPolicy] = {"passive": passive, "greedy": greedy_deny}
