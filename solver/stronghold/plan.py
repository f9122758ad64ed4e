"""An attacker's best action step (spec D.1, Q1) and the plan that guarantees the most
removals against the defender's best reply (D.2, Q1-exact), as CP-SAT models.

Each ready unit picks one destination (x), and each battlefield one subset of the units
that can reach it (y, the subset table): combat outcomes are not linear in Might, so every
(battlefield, subset) is played out once with `turns.act` and the model only chooses
rows. A garrison is measured by the damage that wipes it out, the sum of its units'
lethal thresholds max(1, might + shield): that is the bar a defender's attack has to
reach, and it equals the spec's sum of might + shield when no unit is worth 0.

The defender's threat on its next turn is the attack Might of its surviving units that can
reach an attacker's battlefield: those in base and those with Ganking. A battlefield the
attacker holds never has defender units on it, so that threat is the same for all of them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations
from typing import Literal, NamedTuple

from ortools.sat.python import cp_model

from solver.budget import DEFAULT_BUDGET, Budget, SearchStats, Status
from solver.errors import InvalidInput
from solver.stronghold.position import BASE, DEFENDER, Position, Unit
from solver.stronghold.turns import Moves, act, destinations

MAX_READY = 12          # the subset tables hold 2^n rows per battlefield
STAY = "stay"
CpStatus = Literal["OPTIMAL", "FEASIBLE", "UNKNOWN"]


class Objective(NamedTuple):
    """The lexicographic objective; compare as a tuple, larger is better."""

    removals: int       # best_assignment: rowvalue(#secure); exact: value against any reply
    controlled: int     # battlefields the attacker controls after its turn
    garrison: int       # the sum of their garrisons
    minus_moved: int    # minus the number of units moved


@dataclass(frozen=True)
class Forecast:
    """One active battlefield after the planned action step."""

    battlefield: str
    controller: str | None
    garrison: int               # the attacker's garrison there (0 when it does not hold it)
    secure: bool                # held with a garrison above the whole threat
    conquerable_now: bool       # not the attacker's, and some subset of its units conquers it


@dataclass(frozen=True)
class Plan:
    status: Status              # solved (a plan found) / unknown (none found in time)
    cp_status: CpStatus         # CP-SAT's verdict; for the exact plan, that of the whole search
    optimal: bool               # proven best: cp_status == "OPTIMAL"
    moves: dict[str, str]       # unit id -> "base" or a battlefield; units not named stay
    battlefields: tuple[Forecast, ...]
    objective: Objective | None
    stats: SearchStats          # nodes = CP-SAT branches, table_entries = subset-table rows


def best_assignment(position: Position, budget: Budget = DEFAULT_BUDGET) -> Plan:
    """Spec D.1 for the attacker to move, at its action step (after `begin_turn`):
    most removals guaranteed by the conservative threat bound, then most battlefields held,
    the strongest garrisons, the fewest moves. Only the budget's seconds apply."""
    _check(position)
    started = time.perf_counter()
    tables = _Tables(position)
    model = tables.model
    threat = tables.threat()
    secure = []
    for b in position.active:
        literal = model.new_bool_var(f"secure {b}")
        model.add(tables.garrison[b] >= threat + 1).only_enforce_if(literal)
        secure.append(literal)
    held_secure = model.new_int_var(0, len(secure), "held secure")
    model.add(held_secure == sum(secure))
    removals = model.new_int_var(0, len(position.active), "removals")
    model.add_element(held_secure, _rowvalues(len(position.active)), removals)
    model.maximize(removals * tables.scale + tables.tail())
    solver = _solver(budget.seconds)
    result = solver.solve(model)
    stats = SearchStats(solver.num_branches, time.perf_counter() - started, tables.entries)
    if result == cp_model.UNKNOWN:
        return Plan(Status.UNKNOWN, "UNKNOWN", False, {}, (), None, stats)
    if result not in (cp_model.OPTIMAL, cp_model.FEASIBLE):   # staying put is always a plan
        raise RuntimeError(f"assignment model is {solver.status_name(result)}")
    moves = tables.moves(solver)
    outcome = _Outcome(position, moves)
    objective = outcome.objective(_rowvalue(len(position.active), outcome.secure()))
    return Plan(Status.SOLVED, solver.status_name(result), result == cp_model.OPTIMAL, moves,
                outcome.forecasts(tables.conquerable), objective, stats)


def best_assignment_exact(position: Position, budget: Budget = DEFAULT_BUDGET) -> Plan:
    """Spec D.2: the plan whose removals at the attacker's next hold are the most against
    the defender's best reply, then most held, strongest garrisons, fewest moves.

    Outcomes (garrison per battlefield, which Ganking defenders live) are enumerated best
    first by (held, garrison, -moved), each excluded by a no-good cut once seen; the reply
    depends on nothing else. Enumeration stops once no later outcome can beat the best
    value: a plan holding k battlefields removes at most rowvalue(k). The budget's seconds
    cover the whole enumeration; the reply models are tiny and always solved to the end.
    """
    _check(position)
    started = time.perf_counter()
    tables = _Tables(position)
    tables.model.maximize(tables.tail())
    rows = len(position.active)
    best: tuple[Objective, Moves] | None = None
    values: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    branches = 0
    cp_status: CpStatus = "OPTIMAL"
    while True:
        seconds = None if budget.seconds is None else (
            budget.seconds - (time.perf_counter() - started))
        if seconds is not None and seconds <= 0:
            cp_status = "UNKNOWN"
            break
        solver = _solver(seconds)
        result = solver.solve(tables.model)
        branches += solver.num_branches
        if result == cp_model.INFEASIBLE:        # every outcome seen
            break
        if result not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            cp_status = "UNKNOWN"
            break
        moves = tables.moves(solver)
        outcome = _Outcome(position, moves)
        key = (tuple(sorted(outcome.held.values())), tuple(sorted(outcome.threats)))
        if key not in values:
            values[key] = _reply(rows, *key)
        objective = outcome.objective(values[key])
        if best is None or objective > best[0]:
            best = (objective, moves)
        if result == cp_model.FEASIBLE:          # out of time: the order is not proven
            cp_status = "FEASIBLE"
            break
        if _rowvalue(rows, objective.controlled) <= best[0].removals:
            break
        tables.exclude(solver)
    stats = SearchStats(branches, time.perf_counter() - started, tables.entries)
    if best is None:
        return Plan(Status.UNKNOWN, cp_status, False, {}, (), None, stats)
    objective, moves = best
    return Plan(Status.SOLVED, cp_status, cp_status == "OPTIMAL", dict(moves),
                _Outcome(position, moves).forecasts(tables.conquerable), objective, stats)


def guaranteed(position: Position, moves: Moves) -> int:
    """D.2's value of one action step: the battlefields removed at the attacker's next
    hold against the defender's best reply (other attackers' turns ignored)."""
    _check(position)
    outcome = _Outcome(position, moves)
    return _reply(len(position.active), tuple(outcome.held.values()), tuple(outcome.threats))


def _check(position: Position) -> None:
    if position.winner is not None:
        raise InvalidInput(f"the game is over: the {position.winner} won")
    if position.player == DEFENDER:
        raise InvalidInput(f"the defender {DEFENDER} is to move; these plans are an "
                           "attacker's action step")
    ready = _ready(position)
    if len(ready) > MAX_READY:
        raise InvalidInput(f"{position.player} has {len(ready)} ready units; the subset "
                           f"tables allow at most {MAX_READY}")


def _ready(position: Position) -> list[Unit]:
    return [u for u in position.units if u.owner == position.player and u.ready]


def _lethal(unit: Unit) -> int:
    """The damage that kills the unit when it defends."""
    return max(1, unit.defence())


def _rowvalue(rows: int, held: int) -> int:
    """Battlefields removed when `held` of the `rows` left in the row are held: the second
    removal of a row takes the third with it."""
    return 0 if held == 0 else rows if held >= rows - 1 else held


def _rowvalues(rows: int) -> list[int]:
    return [_rowvalue(rows, held) for held in range(rows + 1)]


def _solver(seconds: float | None) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    if seconds is not None:
        solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1        # deterministic
    return solver


class _Tables:
    """The assignment model: x[u, d] one-hot per ready unit, y[b, S] one-hot per
    battlefield over the subsets S of units that can reach it, x[u, b] = sum of y[b, S]
    over S containing u; each (b, S) is played out by `turns.act` beforehand."""

    def __init__(self, position: Position) -> None:
        self.model = model = cp_model.CpModel()
        player = position.player
        ready = _ready(position)
        self.choice = {u.id: {d: model.new_bool_var(f"{u.id} to {d}")
                              for d in (STAY, *destinations(position, u))} for u in ready}
        for options in self.choice.values():
            model.add_exactly_one(options.values())
        self.garrison: dict[str, cp_model.LinearExprT] = {}
        self.held: dict[str, cp_model.IntVar] = {}
        self.alive: dict[Unit, cp_model.LinearExprT] = {}   # Ganking defenders on the field
        self.conquerable: dict[str, bool] = {}
        self.entries = 0
        for b in position.active:
            movers = [u for u in ready if b in self.choice[u.id]]
            rows = [(group, model.new_bool_var(f"{b} gets {[u.id for u in group]}"),
                     act(position, {u.id: b for u in group}))
                    for size in range(len(movers) + 1) for group in combinations(movers, size)]
            self.entries += len(rows)
            model.add_exactly_one(literal for _, literal, _ in rows)
            for u in movers:
                model.add(self.choice[u.id][b] == sum(lit for group, lit, _ in rows if u in group))
            leaving = sum(_lethal(u) * (1 - self.choice[u.id][STAY]) for u in ready if u.loc == b)
            self.garrison[b] = sum(lit * sum(map(_lethal, after.units_at(b, player)))
                                   for _, lit, after in rows) - leaving
            self.held[b] = held = model.new_bool_var(f"held {b}")
            model.add(self.garrison[b] >= 1).only_enforce_if(held)
            model.add(self.garrison[b] <= 0).only_enforce_if(~held)
            self.conquerable[b] = position.controller.get(b) != player and any(
                after.controller.get(b) == player for _, _, after in rows)
            for v in position.units_at(b, DEFENDER):
                if v.ganking:
                    self.alive[v] = sum(lit for _, lit, after in rows if v in after.units)
        self.base_threat = sum(v.attack() for v in position.units_at(BASE, DEFENDER))
        self.moved = sum(1 - options[STAY] for options in self.choice.values())
        # safe weights: each term outweighs everything after it
        self.weight_garrison = len(ready) + 1
        strength = sum(_lethal(u) for u in position.units if u.owner == player)
        self.weight_held = (strength + 1) * self.weight_garrison
        self.scale = (len(position.active) + 1) * self.weight_held

    def threat(self) -> cp_model.LinearExprT:
        return self.base_threat + sum(v.attack() * alive for v, alive in self.alive.items())

    def tail(self) -> cp_model.LinearExprT:
        """(held, garrison, -moved) as one weighted sum."""
        return (sum(self.held.values()) * self.weight_held
                + sum(self.garrison.values()) * self.weight_garrison - self.moved)

    def moves(self, solver: cp_model.CpSolver) -> dict[str, str]:
        return {unit: d for unit, options in self.choice.items()
                for d, literal in options.items() if d != STAY and solver.boolean_value(literal)}

    def exclude(self, solver: cp_model.CpSolver) -> None:
        """A no-good cut: some garrison or some Ganking defender's fate must differ."""
        differs = []
        for expr in (*self.garrison.values(), *self.alive.values()):
            literal = self.model.new_bool_var("differs")
            self.model.add(expr != solver.value(expr)).only_enforce_if(literal)
            differs.append(literal)
        self.model.add_bool_or(differs)


class _Outcome:
    """The position after an action step, as the objective sees it."""

    def __init__(self, position: Position, moves: Moves) -> None:
        self.position = position
        self.moves = moves
        self.after = after = act(position, moves)
        player = position.player
        self.held = {b: sum(map(_lethal, after.units_at(b, player)))
                     for b in position.active if after.controller.get(b) == player}
        self.threats = [v.attack() for v in after.units
                        if v.owner == DEFENDER and (v.loc == BASE or v.ganking)]

    def secure(self) -> int:
        return sum(g >= sum(self.threats) + 1 for g in self.held.values())

    def objective(self, removals: int) -> Objective:
        return Objective(removals, len(self.held), sum(self.held.values()), -len(self.moves))

    def forecasts(self, conquerable: dict[str, bool]) -> tuple[Forecast, ...]:
        threat = sum(self.threats)
        return tuple(Forecast(b, self.after.controller.get(b), self.held.get(b, 0),
                              self.held.get(b, 0) >= threat + 1, conquerable[b])
                     for b in self.position.active)


def _reply(rows: int, garrisons: tuple[int, ...], attacks: tuple[int, ...]) -> int:
    """The defender's best reply (spec D.2 b): each unit joins at most one attack, an attack
    of total Might >= the garrison wipes it out; minimise the removals left."""
    model = cp_model.CpModel()
    z = [[model.new_bool_var(f"{v} to {b}") for b in range(len(garrisons))]
         for v in range(len(attacks))]
    for row in z:
        model.add_at_most_one(row)
    deny = [model.new_bool_var(f"deny {b}") for b in range(len(garrisons))]
    for b, garrison in enumerate(garrisons):
        model.add(sum(a * z[v][b] for v, a in enumerate(attacks)) >= garrison
                  ).only_enforce_if(deny[b])
    kept = model.new_int_var(0, len(garrisons), "kept")
    model.add(kept == len(garrisons) - sum(deny))
    removals = model.new_int_var(0, rows, "removals")
    model.add_element(kept, _rowvalues(rows), removals)
    model.minimize(removals)
    solver = _solver(None)
    if solver.solve(model) != cp_model.OPTIMAL:
        raise RuntimeError("the defender's reply model has no optimum")
    return int(solver.value(removals))
