"""What Stronghold's questions answer, as values: a plan for the attacker to move (plan),
the fewest turns to clear all nine (clear) and the defender's race (race). Each has an
honest status, what its search spent, and the JSON `fortress-solver stronghold ... --json`
prints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Self

from solver.budget import SearchStats, Status

PlanStatus = Literal["OPTIMAL", "FEASIBLE", "UNKNOWN"]


class Objective(NamedTuple):
    """The lexicographic objective; compare as a tuple, larger is better."""

    removals: int       # best_assignment: rowvalue(#secure); exact: value against any reply
    controlled: int     # battlefields the attacker controls after its turn
    garrison: int       # the sum of their garrisons
    minus_moved: int    # minus the number of units moved


@dataclass(frozen=True)
class Forecast:
    """One active battlefield after the planned action step."""

    battlefield: str
    controller: str | None
    garrison: int               # the attacker's garrison there (0 when it does not hold it)
    secure: bool                # held with a garrison above the whole threat
    conquerable_now: bool       # not the attacker's, and some subset of its units conquers it


@dataclass(frozen=True)
class Plan:
    """The action step of the attacker to move (docs/stronghold.md D.1, D.2)."""

    status: Status              # solved (a plan found) / unknown (none found in time)
    cp_status: PlanStatus       # CP-SAT's verdict; for the exact plan, that of the whole search
    optimal: bool               # proven best: cp_status == "OPTIMAL"
    moves: dict[str, str]       # unit id -> "base" or a battlefield; units not named stay
    battlefields: tuple[Forecast, ...]
    objective: Objective | None
    stats: SearchStats          # nodes = CP-SAT branches, table_entries = subset-table rows

    @classmethod
    def unknown(cls, seconds: float) -> Self:
        return cls.unknown_after(SearchStats(0, seconds, 0))

    @classmethod
    def unknown_after(cls, stats: SearchStats) -> Self:
        """No plan found within the budget."""
        return cls(Status.UNKNOWN, "UNKNOWN", False, {}, (), None, stats)

    def to_json(self) -> dict[str, Any]:
        objective = self.objective
        return {
            "status": str(self.status), "cp_status": self.cp_status, "optimal": self.optimal,
            "moves": self.moves,
            "battlefields": [{"battlefield": f.battlefield, "controller": f.controller,
                              "garrison": f.garrison, "secure": f.secure,
                              "conquerable": f.conquerable_now} for f in self.battlefields],
            "conquerable": [f.battlefield for f in self.battlefields if f.conquerable_now],
            "objective": None if objective is None else objective._asdict(),
            "seconds": round(self.stats.seconds, 6)}


@dataclass(frozen=True)
class Step:
    """One global turn of a line: who moved and how (unit id -> destination)."""

    turn: int
    player: str
    moves: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "player": self.player, "moves": self.moves}


@dataclass(frozen=True)
class Outcome:
    """The attackers' fastest clear, or the defender's latest win (docs/stronghold.md D.3)."""

    winner: str | None            # "attackers", "defender", or None when unknown
    turn: int | None              # the global turn of the win
    rounds: int | None            # the full turn cycles it takes: ceil(turn / players)
    proven: bool                  # exhaustive within the budget
    plan: tuple[Step, ...]        # every turn up to the win (the search: the defender's too)
    stats: SearchStats
    cp_status: str = ""           # when the CP-SAT model answered: its status

    @property
    def status(self) -> Status:
        return Status.UNKNOWN if self.winner is None else Status.SOLVED

    @classmethod
    def unknown(cls, seconds: float) -> Self:
        return cls(None, None, None, False, (), SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "turn": self.turn, "rounds": self.rounds,
                "proven": self.proven, "cp_status": self.cp_status,
                "plan": [step.to_json() for step in self.plan],
                "nodes": self.stats.nodes, "seconds": round(self.stats.seconds, 6)}


@dataclass(frozen=True)
class Race:
    """Does the defender reach its target before the attackers clear the Stronghold row
    (attackers playing their fastest), and on which global turn (docs/stronghold.md D.4)."""

    defender_first: bool | None   # None when the budget ran out
    turn: int | None
    proven: bool
    outcome: Outcome

    @classmethod
    def of(cls, outcome: Outcome) -> Self:
        first = None if outcome.winner is None else outcome.winner == "defender"
        return cls(first, outcome.turn, outcome.proven, outcome)

    @property
    def status(self) -> Status:
        return self.outcome.status

    @property
    def stats(self) -> SearchStats:
        return self.outcome.stats

    @classmethod
    def unknown(cls, seconds: float) -> Self:
        return cls.of(Outcome.unknown(seconds))

    def to_json(self) -> dict[str, Any]:
        outcome = self.outcome
        return {"defender_first": self.defender_first, "turn": self.turn,
                "proven": self.proven, "cp_status": outcome.cp_status,
                "winner": outcome.winner, "rounds": outcome.rounds,
                "plan": [step.to_json() for step in outcome.plan],
                "nodes": outcome.stats.nodes, "seconds": round(outcome.stats.seconds, 6)}
