"""The generic forced-win search on a small counter game with turns of several moves,
checked against a plain minimax over whole turns that keeps no table."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.budget import Budget, Status
from solver.search.andor import forced_win

UNLIMITED = Budget(seconds=None, nodes=None, table_entries=None)


@dataclass(frozen=True)
class Count:
    total: int
    to_move: int
    moved: int = 0               # moves already made in the turn under way
    winner: int | None = None


Move = tuple[int, bool]          # (amount added, whether the same player moves again)


@dataclass(frozen=True)
class CounterGame:
    """Players add an amount of `steps` to the total, up to `per_turn` times a turn (the
    mover says after each move whether to go on); whoever reaches exactly `goal` wins.
    A total past the goal is not allowed; 1 is always a step, so a move always exists."""

    goal: int
    steps: tuple[int, ...] = (1, 2)
    per_turn: int = 2

    def player(self, state: Count) -> int:
        return state.to_move

    def winner(self, state: Count) -> int | None:
        return state.winner

    def moves(self, state: Count, final_turn: bool) -> list[tuple[Move, Count]]:
        if state.winner is not None:
            return []
        result = []
        for step in self.steps:
            total = state.total + step
            if total > self.goal:
                continue
            if total == self.goal:
                result.append(((step, False), Count(total, state.to_move, 0, state.to_move)))
                continue
            if state.moved + 1 < self.per_turn:
                result.append(((step, True), Count(total, state.to_move, state.moved + 1)))
            result.append(((step, False), Count(total, 1 - state.to_move)))
        return result

    def key(self, state: Count, final_turn: bool) -> Count:
        return state


def whole_turns(game: CounterGame, state: Count) -> Iterator[Count]:
    """Where each way of playing out the turn under way ends (a win ends it early)."""
    for _, child in game.moves(state, final_turn=False):
        if child.winner is None and child.to_move == state.to_move:
            yield from whole_turns(game, child)
        else:
            yield child


def mover_wins_within(game: CounterGame, state: Count, turns: int) -> bool:
    """Plain minimax over whole turns, no table: the mover wins within `turns` own turns
    whatever the other does."""
    if turns == 0:
        return False
    me = state.to_move
    for end in whole_turns(game, state):
        if end.winner == me:
            return True
        if turns > 1 and all(reply.winner is None and mover_wins_within(game, reply, turns - 1)
                             for reply in whole_turns(game, end)):
            return True
    return False


def fewest_turns(game: CounterGame, state: Count, limit: int) -> int | None:
    return next((t for t in range(1, limit + 1) if mover_wins_within(game, state, t)), None)


def replay(game: CounterGame, state: Count, line) -> Count:
    for player, move in line:
        assert state.winner is None
        assert player == state.to_move
        children = dict(game.moves(state, final_turn=False))
        assert move in children, (move, state)
        state = children[move]
    return state


def own_turns_in(line, me: int) -> int:
    starts = [k for k, (player, _) in enumerate(line)
              if player == me and (k == 0 or line[k - 1][0] != me)]
    return len(starts)


@st.composite
def starts(draw) -> tuple[CounterGame, Count, int]:
    """A game, a start and a turn limit small enough for the minimax without a table."""
    steps = draw(st.sampled_from([(1,), (1, 2), (1, 3), (1, 2, 3)]))
    per_turn = draw(st.integers(1, 3))
    reach = per_turn * max(steps)
    distance = draw(st.integers(1, 4 * reach + 2))
    total = draw(st.integers(0, 4))
    root = Count(total, draw(st.integers(0, 1)), draw(st.integers(0, per_turn - 1)))
    turns = draw(st.integers(1, 4 if reach <= 4 else 3 if reach <= 6 else 2))
    return CounterGame(total + distance, steps, per_turn), root, turns


@settings(max_examples=400, deadline=None)
@given(start=starts())
def test_forced_win_agrees_with_plain_minimax(start):
    game, root, turns = start
    found = forced_win(game, root, turns, UNLIMITED)
    fewest = fewest_turns(game, root, turns)
    if fewest is None:
        assert found.status is Status.UNSOLVABLE
        assert (found.turns, found.line) == (None, ())
    else:
        assert found.status is Status.SOLVED
        assert found.turns == fewest
        end = replay(game, root, found.line)
        assert end.winner == root.to_move
        assert 1 <= own_turns_in(found.line, root.to_move) <= fewest


def test_one_move_turns_lose_three_short_of_the_goal_and_win_otherwise():
    game = CounterGame(goal=10, steps=(1, 2), per_turn=1)
    assert forced_win(game, Count(8, 0), 1, UNLIMITED).status is Status.SOLVED
    assert forced_win(game, Count(7, 0), 5, UNLIMITED).status is Status.UNSOLVABLE
    two = forced_win(game, Count(6, 0), 2, UNLIMITED)
    assert (two.status, two.turns) == (Status.SOLVED, 2)
    assert two.line[0] == (0, (1, False))
    assert replay(game, Count(6, 0), two.line).winner == 0


def test_a_second_move_in_the_turn_reaches_the_goal():
    game = CounterGame(goal=4, steps=(1, 2), per_turn=2)
    found = forced_win(game, Count(0, 1), 3, UNLIMITED)
    assert (found.status, found.turns) == (Status.SOLVED, 1)
    assert found.line == ((1, (2, True)), (1, (2, False)))


def test_the_first_turn_counts_even_when_it_is_under_way():
    game = CounterGame(goal=9, steps=(1, 2), per_turn=2)
    assert forced_win(game, Count(5, 0, moved=1), 1, UNLIMITED).status is Status.UNSOLVABLE
    assert forced_win(game, Count(5, 0, moved=0), 1, UNLIMITED).status is Status.SOLVED


def test_a_turn_limit_too_small_is_unsolvable_and_enough_turns_solve_it():
    game = CounterGame(goal=11, steps=(1, 2), per_turn=1)
    root = Count(1, 0)
    assert fewest_turns(game, root, 5) == 4
    assert forced_win(game, root, 3, UNLIMITED).status is Status.UNSOLVABLE
    found = forced_win(game, root, 5, UNLIMITED)
    assert (found.status, found.turns) == (Status.SOLVED, 4)


def test_a_node_budget_of_one_gives_unknown():
    game = CounterGame(goal=20)
    found = forced_win(game, Count(0, 0), 3, Budget(seconds=None, nodes=1, table_entries=None))
    assert (found.status, found.turns, found.line) == (Status.UNKNOWN, None, ())
    assert found.stats.nodes == 1


def test_a_table_budget_of_one_gives_unknown():
    game = CounterGame(goal=20)
    found = forced_win(game, Count(0, 0), 3, Budget(seconds=None, nodes=None, table_entries=1))
    assert found.status is Status.UNKNOWN


def test_a_game_already_won_by_the_mover_is_solved_in_one_turn_with_no_moves():
    game = CounterGame(goal=3)
    found = forced_win(game, Count(3, 0, winner=0), 2, UNLIMITED)
    assert (found.status, found.turns, found.line) == (Status.SOLVED, 1, ())


def test_the_table_stays_within_the_states_of_the_game():
    game = CounterGame(goal=9, steps=(1, 2), per_turn=2)
    found = forced_win(game, Count(0, 0), 3, UNLIMITED)
    assert found.stats.table_entries <= 9 * 2 * 2
