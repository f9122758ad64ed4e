"""The compiled kernel against the Python engine it replaces, and its own contract.

The kernel searches the same problem as `FortressProblem`, so both engines must give
the same verdict everywhere and the same optimal length wherever a position is winnable;
its successors and bound must equal the Python problem's state by state, which pins a
disagreement to one expansion rather than a whole search. The kernel must also honour
every axis of a budget, stop within milliseconds when asked, let other Python threads
run while it searches, and refuse malformed states with ValueError instead of crashing.

Deals 1..200 run by default; FORTRESS_SOLVER_LONG=1 runs deals 1..1000 and compares
optimal lengths on all of them.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from solver.beleaguered import (
    MAX_DEAL,
    Algorithm,
    Engine,
    Mode,
    Position,
    Solution,
    _kernel,
    apply,
    deal,
    hint,
    legal_moves,
    native,
    replay,
    solve,
)
from solver.beleaguered.variant import beleaguered_fortress, variants
from solver.budget import Budget, Status
from tests.support.beleaguered_endgames import endgame, scattered
from tests.support.engines import by
from tests.support.long_runs import LONG
from tests.support.plain_rules import check_kernel_state, walk

BF = native.rules_of(beleaguered_fortress())
long_only = pytest.mark.skipif(not LONG, reason="set FORTRESS_SOLVER_LONG=1 for deals 201..1000")

DEALS = 200  # deals whose native verdicts in every mode are checked by default
OPTIMAL_DEALS = 120  # deals whose optimal lengths the Python engine confirms by default
LAST_DEAL = 1000

# Winnable deals among 1..120, mixed into random play so that many positions are winnable.
WINNABLE = [2, 6, 13, 15, 22, 23, 28, 29, 38, 41, 52, 54, 56, 58, 62, 68, 77, 80, 83, 94, 96,
            99, 100, 104, 105, 107, 110, 112, 113, 117, 119]
HARD = (41, 126)  # winnable deals whose optimal search needs tens of thousands of nodes

MODES = [(Mode.ANY, Algorithm.ASTAR), (Mode.OPTIMAL, Algorithm.ASTAR),
         (Mode.OPTIMAL, Algorithm.IDASTAR)]
MODE_IDS = ["greedy", "astar", "idastar"]


def _check_native(position: Position, result: Solution, mode: Mode) -> None:
    """What every native answer owes: a winning line, and `optimal` exactly when proven."""
    if result.status is Status.SOLVED:
        assert replay(position, result.moves).is_won
        assert result.optimal is (mode is Mode.OPTIMAL)
    else:
        assert result.moves == () and not result.optimal and result.length is None


# --- whole deals ------------------------------------------------------------------------

DEAL_PARAMS = [n if n <= DEALS else pytest.param(n, marks=long_only)
               for n in range(1, LAST_DEAL + 1)]


@pytest.mark.parametrize("number", DEAL_PARAMS)
def test_engines_agree_on_deal(number: int) -> None:
    position = deal(number)
    reference = by(Engine.PYTHON, solve, position, Mode.ANY)
    assert reference.status is not Status.UNKNOWN
    native = {}
    for (mode, algorithm), name in zip(MODES, MODE_IDS, strict=True):
        native[name] = solve(position, mode, algorithm)
        assert native[name].status is reference.status, name
        _check_native(position, native[name], mode)
    if number <= OPTIMAL_DEALS or LONG:
        optimal = by(Engine.PYTHON, solve, position, Mode.OPTIMAL)
        assert optimal.status is reference.status
        assert native["astar"].length == native["idastar"].length == optimal.length
        if optimal.status is Status.SOLVED:
            assert native["greedy"].length >= optimal.length


def test_winnable_list_is_what_the_engines_say() -> None:
    """The deals random play starts from are winnable, as the per-deal test confirms."""
    found = [n for n in range(1, OPTIMAL_DEALS + 1) if solve(deal(n), Mode.ANY).status
             is Status.SOLVED]
    assert found == WINNABLE


# --- random positions -------------------------------------------------------------------

@st.composite
def played(draw: st.DrawFn) -> Position:
    """A deal after up to 60 random legal moves (foundation-to-tableau ones included)."""
    number = draw(st.one_of(st.sampled_from(WINNABLE), st.integers(1, MAX_DEAL)))
    position = deal(number)
    for _ in range(draw(st.integers(0, 60))):
        moves = legal_moves(position)
        if not moves:
            break
        position = apply(position, moves[draw(st.integers(0, len(moves) - 1))])
    return position


@st.composite
def endgames(draw: st.DrawFn) -> Position:
    number = draw(st.one_of(st.sampled_from(WINNABLE), st.integers(1, MAX_DEAL)))
    cards_left = draw(st.sampled_from(range(6, 41)))
    return endgame(number, cards_left, random.Random(draw(st.integers(0, 2**32))))


@st.composite
def scattereds(draw: st.DrawFn) -> Position:
    return scattered(draw(st.integers(1, 52)), random.Random(draw(st.integers(0, 2**32))))


PYTHON_BUDGET = Budget(seconds=20, nodes=4_000)  # the reference is slow: small problems only


def _engines_agree(position: Position) -> None:
    verdict = by(Engine.PYTHON, solve, position, Mode.ANY, budget=PYTHON_BUDGET)
    assume(verdict.status is not Status.UNKNOWN)
    event(f"verdict {verdict.status}")
    for mode, algorithm in MODES:
        result = solve(position, mode, algorithm)
        assert result.status is verdict.status, (str(position), mode, algorithm)
        _check_native(position, result, mode)
    if verdict.status is Status.SOLVED:
        optimal = by(Engine.PYTHON, solve, position, Mode.OPTIMAL, budget=PYTHON_BUDGET)
        assume(optimal.optimal)  # proven within the reference's budget
        event(f"detour moves {optimal.length - position.cards_left()}")
        for algorithm in Algorithm:
            result = solve(position, Mode.OPTIMAL, algorithm)
            assert result.length == optimal.length, (str(position), algorithm)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames())
def test_engines_agree_on_random_endgames(position: Position) -> None:
    _engines_agree(position)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played())
def test_engines_agree_on_random_play(position: Position) -> None:
    _engines_agree(position)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(played(), endgames(), scattereds()), st.randoms(use_true_random=False),
       st.integers(0, 40))
def test_kernel_successors_and_bound_equal_the_python_problem(
        position: Position, rng: random.Random, steps: int) -> None:
    for state in walk(position, rng, steps):
        check_kernel_state(position, state)


def test_kernel_successors_cover_known_states() -> None:
    """Fixed cases: a fresh deal, a won state, and states with empty piles."""
    rng = random.Random(7)
    positions = [deal(2), deal(41), endgame(2, 0, rng), endgame(13, 3, rng)]
    positions += [scattered(k, rng) for k in (1, 2, 5, 20, 52)]
    for position in positions:
        for state in walk(position, rng, 30):
            check_kernel_state(position, state)
    assert _kernel.successors([[]] * 8, 0, [13] * 4) == []  # won: nothing left to move
    assert _kernel.bound([[]] * 8, 0, [13] * 4, True) == 0


@pytest.mark.parametrize("number", [2, 13, 28, 52])
def test_hints_agree_between_engines(number: int) -> None:
    native, python = hint(deal(number)), by(Engine.PYTHON, hint, deal(number))
    assert native.status is python.status is Status.SOLVED
    assert native.moves_left == python.moves_left
    after = apply(deal(number), native.move)
    assert by(Engine.PYTHON, solve, after).length == native.moves_left - 1


# --- budgets ----------------------------------------------------------------------------

@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("mode,algorithm", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("number", HARD)
def test_node_budget_runs_out(number: int, mode: Mode, algorithm: Algorithm,
                              engine: Engine) -> None:
    assert solve(deal(number), mode, algorithm).stats.nodes > 1_000  # it needs many nodes
    result = by(engine, solve, deal(number), mode, algorithm, Budget(nodes=50))
    assert result.status is Status.UNKNOWN and result.moves == () and not result.optimal
    assert result.stats.nodes <= 50


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("mode,algorithm", MODES, ids=MODE_IDS)
def test_time_budget_runs_out(mode: Mode, algorithm: Algorithm, engine: Engine) -> None:
    number = 727 if mode is Mode.ANY else 126  # each needs far more than a microsecond
    result = by(engine, solve, deal(number), mode, algorithm, Budget(seconds=1e-6))
    assert result.status is Status.UNKNOWN and result.moves == () and not result.optimal


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("number", HARD)
def test_table_budget_runs_out_for_best_first(number: int, mode: Mode, engine: Engine) -> None:
    needed = solve(deal(number), mode).stats.table_entries
    assert needed > 1_000
    result = by(engine, solve, deal(number), mode, Algorithm.ASTAR, Budget(table_entries=500))
    assert result.status is Status.UNKNOWN and result.moves == () and not result.optimal


@pytest.mark.parametrize("cap", [64, 500])
@pytest.mark.parametrize("number", [2, 52, 80, 96, 104, 110])
def test_idastar_with_a_tiny_table_stays_optimal(number: int, cap: int) -> None:
    position = deal(number)
    capped = solve(position, Mode.OPTIMAL, Algorithm.IDASTAR, Budget(table_entries=cap))
    assert capped.status is Status.SOLVED and capped.optimal
    assert capped.length == solve(position, Mode.OPTIMAL, Algorithm.ASTAR).length
    assert capped.stats.table_entries <= cap
    assert replay(position, capped.moves).is_won


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("mode,algorithm", MODES, ids=MODE_IDS)
def test_stop_is_polled(mode: Mode, algorithm: Algorithm, engine: Engine) -> None:
    number = 727 if mode is Mode.ANY else 41  # long enough to poll the stop
    stopped = by(engine, solve, deal(number), mode, algorithm, Budget(stop=lambda: True))
    assert not stopped.optimal  # an optimal search answers the line it found, if any
    assert stopped.status is (Status.SOLVED if stopped.moves else Status.UNKNOWN)
    assert replay(deal(number), stopped.moves).is_won or not stopped.moves
    if engine is Engine.NATIVE:  # a stop that never fires changes nothing
        free = solve(deal(number), mode, algorithm, Budget(stop=lambda: False))
        assert free.length == solve(deal(number), mode, algorithm).length is not None


class _Gone(Exception):
    pass


def _gone() -> bool:
    raise _Gone("the client went away")


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("mode,algorithm", MODES, ids=MODE_IDS)
def test_an_error_in_stop_reaches_the_caller(mode: Mode, algorithm: Algorithm,
                                             engine: Engine) -> None:
    number = 727 if mode is Mode.ANY else 41
    with pytest.raises(_Gone):
        by(engine, solve, deal(number), mode, algorithm, Budget(stop=_gone))
    assert solve(deal(number), mode, algorithm).status is Status.SOLVED  # and nothing broke


# --- threads ----------------------------------------------------------------------------

def _long_search(stop: Callable[[], bool]) -> Callable[[], Solution]:
    """IDA* on a hard deal with a table too small to keep: tens of seconds natively, and
    a budget of ten minutes, so that only `stop` ends it within a test's patience."""
    budget = Budget(seconds=600, table_entries=500, stop=stop)
    return lambda: solve(deal(126), Mode.OPTIMAL, Algorithm.IDASTAR, budget)


def _in_thread(search: Callable[[], Solution]) -> tuple[threading.Thread, list[Solution]]:
    results: list[Solution] = []
    thread = threading.Thread(target=lambda: results.append(search()), daemon=True)
    thread.start()
    return thread, results


def test_stop_event_cancels_a_long_native_search() -> None:
    cancel = threading.Event()
    thread, results = _in_thread(_long_search(cancel.is_set))
    time.sleep(0.2)
    assert thread.is_alive()
    set_at = time.perf_counter()
    cancel.set()
    thread.join(timeout=60)  # its budget is ten minutes: only the event ends it by then
    latency = time.perf_counter() - set_at
    print(f"[figure] native search stopped {latency * 1000:.1f} ms after the stop event")
    assert not thread.is_alive()
    (result,) = results
    assert result.status is Status.UNKNOWN and result.moves == () and not result.optimal


def _count_for(seconds: float) -> int:
    count = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        count += 1
    return count


@pytest.mark.timing
def test_native_search_releases_the_gil() -> None:
    alone = _count_for(0.2)
    cancel = threading.Event()
    thread, results = _in_thread(_long_search(cancel.is_set))
    try:
        time.sleep(0.05)
        beside = _count_for(0.2)
        assert thread.is_alive()  # the search ran all the while
    finally:
        cancel.set()
        thread.join(timeout=5)
    print(f"[figure] main thread ran {beside / alone:.0%} of its solo speed beside a search")
    assert results[0].status is Status.UNKNOWN
    assert beside > alone // 4


# --- malformed input --------------------------------------------------------------------

Raw = tuple[list[list[int]], list[int], list[int]]  # piles, reserve slots (-1 empty), home


def _deal_raw() -> Raw:
    position = deal(2)
    return ([[card.index for card in pile] for pile in position.tableau],
            [-1 if card is None else card.index for card in position.reserve],
            list(position.foundations))


def _duplicate(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    piles[0][0] = piles[1][0]
    return piles, slots, home


def _missing(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    piles[0].pop()
    return piles, slots, home


def _in_reserve_too(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    return piles, slots + [piles[0][-1]], home


def _seven_piles(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    return piles[:6] + [piles[6] + piles[7]], slots, home


def _nine_piles(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    return piles + [[]], slots, home


def _card_52(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    piles[0][-1] = 52
    return piles, slots, home


def _negative_card(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    piles[0][-1] = -3
    return piles, slots, home


def _reserve_card_52(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    return piles, [52 if card == slots[0] else card for card in slots], home


def _home_14(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    return piles, slots, [14, 0, 0, 0]


def _home_negative(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    return piles, slots, [-1, 0, 0, 0]


def _home_too(piles: list[list[int]], slots: list[int], home: list[int]) -> Raw:
    """A foundation that claims a card the piles or the reserve still hold."""
    home[0] += 1
    return piles, slots, home


def _mask(slots: list[int]) -> int:
    return sum(1 << card for card in slots if card != -1)


BAD = [_duplicate, _missing, _in_reserve_too, _seven_piles, _nine_piles, _card_52,
       _negative_card, _reserve_card_52, _home_14, _home_negative, _home_too]
CALLS: dict[str, Callable[[list[list[int]], list[int], list[int]], object]] = {
    "successors": lambda p, s, h: _kernel.successors(p, _mask(s), h),
    "bound": lambda p, s, h: _kernel.bound(p, _mask(s), h, True),
    "solve": lambda p, s, h: _kernel.solve(p, s, [], h, BF, "astar", 1.0, 0, 0, 0, None),
}


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("spoil", BAD, ids=[f.__name__.strip("_") for f in BAD])
def test_malformed_states_raise_value_error(spoil: Callable[..., Raw], call: str) -> None:
    CALLS[call](*_deal_raw())  # the unspoilt position is accepted
    with pytest.raises(ValueError):
        CALLS[call](*spoil(*_deal_raw()))


def test_malformed_solve_arguments_raise_value_error() -> None:
    piles, slots, home = _deal_raw()
    with pytest.raises(ValueError):
        _kernel.solve(piles, slots, [], home, BF, "dfs", 1.0, 0, 0, 0, None)
    with pytest.raises(ValueError):  # thirteen reserve slots
        _kernel.solve(piles, slots + [-1], [], home, BF, "astar", 1.0, 0, 0, 0, None)


@pytest.mark.parametrize(("rules", "message"), [
    ({key: value for key, value in BF.items() if key != "empty"}, "rules lack empty"),
    ({**BF, "build": "same-suit-sideways"}, "rules: no build same-suit-sideways"),
    ({**BF, "empty": "queens"}, "rules: no empty queens"),
    ({**BF, "fill": "any"}, "rules are piles, cells, build, empty, worrying_back and "
                            "sequence_moves"),
])
def test_the_kernel_reads_rules_by_name_and_refuses_others(rules: dict[str, object],
                                                           message: str) -> None:
    piles, slots, home = _deal_raw()
    with pytest.raises(ValueError, match=message):
        _kernel.solve(piles, slots, [], home, rules, "astar", 1.0, 0, 0, 0, None)


@pytest.mark.parametrize("variant", variants(), ids=lambda v: v.name)
def test_kernel_equals_the_python_problem_on_every_variant(variant) -> None:
    """Successors, bounds, verdicts and optimal lengths of both engines, on each variant's
    deals walked at random and on endgames of a few cards left."""
    rng = random.Random(variant.name)
    positions = [deal(n, variant) for n in (1, 2, 3)]
    positions += [endgame(n, rng.choice((10, 14, 18)), rng, variant) for n in range(1, 13)]
    positions += [scattered(rng.choice((8, 12, 16)), rng, variant) for _ in range(8)]
    for position in positions:
        for state in walk(position, rng, 25):
            check_kernel_state(position, state)
    for position in positions[3:]:
        reference = by(Engine.PYTHON, solve, position, Mode.OPTIMAL, budget=PYTHON_BUDGET)
        if reference.status is Status.UNKNOWN or (reference.moves and not reference.optimal):
            continue
        for algorithm in Algorithm:
            native_result = solve(position, Mode.OPTIMAL, algorithm)
            assert native_result.status is reference.status, (str(position), algorithm)
            assert native_result.length == reference.length, (str(position), algorithm)
            assert native_result.lower_bound == reference.lower_bound
            if native_result.moves:
                assert replay(position, native_result.moves).is_won
        fast = solve(position, Mode.ANY)
        assert fast.status is reference.status
        if fast.moves:
            assert replay(position, fast.moves).is_won
            assert fast.lower_bound is not None and fast.lower_bound <= reference.length
