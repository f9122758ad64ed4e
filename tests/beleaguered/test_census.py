"""The census data file: written and read back losslessly, and the shipped one agrees
with fresh searches on a sample of its deals."""

from __future__ import annotations

import random

import pytest

from solver.beleaguered import Algorithm, Engine, Mode, deal, solve
from solver.beleaguered.census import Census, DealInfo, deal_info, shipped
from solver.budget import Budget, Status

ENTRIES = [DealInfo(10, Status.SOLVED, 73), DealInfo(11, Status.UNSOLVABLE, None),
           DealInfo(12, Status.UNKNOWN, None), DealInfo(13, Status.SOLVED, None),
           DealInfo(14, Status.SOLVED, 0), DealInfo(15, Status.SOLVED, 252)]


def test_a_census_reads_back_what_was_written():
    census = Census.from_bytes(Census.of(reversed(ENTRIES)).to_bytes())
    assert (census.first, census.last) == (10, 15)
    assert [census.info(entry.deal) for entry in ENTRIES] == ENTRIES
    assert census.info(9) is None and census.info(16) is None


def test_a_census_refuses_gaps_lengths_it_cannot_hold_and_other_files():
    with pytest.raises(ValueError, match="lacks deal 11"):
        Census.of([ENTRIES[0], ENTRIES[2]])
    with pytest.raises(ValueError, match="does not fit"):
        Census.of([DealInfo(1, Status.SOLVED, 253)])
    with pytest.raises(ValueError, match="not a census file"):
        Census.from_bytes(__import__("zlib").compress(b"XXXX" + bytes(8)))


def test_candidates_skip_only_what_the_census_proves_out_of_the_band():
    census = Census.of(ENTRIES)
    # 11 is unwinnable, 10 (73) and 15 (252) and 14 (0) are out of 70..80; the unknown 12
    # and the winnable 13 of unknown length may be in it; 5..9 and 16..18 lie outside.
    assert list(census.candidates(5, 18, 70, 80)) == [5, 6, 7, 8, 9, 10, 12, 13, 16, 17, 18]
    assert list(census.candidates(5, 18, 74, 80)) == [5, 6, 7, 8, 9, 12, 13, 16, 17, 18]
    assert list(census.candidates(11, 12, 0, float("inf"))) == [12]


SHIPPED = shipped()
needs_census = pytest.mark.skipif(SHIPPED is None, reason="no census is shipped")


@needs_census
def test_the_shipped_census_covers_the_first_million_deals():
    assert SHIPPED is not None and (SHIPPED.first, SHIPPED.last) == (1, 1_000_000)
    assert deal_info(1_000_001) is None


@needs_census
@pytest.mark.parametrize("number", [1, 2, 4, 126, 11982] + random.Random(7).sample(
    range(1, 1_000_001), 40))
def test_the_shipped_census_agrees_with_a_fresh_search(number):
    info = deal_info(number)
    assert info is not None and info.status is not Status.UNKNOWN
    verdict = solve(deal(number), Mode.OPTIMAL, Algorithm.ASTAR, Budget(seconds=60))
    assert verdict.status is info.status
    if info.length is not None:
        assert verdict.optimal and verdict.length == info.length


@needs_census
@pytest.mark.parametrize("number", random.Random(8).sample(range(1, 1_000_001), 3))
def test_the_shipped_census_agrees_with_the_python_engine(number):
    info = deal_info(number)
    assert info is not None
    verdict = solve(deal(number), Mode.OPTIMAL, Algorithm.ASTAR, Budget(seconds=120),
                    Engine.PYTHON)
    assert verdict.status is info.status and verdict.length == info.length
