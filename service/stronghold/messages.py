"""Stronghold's typed messages: positions both ways, answers to their view.

A position travels as a `StrongholdPosition`, field for field the JSON the command line
reads. A message becomes that JSON object with only the fields it sets, read by the
same `Position.from_json`, so that bad input gets the same message on both (with the
same paths: `units[2].might`); the wire schema drives the conversion
(service/messages.py), so a repeated field or map longer than the reader takes is
refused before any item is converted. A JSON object becomes a message field for field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.api import fortress_solver_pb2 as pb
from service.generic.typed import View
from service.messages import STATUS, stats_to_proto
from service.position_messages import json_to_message, message_to_json
from solver.errors import InvalidInput
from solver.games import Question
from solver.stronghold.answers import Forecast, Outcome, Plan, Race
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


# ---------------------------------------------------------------- clear and race


def outcome_to_proto(outcome: Outcome, race: Race | None = None) -> pb.SolveResponse:
    """`clear`'s answer, or `race`'s when `race` (whose outcome is `outcome`) is given."""
    stronghold = pb.StrongholdOutcome(
        proven=outcome.proven, cp_status=outcome.cp_status,
        plan=[pb.StrongholdStep(turn=step.turn, player=step.player, moves=step.moves)
              for step in outcome.plan])
    if outcome.winner is not None:
        stronghold.winner = outcome.winner
    if outcome.turn is not None:
        stronghold.turn = outcome.turn
    if outcome.rounds is not None:
        stronghold.rounds = outcome.rounds
    if race is not None and race.defender_first is not None:
        stronghold.defender_first = race.defender_first
    return pb.SolveResponse(status=STATUS[outcome.status], optimal=outcome.proven,
                            stats=stats_to_proto(outcome.stats), stronghold=stronghold)


# ---------------------------------------------------------------- plans


def plan_to_proto(plan: Plan) -> pb.HintResponse:
    stronghold = pb.StrongholdPlan(
        moves=plan.moves, cp_status=plan.cp_status, optimal=plan.optimal,
        battlefields=[_forecast_to_proto(f) for f in plan.battlefields],
        stats=stats_to_proto(plan.stats))
    if plan.objective is not None:
        stronghold.objective.CopyFrom(pb.StrongholdObjective(**plan.objective._asdict()))
    return pb.HintResponse(status=STATUS[plan.status], stronghold=stronghold)


def _forecast_to_proto(forecast: Forecast) -> pb.StrongholdForecast:
    message = pb.StrongholdForecast(
        battlefield=forecast.battlefield, garrison=forecast.garrison, secure=forecast.secure,
        conquerable=forecast.conquerable_now)
    if forecast.controller is not None:
        message.controller = forecast.controller
    return message


def _question(message: Any) -> Question[Position, ClearOptions, Any]:
    """The question a Solve asks: `question`, "clear" when empty."""
    asked = message.question or CLEAR.name
    if asked not in QUESTIONS:
        raise InvalidInput(f"question must be one of {', '.join(QUESTIONS)}, not {asked!r}")
    return RACE if asked == RACE.name else CLEAR


# How the typed messages map onto the game's questions (service/generic/typed.py).
VIEW = View("stronghold", MODES, position_from_proto, source, solve=_question, hint=PLAN,
            answers={PLAN.name: lambda plan, _: plan_to_proto(plan),
                     CLEAR.name: lambda outcome, _: outcome_to_proto(outcome),
                     RACE.name: lambda race, _: outcome_to_proto(race.outcome, race)})
