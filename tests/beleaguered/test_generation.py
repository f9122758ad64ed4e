"""The plan of solver/beleaguered/generation.py alone, with searches stood in for: when a
search settles a deal, the ladder of budgets, how the rungs share the wall time, the
deals set aside once the fresh ones are spent, and the status a client restates."""

from __future__ import annotations

import pytest

from solver.beleaguered import Move, Solution
from solver.beleaguered.generation import (
    Band,
    Ending,
    Generation,
    Outcome,
    ladder,
    outcome,
    restated,
)
from solver.budget import SearchStats, Status

A_MOVE = Move.from_json({"card": "AS", "from": "reserve:8", "to": "foundation"})


def answer(status: Status, length: int = 0, optimal: bool = False,
           lower_bound: int | None = None) -> Solution:
    """A search's answer: only its verdict, its line's length and bound matter here."""
    return Solution(status, optimal, (A_MOVE,) * length, SearchStats(1, 0.1, 1), lower_bound)


@pytest.mark.parametrize(("solution", "expected"), [
    (answer(Status.SOLVED, 80, optimal=True), Outcome.FOUND),
    (answer(Status.SOLVED, 90, optimal=True), Outcome.OUT),
    (answer(Status.UNSOLVABLE), Outcome.OUT),
    (answer(Status.UNKNOWN, lower_bound=85), Outcome.OUT),  # no line can be short enough
    (answer(Status.SOLVED, 95, lower_bound=86), Outcome.OUT),
    (answer(Status.SOLVED, 77, lower_bound=60), Outcome.OUT),  # the optimal is shorter
    (answer(Status.SOLVED, 95, lower_bound=80), Outcome.UNKNOWN),
    (answer(Status.UNKNOWN, lower_bound=84), Outcome.UNKNOWN),
])
def test_a_search_settles_a_deal_only_when_it_proves_where_its_optimal_length_lies(
        solution, expected):
    assert outcome(solution, Band(78, 84)) is expected


def test_the_ladder_climbs_by_four_from_a_quarter_second_to_the_budget():
    assert ladder(30) == (0.25, 1, 4, 16, 30)
    assert ladder(0.1) == (0.1,)
    assert ladder(1) == (0.25, 1)


def test_the_rungs_share_the_wall_time_by_what_they_find():
    """Every deal unsettled within 0.25 s, every third found within 1 s. The first rung
    finds nothing, so the second is soon owed two thirds of its time and tries two deals
    set aside; finding none, it gives way; owed more as the first still finds nothing, it
    comes back, finds deal 3, and having found is owed as much as the first: it goes on to
    deal 6. Both found long before the range is spent."""
    unknown = Solution.unknown(0.0)
    found = Solution(Status.SOLVED, True, (), SearchStats(0, 0.0, 0))

    def run(deals, rung):
        for number in deals:
            yield number, rung, found if rung >= 1 and number % 3 == 0 else unknown

    plan = Generation(2, Band(), iter(range(1, 1_000_000)), ladder(4.0))
    tried = [(t.deal, t.seconds) for t in plan.run(run)]
    assert [t.deal for t in plan.found] == [3, 6] and plan.ending is Ending.FOUND
    first = [(n, 0.25) for n in range(1, 23)]
    assert tried == [*first[:13], (1, 1.0), (2, 1.0), *first[13:],
                     (3, 1.0), (4, 1.0), (5, 1.0), (6, 1.0)]
    assert plan.last_fresh == 22


def test_once_the_fresh_deals_are_spent_every_deal_set_aside_climbs_the_ladder():
    unknown = Solution.unknown(0.0)
    rungs = []

    def run(deals, rung):
        for number in deals:
            rungs.append(rung)
            yield number, rung, unknown

    plan = Generation(1, Band(), iter(range(1, 4)), ladder(4.0))
    assert len(list(plan.run(run))) == 9 and plan.ending is Ending.SPENT
    assert rungs == [0.25] * 3 + [1.0] * 3 + [4.0] * 3


def test_a_status_restated_counts_the_deals_found_from_the_start():
    status = "time up after 2 s: 1 of 3 deals found within 78-84 moves; 9 tried: 8 out of band"
    assert restated(status, 3, 5, " (2 of them from a.jsonl)") == (
        "time up after 2 s: 3 of 5 deals found within 78-84 moves (2 of them from a.jsonl); "
        "9 tried: 8 out of band")
    assert restated("the band 80-70 is empty", 3, 5) is None
