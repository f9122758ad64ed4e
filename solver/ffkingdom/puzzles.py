"""Exact puzzles: win this turn (fewest actions), and win within N turns against every
defence when the whole position is known (the opponent's hand and the deck order).

A win counts when the game is won before the opponent takes another action after the
player's last allowed turn; with `win_check = every_step` that includes a poison tick
at the start of the opponent's turn.

Within one final turn only plays and one-card discards are tried: a discard can only
matter as an action (the end of an action is when wins are checked), and discarding
more cards never helps to win before the hand is refilled. A player holding no cards
(a position may give one) can only let the timer run out.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from solver.budget import DEFAULT_BUDGET, Budget, SearchStats, Status, check_turns
from solver.errors import InvalidInput
from solver.ffkingdom.actions import Action, Discard
from solver.ffkingdom.evaluate import evaluate
from solver.ffkingdom.knowledge import forget_all
from solver.ffkingdom.position import Position, State
from solver.ffkingdom.rules import apply, discards, plays, waits
from solver.search.andor import forced_win
from solver.search.bfs import breadth_first
from solver.shared_budget import SharedBudget, one_after_another


@dataclass(frozen=True)
class PuzzleAnswer:
    status: Status                       # solved / unsolvable (proven) / unknown (budget)
    turns: int | None                    # fewest own turns that force the win
    line: tuple[tuple[int, Action], ...]  # (player, action); the opponent's are defences
    optimal: bool                        # fewest turns proven (and fewest actions for one turn)
    stats: SearchStats

    @classmethod
    def unknown(cls, seconds: float) -> PuzzleAnswer:
        return cls(Status.UNKNOWN, None, (), False, SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        """What `ffk puzzle --json` prints."""
        return {
            "status": self.status.value, "turns": self.turns, "optimal": self.optimal,
            "actions": len(self.line),
            "line": [{"player": player, "action": str(action)} for player, action in self.line],
            "nodes": self.stats.nodes, "seconds": round(self.stats.seconds, 6),
        }


def solve_puzzle(state: State, turns: int = 1, budget: Budget = DEFAULT_BUDGET) -> PuzzleAnswer:
    """Win this turn (turns=1), or force a win within `turns` of the mover's turns."""
    check_turns(turns)
    if state.winner is not None:
        raise InvalidInput(f"the game is already over: player {state.winner} won")
    if turns == 1:
        return win_this_turn(state, budget)
    shared = SharedBudget(budget)
    found = forced_win(_Duel(), state, turns, budget)
    if found.status is not Status.SOLVED or found.turns != 1:
        return PuzzleAnswer(found.status, found.turns, found.line,
                            found.status is Status.SOLVED, found.stats)
    # A win this turn: its fewest actions, which the forced-win line need not be, in what
    # the forced-win search left of the budget; without them, that line, not proven fewest.
    shared.spend(found.stats)
    left = shared.left()
    shortest = None if left is None else win_this_turn(state, left)
    if shortest is None or shortest.status is not Status.SOLVED:
        spent = found.stats if shortest is None else one_after_another(found.stats, shortest.stats)
        return PuzzleAnswer(Status.SOLVED, 1, found.line, False, spent)
    return replace(shortest, stats=one_after_another(found.stats, shortest.stats))


def check_complete(loaded: Position, turns: int) -> None:
    """Beyond this turn the search plays the real deck against the opponent's real hand."""
    if turns > 1 and not loaded.complete:
        raise InvalidInput(f"turns {turns} needs the whole position: give the "
                           "opponent's \"hand\" and the \"deck\" in order")


def win_this_turn(state: State, budget: Budget = DEFAULT_BUDGET) -> PuzzleAnswer:
    """The fewest actions that win before the opponent acts, or a proof that none do."""
    # a node plays out every action from a position (half a millisecond with a full
    # hand): the clock is read at each
    result = breadth_first(_ThisTurn(state), budget, costly_nodes=True)
    line = tuple((state.to_move, action) for action in result.steps)
    solved = result.status is Status.SOLVED
    return PuzzleAnswer(result.status, 1 if solved else None, line, solved, result.stats)


def final_turn_actions(state: State) -> list[Action]:
    """Plays, and a discard of each distinct single card (with no cards, the timeout)."""
    return [*plays(state), *single_discards(state), *waits(state)]


def single_discards(state: State) -> list[Discard]:
    return [Discard((card,)) for card in dict.fromkeys(state.mover.hand)]


class _ThisTurn:
    """The mover's own turn as a one-player search: actions are unit steps."""

    def __init__(self, state: State) -> None:
        self.root = state
        self.me = state.to_move

    def start(self) -> State:
        return self.root

    def is_goal(self, state: State) -> bool:
        return state.winner == self.me

    def successors(self, state: State) -> Iterable[tuple[Action, State, int]]:
        if state.winner is not None or state.to_move != self.me:
            return
        for action in final_turn_actions(state):
            child = apply(state, action)
            if child.winner == self.me or (child.winner is None and child.to_move == self.me):
                yield action, child, 1

    def heuristic(self, state: State) -> int:
        return 0

    def key(self, state: State) -> Hashable:
        return state


class _Duel:
    """Fortress Fight Kingdom as a two-player game for the forced-win search."""

    def player(self, state: State) -> int:
        return state.to_move

    def winner(self, state: State) -> int | None:
        return state.winner

    def moves(self, state: State, final_turn: bool) -> Iterable[tuple[Action, State]]:
        """Plays first, the most promising first; discards after them as they come."""
        mover = state.to_move
        played = sorted(((action, apply(state, action)) for action in plays(state)),
                        key=lambda pair: -evaluate(pair[1], mover))
        rest: list[Action] = [*(single_discards(state) if final_turn else discards(state)),
                              *waits(state)]
        return played + [(action, apply(state, action)) for action in rest]

    def key(self, state: State, final_turn: bool) -> Hashable:
        """What the players know drops out of the key (this search sees every card, and
        no rule reads knowledge). In the last turn nothing is drawn before it ends and
        the opponent's cards cannot help or hinder: the opponent's hand, the deck, the
        discard pile and the seed (which only picks the opponent's random discards here)
        drop out too."""
        state = forget_all(state)
        if not final_turn:
            return state
        me = state.to_move
        blind = replace(state.players[1 - me], hand=())
        return replace(state.with_player(1 - me, blind), deck=(), discard=(), seed=0)
