"""The plan of solver/beleaguered/generation.py alone, with searches stood in for: when a
search settles a deal, the ladder of budgets, how the rungs share the wall time, the
deals set aside once the fresh ones are spent, the order a rung tries them in, a band no
deal meets given up on (its time kept on a stand-in clock), and the status a client
restates."""

from __future__ import annotations

import math
from collections import Counter
from itertools import islice

import pytest

from solver.beleaguered import Move, Solution, generation
from solver.beleaguered.generation import (
    Band,
    Ending,
    Generation,
    Outcome,
    Tried,
    Why,
    ladder,
    outcome,
    restated,
    why_out,
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


class Clock:
    """time.monotonic() for the plan: it moves only as the stand-in searches spend."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(generation, "time", clock)
    return clock


def searches(clock: Clock, plan_of, answer_of):
    """A Run whose search of a deal spends, on the clock, what `answer_of(deal)` says, at
    most the time the plan gives it (then its answer is UNKNOWN, cut short)."""
    def run(deals, rung):
        for number in deals:
            given = min(rung, plan_of().deadline - clock.now)
            spends, solution = answer_of(number, rung)
            if spends >= given:
                spends, solution = given, Solution.unknown(given)
            clock.now += spends
            yield number, given, solution
    return run


def test_a_rung_above_the_first_tries_the_deals_with_the_shortest_lines_first():
    """Deals 1-6 are set aside at the first rung with lines of 100, none, 93, 97, none
    and 93: the second rung tries 3 and 6 (93), 4 (97), 1 (100), then 2 and 5."""
    lines = {1: 100, 2: None, 3: 93, 4: 97, 5: None, 6: 93}
    rungs = []

    def run(deals, rung):
        for number in deals:
            rungs.append((number, rung))
            line = lines[number]
            yield number, rung, (Solution.unknown(0.0) if line is None
                                 else answer(Status.SOLVED, line, lower_bound=70))

    plan = Generation(1, Band(92, 98), iter(range(1, 7)), ladder(1.0))
    list(plan.run(run))
    assert plan.ending is Ending.SPENT
    assert [n for n, rung in rungs if rung == 1.0] == [3, 6, 4, 1, 2, 5]


def test_a_deal_out_of_the_band_is_counted_by_why():
    band = Band(92, 98)
    assert why_out(Tried(1, Outcome.OUT, 0.25), band) is Why.UNWINNABLE
    assert why_out(Tried(2, Outcome.OUT, 0.25, 90, 70), band) is Why.SHORTER
    assert why_out(Tried(3, Outcome.OUT, 0.25, 90, 90), band) is Why.SHORTER  # proven 90
    assert why_out(Tried(4, Outcome.OUT, 1.0, 120, 99), band) is Why.LONGER
    assert why_out(Tried(5, Outcome.OUT, 1.0, None, 101), band) is Why.LONGER


def hopeless(number: int, rung: float) -> tuple[float, Solution]:
    """A deal of a band no deal meets (150-200 moves): unwinnable, a line below the
    band, a bound above it, or unsettled (it spends all it is given), by its number."""
    kind = number % 4
    if kind == 0:
        return 0.01, answer(Status.UNSOLVABLE)
    if kind == 1:
        return 0.2, answer(Status.SOLVED, 90, lower_bound=70)
    if kind == 2:
        return 0.05, answer(Status.UNKNOWN, lower_bound=210)
    return math.inf, Solution.unknown(0.0)


def test_a_band_no_deal_meets_gives_up_at_its_time_with_its_counts(clock):
    plan = Generation(2, Band(150, 200), iter(range(1, 1_000_000)), ladder(4.0), give_up=10)
    tried = list(plan.run(searches(clock, lambda: plan, hopeless)))
    assert plan.ending is Ending.HOPELESS and plan.found == []
    assert clock.now <= 10  # no search outlived the give-up moment
    last = {t.deal: t for t in tried}
    out = [t for t in last.values() if t.outcome is Outcome.OUT]
    unknown = Counter(t.seconds for t in last.values() if t.outcome is Outcome.UNKNOWN)
    by_why = Counter(why_out(t, plan.band) for t in out)
    assert by_why[Why.UNWINNABLE] and by_why[Why.SHORTER] and by_why[Why.LONGER]
    assert plan.status() == (
        "gave up after 10 s with none found (with no --max-seconds, a run that finds none "
        "by then ends): 0 of 2 deals found within 150-200 moves; "
        f"{len(last)} tried: {by_why[Why.SHORTER]} winnable, 0 in band, {len(out)} out of "
        f"band ({by_why[Why.UNWINNABLE]} unwinnable, {by_why[Why.SHORTER]} with a line "
        f"below the band, {by_why[Why.LONGER]} with a bound above it), "
        f"{unknown.total()} unknown set aside "
        f"({', '.join(f'{n} at {s:.3g} s' for s, n in sorted(unknown.items()))})")
    assert plan.status(wall="max_seconds").startswith(
        "gave up after 10 s with none found (with no max_seconds, ")


def test_a_deal_found_before_the_give_up_time_lets_the_run_go_on_to_its_count(clock):
    """Two searches at once, each unsettled within its rung. The first two that start
    with less than their rung before the give-up moment (10.1 s): the second is found
    within it, which moves the end on; the first, cut short, is no try then, and is tried
    again with its whole rung. The first deal started after 20 s is found too."""
    cut: list[float] = []  # the deal cut short, the one found, and their rung
    started: list[tuple[int, float]] = []  # (deal, rung) of every search, after the cut
    found = answer(Status.SOLVED, 150, optimal=True, lower_bound=150)

    def run(deals, rung):
        while pair := list(islice(deals, 2)):
            given = min(rung, plan.deadline - clock.now)
            if given < rung and not cut:
                cut.extend([*pair, rung])
            elif cut:
                started.extend((number, rung) for number in pair)
            late = clock.now > 20 and not plan.found[1:]
            clock.now += given
            for number in sorted(pair, key=lambda n: n != pair[-1]):
                finds = (cut and number == cut[1]) or (late and number == pair[-1])
                yield number, given, found if finds else Solution.unknown(given)

    plan = Generation(2, Band(150), iter(range(1, 1_000_000)), ladder(1.0), give_up=10.1)
    assert plan.deadline == 10.1
    tried = [(t.deal, t.seconds) for t in plan.run(run)]
    assert plan.ending is Ending.FOUND and plan.found[0].deal == cut[1]
    assert clock.now > 20 and math.isinf(plan.deadline)
    assert (cut[0], cut[2]) in started and (cut[0], cut[2]) in tried
    assert len(set(tried)) == len(tried)  # none tried twice at one rung


def test_a_wall_time_before_the_give_up_time_ends_the_run_as_time_up(clock):
    plan = Generation(2, Band(150, 200), iter(range(1, 1_000_000)), ladder(4.0),
                      max_seconds=5, give_up=10)
    list(plan.run(searches(clock, lambda: plan, hopeless)))
    assert plan.ending is Ending.TIME_UP and clock.now <= 5
    assert plan.status().startswith("time up after 5 s: 0 of 2 deals found within 150-200")
