"""Fortress Fight Kingdom: protobuf messages <-> solver values, and its RPCs.

A position message becomes the JSON that the command line reads, with exactly the
fields the message sets, and goes through the same reader, so that the reader fills in
the same defaults and bad input gets the same message on both; the wire schema drives
the conversion (service/messages.py), so a list longer than the reader takes is refused
so before any item is converted. Actions travel as their text and are parsed back.
"""

from __future__ import annotations

from typing import Any

from service.api import fortress_solver_pb2 as pb
from service.asking import Asked
from service.messages import (
    STATUS,
    STATUS_BACK,
    budget_to_proto,
    check_seed,
    stats_from_proto,
    stats_to_proto,
)
from service.position_messages import json_to_message, message_to_json
from solver.budget import Budget, Status
from solver.ffkingdom import Position, State, load, parse_action
from solver.ffkingdom.evaluate import log_odds
from solver.ffkingdom.game import HINT, PUZZLE, HintOptions, PuzzleOptions
from solver.ffkingdom.hints import Hint
from solver.ffkingdom.puzzles import PuzzleAnswer
from solver.ffkingdom.schema import PositionSchema

MODES = ("win-this-turn", "forced-win", "hint")


# ---------------------------------------------------------------- positions


def position_from_proto(message: pb.FfkPosition) -> Position:
    return load(position_to_json(message))


def position_to_json(message: pb.FfkPosition) -> dict[str, Any]:
    """The JSON form of the message, for `load` (InvalidInput for a list longer than it
    takes)."""
    return message_to_json(message, PositionSchema)


def position_from_json(data: dict[str, Any]) -> pb.FfkPosition:
    """The message of a position JSON that `load` accepts; a null is left out, as the
    reader reads it (an unknown hand or deck, no winner, nothing locked), and a list
    given, even an empty one, is present."""
    return json_to_message(data, pb.FfkPosition, PositionSchema)


def state_to_proto(state: State) -> pb.FfkPosition:
    return position_from_json(state.to_json())


def position_source(position: Position) -> pb.PositionSource:
    """What the position's reader read, unknown parts left unknown: every number is in
    the reader's ranges, so it fits its field."""
    return pb.PositionSource(ffkingdom=position_from_json(position.to_json()))


# ---------------------------------------------------------------- answers


def puzzle_to_proto(answer: PuzzleAnswer) -> pb.SolveResponse:
    response = pb.SolveResponse(
        status=STATUS[answer.status], optimal=answer.optimal,
        ffk_line=[pb.FfkStep(player=player, action=str(action)) for player, action in answer.line],
        stats=stats_to_proto(answer.stats),
    )
    if answer.status is Status.SOLVED:
        response.length = len(answer.line)
    if answer.turns is not None:
        response.turns = answer.turns
    return response


def puzzle_from_proto(message: pb.SolveResponse) -> PuzzleAnswer:
    return PuzzleAnswer(
        STATUS_BACK[message.status], message.turns if message.HasField("turns") else None,
        tuple((step.player, parse_action(step.action)) for step in message.ffk_line),
        message.optimal, stats_from_proto(message.stats))


def hint_to_proto(advice: Hint) -> pb.HintResponse:
    ffk = pb.FfkHint(
        plan=[str(action) for action in advice.plan],
        runners_up=[pb.FfkAlternative(action=str(action), value=log_odds(chance),
                                      win_chance=chance, wins=advice.wins)
                    for action, chance in advice.runners_up],
        stats=stats_to_proto(advice.stats), wins=advice.wins,
    )
    if advice.action is not None:
        ffk.action = str(advice.action)
    if advice.value is not None:
        ffk.value = advice.value
    if advice.win_chance is not None:
        ffk.win_chance = advice.win_chance
    return pb.HintResponse(status=STATUS[advice.status], ffk=ffk)


def hint_from_proto(message: pb.HintResponse) -> Hint:
    ffk = message.ffk
    return Hint(
        STATUS_BACK[message.status],
        parse_action(ffk.action) if ffk.HasField("action") else None,
        ffk.win_chance if ffk.HasField("win_chance") else None,
        tuple(parse_action(action) for action in ffk.plan),
        tuple((parse_action(other.action), other.win_chance) for other in ffk.runners_up),
        stats_from_proto(ffk.stats), ffk.wins)


# ---------------------------------------------------------------- requests (the client's)


def solve_request(position: Position, options: PuzzleOptions, budget: Budget) -> pb.SolveRequest:
    return pb.SolveRequest(position=position_source(position),
                           ffkingdom=pb.FfkSolveOptions(turns=options.turns),
                           budget=budget_to_proto(budget))


def hint_request(position: Position, options: HintOptions, budget: Budget) -> pb.HintRequest:
    check_seed(options.seed)
    return pb.HintRequest(position=position_source(position),
                          ffkingdom=pb.FfkHintOptions(worlds=options.worlds, seed=options.seed),
                          budget=budget_to_proto(budget))


# How the client asks each question (service/asking.py).
ASKED = {PUZZLE.name: Asked("solve", solve_request,
                            lambda response, _: puzzle_from_proto(response)),
         HINT.name: Asked("hint", hint_request, lambda response, _: hint_from_proto(response))}
