"""Fortress Fight Kingdom's typed messages: positions both ways, answers to their view.

A position message becomes the JSON that the command line reads, with exactly the
fields the message sets, and goes through the same reader, so that the reader fills in
the same defaults and bad input gets the same message on both; the wire schema drives
the conversion (service/messages.py), so a list longer than the reader takes is refused
so before any item is converted. Actions travel as their text. An answer's message is
its JSON, as its view's `Reply` writes it.
"""

from __future__ import annotations

from typing import Any

from service.api import fortress_solver_pb2 as pb
from service.generic.typed import Reply, View
from service.position_messages import json_to_message, message_to_json
from solver.ffkingdom import Position, State, load
from solver.ffkingdom.game import HINT, PUZZLE
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


# How the typed messages map onto the game's questions (service/generic/typed.py).
VIEW = View("ffkingdom", MODES, position_from_proto, position_source,
            solve=lambda _: PUZZLE, hint=HINT,
            answers={PUZZLE.name: Reply(renamed={"line": "ffk_line", "actions": "length"}),
                     HINT.name: Reply(within="ffk")})
