"""The pruned fast searches against searches over the plain, unpruned rules.

The plain search uses `legal_moves`/`apply` as they are (foundation-to-tableau moves,
every empty pile as a target, a single card to an empty pile) with the bound "one
move per card not home", which prunes nothing. Pulling cards back from the
foundations makes the unpruned space of an unwinnable position far too large to
exhaust, so unsolvable verdicts are checked against the plain rules without them;
that foundation cards never need to come back is itself checked by the solvable cases.
Both engines are held to the plain search: the compiled kernel and the Python reference.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solver.beleaguered import (
    Algorithm,
    Engine,
    Mode,
    Position,
    deal,
    replay,
    solve,
    using,
)
from solver.budget import Budget, Status
from solver.search import astar, breadth_first
from tests.support.beleaguered_endgames import endgame, scattered
from tests.support.plain_rules import PlainRules


def _cases(cards_left: tuple[int, ...], scattered_cases: int) -> list[tuple[str, Position]]:
    rng = random.Random(20261129 + sum(cards_left))
    cases = [(f"deal{n}-{k}left", endgame(n, k, rng))
             for n in (1, 2, 5, 6, 7, 8, 11, 13, 29, 41, 100, 617) for k in cards_left]
    cases += [(f"scattered{i}", scattered(rng.randint(10, 16), rng))
              for i in range(scattered_cases)]
    return cases


def _verdict(position: Position) -> Status:
    return solve(position, Mode.ANY).status


SOLVABLE = [case for case in _cases((10, 13, 16), 24) if _verdict(case[1]) is Status.SOLVED]
def _small_unwinnable_deals(count: int) -> list[tuple[str, Position]]:
    """Unwinnable deals whose reachable space is small enough to exhaust without pruning."""
    found = []
    for number in range(1, 200):
        verdict = solve(deal(number), Mode.ANY)
        if verdict.status is Status.UNSOLVABLE and verdict.stats.table_entries <= 400:
            found.append((f"deal{number}", deal(number)))
    return found[:count]


UNSOLVABLE = _small_unwinnable_deals(12)


@cache
def _plain_cost(position: Position) -> int:
    """The unpruned optimal cost, searched once and shared by both engines' tests."""
    plain = astar(PlainRules(position), Budget(seconds=60))
    assert plain.status is Status.SOLVED
    return plain.cost


@cache
def _plain_verdict(position: Position) -> Status:
    return breadth_first(PlainRules(position, pullbacks=False), Budget(seconds=60)).status


def _check_against_plain(position: Position, plain_cost: int, engine: Engine) -> None:
    with using(engine):
        for algorithm in Algorithm:
            result = solve(position, Mode.OPTIMAL, algorithm)
            assert result.status is Status.SOLVED and result.optimal, (engine, algorithm)
            assert result.length == plain_cost, (engine, algorithm)
            assert replay(position, result.moves).is_won
        anyway = solve(position, Mode.ANY)
    assert anyway.status is Status.SOLVED and len(anyway.moves) >= plain_cost
    assert replay(position, anyway.moves).is_won


def test_cases_hold_both_verdicts_and_real_detours() -> None:
    assert len(SOLVABLE) >= 20 and len(UNSOLVABLE) >= 10
    detours = [solve(p).length - p.cards_left() for _, p in SOLVABLE]
    assert max(detours) >= 3  # some cases need several moves that do not go home


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("name,position", SOLVABLE, ids=[name for name, _ in SOLVABLE])
def test_optimal_length_equals_unpruned_search(name: str, position: Position,
                                               engine: Engine) -> None:
    _check_against_plain(position, _plain_cost(position), engine)


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("name,position", UNSOLVABLE, ids=[name for name, _ in UNSOLVABLE])
def test_unsolvable_agrees_with_exhaustive_plain_search(name: str, position: Position,
                                                        engine: Engine) -> None:
    assert _plain_verdict(position) is Status.UNSOLVABLE
    for mode, algorithm in [(Mode.ANY, Algorithm.ASTAR), *((Mode.OPTIMAL, a) for a in Algorithm)]:
        with using(engine):
            result = solve(position, mode, algorithm)
        assert result.status is Status.UNSOLVABLE, (engine, mode, algorithm)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(6, 12))
def test_random_small_positions_match_unpruned_search(seed: int, cards_left: int) -> None:
    position = scattered(cards_left, random.Random(seed))
    plain = astar(PlainRules(position), Budget(nodes=3_000))
    assume(plain.status is Status.SOLVED)
    for engine in Engine:
        _check_against_plain(position, plain.cost, engine)
