"""Fortress Fight Kingdom's typed messages: positions both ways through their JSON
(service/position_messages.py `Positions`; a null is left out, as the reader reads it:
an unknown hand or deck, no winner, nothing locked; a list given, even an empty one, is
present), answers to their view. Actions travel as their text."""

from __future__ import annotations

from service.api import fortress_solver_pb2 as pb
from service.generic.typed import Reply, View
from service.position_messages import Positions
from solver.ffkingdom import Position, load
from solver.ffkingdom.game import HINT, PUZZLE
from solver.ffkingdom.schema import PositionSchema

MODES = ("win-this-turn", "forced-win", "hint")
POSITIONS = Positions("ffkingdom", pb.FfkPosition, PositionSchema, load, Position.to_json)

# How the typed messages map onto the game's questions (service/generic/typed.py).
VIEW = View("ffkingdom", MODES, POSITIONS.read, POSITIONS.source,
            solve=lambda _: PUZZLE, hint=HINT,
            answers={PUZZLE.name: Reply(renamed={"line": "ffk_line", "actions": "length"}),
                     HINT.name: Reply(within="ffk")})
