"""Farbduell's typed messages: positions both ways, answers to their view.

A position message becomes the JSON that the command line reads, with exactly the
fields the message sets, so that the reader fills in the same defaults and bad input
gets the same message on both; the wire schema drives the conversion
(service/messages.py), so a list longer than the reader takes is refused so before any
item is converted. Actions travel as their text. An answer's message is its JSON, as
its view's `Reply` writes it.
"""

from __future__ import annotations

from typing import Any

from service.api import fortress_solver_pb2 as pb
from service.generic.typed import Reply, View
from service.position_messages import json_to_message, message_to_json
from solver.farbduell.actions import step_json
from solver.farbduell.chains import Chain
from solver.farbduell.game import CHAIN, GAME, HINT, PUZZLE
from solver.farbduell.position import Position
from solver.farbduell.schema import PositionSchema

MODES = ("forced-win", "chain", "hint")   # what GetServerInfo lists


def position_from_proto(message: pb.FarbduellPosition) -> Position:
    """The position on the shipped tables; InvalidInput names every fault."""
    return GAME.from_json(position_to_json(message))


def position_to_json(message: pb.FarbduellPosition) -> dict[str, Any]:
    """The JSON form of the message, for the reader (InvalidInput for a list longer than
    it takes)."""
    return message_to_json(message, PositionSchema)


def position_from_json(data: dict[str, Any]) -> pb.FarbduellPosition:
    """The message of a position JSON that the reader accepts; a null is left out, as
    the reader reads it (an unknown draw pile, no stack, no fuse, no winner), but a null
    colour is the empty colour (to be named)."""
    return json_to_message(data, pb.FarbduellPosition, PositionSchema)


def state_to_proto(state: Position) -> pb.FarbduellPosition:
    return position_from_json(state.to_json())


def source(state: Position) -> pb.PositionSource:
    return pb.PositionSource(farbduell=state_to_proto(state))


# ---------------------------------------------------------------- answers


def _chain_line(response: pb.SolveResponse, found: Chain, state: Position) -> None:
    """A chain's plays, all by the player to move, as the line's steps."""
    response.farbduell_line.extend(pb.FarbduellStep(**step_json(state.to_move, play))
                                   for play in found.plays)


# How the typed messages map onto the game's questions (service/generic/typed.py): a
# Solve is the chain when its options name one (`chain`: the objective), else the puzzle.
VIEW = View("farbduell", MODES, position_from_proto, source,
            solve=lambda message: CHAIN if message.chain else PUZZLE, hint=HINT,
            answers={CHAIN.name: Reply(renamed={"cards": "length"}, then=_chain_line),
                     PUZZLE.name: Reply(renamed={"line": "farbduell_line", "actions": "length"}),
                     HINT.name: Reply(within="farbduell")},
            renamed={"objective": "chain"})
