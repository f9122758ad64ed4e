"""Exhaustive search on the simulator: the fewest global turns in which the attackers,
moving as one team, clear all nine battlefields against a fixed defender policy
(docs/stronghold.md D.3, the method the numbers of its Part E come from), and the
defender's race (D.4).

A Problem over `solver.search`'s breadth-first search: a state is a position at the start
of a global turn, a step is one turn's moves (the defender's by its policy, the
attackers' every joint choice), and positions that differ only in unit names or counters
are one. The first turn whose hold step clears the Stronghold row is the answer, proven
minimal. Lines the defender wins end there; when every line ends so, the last such turn
is how long the attackers can hold it off.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator
from functools import cached_property
from itertools import product

from solver.budget import DEFAULT_BUDGET, Budget, BudgetExhausted, Status
from solver.search.bfs import breadth_first
from solver.stronghold.answers import Outcome, Step
from solver.stronghold.data import DEFENDER
from solver.stronghold.policies import DefenderPolicy, passive
from solver.stronghold.position import Position
from solver.stronghold.rules import Moves, act, begin_turn, destinations

MAX_TURNS = 80
JOINT_MOVES_PER_CLOCK = 256   # a node reads the clock after so many of its joint moves

# A line, last step first: (step, the line before it); None before the first step.
Line = tuple[Step, "Line"] | None


class Node:
    """A position at the start of a global turn, and the line that reached it."""

    def __init__(self, position: Position, line: Line) -> None:
        self.position = position
        self.line = line

    @cached_property
    def started(self) -> Position:
        """After the turn's hold, burn-out and reinforcement steps."""
        return begin_turn(self.position)

    def steps(self) -> tuple[Step, ...]:
        steps = []
        line = self.line
        while line is not None:
            step, line = line
            steps.append(step)
        return tuple(reversed(steps))


class Siege:
    """The attackers' clear as a search problem. What the search does not report, its
    dead ends, the problem notes as it is asked: the last line the defender won, and
    whether a line was still open at the horizon. One node can hold millions of joint
    moves (4^units), so the problem reads the budget's clock among them too."""

    def __init__(self, position: Position, defender: DefenderPolicy, max_turns: int,
                 budget: Budget) -> None:
        self.position = position
        self.defender = defender
        self.horizon = position.turn + max_turns    # the first turn not looked at
        self.open_at_horizon = False
        self.defender_won: Node | None = None
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        self.stop = budget.stop

    def start(self) -> Node:
        return Node(self.position, None)

    def is_goal(self, node: Node) -> bool:
        return node.position.turn < self.horizon and node.started.winner == "attackers"

    def successors(self, node: Node) -> Iterator[tuple[Step, Node, int]]:
        p = node.position
        if p.turn >= self.horizon:
            self.open_at_horizon = True
            return
        started = node.started
        if started.winner == "defender":
            self.defender_won = node
            return
        for k, moves in enumerate(_choices(started, self.defender), 1):
            if not k % JOINT_MOVES_PER_CLOCK:
                self._check_clock()
            step = Step(p.turn, p.player, dict(moves))
            yield step, Node(act(started, moves), (step, node.line)), 1

    def _check_clock(self) -> None:
        if ((self.deadline is not None and time.perf_counter() > self.deadline)
                or (self.stop is not None and self.stop())):
            raise BudgetExhausted

    def heuristic(self, node: Node) -> int:
        return 0

    def key(self, node: Node) -> Hashable:
        return _key(node.position)


def fewest_turns(position: Position, defender: DefenderPolicy = passive,
                 budget: Budget = DEFAULT_BUDGET, max_turns: int = MAX_TURNS) -> Outcome:
    """The attackers' fastest clear against `defender`, or the defender's latest win."""
    siege = Siege(position, defender, max_turns, budget)
    # a node plays out every joint move: the clock is read at each
    result = breadth_first(siege, budget, costly_nodes=True)
    players = len(position.turn_order)
    if result.status is Status.SOLVED:
        assert result.cost is not None
        turn = position.turn + result.cost
        return Outcome("attackers", turn, -(-turn // players), True, result.steps,
                       result.stats)
    won = siege.defender_won
    if result.status is Status.UNKNOWN or siege.open_at_horizon or won is None:
        return Outcome(None, None, None, False, (), result.stats)
    turn = won.position.turn
    return Outcome("defender", turn, -(-turn // players), True, won.steps(), result.stats)


def _choices(p: Position, defender: DefenderPolicy) -> Iterator[Moves]:
    if p.player == DEFENDER:
        yield defender(p)
        return
    ready = [u for u in p.units if u.owner == p.player and u.ready]
    options = [[None, *destinations(p, u)] for u in ready]
    for picks in product(*options):
        yield {u.id: d for u, d in zip(ready, picks, strict=True) if d is not None}


def _key(p: Position) -> Hashable:
    """What decides the rest of the game: units up to their names, control, removals,
    score and the turn."""
    units = tuple(sorted((u.owner, u.might, u.assault, u.shield, u.tank, u.ganking, u.loc,
                          u.ready) for u in p.units))
    return (p.turn, units, p.control, p.removed, p.defender_score, p.defender_turns_taken,
            p.winner)
