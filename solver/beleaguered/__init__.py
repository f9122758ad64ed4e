"""Beleaguered Fortress: positions, rules, deal numbers and the exact solver.

Its descriptor for the service and the command line is `solver.beleaguered.game.GAME`;
its rules in the project's words are docs/beleaguered-fortress.md.
"""

from solver.beleaguered.deals import MAX_DEAL, deal
from solver.beleaguered.engines import Engine, using
from solver.beleaguered.position import Position
from solver.beleaguered.rules import Location, Move, apply, legal_moves, replay
from solver.beleaguered.solve import (
    Algorithm,
    Hint,
    Metric,
    Mode,
    Solution,
    hint,
    hint_from,
    solve,
)

__all__ = [
    "MAX_DEAL", "Algorithm", "Engine", "Hint", "Location", "Metric", "Mode", "Move", "Position",
    "Solution", "apply", "deal", "hint", "hint_from", "legal_moves", "replay", "solve", "using",
]
