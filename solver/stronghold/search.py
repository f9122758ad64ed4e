"""Exhaustive search on the simulator: the fewest global turns in which the attackers,
moving as one team, clear all nine battlefields against a fixed defender policy (spec D.3,
the method the spec's Part E numbers come from), and the defender's race (D.4).

Breadth-first over global turns: each level holds every distinct position the attackers
can reach by then (positions that differ only in unit names or counters are one). The
first level where a hold clears the Stronghold row is the answer, proven minimal; when
every line ends in the defender's win, the last such turn is how long the attackers can
hold it off.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from itertools import product

from solver.budget import DEFAULT_BUDGET, Budget, BudgetExhausted, Meter, SearchStats
from solver.stronghold.policies import DefenderPolicy, passive
from solver.stronghold.position import DEFENDER, Position
from solver.stronghold.turns import Moves, act, begin_turn, destinations

MAX_TURNS = 80


@dataclass(frozen=True)
class Step:
    turn: int
    player: str
    moves: dict[str, str]


@dataclass(frozen=True)
class Outcome:
    winner: str | None            # "attackers", "defender", or None when unknown
    turn: int | None              # the global turn of the win
    rounds: int | None            # the full turn cycles it takes: ceil(turn / players)
    proven: bool                  # exhaustive within the budget
    plan: tuple[Step, ...]        # every turn up to the win, the defender's included
    stats: SearchStats
    cp_status: str = ""           # when the CP-SAT model answered: its status


def fewest_turns(position: Position, defender: DefenderPolicy = passive,
                 budget: Budget = DEFAULT_BUDGET, max_turns: int = MAX_TURNS) -> Outcome:
    """The attackers' fastest clear against `defender`, or the defender's latest win."""
    meter = Meter(budget, costly_nodes=True)  # a node plays out every joint move: slow
    players = len(position.turn_order)
    parents: dict[Hashable, tuple[Hashable | None, Step | None]] = {_key(position): (None, None)}
    frontier = {_key(position): position}
    last_defender_win: tuple[int, Hashable] | None = None
    try:
        while frontier and position.turn + max_turns > next(iter(frontier.values())).turn:
            level: dict[Hashable, Position] = {}
            for key, p in frontier.items():
                meter.tick()
                started = begin_turn(p)
                if started.winner == "attackers":
                    return Outcome("attackers", p.turn, -(-p.turn // players), True,
                                   _line(parents, key), meter.stats(len(parents)))
                if started.winner == "defender":
                    last_defender_win = (p.turn, key)
                    continue
                for moves in _choices(started, defender):
                    after = act(started, moves)
                    after_key = _key(after)
                    if after_key not in parents:
                        parents[after_key] = (key, Step(p.turn, p.player, dict(moves)))
                        level[after_key] = after
                        meter.check_table(len(parents))
            frontier = level
    except BudgetExhausted:
        return Outcome(None, None, None, False, (), meter.stats(len(parents)))
    if frontier or last_defender_win is None:   # the horizon ran out with lines open
        return Outcome(None, None, None, False, (), meter.stats(len(parents)))
    turn, key = last_defender_win
    return Outcome("defender", turn, -(-turn // players), True, _line(parents, key),
                   meter.stats(len(parents)))


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


def _line(parents: dict[Hashable, tuple[Hashable | None, Step | None]],
          key: Hashable) -> tuple[Step, ...]:
    steps = []
    while True:
        parent, step = parents[key]
        if step is None:
            return tuple(reversed(steps))
        steps.append(step)
        key = parent

