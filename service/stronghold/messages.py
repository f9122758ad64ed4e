"""Stronghold's typed messages: positions both ways, answers to their view.

A position travels as a `StrongholdPosition`, field for field the JSON the command line
reads. A message becomes that JSON object with only the fields it sets, read by the
same `Position.from_json`, so that bad input gets the same message on both (with the
same paths: `units[2].might`); the wire schema drives the conversion
(service/messages.py), so a repeated field or map longer than the reader takes is
refused before any item is converted. A JSON object becomes a message field for field,
and so does an answer's (its view's `Reply`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.api import fortress_solver_pb2 as pb
from service.generic.typed import Reply, View
from service.position_messages import json_to_message, message_to_json
from solver.errors import InvalidInput
from solver.games import Question
from solver.stronghold.answers import Outcome, Race
from solver.stronghold.game import CLEAR, PLAN, RACE, ClearOptions
from solver.stronghold.position import Position
from solver.stronghold.schema import PositionSchema

QUESTIONS = (CLEAR.name, RACE.name)
MODES = ("plan", "plan-exact", *QUESTIONS)


# ---------------------------------------------------------------- positions


def position_to_json(message: pb.StrongholdPosition) -> dict[str, Any]:
    """The JSON object of the message: the fields it sets, in the JSON's shapes
    (InvalidInput for a list or map longer than the reader takes)."""
    return message_to_json(message, PositionSchema)


def position_from_proto(message: pb.StrongholdPosition) -> Position:
    return Position.from_json(position_to_json(message))


def position_from_json(data: Mapping[str, Any]) -> pb.StrongholdPosition:
    """The message of a position's JSON object, field for field. Raises InvalidInput for
    a value no field holds as it is (a negative number, text for a number, a key the
    message lacks)."""
    return json_to_message(data, pb.StrongholdPosition, PositionSchema)


def position_to_proto(position: Position) -> pb.StrongholdPosition:
    """Every field written out (`Position.to_json`)."""
    return position_from_json(position.to_json())


def source(position: Position) -> pb.PositionSource:
    return pb.PositionSource(stronghold=position_to_proto(position))


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
VIEW = View("stronghold", MODES, position_from_proto, source, solve=_question, hint=PLAN,
            answers={PLAN.name: Reply(within="stronghold"),
                     CLEAR.name: Reply(within="stronghold", then=_proven),
                     RACE.name: Reply(within="stronghold", then=_proven)})
