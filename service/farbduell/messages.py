"""Farbduell's typed messages: positions both ways, answers to their view.

A position message becomes the JSON that the command line reads, with exactly the
fields the message sets, so that the reader fills in the same defaults and bad input
gets the same message on both; the wire schema drives the conversion
(service/messages.py), so a list longer than the reader takes is refused so before any
item is converted. Actions travel as their text.
"""

from __future__ import annotations

from typing import Any

from service.api import fortress_solver_pb2 as pb
from service.generic.typed import View
from service.messages import STATUS, stats_to_proto
from service.position_messages import json_to_message, message_to_json
from solver.budget import Status
from solver.farbduell.actions import Action, Choose, Play
from solver.farbduell.chains import Chain
from solver.farbduell.game import CHAIN, GAME, HINT, PUZZLE
from solver.farbduell.hints import Hint
from solver.farbduell.position import Position
from solver.farbduell.puzzles import PuzzleAnswer
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


# ---------------------------------------------------------------- actions


def step_to_proto(player: int, action: Action) -> pb.FarbduellStep:
    step = pb.FarbduellStep(player=player, action=str(action))
    if isinstance(action, Play):
        step.card = str(action.card)
        step.colour = action.colour or ""
    elif isinstance(action, Choose):
        step.colour = action.colour
    return step


# ---------------------------------------------------------------- answers


def chain_to_proto(found: Chain, player: int) -> pb.SolveResponse:
    """The chain of the player to move, `player`."""
    response = pb.SolveResponse(
        status=STATUS[found.status], optimal=found.optimal,
        farbduell_line=[step_to_proto(player, play) for play in found.plays],
        stats=stats_to_proto(found.stats),
    )
    if found.status is Status.SOLVED:
        response.length = found.cards
        response.goes_out = found.goes_out
        response.points = found.points
    return response


def puzzle_to_proto(answer: PuzzleAnswer) -> pb.SolveResponse:
    """`optimal` when solved: the search deepens one turn at a time, so no fewer turns win."""
    response = pb.SolveResponse(
        status=STATUS[answer.status], optimal=answer.status is Status.SOLVED,
        farbduell_line=[step_to_proto(player, action) for player, action in answer.line],
        stats=stats_to_proto(answer.stats),
    )
    if answer.status is Status.SOLVED:
        response.length = len(answer.line)
    if answer.turns is not None:
        response.turns = answer.turns
    return response


def hint_to_proto(advice: Hint) -> pb.HintResponse:
    farbduell = pb.FarbduellHint(
        runners_up=[pb.FarbduellAlternative(action=str(action), value=value,
                                            wins=action in advice.winning)
                    for action, value in advice.runners_up],
        stats=stats_to_proto(advice.stats), wins=advice.wins,
        chain=[str(action) for action in advice.chain],
    )
    if advice.action is not None:
        farbduell.action = str(advice.action)
    if advice.value is not None:
        farbduell.value = advice.value
    return pb.HintResponse(status=STATUS[advice.status], farbduell=farbduell)


# How the typed messages map onto the game's questions (service/generic/typed.py): a
# Solve is the chain when its options name one (`chain`: the objective), else the puzzle.
VIEW = View("farbduell", MODES, position_from_proto, source,
            solve=lambda message: CHAIN if message.chain else PUZZLE, hint=HINT,
            answers={CHAIN.name: lambda found, state: chain_to_proto(found, state.to_move),
                     PUZZLE.name: lambda answer, _: puzzle_to_proto(answer),
                     HINT.name: lambda advice, _: hint_to_proto(advice)},
            renamed={"objective": "chain"})
