"""Stronghold as the service and the command line see it: its descriptor, with the three
questions it answers about a position at the start of a turn: plan (the action step of
the attacker to move, after the turn's hold step), clear and race."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.budget import Budget
from solver.errors import InvalidInput, OutOfRange
from solver.games import Game, Question
from solver.stronghold.answers import Outcome, Plan, Race
from solver.stronghold.drawing import picture
from solver.stronghold.policies import POLICIES
from solver.stronghold.position import Position
from solver.stronghold.questions import METHODS, check_choices, clear, race
from solver.stronghold.rules import begin_turn
from solver.stronghold.schema import NAME, loads, position_schema
from solver.stronghold.search import MAX_TURNS


@dataclass(frozen=True)
class PlanOptions:
    exact: bool = field(default=False, metadata={
        "help": "guarantee removals against the defender's best reply (D.2), not the "
                "conservative threat bound"})


# The most global turns a clear or race looks at: some ten times the longest game the
# spec's cases play, bounded before any model is built.
TURNS_LIMIT = 1000


@dataclass(frozen=True)
class ClearOptions:
    defender: str = field(default="passive", metadata={
        "help": "the defender's policy", "choices": tuple(sorted(POLICIES))})
    max_turns: int = field(default=MAX_TURNS, metadata={
        "help": f"global turns to look at, at most {TURNS_LIMIT}", "minimum": 1,
        "maximum": TURNS_LIMIT})
    method: str = field(default="cpsat", metadata={
        "help": "cpsat: the time-expanded model (passive defender; the greedy one is always "
                "searched); search: exhaustive search", "choices": METHODS})

    def __post_init__(self) -> None:
        check_choices(self.defender, self.method)
        if self.max_turns < 1:
            raise InvalidInput(f"max_turns must be at least 1, not {self.max_turns}")
        if self.max_turns > TURNS_LIMIT:
            raise OutOfRange(f"max_turns {self.max_turns} is more than the limit of "
                             f"{TURNS_LIMIT}")


def not_over(position: Position, options: object = None) -> None:
    """Nothing is left to plan or search once the game is over."""
    if position.winner is not None:
        raise InvalidInput(f"the game is over: the {position.winner} won")


def started(position: Position) -> Position:
    """The position after the hold, burn-out and reinforcement steps of its turn, where
    the attacker to move plans; a finished game is refused."""
    not_over(position)
    return begin_turn(position)


def _plan(position: Position, options: PlanOptions, budget: Budget) -> Plan:
    from solver.stronghold.plan import best_assignment, best_assignment_exact  # ortools

    planner = best_assignment_exact if options.exact else best_assignment
    return planner(started(position), budget)


def _clear(position: Position, options: ClearOptions, budget: Budget) -> Outcome:
    return clear(position, options.defender, budget, options.max_turns, options.method)


def _race(position: Position, options: ClearOptions, budget: Budget) -> Race:
    return race(position, options.defender, budget, options.max_turns, options.method)


def _to_json(position: Position) -> dict[str, Any]:
    return position.to_json()


PLAN = Question("plan", "the attacker to move: the best assignment this turn",
                PlanOptions, Plan, _plan, check=not_over, seconds=60.0)
CLEAR = Question("clear", "the fewest turns for the attackers to clear all nine",
                 ClearOptions, Outcome, _clear, check=not_over, seconds=60.0)
RACE = Question("race", "does the defender reach its target first, and when",
                ClearOptions, Race, _race, check=not_over, seconds=60.0)

GAME: Game[Position] = Game(
    name=NAME,
    aliases=("siege",),
    summary="Stronghold: one defender against two or three attackers, nine battlefields",
    from_json=Position.from_json,
    to_json=_to_json,
    schema=position_schema,
    questions=(PLAN, CLEAR, RACE),
    loads=loads,
    draw=picture,
    imports=("solver.cpsat", "solver.stronghold.plan", "solver.stronghold.clear_driver"),
)
