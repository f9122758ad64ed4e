"""Expectimax over sampled worlds: a prior picks the shortlist, each option on it is
valued by its mean over every world, and the budget is honoured."""

from __future__ import annotations

import pytest

from solver.budget import Budget, BudgetExhausted, Meter
from solver.search.expectimax import Ranked, expectimax

UNLIMITED = Budget(seconds=None, nodes=None, table_entries=None)

# option -> its value in worlds 0..3
VALUES = {
    "a": (4.0, 0.0, 0.0, 0.0),     # mean 1.0
    "b": (2.0, 2.0, 2.0, 6.0),     # mean 3.0
    "c": (-1.0, 1.0, 5.0, 3.0),    # mean 2.0
    "d": (10.0, 10.0, 10.0, 10.0),  # mean 10.0
}
WORLDS = [0, 1, 2, 3]
PRIOR = {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}


def value(option: str, world: int) -> float:
    return VALUES[option][world]


def meter(nodes: int | None = None) -> Meter:
    return Meter(Budget(seconds=None, nodes=nodes, table_entries=None))


def test_every_option_ranked_by_its_exact_mean_when_the_shortlist_holds_all():
    ranked = expectimax(list(VALUES), WORLDS, value, PRIOR.__getitem__, 10, meter())
    assert ranked == [Ranked("d", 10.0), Ranked("b", 3.0), Ranked("c", 2.0), Ranked("a", 1.0)]


def test_only_the_options_the_prior_likes_best_are_valued():
    asked = []

    def counted(option: str, world: int) -> float:
        asked.append((option, world))
        return value(option, world)

    ranked = expectimax(list(VALUES), WORLDS, counted, PRIOR.__getitem__, 3, meter())
    assert ranked == [Ranked("b", 3.0), Ranked("c", 2.0), Ranked("a", 1.0)]
    assert sorted(asked) == [(option, world) for option in "abc" for world in WORLDS]


def test_the_prior_decides_the_shortlist_not_the_order_of_the_options():
    ranked = expectimax(["a", "b", "c", "d"], WORLDS, value, {"a": 0, "b": 0, "c": 5, "d": 9}.get,
                        2, meter())
    assert ranked == [Ranked("d", 10.0), Ranked("c", 2.0)]


def test_a_shortlist_of_one_is_the_prior_favourite():
    ranked = expectimax(list(VALUES), WORLDS, value, PRIOR.__getitem__, 1, meter())
    assert ranked == [Ranked("a", 1.0)]


def test_the_mean_is_over_every_world_given():
    ranked = expectimax(["c"], [2, 3], value, PRIOR.__getitem__, 1, meter())
    assert ranked == [Ranked("c", 4.0)]


def test_equal_means_keep_the_prior_order():
    ranked = expectimax(["x", "y", "z"], [0], lambda option, world: 1.0,
                        {"x": 1, "y": 3, "z": 2}.get, 3, meter())
    assert [r.option for r in ranked] == ["y", "z", "x"]


def test_one_tick_per_option_and_world():
    counting = meter()
    expectimax(list(VALUES), WORLDS, value, PRIOR.__getitem__, 3, counting)
    assert counting.nodes == 12


def test_a_budget_that_runs_out_raises_budget_exhausted():
    with pytest.raises(BudgetExhausted):
        expectimax(list(VALUES), WORLDS, value, PRIOR.__getitem__, 3, meter(nodes=11))


def test_a_budget_of_exactly_enough_ticks_finishes():
    ranked = expectimax(list(VALUES), WORLDS, value, PRIOR.__getitem__, 3, meter(nodes=12))
    assert [r.option for r in ranked] == ["b", "c", "a"]


def test_a_stop_request_raises_budget_exhausted():
    stopping = Meter(Budget(seconds=None, stop=lambda: True), costly_nodes=True)
    with pytest.raises(BudgetExhausted):
        expectimax(list(VALUES), WORLDS, value, PRIOR.__getitem__, 3, stopping)


def test_no_worlds_is_refused():
    with pytest.raises(ValueError, match="expectimax needs at least one world"):
        expectimax(list(VALUES), [], value, PRIOR.__getitem__, 3, Meter(UNLIMITED))


def test_no_options_rank_nothing():
    assert expectimax([], WORLDS, value, PRIOR.__getitem__, 3, meter()) == []
