"""What the CP-SAT clear model needs to know about a position, computed once: the
attackers' units with the turn each may first move (reinforcements included), the
battlefields still standing by row, and per defended battlefield the closure of
`combat.resolve` over every wave of every attacker (the subset table of
docs/stronghold.md D.1), each wave's outcome a row: who of the wave dies, stays as the
conqueror or is recalled, and who of the defenders lives.

Failed attacks are kept (a failed attack can thin a garrison or trade everything, which
can be the only way to stop the defender's holds); only the pointless ones are left out:
a wave that kills no defender and does not conquer leaves the position as it was, minus
the wave's dead, so staying home is never worse.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from solver.budget import BudgetExhausted
from solver.cpsat import CpSat
from solver.errors import InvalidInput
from solver.stronghold.combat import resolve
from solver.stronghold.data import DEFENDER
from solver.stronghold.position import BASE, Position, Unit
from solver.stronghold.rules import play_turn

MAX_UNITS_PER_ATTACKER = 8      # the subset table has 2**units rows per battlefield and turn
MAX_TABLE_ROWS = 20_000        # (wave, defenders alive) pairs over attackers and battlefields


@dataclass(frozen=True)
class Wave:
    """The outcome of one wave W against the surviving defenders S on one battlefield."""

    units: frozenset[str]          # W
    before: frozenset[str]         # S
    after: frozenset[str]          # the defenders left
    dead: frozenset[str]           # of W
    stay: frozenset[str]           # of W: conquered, they stay on the battlefield


class Facts:
    """What the model needs to know, computed once per position (BudgetExhausted when
    the tables or the idle line outlast `cp`'s budget: a fight can take milliseconds)."""

    def __init__(self, position: Position, cp: CpSat) -> None:
        _check(position)
        self.cp = cp
        p = self.position = position
        self.t0 = p.turn
        self.players = len(p.turn_order)
        self.attackers = p.attackers
        self.win_target = p.win_target
        # attacker units: (unit, the turn from which it may move)
        self.units: dict[str, list[tuple[Unit, int]]] = {a: [] for a in self.attackers}
        for u in p.units:
            if u.owner != DEFENDER:
                self.units[u.owner].append((u, self.t0))
        for a in self.attackers:
            for turn in sorted({r.turn for r in p.reinforcements_of(a)}):
                if turn < self.t0 or self.player(turn) != a:
                    continue            # turns.begin_turn never delivers these
                arriving = [r for r in p.reinforcements_of(a) if r.turn == turn]
                for k, r in enumerate(arriving, 1):
                    unit = Unit(f"{a}-t{turn}-{k}", a, r.might, BASE, False, r.assault,
                                r.shield, r.tank, r.ganking)
                    self.units[a].append((unit, turn + 1))
        self.unit_ids = [u.id for a in self.attackers for u, _ in self.units[a]]
        self.owner = {u.id: a for a in self.attackers for u, _ in self.units[a]}
        self.unit = {u.id: u for a in self.attackers for u, _ in self.units[a]}
        _check_sizes(self.units)
        # battlefields still standing, by row
        first = p.active_row
        assert first is not None
        self.rows = [[b for b in p.grid[k] if b not in p.removed]
                     for k in range(first, len(p.grid))]
        self.fields = [b for row in self.rows for b in row]
        self.row_of = {b: k for k, row in enumerate(self.rows) for b in row}
        self.pre_removed = [sum(b in p.removed for b in p.grid[k])
                            for k in range(first, len(p.grid))]
        # the defender's units on battlefields, and the subsets of them that can survive
        self.defenders = {b: tuple(p.units_at(b, DEFENDER)) for b in self.fields
                          if p.units_at(b, DEFENDER)}
        self.subsets: dict[str, list[frozenset[str]]] = {}
        self.waves: dict[tuple[str, str], list[Wave]] = {}
        self.table_rows = 0
        for b in self.defenders:
            self._tabulate(b)

    def player(self, turn: int) -> str:
        return self.position.turn_order[(turn - 1) % self.players]

    def _tabulate(self, b: str) -> None:
        by_id = {v.id: v for v in self.defenders[b]}
        full = frozenset(by_id)
        seen, todo = {full}, [full]
        waves: dict[str, list[Wave]] = {a: [] for a in self.attackers}
        while todo:
            alive = todo.pop()
            if not alive:
                continue            # an empty battlefield: the waves below, all conquer
            for a in self.attackers:
                team = sorted(self.units[a], key=lambda pair: pair[0].id)
                for size in range(1, len(team) + 1):
                    for chosen in combinations(team, size):
                        if self.cp.seconds_left() == 0:
                            raise BudgetExhausted
                        wave = [u for u, _ in chosen]
                        fight = resolve(wave, [by_id[v] for v in sorted(alive)])
                        after = frozenset(v.id for v in fight.defenders_left)
                        left = frozenset(u.id for u in fight.attackers_left)
                        if after == alive:
                            continue        # pointless: kills nobody, conquers nothing
                        waves[a].append(Wave(
                            frozenset(u.id for u in wave), alive, after,
                            frozenset(u.id for u in wave) - left,
                            left if not after else frozenset()))
                        self._count_rows(1)
                        if after not in seen:
                            seen.add(after)
                            todo.append(after)
        self.subsets[b] = sorted(seen | {frozenset()}, key=lambda s: (-len(s), sorted(s)))
        for a in self.attackers:
            self.waves[a, b] = waves[a] + [
                Wave(frozenset(u.id for u, _ in chosen), frozenset(), frozenset(),
                      frozenset(), frozenset(u.id for u, _ in chosen))
                for size in range(1, len(self.units[a]) + 1)
                for chosen in combinations(self.units[a], size)]
            self._count_rows(len(self.waves[a, b]) - len(waves[a]))

    def _count_rows(self, rows: int) -> None:
        """More rows in the tables: refused past MAX_TABLE_ROWS, as soon as they are."""
        self.table_rows += rows
        if self.table_rows > MAX_TABLE_ROWS:
            raise InvalidInput(f"the combat tables have more than {MAX_TABLE_ROWS} rows per "
                               "round, the most the CP-SAT clear model takes (fewer units "
                               "per attacker or per defended battlefield)")

    def lower_bound(self) -> int:
        """No attacker win comes before this turn: each row still standing needs a hold,
        which needs a conquest in the same attacker's turn before, after the row is
        revealed (a defender burn-out can remove without a hold: then t0)."""
        p = self.position
        if any(t >= self.t0 for t in dict(p.burnouts).get(DEFENDER, ())):
            return self.t0
        ready = self.t0
        for k in range(len(self.rows)):
            conquer = next(t for t in range(ready, ready + self.players)
                           if self.player(t) != DEFENDER)
            clear = conquer + self.players
            if k == 0:
                holders = {q for b, q in p.control if b in self.rows[0] and q != DEFENDER}
                for t in range(self.t0, self.t0 + self.players):
                    if self.player(t) in holders:
                        clear = min(clear, t)
            ready = clear
        return ready

    def idle_end(self, last: int) -> int | None:
        """The turn the game ends if the attackers never move (burn-outs picked as the
        simulator does), or None if it runs past `last`. Until the turn before, that line
        keeps the defender below its target, so no survive model is needed before it."""
        p = self.position
        while p.turn <= last:
            if self.cp.seconds_left() == 0:
                raise BudgetExhausted
            p = play_turn(p, {})
            if p.winner is not None:
                return p.turn
        return None


def _check(position: Position) -> None:
    problems = []
    if position.winner is not None:
        problems.append(f"the game is over: the {position.winner} won")
    if position.active_row is None:
        problems.append("every battlefield is already removed")
    if position.defender_score >= position.win_target:
        problems.append(f"the defender's score {position.defender_score} already reaches its "
                        f"target {position.win_target}")
    if problems:
        raise InvalidInput(problems)


def _check_sizes(units: dict[str, list[tuple[Unit, int]]]) -> None:
    problems = [f"{a} has {len(team)} units (reinforcements included); the CP-SAT clear "
                f"model takes at most {MAX_UNITS_PER_ATTACKER} per attacker (its combat "
                "table has a row per subset of them)"
                for a, team in units.items() if len(team) > MAX_UNITS_PER_ATTACKER]
    if problems:
        raise InvalidInput(problems)
