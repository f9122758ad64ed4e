"""A Stronghold position (docs/stronghold.md C.2): the 3x3 grid of battlefields that fall
row by row, who controls what, every unit with its place, and the turn counters. An
immutable value with JSON in (`Position.from_json`, read by solver/stronghold/reading.py,
every fault named) and out (`Position.to_json`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar

from solver.stronghold.data import DEFENDER, ROWS
from solver.stronghold.schema import NAME

BASE = "base"
MAX_UNITS_PER_PLAYER = 16   # placed and scheduled; a combat weighs 2^units kill sets




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
    NAME: ClassVar[str] = NAME                   # the "game" key of its JSON

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
        from solver.stronghold.reading import read  # the reader builds this value

        return read(data)

    def to_json(self) -> dict[str, Any]:
        """The docs/stronghold.md C.2 form, every field written out, with its game."""
        return _to_json(self)


# ---------------------------------------------------------------- JSON


def _to_json(position: Position) -> dict[str, Any]:
    return {
        "game": position.NAME,
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
