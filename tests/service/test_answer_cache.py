"""The answer cache keeps the most recently used answers, and the hints along an optimal
line are each position's own: replayed from any of them, the line wins in the moves
its hint says are left."""

from __future__ import annotations

from itertools import accumulate

from service.answer_cache import AnswerCache
from solver.beleaguered import Mode, apply, deal, solve
from solver.beleaguered.solve import hints_along
from solver.budget import Status


def test_the_least_recently_used_answer_goes_first_and_lookups_are_counted():
    cache: AnswerCache[str, int] = AnswerCache(2, "test_cache", "Test")
    cache.put([("a", 1), ("b", 2)])
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache.put([("c", 3)])
    assert (cache.get("b"), cache.get("a"), cache.get("c"), len(cache)) == (None, 1, 3, 2)
    assert (cache.hits, cache.misses) == (3, 1)
    counted = {family.name: family.samples[0].value
               for family in cache.collector().collect()}
    assert counted == {"fortress_solver_test_cache_hits": 3,
                       "fortress_solver_test_cache_misses": 1}


def test_each_hint_along_an_optimal_line_is_its_positions_own():
    start = deal(2)
    solution = solve(start)
    assert solution.optimal
    along = list(hints_along(start, solution))
    assert [position for position, _ in along] == list(accumulate(solution.moves, apply,
                                                                  initial=start))
    for index, (position, hint) in enumerate(along):
        assert hint.known and hint.moves_left == len(solution.moves) - index
        if hint.move is not None:
            assert apply(position, hint.move) == along[index + 1][0]
    last, won = along[-1]
    assert last.is_won and won.move is None


def test_a_line_not_proven_optimal_gives_no_hints():
    solution = solve(deal(2), Mode.ANY)
    assert solution.status is Status.SOLVED and not solution.optimal
    assert list(hints_along(deal(2), solution)) == []


def test_a_deal_proven_unwinnable_is_known_so():
    proof = solve(deal(1), Mode.ANY)  # deal 1 of Beleaguered Fortress is unwinnable
    assert proof.status is Status.UNSOLVABLE
    [(position, hint)] = hints_along(deal(1), proof)
    assert position == deal(1) and hint.status is Status.UNSOLVABLE and hint.known
