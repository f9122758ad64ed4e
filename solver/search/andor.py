"""Forced wins in two-player games: can the player to move win, whatever the other does,
within a number of its own turns? An AND-OR (boolean minimax) search with a
transposition table and iterative deepening on the number of turns.

A turn is a run of consecutive moves by one player (a game with play-again moves has
turns of several moves). Proven results are kept across depths: a win within d turns
is a win within any more, a refutation at depth d refutes every smaller depth. A game
must not cycle within a turn (each turn must end), or the search would not.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from solver.budget import Budget, BudgetExhausted, Meter, SearchStats, Status

S = TypeVar("S")
A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)


class TwoPlayerGame(Protocol[S, A_co]):
    def player(self, state: S) -> int: ...

    def winner(self, state: S) -> int | None: ...

    def moves(self, state: S, final_turn: bool) -> Iterable[tuple[A_co, S]]:
        """The moves from a state, most promising for the player to move first.
        `final_turn` is true in the searching player's last turn of the horizon,
        where a game may leave out moves that only matter later."""
        ...

    def key(self, state: S, final_turn: bool) -> Hashable:
        """The table key; in the searching player's last turn of the horizon, states
        that differ only in what cannot matter before that turn ends may share one."""
        ...


@dataclass(frozen=True)
class ForcedWin(Generic[A]):
    status: Status                  # SOLVED: a forced win; UNSOLVABLE: none within `turns`
    turns: int | None               # fewest own turns that force the win (SOLVED only)
    line: tuple[tuple[int, A], ...]  # (player, move): the win against the first-tried defence
    stats: SearchStats


def forced_win(game: TwoPlayerGame[S, A], root: S, turns: int,
               budget: Budget) -> ForcedWin[A]:
    """The fewest turns (1..`turns`) in which the player to move forces a win, proven."""
    search = _Search(game, game.player(root), budget)
    try:
        for depth in range(1, turns + 1):
            if search.wins(root, depth):
                return ForcedWin(Status.SOLVED, depth, search.line(root, depth), search.stats())
    except BudgetExhausted:
        return ForcedWin(Status.UNKNOWN, None, (), search.stats())
    return ForcedWin(Status.UNSOLVABLE, None, (), search.stats())


class _Search(Generic[S, A]):
    def __init__(self, game: TwoPlayerGame[S, A], me: int, budget: Budget) -> None:
        self.game = game
        self.me = me
        self.meter = Meter(budget, costly_nodes=True)
        self.won_within: dict[Hashable, int] = {}    # key -> fewest turns proven to win
        self.lost_within: dict[Hashable, int] = {}   # key -> most turns proven not to win

    def stats(self) -> SearchStats:
        return self.meter.stats(len(self.won_within) + len(self.lost_within))

    def children(self, state: S, depth: int) -> list[tuple[A, S, int]]:
        """(move, child, turns left in the child); a move that ends my turn uses one."""
        mine = self.game.player(state) == self.me
        result = []
        for move, child in self.game.moves(state, final_turn=mine and depth == 1):
            ends_my_turn = mine and self.game.winner(child) is None and \
                self.game.player(child) != self.me
            result.append((move, child, depth - 1 if ends_my_turn else depth))
        return result

    def wins(self, state: S, depth: int) -> bool:
        winner = self.game.winner(state)
        if winner is not None:
            return winner == self.me
        if depth == 0:
            return False
        mine = self.game.player(state) == self.me
        key = self.game.key(state, final_turn=mine and depth == 1)
        if self.won_within.get(key, depth + 1) <= depth:
            return True
        if self.lost_within.get(key, -1) >= depth:
            return False
        self.meter.tick()
        children = self.children(state, depth)
        if mine:
            result = any(self.wins(child, left) for _, child, left in children)
        else:
            result = all(self.wins(child, left) for _, child, left in children)
        table = self.won_within if result else self.lost_within
        table[key] = depth if result else max(depth, self.lost_within.get(key, -1))
        if result:
            self.lost_within.pop(key, None)
        self.meter.check_table(len(self.won_within) + len(self.lost_within))
        return result

    def line(self, state: S, depth: int) -> tuple[tuple[int, A], ...]:
        """My winning moves and the other's first-tried defences, to the end of the game."""
        steps = []
        while self.game.winner(state) is None:
            player = self.game.player(state)
            children = self.children(state, depth)
            move, state, depth = next(((m, c, d) for m, c, d in children if self.wins(c, d)),
                                      children[0])
            steps.append((player, move))
        return tuple(steps)
