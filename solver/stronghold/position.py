"""A Stronghold position (docs/stronghold.md C.2): the 3x3 grid of battlefields that fall
row by row, who controls what, every unit with its place, and the turn counters. An
immutable value with JSON in (`Position.from_json`, every fault named) and out
(`Position.to_json`)."""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, replace
from functools import cached_property
from importlib.resources import files
from typing import Any, ClassVar

from solver.errors import InvalidInput
from solver.reading import check
from solver.stronghold.wire import GAME, CountersWire, GridWire, PositionWire, UnitWire

BASE = "base"
MAX_UNITS_PER_PLAYER = 16   # placed and scheduled; a combat weighs 2^units kill sets


def _format() -> dict[str, Any]:
    return tomllib.loads(files("solver.stronghold").joinpath("format.toml")
                         .read_text(encoding="utf-8"))


FORMAT = _format()
ROWS: tuple[str, ...] = tuple(FORMAT["rows"])
DEFENDER: str = FORMAT["defender"]
MODES: dict[str, dict[str, int]] = FORMAT["modes"]


@dataclass(frozen=True, order=True)
class Unit:
    id: str
    owner: str
    might: int
    loc: str = BASE           # "base" or an active battlefield
    ready: bool = True
    assault: int = 0          # added to its Might when it attacks
    shield: int = 0           # added to its Might when it defends
    tank: bool = False        # must be dealt lethal damage first
    ganking: bool = False     # may move battlefield to battlefield

    def attack(self) -> int:
        return self.might + self.assault

    def defence(self) -> int:
        return self.might + self.shield

    def __str__(self) -> str:
        extras = [f"assault {self.assault}" if self.assault else "",
                  f"shield {self.shield}" if self.shield else "",
                  "tank" if self.tank else "", "ganking" if self.ganking else ""]
        return " ".join([f"{self.id}:{self.might}", *filter(None, extras)])


@dataclass(frozen=True)
class Reinforcement:
    """A unit a player's schedule brings on one of its turns (docs/stronghold.md C.5)."""

    turn: int
    might: int
    assault: int = 0
    shield: int = 0
    tank: bool = False
    ganking: bool = False


@dataclass(frozen=True)
class Position:
    GAME: ClassVar[str] = GAME                   # the "game" key of its JSON

    mode: str
    turn_order: tuple[str, ...]
    grid: tuple[tuple[str, ...], ...]            # per row of ROWS, its three battlefields
    units: tuple[Unit, ...]
    control: tuple[tuple[str, str], ...] = ()    # (battlefield, player), sorted
    removed: frozenset[str] = frozenset()
    turn: int = 1                                # global turn, 1-based
    defender_turns_taken: int = 0
    defender_score: int = 0
    win_target: int = 0
    reinforcements: tuple[tuple[str, tuple[Reinforcement, ...]], ...] = ()
    burnouts: tuple[tuple[str, tuple[int, ...]], ...] = ()
    defender_bonus: int = 0
    consolation: tuple[tuple[str, int], ...] = ()
    consoled: tuple[tuple[str, int], ...] = ()   # (battlefield, round) already rewarded
    winner: str | None = None                    # "attackers" or "defender"

    # ------------------------------------------------------------ derived

    @property
    def player(self) -> str:
        """Whose turn it is."""
        return self.turn_order[(self.turn - 1) % len(self.turn_order)]

    @property
    def round(self) -> int:
        return (self.turn - 1) // len(self.turn_order) + 1

    @property
    def attackers(self) -> tuple[str, ...]:
        return tuple(p for p in self.turn_order if p != DEFENDER)

    @cached_property
    def active_row(self) -> int | None:
        """The index of the first row with a battlefield still standing (None: all fell)."""
        for k, row in enumerate(self.grid):
            if any(b not in self.removed for b in row):
                return k
        return None

    @cached_property
    def active(self) -> tuple[str, ...]:
        """The battlefields in play: those left of the active row."""
        if self.active_row is None:
            return ()
        return tuple(b for b in self.grid[self.active_row] if b not in self.removed)

    @cached_property
    def controller(self) -> dict[str, str]:
        return dict(self.control)

    def units_at(self, loc: str, owner: str | None = None) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.loc == loc and owner in (None, u.owner))

    def occupant(self, battlefield: str) -> str | None:
        """The player whose units stand on the battlefield (at most one between turns)."""
        return next((u.owner for u in self.units if u.loc == battlefield), None)

    def garrison(self, battlefield: str) -> int:
        """The defending Might on a battlefield."""
        return sum(u.defence() for u in self.units_at(battlefield))

    def row_of(self, battlefield: str) -> int:
        return next(k for k, row in enumerate(self.grid) if battlefield in row)

    def reinforcements_of(self, player: str) -> tuple[Reinforcement, ...]:
        return dict(self.reinforcements).get(player, ())

    def burns_out(self, player: str, turn: int) -> bool:
        return turn in dict(self.burnouts).get(player, ())

    def with_units(self, units: list[Unit] | tuple[Unit, ...]) -> Position:
        return replace(self, units=tuple(sorted(units)))

    # ------------------------------------------------------------ JSON

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """A position from its JSON (docs/stronghold.md C.2): its types and ranges by the
        wire schema, then the rules' checks, each step naming every fault at once."""
        return _from_json(data)

    def to_json(self) -> dict[str, Any]:
        """The docs/stronghold.md C.2 form, every field written out, with its game."""
        return _to_json(self)


# ---------------------------------------------------------------- JSON


def _to_json(position: Position) -> dict[str, Any]:
    return {
        "game": position.GAME,
        "mode": position.mode,
        "win_target": position.win_target,
        "turn_order": list(position.turn_order),
        "turn": position.turn,
        "defender_turns_taken": position.defender_turns_taken,
        "grid": {name: list(row) for name, row in zip(ROWS, position.grid, strict=True)},
        "removed": sorted(position.removed),
        "control": dict(position.control),
        "units": [{"id": u.id, "owner": u.owner, "might": u.might, "assault": u.assault,
                   "shield": u.shield, "tank": u.tank, "ganking": u.ganking, "loc": u.loc,
                   "ready": u.ready} for u in position.units],
        "defender_score": position.defender_score,
        "reinforcements": {p: [{k: v for k, v in vars(r).items()} for r in rs]
                           for p, rs in position.reinforcements},
        "burnouts": {p: list(turns) for p, turns in position.burnouts},
        "counters": {"defender_bonus": position.defender_bonus,
                     "consolation": dict(position.consolation)},
        "consoled": [list(pair) for pair in position.consoled],
        "winner": position.winner,
    }


def _from_json(data: Any) -> Position:
    wire = check(PositionWire, data)
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
    counters = wire.counters or CountersWire()
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


def _grid(value: GridWire | None, problems: list[str]) -> tuple[tuple[str, ...], ...]:
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


def _units(entries: list[UnitWire], position: Position, battlefields: set[str],
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
