"""Numbered deals dealt and solved in the kernel a run at a time (solver/beleaguered/ranges.py).

The kernel deals each number itself, so its deal must be deals.py's, card for card, for
every shipped variant and every numbering (the FreeCell shuffle, PySolFC's Twister from
32000, numbers past 32 bits); and each deal's record must be the answer `solve` gives
that deal's position, its moves left out: the same verdict, length, single-card length,
lower bound and nodes, the budget each deal's own.
"""

from __future__ import annotations

import random
import re
import signal

import pytest

from solver.beleaguered import Algorithm, Metric, Mode, _kernel, census_lines, deal, solve
from solver.beleaguered.deals import MAX_DEALS, PYSOL_TWISTER_FROM, layout
from solver.beleaguered.native import rules_of
from solver.beleaguered.position import Position
from solver.beleaguered.ranges import batch_lines, solutions
from solver.beleaguered.results import record
from solver.beleaguered.solve import Solution
from solver.beleaguered.variant import Variant, find_variant, shipped_variants
from solver.budget import Budget, Status

SHIPPED = shipped_variants()
NAMES = [variant.name for variant in SHIPPED]


def _as_kernel(position: Position) -> tuple[list[list[int]], list[int], list[int],
                                             tuple[int, ...]]:
    """A position as the kernel's `deal` gives one: card numbers, -1 for an empty slot."""
    return ([[card.index for card in pile] for pile in position.tableau],
            [-1 if card is None else card.index for card in position.reserve],
            [-1 if card is None else card.index for card in position.cells],
            tuple(position.foundations))


def _numbers(variant: Variant, rng: random.Random) -> list[int]:
    """The first deals, those about PySolFC's switch to its Twister, the largest, and
    some from all over the numbering's range (past 32 bits in PySolFC's)."""
    largest = MAX_DEALS[variant.numbering]
    around = range(PYSOL_TWISTER_FROM - 50, PYSOL_TWISTER_FROM + 50)
    return [*range(1, 201), *around, largest, *(rng.randint(1, largest) for _ in range(300))]


@pytest.mark.parametrize("name", NAMES)
def test_the_kernel_deals_every_number_as_deals_py_does(name: str) -> None:
    variant = find_variant(name)
    rules = rules_of(variant)
    for number in _numbers(variant, random.Random(name)):
        kernel = _kernel.deal(number, layout(variant), rules)
        assert (kernel[0], kernel[1], kernel[2], tuple(kernel[3])) == \
            _as_kernel(deal(number, variant)), f"{name} deal {number}"


def _verdict(solution: Solution) -> tuple[object, ...]:
    return (solution.status, solution.optimal, solution.length, solution.single_card_moves,
            solution.lower_bound, solution.stats.nodes, solution.stats.table_entries,
            solution.metric)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("mode", list(Mode))
def test_a_run_of_deals_answers_as_solve_does(name: str, mode: Mode) -> None:
    """Optimal within 3,000 nodes: some deals run out, and their answer is the line an
    `any` search finds in the nodes left, as solve's is."""
    variant = find_variant(name)
    budget = Budget(seconds=None, nodes=3000)
    found = solutions(range(1, 16), variant, mode, budget)
    assert [_verdict(solution) for solution in found] == [
        _verdict(solve(deal(number, variant), mode, Algorithm.ASTAR, budget).without_moves())
        for number in range(1, 16)]


@pytest.mark.parametrize("name", ["freecell", "seahaven-towers", "bastion"])
@pytest.mark.parametrize("algorithm", list(Algorithm))
def test_single_cards_and_idastar_answer_as_solve_does(name: str, algorithm: Algorithm) -> None:
    variant = find_variant(name)
    budget = Budget(seconds=None, nodes=3000)
    found = solutions(range(20, 28), variant, Mode.OPTIMAL, budget, algorithm, Metric.CARDS)
    assert [_verdict(solution) for solution in found] == [
        _verdict(solve(deal(number, variant), Mode.OPTIMAL, algorithm, budget,
                       Metric.CARDS).without_moves())
        for number in range(20, 28)]


def test_a_batchs_lines_are_the_deal_by_deal_lines() -> None:
    """The lines a batch writes, field for field, but for the seconds each search took."""
    variant = find_variant("freecell")
    budget = Budget(seconds=None, nodes=20_000)
    lines = batch_lines(list(range(1, 31)), 0.0, variant, Mode.ANY, Algorithm.ASTAR,
                        Metric.MOVES, budget)
    expected = [record(number, solve(deal(number, variant), Mode.ANY, Algorithm.ASTAR,
                                     budget).without_moves())
                for number in range(1, 31)]
    assert [list(line) for line in lines] == [list(line) for line in expected]
    assert [{**line, "seconds": 0} for line in lines] == \
        [{**line, "seconds": 0} for line in expected]


@pytest.mark.parametrize("name", ["beleaguered-fortress", "freecell", "citadel"])
@pytest.mark.parametrize("mode", [Mode.ANY, Mode.VERDICT])
def test_a_census_of_a_run_of_deals_is_the_deal_by_deal_census(name: str, mode: Mode) -> None:
    variant = find_variant(name)
    budget = Budget(seconds=None, nodes=5000)
    lines = census_lines.census_part(list(range(1, 21)), 0.0, budget, variant, mode)
    expected = [census_lines.census_deal(number, budget, variant, mode)
                for number in range(1, 21)]
    assert [{**line, "seconds": 0} for line in lines] == \
        [{**line, "seconds": 0} for line in expected]


def test_a_slice_stops_the_run_after_the_deal_that_passes_it() -> None:
    """A slice no deal fits in: the first deal alone, whose record is as it would be."""
    variant = find_variant("freecell")
    budget = Budget(seconds=None, nodes=2000)
    [first] = solutions([5, 6, 7], variant, Mode.ANY, budget, slice_seconds=1e-9)
    assert _verdict(first) == _verdict(solutions([5], variant, Mode.ANY, budget)[0])
    assert len(solutions([5, 6, 7], variant, Mode.ANY, budget)) == 3


def test_a_slice_gives_up_a_deal_still_searching_but_never_the_first() -> None:
    """FreeCell deal 4's optimal search takes seconds, deal 3's hundredths: after deal 3,
    deal 4 is given up when the slice is over, so the run comes back with deal 3 alone
    (deal 4 to be searched again, from the start); first in a run, it is searched to the
    end of its own budget."""
    variant = find_variant("freecell")
    [three] = solutions([3, 4, 5], variant, Mode.OPTIMAL, Budget(seconds=600),
                        slice_seconds=0.25)
    assert three.optimal
    assert _verdict(three) == _verdict(solutions([3], variant, Mode.OPTIMAL, Budget())[0])
    budget = Budget(seconds=None, nodes=100_000)  # a second's search, not the proof
    [four] = solutions([4, 3], variant, Mode.OPTIMAL, budget, slice_seconds=1e-9)
    assert _verdict(four) == _verdict(solutions([4], variant, Mode.OPTIMAL, budget)[0])
    assert four.stats.nodes >= 100_000


def test_a_census_slice_gives_up_an_optimal_search_still_running_but_the_first() -> None:
    """The census of FreeCell deals 3 and 4: deal 4's win is found at once, its optimal
    search takes seconds; past the slice that search is given up, and the run comes back
    with deal 3's line alone, as the census of deal 3 by itself; first in a run, deal 4's
    line is whole."""
    variant = find_variant("freecell")
    [three] = census_lines.census_part([3, 4], 0.25, Budget(seconds=600), variant)
    alone = census_lines.census_deal(3, Budget(seconds=600), variant)
    assert {**three, "seconds": 0} == {**alone, "seconds": 0}
    budget = Budget(seconds=None, nodes=100_000)
    [four] = census_lines.census_part([4, 3], 1e-9, budget, variant)
    assert {**four, "seconds": 0} == {**census_lines.census_deal(4, budget, variant),
                                      "seconds": 0}


def test_each_deal_has_the_budget_whole() -> None:
    """A node budget bounds each deal's search, not the run's."""
    found = solutions(range(1, 11), find_variant("freecell"), Mode.ANY,
                      Budget(seconds=None, nodes=400))
    assert all(solution.stats.nodes <= 400 for solution in found)
    assert sum(solution.stats.nodes for solution in found) > 400


def test_a_stop_ends_every_deals_search() -> None:
    """Stopped at once, each optimal search proves nothing: it answers unknown, or the
    line it found before its first look at the stop, not proven shortest."""
    found = solutions(range(1, 4), find_variant("freecell"), Mode.OPTIMAL,
                      Budget(seconds=None, stop=lambda: True))
    assert all(solution.status is Status.UNKNOWN
               or (solution.status is Status.SOLVED and not solution.optimal)
               for solution in found)


def test_bad_input_is_refused_with_its_reason() -> None:
    freecell = find_variant("freecell")
    rules, where = rules_of(freecell, True), layout(freecell)
    budget = ("greedy", 1.0, 0, 0, 0, None)
    cases = [
        ([0], where, "deal numbers start at 1"),
        ([2**31], where, "the FreeCell shuffle deals numbers below 2**31"),
        ([1], {**where, "to": where["to"][:-1]}, "a layout places every card dealt"),
        ([1], {key: value for key, value in where.items() if key != "citadel"},
         "a layout lacks citadel"),
        ([1], {**where, "to": [*where["to"][:-1], 99]}, "a layout places a card nowhere"),
    ]
    for numbers, given, reason in cases:
        with pytest.raises(ValueError, match=re.escape(reason)):
            _kernel.solve_deals(numbers, given, rules, *budget)
    with pytest.raises(ValueError, match="kind is greedy, astar, idastar, verdict, anytime"):
        _kernel.solve_deals([1], where, rules, "fastest", 1.0, 0, 0, 0, None)
    bastion = find_variant("bastion")
    doubled = {**layout(bastion), "to": [*layout(bastion)["to"][:-1], len(bastion.piles)]}
    with pytest.raises(ValueError, match="a layout fills a slot twice"):
        _kernel.solve_deals([1], doubled, rules_of(bastion), *budget)


def test_a_signal_ends_a_long_run_of_short_searches() -> None:
    """A handler's exception (Ctrl-C's KeyboardInterrupt) reaches the caller between two
    deals, each of whose searches is too short to look for signals itself (a search looks
    every 1,024 nodes, and these stop at 1,000)."""
    def alarm(signum: int, frame: object) -> None:
        raise TimeoutError("the alarm")

    before = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        with pytest.raises(TimeoutError, match="the alarm"):
            solutions(range(1, 200_001), find_variant("freecell"), Mode.ANY,
                      Budget(seconds=None, nodes=1000))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
