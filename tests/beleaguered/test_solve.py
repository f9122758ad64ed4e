"""Whole deals through the public solve/hint API: verdicts, replays, agreement, symmetry."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.beleaguered import Algorithm, Mode, Position, apply, deal, hint, replay, solve
from solver.beleaguered.game import SOLVE, SolveOptions
from solver.beleaguered.variant import find_variant
from solver.budget import Budget, Status

# Solvable deals that A* proves in well under a second, with their optimal lengths.
QUICK_SOLVABLE = [2, 13, 28, 52, 80, 96]


@pytest.mark.parametrize("number", QUICK_SOLVABLE)
def test_astar_and_idastar_agree_and_replay(number: int) -> None:
    position = deal(number)
    astar = solve(position, Mode.OPTIMAL, Algorithm.ASTAR)
    idastar = solve(position, Mode.OPTIMAL, Algorithm.IDASTAR, Budget(table_entries=5_000))
    for result in (astar, idastar):
        assert result.status is Status.SOLVED and result.optimal
        assert replay(position, result.moves).is_won
    assert astar.length == idastar.length
    anyway = solve(position, Mode.ANY)
    assert anyway.status is Status.SOLVED and not anyway.optimal
    assert replay(position, anyway.moves).is_won
    assert anyway.length >= astar.length


def test_idastar_with_a_tiny_table_stays_optimal() -> None:
    position = deal(2)
    capped = solve(position, Mode.OPTIMAL, Algorithm.IDASTAR, Budget(table_entries=50))
    assert capped.status is Status.SOLVED and capped.optimal
    assert capped.length == solve(position).length
    assert capped.stats.table_entries <= 50


@pytest.mark.parametrize("algorithm", list(Algorithm))
@pytest.mark.parametrize("mode", list(Mode))
def test_unsolvable_deals_are_proven(mode: Mode, algorithm: Algorithm) -> None:
    for number in (1, 3, 4, 5):
        result = solve(deal(number), mode, algorithm)
        assert result.status is Status.UNSOLVABLE
        assert result.moves == () and result.length is None and not result.optimal


@pytest.mark.parametrize("algorithm", list(Algorithm))
def test_budget_that_runs_out_says_unknown(algorithm: Algorithm) -> None:
    result = solve(deal(29), Mode.OPTIMAL, algorithm, Budget(nodes=10))
    assert result.status is Status.UNKNOWN
    assert result.moves == () and not result.optimal
    assert result.stats.nodes <= 10


def test_hints_follow_an_optimal_line_to_the_end() -> None:
    position = deal(13)
    left = solve(position).length
    while left:
        advice = hint(position)
        assert advice.status is Status.SOLVED and advice.winnable
        assert advice.moves_left == left
        position = apply(position, advice.move)
        left -= 1
    assert position.is_won
    final = hint(position)
    assert final.move is None and final.moves_left == 0


def test_hint_on_unwinnable_position() -> None:
    advice = hint(deal(1))
    assert advice.status is Status.UNSOLVABLE
    assert advice.move is None and advice.moves_left is None and advice.winnable is False


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False))
def test_pile_and_slot_order_do_not_change_the_answer(rng: random.Random) -> None:
    position = deal(rng.choice(QUICK_SOLVABLE))
    piles = list(position.tableau)
    rng.shuffle(piles)
    slots = list(position.reserve) + [None] * rng.randint(0, 12 - len(position.reserve))
    rng.shuffle(slots)
    shuffled = Position(tuple(piles), tuple(slots), position.foundations)
    result = solve(shuffled)
    assert result.length == solve(position).length
    assert replay(shuffled, result.moves).is_won


@pytest.mark.parametrize(("variant", "number", "single_cards"),
                         [(None, 2, False), ("freecell", 2, False), ("freecell", 2, True)])
def test_the_solve_question_without_moves_keeps_the_verdict_and_travels_small(
        variant: str | None, number: int, single_cards: bool) -> None:
    """What a batch that counts wins asks (SolveBatchRequest.without_moves): the answer
    the worker sends back is the verdict, its length and counts kept, its line left out."""
    position = deal(number, None if variant is None else find_variant(variant))
    full = SOLVE.ask(position, SolveOptions(mode=Mode.ANY, single_cards=single_cards),
                     Budget(seconds=30))
    bare = SOLVE.ask(position, SolveOptions(mode=Mode.ANY, single_cards=single_cards,
                                            moves=False), Budget(seconds=30))
    assert full.moves and not bare.moves
    kept = ("status", "optimal", "length", "lower_bound", "single_card_moves", "single_cards")
    assert [getattr(bare, name) for name in kept] == [getattr(full, name) for name in kept]
    assert bare.to_json() | {"moves": [], "stats": None} == full.to_json() | {
        "moves": [], "stats": None}
    assert len(pickle.dumps(bare)) * 4 < len(pickle.dumps(full))
