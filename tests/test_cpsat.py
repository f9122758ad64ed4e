"""CP-SAT under a Budget: time limits shared by solves, statuses, and cancellation that
ends a running solve with UNKNOWN."""

from __future__ import annotations

import random
import threading
import time

import pytest
from ortools.sat.python import cp_model

from solver.budget import Budget, Status
from solver.cpsat import CpSat, verdict


def hard_model(seed: int = 1, items: int = 60) -> cp_model.CpModel:
    """A subset-sum with large weights and a value to maximise: seconds of work for
    CP-SAT (it finds solutions, it cannot prove the best one quickly)."""
    rng = random.Random(seed)
    model = cp_model.CpModel()
    picks = [model.new_bool_var(f"x{k}") for k in range(items)]
    weights = [rng.randint(10**6, 10**7) for _ in picks]
    model.add(sum(w * x for w, x in zip(weights, picks, strict=True)) == sum(weights) // 2 + 1)
    model.maximize(sum(rng.randint(1, 10**6) * x for x in picks))
    return model


def easy_model() -> tuple[cp_model.CpModel, cp_model.IntVar]:
    model = cp_model.CpModel()
    x = model.new_int_var(0, 10, "x")
    model.add(x != 10)
    model.maximize(x)
    return model, x


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_cancelled_solve_is_unknown_long_before_its_budget(seed):
    """Cancelled 0.3 s into a 120 s budget, it stops (some 15 ms later when the machine
    is idle): the bound below only tells a stop from the budget's end."""
    model = hard_model(seed)
    cancel = threading.Event()
    stopped_at: list[float] = []

    def cancel_now() -> None:
        stopped_at.append(time.perf_counter())
        cancel.set()

    timer = threading.Timer(0.3, cancel_now)
    timer.start()
    solved = CpSat(Budget(seconds=120, stop=cancel.is_set)).solve(model)
    returned = time.perf_counter()
    timer.join()
    assert solved.status == "UNKNOWN" and solved.verdict is Status.UNKNOWN
    assert returned - stopped_at[0] < 60


def test_a_stop_before_the_solve_answers_at_once():
    cp = CpSat(Budget(seconds=30, stop=lambda: True))
    solved = cp.solve(hard_model())
    assert solved.status == "UNKNOWN"
    assert cp.solves == 0 and cp.seconds_left() == 0  # CP-SAT was never started


def test_the_time_limit_is_the_budgets():
    solved = CpSat(Budget(seconds=0.3)).solve(hard_model())
    assert solved.status in ("FEASIBLE", "UNKNOWN") and not solved.optimal
    assert 0 < solved.solver.parameters.max_time_in_seconds <= 0.3


def test_solves_share_the_budget():
    """The second solve may spend only what the first left: its limit is at most the
    budget less the first one's time."""
    cp = CpSat(Budget(seconds=0.4))
    first = cp.solve(hard_model(1))
    second = cp.solve(hard_model(2))
    assert not first.optimal and first.solver.wall_time > 0
    assert cp.solves == 1 or (second.solver.parameters.max_time_in_seconds
                              <= 0.4 - first.solver.wall_time)
    assert cp.seconds_left() == 0


def test_an_easy_model_is_solved_with_its_values():
    model, x = easy_model()
    cp = CpSat(Budget(seconds=10, stop=lambda: False))
    solved = cp.solve(model)
    assert (solved.status, solved.found, solved.optimal, solved.verdict) == (
        "OPTIMAL", True, True, Status.SOLVED)
    assert solved.value(x) == 9
    assert cp.solves == 1 and cp.branches >= 0


def test_statuses_become_verdicts():
    assert [verdict(s) for s in ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "MODEL_INVALID",
                                 "UNKNOWN")] == [
        Status.SOLVED, Status.SOLVED, Status.UNSOLVABLE, Status.UNKNOWN, Status.UNKNOWN]
    model = cp_model.CpModel()
    x = model.new_bool_var("x")
    model.add(x == 2)
    assert CpSat().solve(model).verdict is Status.UNSOLVABLE


def test_workers_are_at_least_one():
    with pytest.raises(ValueError, match="at least one worker"):
        CpSat(workers=0)
