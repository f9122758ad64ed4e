"""Fortress Fight Kingdom's typed messages: positions both ways, answers to their view.

A position message becomes the JSON that the command line reads, with exactly the
fields the message sets, and goes through the same reader, so that the reader fills in
the same defaults and bad input gets the same message on both; the wire schema drives
the conversion (service/messages.py), so a list longer than the reader takes is refused
so before any item is converted. Actions travel as their text.
"""

from __future__ import annotations

from typing import Any

from service.api import fortress_solver_pb2 as pb
from service.generic.typed import View
from service.messages import STATUS, stats_to_proto
from service.position_messages import json_to_message, message_to_json
from solver.budget import Status
from solver.ffkingdom import Position, State, load
from solver.ffkingdom.evaluate import log_odds
from solver.ffkingdom.game import HINT, PUZZLE
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


# How the typed messages map onto the game's questions (service/generic/typed.py).
VIEW = View("ffkingdom", MODES, position_from_proto, position_source,
            solve=lambda _: PUZZLE, hint=HINT,
            answers={PUZZLE.name: lambda answer, _: puzzle_to_proto(answer),
                     HINT.name: lambda answer, _: hint_to_proto(answer)})
