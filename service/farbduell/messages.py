"""Farbduell: protobuf messages <-> solver values, and its side of the Solve and Hint RPCs.

A position message becomes the JSON that the command line reads, with exactly the
fields the message sets, so that the reader fills in the same defaults and bad input
gets the same message on both; the wire schema drives the conversion
(service/messages.py), so a list longer than the reader takes is refused so before any
item is converted. Actions travel as their text and are parsed back with the position's
table.
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
from solver.errors import InvalidInput
from solver.farbduell.actions import Action, Choose, Play, parse_action
from solver.farbduell.chains import Chain
from solver.farbduell.data import Table
from solver.farbduell.game import (
    CHAIN,
    GAME,
    HINT,
    PUZZLE,
    ChainOptions,
    HintOptions,
    PuzzleOptions,
)
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


# ---------------------------------------------------------------- requests


def solve_request(state: Position, options: PuzzleOptions | ChainOptions,
                  budget: Budget) -> pb.SolveRequest:
    """The puzzle, or the go-out chain, of `state`."""
    message = (pb.FarbduellSolveOptions(chain=options.objective)
               if isinstance(options, ChainOptions) else
               pb.FarbduellSolveOptions(turns=options.turns))
    return pb.SolveRequest(position=source(state), farbduell=message,
                           budget=budget_to_proto(budget))


def hint_request(state: Position, options: HintOptions, budget: Budget) -> pb.HintRequest:
    """The hint of `state`; the seed must be 0 or more (the message's is unsigned)."""
    check_seed(options.seed)
    return pb.HintRequest(position=source(state), budget=budget_to_proto(budget),
                          farbduell=pb.FarbduellHintOptions(worlds=options.worlds,
                                                            seed=options.seed))


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


def chain_from_proto(message: pb.SolveResponse, table: Table) -> Chain:
    plays = tuple(_play(step.action, table) for step in message.farbduell_line)
    return Chain(STATUS_BACK[message.status], message.goes_out, plays, message.length,
                 message.points, message.optimal, stats_from_proto(message.stats))


def _play(text: str, table: Table) -> Play:
    action = parse_action(text, table)
    if not isinstance(action, Play):
        raise InvalidInput(f"a chain plays cards, not {text!r}")
    return action


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


def puzzle_from_proto(message: pb.SolveResponse, table: Table) -> PuzzleAnswer:
    return PuzzleAnswer(
        STATUS_BACK[message.status], message.turns if message.HasField("turns") else None,
        tuple((step.player, parse_action(step.action, table)) for step in message.farbduell_line),
        stats_from_proto(message.stats))


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


def hint_from_proto(message: pb.HintResponse, table: Table) -> Hint:
    farbduell = message.farbduell
    action = parse_action(farbduell.action, table) if farbduell.HasField("action") else None
    others = [(parse_action(other.action, table), other) for other in farbduell.runners_up]
    winning = {other for other, alternative in others if alternative.wins}
    if farbduell.wins and action is not None:
        winning.add(action)
    return Hint(
        STATUS_BACK[message.status], action,
        farbduell.value if farbduell.HasField("value") else None,
        tuple((other, alternative.value) for other, alternative in others),
        stats_from_proto(farbduell.stats),
        tuple(parse_action(text, table) for text in farbduell.chain), frozenset(winning))


# How the client asks each question (service/asking.py).
ASKED = {CHAIN.name: Asked("solve", solve_request,
                           lambda response, state: chain_from_proto(response, state.table)),
         PUZZLE.name: Asked("solve", solve_request,
                            lambda response, state: puzzle_from_proto(response, state.table)),
         HINT.name: Asked("hint", hint_request,
                          lambda response, state: hint_from_proto(response, state.table))}
