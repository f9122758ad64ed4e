"""An attacker's best action step (docs/stronghold.md D.1, Q1) and the plan that
guarantees the most removals against the defender's best reply (D.2, Q1-exact), as CP-SAT
models.

Each ready unit picks one destination (x), and each battlefield one subset of the units
that can reach it (y, the subset table): combat outcomes are not linear in Might, so every
(battlefield, subset) is played out once with `turns.act` and the model only chooses
rows. A garrison is measured by the damage that wipes it out, the sum of its units'
lethal thresholds max(1, might + shield): that is the bar a defender's attack has to
reach, and it equals docs/stronghold.md's sum of might + shield when no unit is worth 0.

The defender's threat on its next turn is the attack Might of its surviving units that can
reach an attacker's battlefield: those in base and those with Ganking. A battlefield the
attacker holds never has defender units on it, so that threat is the same for all of them.
"""

from __future__ import annotations

from itertools import combinations

from ortools.sat.python import cp_model

from solver.budget import DEFAULT_BUDGET, Budget, BudgetExhausted, SearchStats, Status
from solver.cpsat import CpSat, Solved
from solver.errors import InvalidInput
from solver.stronghold.answers import Forecast, Objective, Plan, PlanStatus
from solver.stronghold.data import DEFENDER
from solver.stronghold.position import BASE, Position, Unit
from solver.stronghold.rules import Moves, act, destinations

MAX_READY = 12          # the subset tables hold 2^n rows per battlefield
STAY = "(stay)"          # a destination no battlefield is called: names have no brackets


def best_assignment(position: Position, budget: Budget = DEFAULT_BUDGET) -> Plan:
    """docs/stronghold.md D.1 for the attacker to move, at its action step (after
    `begin_turn`): most removals guaranteed by the conservative threat bound, then most
    battlefields held, the strongest garrisons, the fewest moves. Only the budget's seconds
    and `stop` apply."""
    _check(position)
    cp = CpSat(budget)
    try:
        tables = _Tables(position, cp)
    except BudgetExhausted:
        return Plan.unknown_after(SearchStats(0, cp.elapsed(), 0))
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
    solved = cp.solve(model)
    stats = SearchStats(cp.branches, cp.elapsed(), tables.entries)
    if solved.status == "UNKNOWN":
        return Plan.unknown_after(stats)
    if not solved.found:              # staying put is always a plan
        raise RuntimeError(f"assignment model is {solved.status}")
    moves = tables.moves(solved)
    outcome = _Outcome(position, moves)
    objective = outcome.objective(_rowvalue(len(position.active), outcome.secure()))
    return Plan(Status.SOLVED, "OPTIMAL" if solved.optimal else "FEASIBLE", solved.optimal,
                moves, outcome.forecasts(tables.conquerable), objective, stats)


def best_assignment_exact(position: Position, budget: Budget = DEFAULT_BUDGET) -> Plan:
    """docs/stronghold.md D.2: the plan whose removals at the attacker's next hold are the
    most against the defender's best reply, then most held, strongest garrisons, fewest
    moves.

    Outcomes (garrison per battlefield, which Ganking defenders live) are enumerated best
    first by (held, garrison, -moved), each excluded by a no-good cut once seen; the reply
    depends on nothing else. Enumeration stops once no later outcome can beat the best
    value: a plan holding k battlefields removes at most rowvalue(k). The budget's seconds
    (and `stop`) cover the whole enumeration; the reply models are tiny and always solved
    to the end.
    """
    _check(position)
    cp = CpSat(budget)
    try:
        tables = _Tables(position, cp)
    except BudgetExhausted:
        return Plan.unknown_after(SearchStats(0, cp.elapsed(), 0))
    tables.model.maximize(tables.tail())
    rows = len(position.active)
    best: tuple[Objective, Moves] | None = None
    values: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    cp_status: PlanStatus = "OPTIMAL"
    while True:
        solved = cp.solve(tables.model)
        if solved.status == "INFEASIBLE":        # every outcome seen
            break
        if not solved.found:
            cp_status = "UNKNOWN"
            break
        moves = tables.moves(solved)
        outcome = _Outcome(position, moves)
        key = (tuple(sorted(outcome.held.values())), tuple(sorted(outcome.threats)))
        if key not in values:
            values[key] = _reply(rows, *key)
        objective = outcome.objective(values[key])
        if best is None or objective > best[0]:
            best = (objective, moves)
        if not solved.optimal:                   # out of time: the order is not proven
            cp_status = "FEASIBLE"
            break
        if _rowvalue(rows, objective.controlled) <= best[0].removals:
            break
        tables.exclude(solved)
    stats = SearchStats(cp.branches, cp.elapsed(), tables.entries)
    if best is None:
        return Plan.unknown_after(stats)
    best_objective, best_moves = best
    return Plan(Status.SOLVED, cp_status, cp_status == "OPTIMAL", dict(best_moves),
                _Outcome(position, best_moves).forecasts(tables.conquerable), best_objective,
                stats)


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


class _Tables:
    """The assignment model: x[u, d] one-hot per ready unit, y[b, S] one-hot per
    battlefield over the subsets S of units that can reach it, x[u, b] = sum of y[b, S]
    over S containing u; each (b, S) is played out by `turns.act` beforehand."""

    def __init__(self, position: Position, cp: CpSat) -> None:
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
            rows = []
            for size in range(len(movers) + 1):
                for group in combinations(movers, size):
                    if cp.seconds_left() == 0:      # up to 2^12 fights: the budget counts
                        raise BudgetExhausted
                    rows.append((group, model.new_bool_var(f"{b} gets {[u.id for u in group]}"),
                                 act(position, {u.id: b for u in group})))
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

    def moves(self, solved: Solved) -> dict[str, str]:
        return {unit: d for unit, options in self.choice.items()
                for d, literal in options.items() if d != STAY and solved.boolean_value(literal)}

    def exclude(self, solved: Solved) -> None:
        """A no-good cut: some garrison or some Ganking defender's fate must differ."""
        differs = []
        for expr in (*self.garrison.values(), *self.alive.values()):
            literal = self.model.new_bool_var("differs")
            self.model.add(expr != solved.value(expr)).only_enforce_if(literal)
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
    """The defender's best reply (docs/stronghold.md D.2 b): each unit joins at most one
    attack, an attack of total Might >= the garrison wipes it out; minimise the removals
    left."""
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
    solved = CpSat().solve(model)
    if not solved.optimal:
        raise RuntimeError("the defender's reply model has no optimum")
    return solved.value(removals)
