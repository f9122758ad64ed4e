"""The deadlock-cycle bound never overestimates, counts what it claims, and is never
weaker than the bound the searches use."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.bound_ceiling import fewest_extra_moves
from solver.beleaguered import Position, apply, deadlock, deal, solve
from solver.beleaguered.census import deal_info
from solver.beleaguered.heuristic import extra_moves_bound, run_moves_bound
from solver.beleaguered.problem import FortressProblem, takes_of
from solver.beleaguered.variant import find_variant
from solver.cards import Card
from tests.support.beleaguered_endgames import scattered


def _piles(*piles: str) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(tuple(Card.parse(c).index for c in pile.split()) for pile in piles))


def _bound(position: Position, length: int = 4) -> int:
    problem = FortressProblem(position)
    start = problem.start()
    return len(problem.opening) + 52 - sum(start.home) + deadlock.extra_moves(start.piles, length)


def test_a_cycle_of_three_cards_needs_one_more_move() -> None:
    # 9H waits for 9D (2D beneath it), 9D for 9C, 9C for 9H: no two wait for each other.
    piles = _piles("2D 9H", "2C 9D", "2H 9C")
    assert extra_moves_bound(piles) == 0
    assert deadlock.extra_moves(piles, 2) == 0
    assert deadlock.extra_moves(piles, 3) == 1


def test_pairs_and_blocked_cards_count_as_before() -> None:
    assert deadlock.extra_moves(_piles("3S 5S", "KH"), 3) == 1
    assert deadlock.extra_moves(_piles("2S 9H", "4H KS"), 2) == 1
    assert deadlock.extra_moves(_piles("2S 9H", "4H KS", "2C 9D", "4D KC"), 3) == 2


def test_a_run_steps_aside_in_one_move() -> None:
    # 9H waits for QD and KC, 8S for KC, each of those for one of them: two cards must
    # step aside, but with sequence moves the run 9H 8S does so in one move.
    takes = takes_of(find_variant("freecell"))
    piles = _piles("4D 2C 9H 8S", "5H 3C QD", "5S 3H KC")
    assert deadlock.extra_moves(piles, 3) == 2
    assert deadlock.extra_moves(piles, 3, takes) == 1


def test_bound_never_exceeds_moves_left_along_optimal_lines() -> None:
    for number in (2, 13, 28):
        position = deal(number)
        solution = solve(position)
        assert solution.optimal and solution.length is not None
        for done, move in enumerate(solution.moves):
            assert _bound(position) <= solution.length - done
            position = apply(position, move)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_bound_is_admissible_on_small_endgames(seed: int) -> None:
    position = scattered(random.Random(seed).randint(8, 16), random.Random(seed))
    solution = solve(position)
    if solution.length is not None:
        assert _bound(position) <= solution.length


def test_bound_lies_between_the_searches_bound_and_the_exact_one() -> None:
    """At least the matching's count (a hitting set meets every pair), at most the fewest
    cards that must move other than home (bench/bound_ceiling.py's model), and at most
    the census's proven optimal lengths."""
    for name in ("beleaguered-castle", "streets-and-alleys", "freecell"):
        variant = find_variant(name)
        takes = takes_of(variant)
        for number in range(1, 13):
            position = deal(number, variant)
            piles = tuple(sorted(tuple(card.index for card in pile)
                                 for pile in position.tableau))
            cards = deadlock.extra_moves(piles, 3)
            runs = deadlock.extra_moves(piles, 3, takes)
            assert extra_moves_bound(piles) <= cards <= fewest_extra_moves(position)
            assert run_moves_bound(piles, takes) <= runs <= cards
            known = deal_info(number, variant)
            if known is not None and known.optimal and known.length is not None:
                metric = runs if variant.sequence_moves != "none" else cards
                assert position.cards_left() + metric <= known.length
