"""Reading a Stronghold position's JSON: the wire schema (solver/stronghold/schema.py),
then the rules' checks (the grid, removals, units, control, the turn counters), every
fault named at once with the path of its field."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from solver.errors import InvalidInput
from solver.reading import check
from solver.stronghold.data import DEFENDER, MODES, ROWS
from solver.stronghold.position import BASE, MAX_UNITS_PER_PLAYER, Position, Reinforcement, Unit
from solver.stronghold.schema import CountersSchema, GridSchema, PositionSchema, UnitSchema


def read(data: Any) -> Position:
    """A position from its JSON (docs/stronghold.md C.2): its types and ranges by the
    wire schema, then the rules' checks, each step naming every fault at once."""
    wire = check(PositionSchema, data)
    problems: list[str] = []
    mode = wire.mode
    attackers = MODES[mode]["attackers"]
    order = tuple(wire.turn_order or [DEFENDER, *(f"A{k}" for k in range(1, attackers + 1))])
    if (order.count(DEFENDER) != 1 or len(set(order)) != len(order)
            or len(order) != attackers + 1):
        problems.append(f"mode {mode} is the defender {DEFENDER} and {attackers} attackers, "
                        f"but the turn order is {list(order)}")
    grid = _grid(wire.grid, problems)
    battlefields = {b for row in grid for b in row}
    removed = frozenset(wire.removed)
    problems += [f"removed names {b!r}, which is not a battlefield"
                 for b in sorted(removed - battlefields)]
    _check_removals(grid, removed, problems)
    counters = wire.counters or CountersSchema()
    position = Position(
        mode=mode, turn_order=order, grid=grid, units=(),
        control=tuple(sorted((wire.control or {}).items())),
        removed=removed, turn=wire.turn,
        defender_turns_taken=(_defender_turns(order, wire.turn)
                              if wire.defender_turns_taken is None
                              else wire.defender_turns_taken),
        defender_score=wire.defender_score,
        win_target=MODES[mode]["win_target"] if wire.win_target is None else wire.win_target,
        reinforcements=tuple(sorted(
            (player, tuple(sorted((Reinforcement(**entry.model_dump()) for entry in entries),
                                  key=lambda r: r.turn)))
            for player, entries in (wire.reinforcements or {}).items())),
        burnouts=tuple(sorted((p, tuple(sorted(turns)))
                              for p, turns in (wire.burnouts or {}).items())),
        defender_bonus=counters.defender_bonus,
        consolation=tuple(sorted((counters.consolation or {}).items())),
        consoled=tuple(sorted(set(wire.consoled))),
        winner=wire.winner,
    )
    problems += [f"{field} names {p!r}, who is not playing"
                 for field, schedule in (("reinforcements", position.reinforcements),
                                         ("burnouts", position.burnouts))
                 for p, _ in schedule if p not in order]
    units = _units(wire.units, position, battlefields, problems)
    position = replace(position, units=tuple(sorted(units)))
    _check_control(position, battlefields, problems)
    if problems:
        raise InvalidInput(problems)
    # a battlefield with units and no control entry is controlled by their owner
    derived = dict(position.control)
    for u in position.units:
        if u.loc != BASE:
            derived.setdefault(u.loc, u.owner)
    return replace(position, control=tuple(sorted(derived.items())))


def _grid(value: GridSchema | None, problems: list[str]) -> tuple[tuple[str, ...], ...]:
    default = tuple(tuple(f"{row}{k}" for k in (1, 2, 3)) for row in ROWS)
    if value is None:
        return default
    grid = (tuple(value.O), tuple(value.I), tuple(value.S))
    names = [b for row in grid for b in row]
    if len(set(names)) != 9:
        problems.append("grid must hold nine different battlefields, three per row")
    if BASE in names:
        problems.append(f"grid names {BASE!r} as a battlefield, the name of every base")
    return grid


def _check_removals(grid: tuple[tuple[str, ...], ...], removed: frozenset[str],
                    problems: list[str]) -> None:
    standing_before = False
    for name, row in zip(ROWS, grid, strict=True):
        gone = sum(b in removed for b in row)
        if gone == 2:
            problems.append(f"row {name} has two battlefields removed and one standing "
                            "(the third falls with the second)")
        if gone and standing_before:
            problems.append(f"row {name} lost battlefields while an earlier row stands")
        standing_before = standing_before or gone < 3


def _defender_turns(order: tuple[str, ...], turn: int) -> int:
    """Defender turns before `turn`: global turns 1 .. turn-1 whose index (from 0) is the
    defender's seat modulo the number of players."""
    if DEFENDER not in order or turn < 2:
        return 0
    seat, last = order.index(DEFENDER), turn - 2
    return 0 if last < seat else (last - seat) // len(order) + 1


def _units(entries: list[UnitSchema], position: Position, battlefields: set[str],
           problems: list[str]) -> list[Unit]:
    units = []
    for entry in entries:
        unit = Unit(**entry.model_dump())
        where = f"unit {unit.id!r}"
        if unit.owner not in position.turn_order:
            problems.append(f"{where} belongs to {unit.owner!r}, who is not playing")
        if unit.loc != BASE:
            if unit.loc not in battlefields:
                problems.append(f"{where} is at {unit.loc!r}, which is neither base nor "
                                "a battlefield")
            elif unit.loc in position.removed:
                problems.append(f"{where} is on {unit.loc}, which was removed")
            elif unit.loc not in position.active:
                problems.append(f"{where} is on {unit.loc}, which is not in the active row")
        units.append(unit)
    problems += [f"two units are called {name!r}"
                 for name, n in Counter(u.id for u in units).items() if n > 1]
    owners: dict[str, set[str]] = {}
    for u in units:
        if u.loc != BASE:
            owners.setdefault(u.loc, set()).add(u.owner)
    for b, players in sorted(owners.items()):
        if len(players) > 1:
            both = " and ".join(sorted(players))
            kind = ("two attackers" if DEFENDER not in players else "two players")
            problems.append(f"{kind} ({both}) have units on {b}")
    _check_newcomers(units, position, problems)
    return units


def _check_newcomers(units: list[Unit], position: Position, problems: list[str]) -> None:
    """At most MAX_UNITS_PER_PLAYER units per player, counting those its schedule brings
    (a combat weighs every subset of the units in it), and no unit under the name a
    scheduled one will take (`turns.begin_turn` names them P-tTURN-k)."""
    names = {u.id for u in units}
    for player in position.turn_order:
        schedule = [r for r in position.reinforcements_of(player) if r.turn >= position.turn]
        count = sum(u.owner == player for u in units) + len(schedule)
        if count > MAX_UNITS_PER_PLAYER:
            problems.append(f"{player} has {count} units (reinforcements to come included); "
                            f"a player has at most {MAX_UNITS_PER_PLAYER}")
        arriving: Counter[int] = Counter()
        for r in schedule:
            arriving[r.turn] += 1
            name = f"{player}-t{r.turn}-{arriving[r.turn]}"
            if name in names:
                problems.append(f"unit {name!r} has the name of a reinforcement {player} "
                                f"receives on turn {r.turn}")


def _check_control(position: Position, battlefields: set[str], problems: list[str]) -> None:
    for b, player in position.control:
        if b not in battlefields:
            problems.append(f"control names {b!r}, which is not a battlefield")
        elif b not in position.active:
            problems.append(f"control names {b}, which is not an active battlefield")
        if player not in position.turn_order:
            problems.append(f"control of {b} names {player!r}, who is not playing")
        occupant = position.occupant(b)
        if occupant is not None and occupant != player:
            problems.append(f"{b} is controlled by {player} but holds units of {occupant}")
