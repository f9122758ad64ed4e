"""A Stronghold position (spec C.2): the 3x3 grid of battlefields that fall row by row,
who controls what, every unit with its place, and the turn counters. An immutable value
with JSON in (`parse`, every fault named) and out (`to_json`)."""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, replace
from functools import cached_property
from importlib.resources import files
from typing import Any

from solver.errors import InvalidInput

BASE = "base"


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
    """A unit a player's schedule brings on one of its turns (spec C.5)."""

    turn: int
    might: int
    assault: int = 0
    shield: int = 0
    tank: bool = False
    ganking: bool = False


@dataclass(frozen=True)
class Position:
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


# ---------------------------------------------------------------- JSON

_FIELDS = {"mode", "win_target", "turn_order", "turn", "defender_turns_taken", "grid",
           "removed", "control", "units", "defender_score", "reinforcements", "burnouts",
           "counters", "consoled", "winner"}
_UNIT_FIELDS = {"id", "owner", "might", "assault", "shield", "tank", "ganking", "loc", "ready"}
_NUMBERS = ("might", "assault", "shield")


def to_json(position: Position) -> dict[str, Any]:
    """The spec's C.2 form, every field written out."""
    return {
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


def parse(data: Any) -> Position:
    """A position from its JSON (spec C.2); every fault is named at once."""
    if not isinstance(data, dict):
        raise InvalidInput("a Stronghold position is a JSON object")
    problems: list[str] = []
    problems += [f"unknown field {name!r}" for name in sorted(set(data) - _FIELDS)]
    mode = data.get("mode", "1v3")
    if mode not in MODES:
        raise InvalidInput(problems + [f"mode must be one of {', '.join(MODES)}, not {mode!r}"])
    attackers = MODES[mode]["attackers"]
    order = tuple(data.get("turn_order", [DEFENDER] + [f"A{k}" for k in range(1, attackers + 1)]))
    if (order.count(DEFENDER) != 1 or len(set(order)) != len(order)
            or len(order) != attackers + 1):
        problems.append(f"mode {mode} is the defender {DEFENDER} and {attackers} attackers, "
                        f"but the turn order is {list(order)}")
    grid = _grid(data.get("grid"), problems)
    battlefields = {b for row in grid for b in row}
    removed = frozenset(data.get("removed", []))
    problems += [f"removed names {b!r}, which is not a battlefield"
                 for b in sorted(removed - battlefields)]
    _check_removals(grid, removed, problems)
    turn = _count(data, "turn", 1, problems, least=1)
    counters = data.get("counters", {}) or {}
    position = Position(
        mode=mode, turn_order=order, grid=grid, units=(),
        control=tuple(sorted((data.get("control") or {}).items())),
        removed=removed, turn=turn,
        defender_turns_taken=_count(data, "defender_turns_taken",
                                    _defender_turns(order, turn), problems),
        defender_score=_count(data, "defender_score", 0, problems),
        win_target=_count(data, "win_target", MODES[mode]["win_target"], problems, least=1),
        reinforcements=_reinforcements(data.get("reinforcements") or {}, order, problems),
        burnouts=tuple(sorted((p, tuple(sorted(turns)))
                              for p, turns in (data.get("burnouts") or {}).items())),
        defender_bonus=_count(counters, "defender_bonus", 0, problems),
        consolation=tuple(sorted((counters.get("consolation") or {}).items())),
        consoled=tuple(sorted(tuple(pair) for pair in data.get("consoled", []))),
        winner=data.get("winner"),
    )
    if position.winner not in (None, "attackers", "defender"):
        problems.append(f"winner must be attackers, defender or null, not {position.winner!r}")
    problems += [f"burnouts names {p!r}, who is not playing"
                 for p, _ in position.burnouts if p not in order]
    units = _units(data.get("units", []), position, battlefields, problems)
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


def _grid(value: Any, problems: list[str]) -> tuple[tuple[str, ...], ...]:
    default = tuple(tuple(f"{row}{k}" for k in (1, 2, 3)) for row in ROWS)
    if value is None:
        return default
    if not isinstance(value, dict) or set(value) != set(ROWS):
        problems.append(f"grid must have the rows {', '.join(ROWS)}")
        return default
    grid = tuple(tuple(value[row]) for row in ROWS)
    names = [b for row in grid for b in row]
    if any(len(row) != 3 for row in grid) or len(set(names)) != 9:
        problems.append("grid must hold nine different battlefields, three per row")
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


def _count(data: dict[str, Any], name: str, default: int, problems: list[str],
           least: int = 0) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        problems.append(f"{name} must be a whole number of at least {least}, not {value!r}")
        return default
    return value


def _defender_turns(order: tuple[str, ...], turn: int) -> int:
    """Defender turns before `turn`: global turns 1 .. turn-1 whose index (from 0) is the
    defender's seat modulo the number of players."""
    if DEFENDER not in order or turn < 2:
        return 0
    seat, last = order.index(DEFENDER), turn - 2
    return 0 if last < seat else (last - seat) // len(order) + 1


def _reinforcements(value: Any, order: tuple[str, ...], problems: list[str]
                    ) -> tuple[tuple[str, tuple[Reinforcement, ...]], ...]:
    schedule = []
    for player, entries in sorted(value.items()):
        if player not in order:
            problems.append(f"reinforcements names {player!r}, who is not playing")
            continue
        try:
            schedule.append((player, tuple(sorted(
                (Reinforcement(**entry) for entry in entries), key=lambda r: r.turn))))
        except TypeError as error:
            problems.append(f"reinforcements of {player}: {error}")
    return tuple(schedule)


def _units(value: Any, position: Position, battlefields: set[str],
           problems: list[str]) -> list[Unit]:
    units = []
    for k, entry in enumerate(value):
        where = f"unit {entry.get('id', k)!r}" if isinstance(entry, dict) else f"unit {k}"
        if not isinstance(entry, dict):
            problems.append(f"{where} must be an object")
            continue
        problems += [f"{where} has an unknown field {name!r}"
                     for name in sorted(set(entry) - _UNIT_FIELDS)]
        missing = [name for name in ("id", "owner", "might") if name not in entry]
        if missing:
            problems.append(f"{where} needs {', '.join(missing)}")
            continue
        unit = Unit(id=str(entry["id"]), owner=entry["owner"], might=entry["might"],
                    loc=entry.get("loc", BASE), ready=bool(entry.get("ready", True)),
                    assault=entry.get("assault", 0), shield=entry.get("shield", 0),
                    tank=bool(entry.get("tank", False)),
                    ganking=bool(entry.get("ganking", False)))
        if unit.owner not in position.turn_order:
            problems.append(f"{where} belongs to {unit.owner!r}, who is not playing")
        for name in _NUMBERS:
            number = getattr(unit, name)
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                problems.append(f"{where}: {name} must be a whole number of at least 0")
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
    return units


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
