"""The answer cache keeps the most recently used answers, within its entries and its
bytes, no client past its share; what it counts of its bytes is not less than what it
holds; an answer it is told to keep is not replaced; and the hints along a line are each
position's own: replayed from any of them, the line wins in the moves its hint says are
left, and along a line not proven optimal each says so, with a lower bound that holds."""

from __future__ import annotations

import gc
import random
import tracemalloc
from itertools import accumulate

from service.answer_cache import HEAP_FACTOR, AnswerCache
from solver.beleaguered import Mode, apply, deal, solve
from solver.beleaguered.position import Position
from solver.beleaguered.solve import hints_along
from solver.budget import Status
from tests.support.cheap_positions import cheap_freecell


def test_the_least_recently_used_answer_goes_first_and_lookups_are_counted():
    cache: AnswerCache[str, int] = AnswerCache(2, 1, "test_cache", "Test")
    cache.put([("a", 1), ("b", 2)])
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache.put([("c", 3)])
    assert (cache.get("b"), cache.get("a"), cache.get("c"), len(cache)) == (None, 1, 3, 2)
    assert (cache.hits, cache.misses) == (3, 1)
    counted = {family.name: family.samples[0].value
               for family in cache.collector().collect()}
    assert counted == {"fortress_solver_test_cache_hits": 3,
                       "fortress_solver_test_cache_misses": 1,
                       "fortress_solver_test_cache_bytes": cache.size}


def test_an_answer_it_is_told_to_keep_is_not_replaced():
    cache: AnswerCache[str, int] = AnswerCache(10, 1, "test_cache", "Test")
    cache.put([("a", 1), ("b", 2)], "one")
    cache.put([("a", 10), ("b", 20), ("c", 30)], "two", keep=lambda held: held % 2 == 0)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (10, 2, 30)
    assert cache.held_by("one")[0] == 1 and cache.held_by("two")[0] == 2
    cache.put([("b", 200)], "two", keep=lambda held: True)  # every one kept: nothing put
    assert cache.get("b") == 2 and cache.held_by("two")[0] == 2


def test_the_bytes_bound_it_and_every_answer_is_counted_at_least_its_size():
    cache: AnswerCache[int, bytes] = AnswerCache(1000, 1, "test_cache", "Test")
    cache.put((n, bytes(100_000)) for n in range(8))  # 8 answers of 100 kB each
    cache.put([(8, bytes(300_000))])
    assert cache.size <= 1 << 20
    assert cache.get(0) is None and cache.get(8) is not None  # the oldest went
    assert cache.size >= 100_000 * (len(cache) - 1) + 300_000


def test_a_client_past_its_share_pushes_out_its_own_oldest_not_anothers():
    cache: AnswerCache[tuple[str, int], bytes] = AnswerCache(1000, 1, "test_cache", "Test",
                                                             share=0.5)
    cache.put(((("calm", n), bytes(50_000)) for n in range(4)), "calm")
    for n in range(100):  # another client's flood, many times the whole cache
        cache.put([(("flood", n), bytes(50_000))], "flood")
        assert cache.held_by("flood")[1] <= (1 << 20) // 2
    assert all(cache.get(("calm", n)) is not None for n in range(4))
    assert cache.get(("flood", 99)) is not None and cache.get(("flood", 0)) is None
    assert cache.size <= 1 << 20


def test_a_full_cache_gives_up_the_answers_of_the_client_holding_the_most():
    cache: AnswerCache[tuple[str, int], bytes] = AnswerCache(1000, 1, "test_cache", "Test",
                                                             share=0.5)
    cache.put(((("calm", n), bytes(50_000)) for n in range(2)), "calm")
    for n in range(100):  # two clients' floods, each within its share, more than the whole
        for flood in ("flood-1", "flood-2"):
            cache.put([((flood, n), bytes(50_000))], flood)
        assert cache.size <= 1 << 20
    assert all(cache.get(("calm", n)) is not None for n in range(2))
    assert cache.held_by("calm")[0] == 2
    assert abs(cache.held_by("flood-1")[1] - cache.held_by("flood-2")[1]) <= 60_000


def test_what_it_counts_is_not_less_than_what_its_answers_take():
    rng = random.Random(7)
    lines = [(start, solve(start)) for start in (Position.from_json(cheap_freecell(rng))
                                                    for _ in range(30))]
    assert all(line.optimal and len(line.moves) == 52 for _, line in lines)
    cache: AnswerCache[Position, object] = AnswerCache(10**6, 100, "test_cache", "Test")
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for start, line in lines:
            cache.put(hints_along(start, line), "client")
        gc.collect()
        taken = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(cache) > 30 * 45  # the ends of the lines are the same positions
    assert taken <= cache.size <= 2 * HEAP_FACTOR * taken


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


def test_a_line_not_proven_optimal_gives_hints_with_its_bounds():
    """Each hint along the line: its move, the line's rest as moves left, and a lower
    bound no shorter win from there breaks (the optimal length, by an optimal solve)."""
    start = deal(2)
    solution = solve(start, Mode.ANY)
    assert solution.status is Status.SOLVED and not solution.optimal
    assert solution.lower_bound is not None and solution.lower_bound > 0
    along = list(hints_along(start, solution))
    assert [position for position, _ in along] == list(accumulate(solution.moves, apply,
                                                                  initial=start))
    for played, (_, hint) in enumerate(along[:-1]):
        assert hint.known and not hint.optimal and hint.move == solution.moves[played]
        assert hint.moves_left == len(solution.moves) - played
        assert hint.at_least == max(0, solution.lower_bound - played) <= hint.moves_left
    for position, hint in along[:-1:10]:
        assert hint.at_least <= solve(position).length <= hint.moves_left
    last, won = along[-1]
    assert last.is_won and won.move is None and won.moves_left == 0 and won.optimal


def test_a_deal_proven_unwinnable_is_known_so():
    proof = solve(deal(1), Mode.ANY)  # deal 1 of Beleaguered Fortress is unwinnable
    assert proof.status is Status.UNSOLVABLE
    [(position, hint)] = hints_along(deal(1), proof)
    assert position == deal(1) and hint.status is Status.UNSOLVABLE and hint.known
