"""The turn procedure of docs/stronghold.md C.3: awaken, hold (the defender scores, an
attacker removes what it holds, rows fall), scheduled burn-outs and reinforcements, then
the action step (every ready unit stays or makes one move, each battlefield that received
units fights once) and the end of the turn.

A turn is `begin_turn` then `act`; `play_turn` does both. Moves are a mapping from unit
id to destination ("base" or a battlefield); units not named stay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from solver.errors import IllegalMove
from solver.stronghold.combat import resolve
from solver.stronghold.data import DEFENDER
from solver.stronghold.position import BASE, Position, Unit

Moves = Mapping[str, str]


def play_turn(position: Position, moves: Moves, burn_pick: str | None = None) -> Position:
    return act(begin_turn(position, burn_pick), moves)


def simulate(position: Position, plan: Mapping[int, Moves],
             defender: Callable[[Position], Moves], turns: int = 200) -> Position:
    """Play on from the position: each attacker turn by the plan (global turn -> moves;
    a turn the plan leaves out stays put), the defender's by its policy, until somebody
    wins or `turns` global turns have passed. A won game ends in the turn of the win
    (its `turn` is T) with `winner` set."""
    p = position
    for _ in range(turns):
        started = begin_turn(p)
        if started.winner is not None:
            return started
        moves = defender(started) if p.player == DEFENDER else plan.get(p.turn, {})
        p = act(started, moves)
    return p


def begin_turn(position: Position, burn_pick: str | None = None) -> Position:
    """Awaken, hold, burn-out and reinforcement steps of the player to move. `burn_pick`
    is the battlefield the attackers remove when the defender burns out (default: the
    one with the largest defender garrison, then the first)."""
    if position.winner is not None:
        raise IllegalMove(f"the game is over: the {position.winner} won")
    player = position.player
    p = position.with_units([replace(u, ready=True) if u.owner == player else u
                             for u in position.units])
    # hold
    if player == DEFENDER:
        if p.defender_turns_taken >= 1:
            held = sum(p.controller.get(b) == DEFENDER for b in p.active)
            p = _score(p, held)
    else:
        for b in p.active:
            if b not in p.removed and p.controller.get(b) == player:
                p = remove(p, b, "hold")
    # burn-out
    if p.winner is None and p.burns_out(player, p.turn):
        if player != DEFENDER:
            p = _score(p, 1)
        else:
            pick = burn_pick or max(p.active, key=lambda b: (
                p.garrison(b) if p.occupant(b) == DEFENDER else -1, -p.active.index(b)))
            if pick not in p.active:
                raise IllegalMove(f"the attackers can only remove an active battlefield "
                                  f"({', '.join(p.active)}), not {pick}")
            p = remove(p, pick, "burnout")
    # reinforcements enter exhausted at base
    arriving = [r for r in p.reinforcements_of(player) if r.turn == p.turn]
    if arriving and p.winner is None:
        p = p.with_units([*p.units, *(
            Unit(f"{player}-t{p.turn}-{k}", player, r.might, BASE, False, r.assault,
                 r.shield, r.tank, r.ganking) for k, r in enumerate(arriving, 1))])
    return p


def act(position: Position, moves: Moves) -> Position:
    """The action step and the end of the turn."""
    p = position
    if p.winner is not None:
        return p
    player = p.player
    by_id = {u.id: u for u in p.units}
    for unit_id, destination in moves.items():
        unit = by_id.get(unit_id)
        if unit is None:
            raise IllegalMove(f"there is no unit {unit_id!r}")
        if destination not in destinations(p, unit):
            raise IllegalMove(f"unit {unit_id} cannot move to {destination} "
                              f"(it may: {', '.join(destinations(p, unit)) or 'nothing'})")
    arrivals: dict[str, list[Unit]] = {}
    units = []
    for u in p.units:
        target = moves.get(u.id)
        if target is None or target == u.loc:
            units.append(u)
            continue
        moved = replace(u, loc=target, ready=False)
        if target == BASE:
            units.append(moved)
        else:
            arrivals.setdefault(target, []).append(moved)
    p = p.with_units(units)
    for b, arrived in sorted(arrivals.items()):
        p = _arrive(p, b, arrived)
    control = {b: q for b, q in p.control if p.occupant(b) == q}
    return replace(p, control=tuple(sorted(control.items())), turn=p.turn + 1,
                   defender_turns_taken=p.defender_turns_taken + (player == DEFENDER))


def destinations(position: Position, unit: Unit) -> tuple[str, ...]:
    """Where a unit of the player to move may go this action step."""
    if unit.owner != position.player or not unit.ready:
        return ()
    places = [] if unit.loc == BASE else [BASE]
    if unit.loc == BASE or unit.ganking:
        for b in position.active:
            occupant = position.occupant(b)
            blocked = (unit.owner != DEFENDER and occupant not in (None, DEFENDER, unit.owner))
            if b != unit.loc and not blocked:
                places.append(b)
    return tuple(places)


def remove(position: Position, battlefield: str, cause: str) -> Position:
    """Remove a battlefield (cause "hold", "burnout" or "cascade"): its units go home
    exhausted; the second removal of a row takes the third with it; the last row's fall
    is the attackers' win."""
    p = position
    units = [replace(u, loc=BASE, ready=False) if u.loc == battlefield else u for u in p.units]
    p = replace(p.with_units(units), removed=p.removed | {battlefield},
                control=tuple((b, q) for b, q in p.control if b != battlefield),
                defender_bonus=p.defender_bonus + (cause == "hold"))
    row = p.grid[p.row_of(battlefield)]
    left = [b for b in row if b not in p.removed]
    if len(left) == 1:
        return remove(p, left[0], "cascade")
    if not left and row == p.grid[-1]:
        return replace(p, winner="attackers")
    return p


def _arrive(p: Position, b: str, arrived: list[Unit]) -> Position:
    """Units of the player to move reach battlefield b: join, conquer or fight."""
    player = p.player
    defenders = [u for u in p.units if u.loc == b and u.owner != player]
    if not defenders:
        return _conquer(p.with_units([*p.units, *arrived]), b)
    fight = resolve(arrived, defenders)
    dead = set(defenders) - set(fight.defenders_left)
    survivors = [u for u in p.units if u not in dead]
    if fight.attackers_left and fight.defenders_left:   # recalled
        return p.with_units(survivors + [replace(u, loc=BASE) for u in fight.attackers_left])
    p = p.with_units(survivors + list(fight.attackers_left))
    if fight.attackers_left:
        return _conquer(p, b)
    if not fight.defenders_left:
        return replace(p, control=tuple((x, q) for x, q in p.control if x != b))
    return p


def _conquer(p: Position, b: str) -> Position:
    player, before = p.player, p.controller.get(b)
    if before == player:
        return p
    if player == DEFENDER and before is not None and (b, p.round) not in p.consoled:
        consolation = dict(p.consolation)
        consolation[before] = consolation.get(before, 0) + 1
        p = replace(p, consolation=tuple(sorted(consolation.items())),
                    consoled=tuple(sorted({*p.consoled, (b, p.round)})))
    control = dict(p.control)
    control[b] = player
    return replace(p, control=tuple(sorted(control.items())))


def _score(p: Position, points: int) -> Position:
    score = p.defender_score + points
    return replace(p, defender_score=score,
                   winner="defender" if score >= p.win_target else p.winner)
