"""Stronghold's typed messages: a position as a `StrongholdPosition`, field for field the
JSON the command line reads, both ways (service/position_messages.py `Positions`: bad
input gets the reader's message, with its paths, `units[2].might`), and answers to their
view."""

from __future__ import annotations

from typing import Any

from service.api import fortress_solver_pb2 as pb
from service.generic.typed import Reply, View
from service.position_messages import Positions
from solver.errors import InvalidInput
from solver.games import Question
from solver.stronghold.answers import Outcome, Race
from solver.stronghold.game import CLEAR, PLAN, RACE, ClearOptions
from solver.stronghold.position import Position
from solver.stronghold.schema import PositionSchema

QUESTIONS = (CLEAR.name, RACE.name)
MODES = ("plan", "plan-exact", *QUESTIONS)
POSITIONS = Positions("stronghold", pb.StrongholdPosition, PositionSchema, Position.from_json,
                      Position.to_json)


# ---------------------------------------------------------------- answers


def _proven(response: pb.SolveResponse, answer: Outcome | Race, _: Position) -> None:
    response.optimal = answer.proven


def _question(message: Any) -> Question[Position, ClearOptions, Any]:
    """The question a Solve asks: `question`, "clear" when empty."""
    asked = message.question or CLEAR.name
    if asked not in QUESTIONS:
        raise InvalidInput(f"question must be one of {', '.join(QUESTIONS)}, not {asked!r}")
    return RACE if asked == RACE.name else CLEAR


# How the typed messages map onto the game's questions (service/generic/typed.py).
VIEW = View("stronghold", MODES, POSITIONS.read, POSITIONS.source, solve=_question, hint=PLAN,
            answers={PLAN.name: Reply(within="stronghold"),
                     CLEAR.name: Reply(within="stronghold", then=_proven),
                     RACE.name: Reply(within="stronghold", then=_proven)})
