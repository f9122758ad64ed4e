"""The lower bound never overestimates, and each of its parts counts what it claims."""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.beleaguered import Position, apply, deal, solve
from solver.beleaguered.heuristic import _matching_size, extra_moves_bound
from solver.beleaguered.problem import FortressProblem
from solver.cards import Card


def _bound(position: Position) -> int:
    problem = FortressProblem(position)
    return len(problem.opening) + problem.heuristic(problem.start())


def test_bound_never_exceeds_moves_left_along_optimal_lines() -> None:
    for number in (2, 13, 28, 52):
        position = deal(number)
        solution = solve(position)
        for done, move in enumerate(solution.moves):
            assert _bound(position) <= solution.length - done
            position = apply(position, move)


def _piles(*piles: str) -> tuple[tuple[int, ...], ...]:
    return tuple(sorted(tuple(Card.parse(c).index for c in pile.split()) for pile in piles))


def test_card_above_lower_suit_mate_needs_two_moves() -> None:
    assert extra_moves_bound(_piles("3S 5S", "KH")) == 1
    assert extra_moves_bound(_piles("5S 3S", "KH")) == 0


def test_cards_waiting_for_each_other_across_piles() -> None:
    # 9H waits for 4H (under KS), KS waits for 2S (under 9H): one must step aside.
    assert extra_moves_bound(_piles("2S 9H", "4H KS")) == 1
    assert extra_moves_bound(_piles("9H 2S", "KS 4H")) == 0
    # Two such pairs sharing no card: two extra moves.
    assert extra_moves_bound(_piles("2S 9H", "4H KS", "2C 9D", "4D KC")) == 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=20))
def test_matching_is_a_matching_no_larger_than_maximum(edges: list[tuple[int, int]]) -> None:
    pairs = [(x, y + 100) for x, y in edges]  # two sides, no self loops
    graph = nx.Graph(pairs)
    assert _matching_size(pairs) <= len(nx.max_weight_matching(graph, maxcardinality=True))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_bound_is_admissible_on_small_endgames(seed: int) -> None:
    from tests.support.beleaguered_endgames import scattered

    position = scattered(random.Random(seed).randint(8, 16), random.Random(seed))
    solution = solve(position)
    if solution.length is not None:
        assert _bound(position) <= solution.length
