"""`verdict` mode on whole deals of every shipped variant: both engines reach the verdict
`any` mode reaches, every line they return replays to a win, and a budget too small for
the flares answers unknown."""

from __future__ import annotations

import pytest

from solver.beleaguered import Engine, Mode, replay, solve
from solver.beleaguered.deals import deal
from solver.beleaguered.variant import Variant, shipped_variants
from solver.budget import Budget, Status
from tests.support.engines import by

VARIANTS = shipped_variants()
BUDGET = Budget(nodes=200_000)


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant.name for variant in VARIANTS])
def test_both_engines_reach_any_modes_verdict(variant: Variant) -> None:
    for number in (1, 2, 3):
        position = deal(number, variant)
        expected = by(Engine.NATIVE, solve, position, Mode.ANY, budget=BUDGET).status
        assert expected is not Status.UNKNOWN
        for engine in Engine:
            verdict = by(engine, solve, position, Mode.VERDICT, budget=BUDGET)
            assert verdict.status is expected, (variant.name, number, engine)
            assert not verdict.optimal
            if expected is Status.SOLVED:
                assert replay(position, verdict.moves).is_won


def test_an_unwinnable_deal_is_proven_so() -> None:
    position = deal(3)  # Beleaguered Fortress deal 3: no win (the census)
    for engine in Engine:
        assert by(engine, solve, position, Mode.VERDICT).status is Status.UNSOLVABLE


@pytest.mark.parametrize("engine", list(Engine))
def test_a_budget_too_small_for_the_flares_answers_unknown(engine: Engine) -> None:
    position = deal(1, next(v for v in VARIANTS if v.name == "freecell"))
    verdict = by(engine, solve, position, Mode.VERDICT, budget=Budget(nodes=20))
    assert verdict.status is Status.UNKNOWN and verdict.stats.nodes <= 20
