"""The benchmarks' side-by-side bookkeeping (bench/sides.py) and the range benchmark's
reading of both solvers (bench/bench_verdict_range.py): agreement counted only where
both sides decided, every disagreement listed, the sides' order rotating by turn; the
range solver's boards read as unsolvable where it says so (Microsoft deal 11982, the
one unwinnable deal of the first 32,000) and our batch's verdicts read from its lines."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import pytest

from bench import bench_verdict_range, sides


def record(deal: int, **statuses: str) -> dict[str, object]:
    return {"deal": deal, **{side: {"status": s, "seconds": 0.5} for side, s in statuses.items()}}


def test_agreement_counts_the_deals_both_decided_and_lists_each_difference():
    records = [record(1, any="solved", fc="solved"), record(2, any="solved", fc="unsolvable"),
               record(3, any="unknown", fc="unsolvable"), record(4, any="solved", fc="refused")]
    found = sides.agreement(records, "any", "fc")
    assert (found["both_decided"], found["agree"]) == (2, 1)
    assert found["disagreements"] == ["2 (ours any solved, fc-solve unsolvable)"]
    assert sides.counts(records, "fc") == [1, 2, 0, 1]


def test_every_side_goes_first_in_turn():
    order = ["any", "verdict", "fc", "fc-lg"]
    firsts = [sides.turn_order(order, k)[0] for k in range(4)]
    assert sorted(firsts) == sorted(order)
    assert all(sorted(sides.turn_order(order, k)) == sorted(order) for k in range(4))


def test_modes_and_presets_are_read_once_each():
    assert sides.mode_list("any,verdict") == ("any", "verdict")
    assert sides.preset_list("default,lg") == ("default", "lg")
    assert sides.preset_list("none") == ()
    for text in ("any,any", "optimal", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="modes are any and verdict"):
            sides.mode_list(text)
    assert [sides.fc_side(p) for p in ("default", "lg")] == ["fc", "fc-lg"]


@pytest.mark.skipif(shutil.which(bench_verdict_range.RANGE_SOLVER) is None,
                    reason="freecell-solver-range-parallel-solve not installed")
def test_the_range_solver_and_our_batch_agree_on_deal_11982():
    deals = range(11981, 11984)
    theirs = bench_verdict_range.run_theirs(bench_verdict_range.theirs_command(
        bench_verdict_range.RANGE_SOLVER, deals), deals)
    assert theirs.verdicts == {11981: "solved", 11982: "unsolvable", 11983: "solved"}
    ours = bench_verdict_range.run_ours(bench_verdict_range.ours_command(
        str(Path(sys.executable).with_name("fortress-solver")), deals, None), deals)
    assert ours.verdicts == theirs.verdicts
    assert bench_verdict_range.disagreements(ours, theirs) == []
