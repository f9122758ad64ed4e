"""Stronghold: protobuf messages <-> solver values, and its side of the Solve and Hint RPCs.

A position travels as a `StrongholdPosition`, field for field the JSON the command line
reads. A message becomes that JSON object with only the fields it sets, read by the
same `Position.from_json`, so that bad input gets the same message on both (with the
same paths: `units[2].might`); the wire schema drives the conversion
(service/messages.py), so a repeated field or map longer than the reader takes is
refused before any item is converted. A JSON object becomes a message field for field.

A proto map keeps no order, so moves come back sorted by unit id: the order the library
lists a plan's and an attacker's moves in (a greedy defender's moves it lists by urgency).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from service.api import fortress_solver_pb2 as pb
from service.asking import Asked
from service.messages import (
    STATUS,
    STATUS_BACK,
    budget_to_proto,
    stats_from_proto,
    stats_to_proto,
)
from service.position_messages import json_to_message, message_to_json
from solver.budget import Budget
from solver.errors import InvalidInput
from solver.stronghold.answers import Forecast, Objective, Outcome, Plan, PlanStatus, Race, Step
from solver.stronghold.game import CLEAR, PLAN, RACE, ClearOptions, PlanOptions
from solver.stronghold.position import Position
from solver.stronghold.schema import PositionSchema

QUESTIONS = ("clear", "race")
_MAX_UINT32 = 2**32 - 1  # the request's max_turns
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


# ---------------------------------------------------------------- requests


def plan_request(position: Position, options: PlanOptions, budget: Budget) -> pb.HintRequest:
    return pb.HintRequest(position=source(position), budget=budget_to_proto(budget),
                          stronghold=pb.StrongholdHintOptions(exact=options.exact))


def clear_request(position: Position, options: ClearOptions, budget: Budget,
                  question: str) -> pb.SolveRequest:
    """A clear (`question` "clear") or race ("race") request."""
    if options.max_turns > _MAX_UINT32:
        raise InvalidInput(f"--max-turns must be at most {_MAX_UINT32} for a server, "
                           f"not {options.max_turns}")
    return pb.SolveRequest(
        position=source(position), budget=budget_to_proto(budget),
        stronghold=pb.StrongholdSolveOptions(question=question, defender=options.defender,
                                             max_turns=options.max_turns,
                                             method=options.method))


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


def outcome_from_proto(message: pb.SolveResponse) -> Outcome:
    answer = message.stronghold
    return Outcome(
        answer.winner if answer.HasField("winner") else None,
        answer.turn if answer.HasField("turn") else None,
        answer.rounds if answer.HasField("rounds") else None,
        answer.proven,
        tuple(Step(step.turn, step.player, _moves(step.moves)) for step in answer.plan),
        stats_from_proto(message.stats), answer.cp_status)


def race_from_proto(message: pb.SolveResponse) -> Race:
    outcome = outcome_from_proto(message)
    answer = message.stronghold
    return Race(answer.defender_first if answer.HasField("defender_first") else None,
                outcome.turn, outcome.proven, outcome)


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


def plan_from_proto(message: pb.HintResponse) -> Plan:
    plan = message.stronghold
    objective = plan.objective
    cp_status: PlanStatus = ("OPTIMAL" if plan.cp_status == "OPTIMAL" else
                             "FEASIBLE" if plan.cp_status == "FEASIBLE" else "UNKNOWN")
    return Plan(
        STATUS_BACK[message.status], cp_status, plan.optimal, _moves(plan.moves),
        tuple(Forecast(f.battlefield, f.controller if f.HasField("controller") else None,
                       f.garrison, f.secure, f.conquerable) for f in plan.battlefields),
        Objective(objective.removals, objective.controlled, objective.garrison,
                  objective.minus_moved) if plan.HasField("objective") else None,
        stats_from_proto(plan.stats))


def _moves(moves: Mapping[str, str]) -> dict[str, str]:
    return dict(sorted(moves.items()))


# How the client asks each question (service/asking.py).
ASKED = {PLAN.name: Asked("hint", plan_request, lambda response, _: plan_from_proto(response)),
         CLEAR.name: Asked("solve", partial(clear_request, question=CLEAR.name),
                           lambda response, _: outcome_from_proto(response)),
         RACE.name: Asked("solve", partial(clear_request, question=RACE.name),
                          lambda response, _: race_from_proto(response))}
