"""One attacker's turn (docs/stronghold.md D.1, D.2): E.2, and both CP-SAT planners
against brute force over every assignment (and, for D.2, every defender reply) on random
small positions; budgets kept."""

from __future__ import annotations

import random
import time
from itertools import product

import pytest

from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.stronghold.plan import best_assignment, best_assignment_exact, guaranteed
from solver.stronghold.position import Position
from solver.stronghold.rules import act, begin_turn, destinations

ROWVALUE = {3: [0, 1, 3, 3], 2: [0, 2, 2]}    # removals by battlefields held, per row size
CP_STATUSES = {"OPTIMAL", "FEASIBLE", "UNKNOWN", "INFEASIBLE"}


def unit(name: str, owner: str, might: int, loc: str = "base", **extra) -> dict:
    return {"id": name, "owner": owner, "might": might, "loc": loc, **extra}


E2 = begin_turn(Position.from_json({"mode": "1v3", "turn": 2, "units": [
    unit("a4", "A1", 4), unit("a3", "A1", 3), unit("a2", "A1", 2), unit("a1", "A1", 1),
    unit("d3", "D", 3, "O1"), unit("d2", "D", 2, "O2"), unit("t2", "D", 2, "O2", tank=True),
    unit("b2", "D", 2)]}))
MAX_CONQUEST = {"a4": "O1", "a3": "O2", "a2": "O2", "a1": "O3"}
CONSERVATIVE_BEST = {"a4": "O1", "a3": "O3", "a2": "O3", "a1": "O3"}


def secure(plan) -> list[str]:
    return [f.battlefield for f in plan.battlefields if f.secure]


def test_spec_e2_conservative_best_plan():
    plan = best_assignment(E2)
    assert (plan.status, plan.cp_status, plan.optimal) == (Status.SOLVED, "OPTIMAL", True)
    assert plan.moves == CONSERVATIVE_BEST
    assert plan.objective == (3, 2, 10, -4) and secure(plan) == ["O1", "O3"]
    assert [(f.controller, f.garrison) for f in plan.battlefields] == [
        ("A1", 4), ("D", 0), ("A1", 6)]
    assert all(f.conquerable_now for f in plan.battlefields)
    assert guaranteed(E2, CONSERVATIVE_BEST) == 3


def test_spec_e2_exact_optimum_is_the_max_conquest_plan():
    plan = best_assignment_exact(E2)
    assert (plan.status, plan.cp_status, plan.optimal) == (Status.SOLVED, "OPTIMAL", True)
    assert plan.moves == MAX_CONQUEST and plan.objective == (3, 3, 7, -4)
    assert [(f.controller, f.garrison) for f in plan.battlefields] == [
        ("A1", 4), ("A1", 2), ("A1", 1)]
    assert secure(plan) == ["O1"]          # conservative count 1: threat 2 everywhere
    assert guaranteed(E2, MAX_CONQUEST) == 3


def test_a_ganking_defender_killed_this_turn_threatens_nothing():
    p = Position.from_json({"turn": 2, "units": [unit("a5", "A1", 5), unit("a1", "A1", 1),
                                    unit("g", "D", 3, "O1", ganking=True)]})
    plan = best_assignment(p)
    assert plan.moves == {"a5": "O1", "a1": "O2"} and plan.objective == (3, 2, 6, -2)


def test_refusals():
    with pytest.raises(InvalidInput, match="defender D is to move"):
        best_assignment(Position.from_json({"turn": 1, "units": [unit("a", "A1", 2)]}))
    with pytest.raises(InvalidInput, match="game is over"):
        best_assignment_exact(Position.from_json({"turn": 2, "winner": "attackers"}))
    many = Position.from_json({"turn": 2, "units": [unit(f"a{k}", "A1", 1) for k in range(13)]})
    with pytest.raises(InvalidInput, match="13 ready units"):
        best_assignment(many)


@pytest.mark.parametrize("planner", [best_assignment, best_assignment_exact])
def test_a_tiny_budget_reports_honestly(planner):
    plan = planner(E2, Budget(seconds=1e-6))
    assert plan.cp_status in CP_STATUSES
    assert plan.optimal == (plan.cp_status == "OPTIMAL")
    assert (plan.status == Status.SOLVED) == (plan.objective is not None)


# ------------------------------------------------------------- brute force


def random_position(seed: int, least: int = 0) -> Position:
    """Up to 3 units of the attacker to move and 3 defender units (at least `least` of
    each; 1 attacker unit anyway), on the Outer row (full or with one battlefield gone);
    sometimes the mover already holds a battlefield, and sometimes another attacker stands
    on one."""
    rng = random.Random(seed)
    mover = rng.choice(["A1", "A2", "A3"])
    removed = rng.choice([[], [], [], ["O1"], ["O2"]])
    free = [b for b in ("O1", "O2", "O3") if b not in removed]
    rng.shuffle(free)
    mine = free.pop() if rng.random() < 0.3 else None
    units = []
    if rng.random() < 0.3:
        other = rng.choice([a for a in ("A1", "A2", "A3") if a != mover])
        units.append(unit("x", other, rng.randint(0, 5), free.pop()))

    def keywords() -> dict:
        return {"assault": rng.choice([0, 0, 0, 1, 2]), "shield": rng.choice([0, 0, 0, 1, 2]),
                "tank": rng.random() < 0.2, "ganking": rng.random() < 0.25}

    for k in range(rng.randint(max(1, least), 3)):
        loc = mine if mine and (k == 0 or rng.random() < 0.5) else "base"
        units.append(unit(f"a{k}", mover, rng.randint(0, 5), loc,
                          ready=rng.random() < 0.85, **keywords()))
    for k in range(rng.randint(least, 3)):
        units.append(unit(f"d{k}", "D", rng.randint(0, 5), rng.choice(["base", *free]),
                          **keywords()))
    return Position.from_json({"turn": {"A1": 2, "A2": 3, "A3": 4}[mover], "removed": removed,
                  "units": units})


def assignments(p: Position):
    """Every action step of the player to move, with the position after it."""
    ready = [u for u in p.units if u.owner == p.player and u.ready]
    for choice in product(*[(None, *destinations(p, u)) for u in ready]):
        moves = {u.id: d for u, d in zip(ready, choice, strict=True) if d is not None}
        yield moves, act(p, moves)


def held_and_threats(p: Position, after: Position) -> tuple[list[int], list[int]]:
    held = [sum(max(1, u.might + u.shield) for u in after.units_at(b, p.player))
            for b in p.active if after.controller.get(b) == p.player]
    threats = [v.might + v.assault for v in after.units
               if v.owner == "D" and (v.loc == "base" or v.ganking)]
    return held, threats


def conservative(p: Position, moves: dict, after: Position) -> tuple[int, ...]:
    held, threats = held_and_threats(p, after)
    safe = sum(g > sum(threats) for g in held)
    return ROWVALUE[len(p.active)][safe], len(held), sum(held), -len(moves)


def exact(p: Position, moves: dict, after: Position) -> tuple[int, ...]:
    held, threats = held_and_threats(p, after)
    value = min(
        ROWVALUE[len(p.active)][sum(
            sum(a for a, t in zip(threats, targets, strict=True) if t == k) < g
            for k, g in enumerate(held))]
        for targets in product([None, *range(len(held))], repeat=len(threats)))
    return value, len(held), sum(held), -len(moves)


@pytest.mark.parametrize("seed", range(200))
def test_best_assignment_matches_brute_force(seed):
    p = random_position(seed)
    plan = best_assignment(p)
    assert plan.optimal and plan.status == Status.SOLVED
    outcomes = list(assignments(p))
    assert plan.objective == max(conservative(p, m, after) for m, after in outcomes)
    assert conservative(p, plan.moves, act(p, plan.moves)) == plan.objective
    assert sum(f.garrison for f in plan.battlefields) == plan.objective.garrison
    conquerable = {b for _, after in outcomes for b in p.active
                   if after.controller.get(b) == p.player != p.controller.get(b)}
    assert {f.battlefield for f in plan.battlefields if f.conquerable_now} == conquerable


@pytest.mark.parametrize("seed", range(50))
def test_best_assignment_exact_matches_brute_force(seed):
    p = random_position(1000 + seed, least=2)
    plan = best_assignment_exact(p)
    assert plan.optimal and plan.status == Status.SOLVED
    assert plan.objective == max(exact(p, m, after) for m, after in assignments(p))
    assert exact(p, plan.moves, act(p, plan.moves)) == plan.objective
    assert guaranteed(p, plan.moves) == plan.objective.removals


@pytest.mark.timing
@pytest.mark.parametrize("planner", [best_assignment, best_assignment_exact])
def test_big_subset_tables_keep_to_the_budget(planner):
    """Twelve ready units: 4096 fights per battlefield to play out before CP-SAT starts."""
    many = Position.from_json({"turn": 2, "units": [
        *(unit(f"a{k}", "A1", 1 + k % 3) for k in range(12)),
        *(unit(f"d{k}", "D", 2, f"O{1 + k % 3}") for k in range(6))]})
    started = time.perf_counter()
    plan = planner(many, Budget(seconds=0.2))
    assert plan.status == Status.UNKNOWN and plan.objective is None
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("planner", [best_assignment, best_assignment_exact])
def test_a_cancelled_plan_is_unknown_at_once(planner):
    plan = planner(E2, Budget(seconds=60, stop=lambda: True))
    assert (plan.status, plan.cp_status, plan.optimal) == (Status.UNKNOWN, "UNKNOWN", False)
