"""The verdict flares over a small made-up graph: each order alone is complete, a share
spent passes the turn to the next order, and the budget bounds them all."""

from __future__ import annotations

from collections.abc import Iterator

from solver.budget import Budget, Status
from solver.search.flares import flares

WIDTH = 5_000  # the dead end the misleading order walks into first


class Maze:
    """States are ints from 0. A dead-end chain 1 -> 2 -> ... -> WIDTH hangs off 0; the
    goal (-3, when `goal`) lies two steps away through -1 and -2."""

    def __init__(self, goal: bool = True) -> None:
        self.goal = goal

    def start(self) -> int:
        return 0

    def is_goal(self, state: int) -> bool:
        return self.goal and state == -3

    def successors(self, state: int) -> Iterator[tuple[str, int, int]]:
        if state == 0:
            yield "chain", 1, 1
            yield "side", -1, 1
        elif 0 < state < WIDTH:
            yield "on", state + 1, 1
        elif state in (-1, -2):
            yield "side", state - 1, 1

    def heuristic(self, state: int) -> int:
        return 0

    def key(self, state: int) -> int:
        return state


def chain_first(state: int, cost: int) -> int:
    return 0 if state >= 0 else 1


def side_first(state: int, cost: int) -> int:
    return 0 if state <= 0 else 1


def test_the_first_order_alone_walks_the_whole_dead_end() -> None:
    result = flares(Maze(), [chain_first], Budget())
    assert result.status is Status.SOLVED and result.steps == ("side", "side", "side")
    assert result.stats.nodes > WIDTH


def test_a_spent_share_passes_the_turn_to_the_next_order() -> None:
    result = flares(Maze(), [chain_first, side_first], Budget(), first_share=10)
    assert result.status is Status.SOLVED and result.steps == ("side", "side", "side")
    assert result.stats.nodes <= 10 + 4  # the first flare's share, then three steps


def test_no_goal_is_proven_by_whichever_flare_closes_every_state() -> None:
    result = flares(Maze(goal=False), [chain_first, side_first], Budget(), first_share=10)
    assert result.status is Status.UNSOLVABLE


def test_the_budget_bounds_all_the_flares_together() -> None:
    result = flares(Maze(goal=False), [chain_first, side_first], Budget(nodes=100),
                    first_share=10)
    assert result.status is Status.UNKNOWN and result.stats.nodes <= 100
