"""Stronghold: protobuf messages <-> solver values, and its gRPC side (`WIRE`).

A position travels as a `StrongholdPosition`, field for field the JSON the command line
reads. A message becomes that JSON object with only the fields it sets, read by the
same `Position.from_json`, so that bad input gets the same message on both (with the
same paths: `units[2].might`), a repeated field or map longer than the reader takes
before any item is converted; a JSON object becomes a message field for field.

A proto map keeps no order, so moves come back sorted by unit id: the order the library
lists a plan's and an attacker's moves in (a greedy defender's moves it lists by urgency).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from google.protobuf import json_format

from service.api import fortress_solver_pb2 as pb
from service.convert.common import (
    STATUS,
    STATUS_BACK,
    at_most,
    budget_to_proto,
    options_of,
    stats_from_proto,
    stats_to_proto,
)
from solver.budget import Budget
from solver.errors import InvalidInput
from solver.stronghold.answers import Forecast, Objective, Outcome, Plan, PlanStatus, Race, Step
from solver.stronghold.game import CLEAR, GAME, PLAN, RACE, ClearOptions, PlanOptions
from solver.stronghold.position import Position
from solver.stronghold.search import MAX_TURNS
from solver.stronghold.wire import (
    BATTLEFIELDS,
    MAX_PLAYERS,
    MAX_SCHEDULE,
    MAX_TURN,
    MAX_UNITS,
    ROW,
)

if TYPE_CHECKING:
    from service.games import Calls

QUESTIONS = ("clear", "race")
MODES = ("plan", "plan-exact", *QUESTIONS)

# ---------------------------------------------------------------- positions


def position_to_json(message: pb.StrongholdPosition) -> dict[str, Any]:
    """The JSON object of the message: the fields it sets, in the JSON's shapes
    (InvalidInput for a list or map longer than the reader takes)."""
    _check_lengths(message)
    data: dict[str, Any] = {}
    for name in ("mode", "win_target", "turn", "defender_turns_taken", "defender_score",
                 "winner"):
        if message.HasField(name):
            data[name] = getattr(message, name)
    for name in ("turn_order", "removed"):
        if getattr(message, name):
            data[name] = list(getattr(message, name))
    if message.HasField("grid"):
        data["grid"] = {row: list(getattr(message.grid, row)) for row in ("O", "I", "S")}
    if message.control:
        data["control"] = dict(message.control)
    if message.units:
        data["units"] = [_set_fields(unit, "id", "owner", "might") for unit in message.units]
    if message.reinforcements:
        data["reinforcements"] = {player: [_set_fields(entry, "turn", "might")
                                            for entry in schedule.entries]
                                  for player, schedule in message.reinforcements.items()}
    if message.burnouts:
        data["burnouts"] = {player: list(turns.turns)
                            for player, turns in message.burnouts.items()}
    if message.HasField("counters"):
        counters = _set_fields(message.counters)
        if message.counters.consolation:
            counters["consolation"] = dict(message.counters.consolation)
        data["counters"] = counters
    if message.consoled:
        data["consoled"] = [[pair.battlefield, pair.round] for pair in message.consoled]
    return data


def _check_lengths(message: pb.StrongholdPosition) -> None:
    for name, most in (("turn_order", MAX_PLAYERS), ("removed", BATTLEFIELDS),
                       ("control", BATTLEFIELDS), ("units", MAX_UNITS),
                       ("reinforcements", MAX_PLAYERS), ("burnouts", MAX_PLAYERS),
                       ("consoled", MAX_TURN)):
        at_most(getattr(message, name), most, name)
    for row in ("O", "I", "S"):
        at_most(getattr(message.grid, row), ROW, "grid", row)
    for player, schedule in message.reinforcements.items():
        at_most(schedule.entries, MAX_SCHEDULE, "reinforcements", player)
    for player, turns in message.burnouts.items():
        at_most(turns.turns, MAX_SCHEDULE, "burnouts", player)
    at_most(message.counters.consolation, MAX_UNITS, "counters", "consolation")


def _set_fields(message: Any, *always: str) -> dict[str, Any]:
    """The message's fields named `always`, and its other scalar fields that are set."""
    return {name: getattr(message, name) for name in message.DESCRIPTOR.fields_by_name
            if name in always or (name in _OPTIONAL and message.HasField(name))}


_OPTIONAL = {"loc", "ready", "assault", "shield", "tank", "ganking", "defender_bonus"}


def position_from_proto(message: pb.StrongholdPosition) -> Position:
    return Position.from_json(position_to_json(message))


def position_from_json(data: Mapping[str, Any]) -> pb.StrongholdPosition:
    """The message of a position's JSON object, field for field. Raises InvalidInput for
    a value no field holds as it is (a negative number, text for a number, a key the
    message lacks)."""
    shaped = {key: value for key, value in data.items() if key != "game"}
    if data.get("game", GAME.name) != GAME.name:
        raise InvalidInput(f"position cannot be sent to a server: it is not a "
                           f"{GAME.name} position")
    reinforcements = shaped.get("reinforcements")
    if isinstance(reinforcements, Mapping):
        shaped["reinforcements"] = {player: {"entries": entries}
                                    for player, entries in reinforcements.items()}
    burnouts = shaped.get("burnouts")
    if isinstance(burnouts, Mapping):
        shaped["burnouts"] = {player: {"turns": turns} for player, turns in burnouts.items()}
    consoled = shaped.get("consoled")
    if isinstance(consoled, list):
        shaped["consoled"] = [{"battlefield": pair[0], "round": pair[1]}
                              if isinstance(pair, list) and len(pair) == 2 else pair
                              for pair in consoled]
    try:
        return json_format.ParseDict(shaped, pb.StrongholdPosition())
    except (json_format.ParseError, ValueError, TypeError) as error:
        raise InvalidInput(f"position cannot be sent to a server: {error}") from None


def position_to_proto(position: Position) -> pb.StrongholdPosition:
    """Every field written out (`Position.to_json`)."""
    return position_from_json(position.to_json())


def source(position: Position) -> pb.PositionSource:
    return pb.PositionSource(stronghold=position_to_proto(position))


# ---------------------------------------------------------------- requests


def plan_request(position: Position, options: PlanOptions, budget: Budget) -> pb.HintRequest:
    return pb.HintRequest(position=source(position), budget=budget_to_proto(budget),
                          stronghold=pb.StrongholdHintOptions(exact=options.exact))


def clear_request(position: Position, question: str, options: ClearOptions,
                  budget: Budget) -> pb.SolveRequest:
    """A clear (`question` "clear") or race ("race") request."""
    return pb.SolveRequest(
        position=source(position), budget=budget_to_proto(budget),
        stronghold=pb.StrongholdSolveOptions(question=question, defender=options.defender,
                                             max_turns=options.max_turns,
                                             method=options.method))


def _solve_options(request: pb.SolveRequest) -> tuple[str, ClearOptions]:
    """The question and its options: from `options`, or from the deprecated flat fields
    when no options are set."""
    asked: pb.SolveRequest | pb.StrongholdSolveOptions = options_of(
        request, "stronghold", GAME.name)
    question = asked.question or "clear"
    if question not in QUESTIONS:
        raise InvalidInput(f"question must be one of {', '.join(QUESTIONS)}, "
                           f"not {question!r}")
    return question, ClearOptions(asked.defender or "passive", asked.max_turns or MAX_TURNS,
                                  asked.method or "cpsat")


def _hint_options(request: pb.HintRequest) -> PlanOptions:
    return PlanOptions(options_of(request, "stronghold", GAME.name).exact)


def _position(source: pb.PositionSource) -> Position:
    """The position, refused when its game is over (nothing is left to plan or search)."""
    position = position_from_proto(source.stronghold)
    if position.winner is not None:
        raise InvalidInput(f"the game is over: the {position.winner} won")
    return position


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


# ---------------------------------------------------------------- the service


class _Wire:
    sources = ("stronghold",)

    def info(self) -> pb.GameInfo:
        return pb.GameInfo(name=GAME.name, modes=MODES)

    def source(self, position: Position) -> pb.PositionSource:
        return source(position)

    def position(self, source: pb.PositionSource) -> Position:
        return position_from_proto(source.stronghold)

    def solve(self, request: pb.SolveRequest, calls: Calls) -> pb.SolveResponse:
        """The fewest turns to clear all nine, or the defender's race."""
        position = _position(request.position)
        question, options = _solve_options(request)
        if question == "race":
            race: Race = calls.ask(RACE, position, options, request.budget)
            return outcome_to_proto(race.outcome, race)
        outcome: Outcome = calls.ask(CLEAR, position, options, request.budget)
        return outcome_to_proto(outcome)

    def hint(self, request: pb.HintRequest, calls: Calls) -> pb.HintResponse:
        """The best assignment of the attacker to move, after the hold step of its turn."""
        position = _position(request.position)
        plan: Plan = calls.ask(PLAN, position, _hint_options(request), request.budget)
        return plan_to_proto(plan)


WIRE = _Wire()
