"""Farbduell's typed messages: positions both ways through their JSON
(service/position_messages.py `Positions`; a null is left out, as the reader reads it:
an unknown draw pile, no stack, no fuse, no winner; but a null colour is the empty
colour, to be named), answers to their view. Actions travel as their text."""

from __future__ import annotations

from service.api import fortress_solver_pb2 as pb
from service.generic.typed import Reply, View
from service.position_messages import Positions
from solver.farbduell.actions import step_json
from solver.farbduell.chains import Chain
from solver.farbduell.game import CHAIN, GAME, HINT, PUZZLE
from solver.farbduell.position import Position
from solver.farbduell.schema import PositionSchema

MODES = ("forced-win", "chain", "hint")   # what GetServerInfo lists
POSITIONS = Positions("farbduell", pb.FarbduellPosition, PositionSchema, GAME.from_json,
                      Position.to_json)


# ---------------------------------------------------------------- answers


def _chain_line(response: pb.SolveResponse, found: Chain, state: Position) -> None:
    """A chain's plays, all by the player to move, as the line's steps."""
    response.farbduell_line.extend(pb.FarbduellStep(**step_json(state.to_move, play))
                                   for play in found.plays)


# How the typed messages map onto the game's questions (service/generic/typed.py): a
# Solve is the chain when its options name one (`chain`: the objective), else the puzzle.
VIEW = View("farbduell", MODES, POSITIONS.read, POSITIONS.source,
            solve=lambda message: CHAIN if message.chain else PUZZLE, hint=HINT,
            answers={CHAIN.name: Reply(renamed={"cards": "length"}, then=_chain_line),
                     PUZZLE.name: Reply(renamed={"line": "farbduell_line", "actions": "length"}),
                     HINT.name: Reply(within="farbduell")},
            renamed={"objective": "chain"})
