"""Perfect-information puzzles: with every hand and the draw pile's order known, the
fewest own turns in which the player to move forces a win against all the others, or a
proof that none does within N turns. Nothing is hidden, so nothing is sampled and what
the players know (`Position.knows`) plays no part: the search leaves it out."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Self

from solver.budget import DEFAULT_BUDGET, Budget, SearchStats, Status, check_turns
from solver.errors import InvalidInput
from solver.farbduell.actions import Action, step_json
from solver.farbduell.position import Position
from solver.farbduell.rules import apply, legal_actions
from solver.search.andor import forced_win


@dataclass(frozen=True)
class PuzzleAnswer:
    status: Status                        # solved / unsolvable (proven) / unknown (budget)
    turns: int | None                     # fewest own turns that force the win
    line: tuple[tuple[int, Action], ...]  # (seat, action); the others' are first-tried defences
    stats: SearchStats

    @classmethod
    def unknown(cls, seconds: float) -> Self:
        return cls(Status.UNKNOWN, None, (), SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        """`optimal` when solved: the search deepens one turn at a time, so no fewer turns
        win; `actions`: the line's length."""
        return {"status": self.status.value, "turns": self.turns,
                "optimal": self.status is Status.SOLVED, "actions": len(self.line),
                "line": [step_json(seat, action) for seat, action in self.line],
                "nodes": self.stats.nodes, "seconds": round(self.stats.seconds, 6)}


def solve_puzzle(state: Position, turns: int = 1, budget: Budget = DEFAULT_BUDGET) -> PuzzleAnswer:
    check_turns(turns)
    if state.winner is not None:
        raise InvalidInput(f"the game is already over: player {state.winner} won")
    found = forced_win(_Game(), replace(state, knows=None), turns, budget)
    return PuzzleAnswer(found.status, found.turns, found.line, found.stats)


class _Game:
    """Farbduell for the forced-win search: a turn is every action until the turn passes
    (a two-player Skip or Reverse, and a drawn card's decision, keep it)."""

    def player(self, state: Position) -> int:
        return state.to_move

    def winner(self, state: Position) -> int | None:
        return state.winner

    def moves(self, state: Position, final_turn: bool) -> Iterable[tuple[Action, Position]]:
        return [(action, apply(state, action)) for action in legal_actions(state)]

    def key(self, state: Position, final_turn: bool) -> Hashable:
        return state
