"""Stronghold: protobuf messages <-> solver values.

A position travels as the spec's JSON object in a google.protobuf.Struct, read by the
same `parse` as the command line, so that bad input gets the same message on both. A
Struct holds every number as a double: whole numbers come back as integers, any other
is left as it is for `parse` to refuse.

A proto map keeps no order, so moves come back sorted by unit id: the order the library
lists a plan's and an attacker's moves in (a greedy defender's moves it lists by urgency).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf import struct_pb2

from service.api import fortress_solver_pb2 as pb
from service.convert.beleaguered import STATUS, STATUS_BACK, stats_from_proto, stats_to_proto
from solver.errors import InvalidInput
from solver.stronghold.plan import Forecast, Objective, Plan
from solver.stronghold.position import Position, parse, to_json
from solver.stronghold.questions import Race
from solver.stronghold.search import Outcome, Step

# The largest whole number a double holds exactly: beyond it a number changes on the way.
MAX_EXACT = 2**53

# ---------------------------------------------------------------- positions


def position_from_proto(message: struct_pb2.Struct) -> Position:
    return parse(position_to_json(message))


def position_to_json(message: struct_pb2.Struct) -> dict[str, Any]:
    """The JSON object of the message, whole numbers as integers."""
    return {key: _from_value(value) for key, value in message.fields.items()}


def _from_value(value: struct_pb2.Value) -> Any:
    kind = value.WhichOneof("kind")
    if kind == "struct_value":
        return position_to_json(value.struct_value)
    if kind == "list_value":
        return [_from_value(item) for item in value.list_value.values]
    if kind == "number_value":
        number = value.number_value
        return int(number) if number.is_integer() else number
    if kind in ("string_value", "bool_value"):
        return getattr(value, kind)
    return None  # null_value, or no value at all


def position_from_json(data: Mapping[str, Any]) -> struct_pb2.Struct:
    """The message of a position's JSON object. Raises InvalidInput for a value no Struct
    holds as it is (a whole number beyond 2^53, something that is not JSON)."""
    _check_sendable(data)
    message = struct_pb2.Struct()
    try:
        message.update(data)
    except (ValueError, TypeError, OverflowError) as error:
        raise InvalidInput(f"position cannot be sent to a server: {error}") from None
    return message


def _check_sendable(value: Any) -> None:
    if isinstance(value, Mapping):
        for item in value.values():
            _check_sendable(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_sendable(item)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_EXACT:
        raise InvalidInput(f"position cannot be sent to a server: {value} is too large "
                           "to travel exactly (at most 2^53)")


def position_to_proto(position: Position) -> struct_pb2.Struct:
    """Every field written out (`to_json`)."""
    return position_from_json(to_json(position))


def source(data: Mapping[str, Any]) -> pb.PositionSource:
    """The position source of a position's JSON object."""
    return pb.PositionSource(stronghold=position_from_json(data))


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
    return pb.SolveResponse(
        status=pb.UNKNOWN if outcome.winner is None else pb.SOLVED, optimal=outcome.proven,
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
    return Plan(
        STATUS_BACK[message.status], plan.cp_status, plan.optimal, _moves(plan.moves),
        tuple(Forecast(f.battlefield, f.controller if f.HasField("controller") else None,
                       f.garrison, f.secure, f.conquerable) for f in plan.battlefields),
        Objective(objective.removals, objective.controlled, objective.garrison,
                  objective.minus_moved) if plan.HasField("objective") else None,
        stats_from_proto(plan.stats))


def _moves(moves: Mapping[str, str]) -> dict[str, str]:
    return dict(sorted(moves.items()))
