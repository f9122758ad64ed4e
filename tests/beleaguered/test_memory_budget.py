"""Memory as a budget: a search's tables stay under it, an optimal search that fills it
goes on within it (A* as IDA*) to the same proven length, and one that cannot answers
unknown with its lower bound. Budgets here are in nodes, never in time."""

from __future__ import annotations

import pytest

from solver.beleaguered import Algorithm, Engine, Mode, deal, solve, using
from solver.beleaguered.variant import find_variant
from solver.budget import Budget, Status
from tests.support.search_memory import ask

MIB = 1 << 20
CASTLE = find_variant("beleaguered-castle")
ROOMY = Budget(seconds=None, nodes=3_000_000)


@pytest.mark.parametrize("number", [4, 7])
def test_an_optimal_search_that_fills_its_memory_proves_the_same_length_within_it(number):
    position = deal(number, CASTLE)
    roomy = solve(position, Mode.OPTIMAL, budget=ROOMY)
    assert roomy.optimal and roomy.stats.table_bytes > 4 * MIB  # A* alone needs more
    tight = solve(position, Mode.OPTIMAL, budget=Budget(seconds=None, nodes=3_000_000,
                                                        memory_mib=2))
    assert tight.status is Status.SOLVED and tight.optimal
    assert tight.length == roomy.length == tight.lower_bound
    assert 0 < tight.stats.table_bytes <= 2 * MIB


def test_idastar_sizes_its_table_to_the_memory():
    solution = solve(deal(7, CASTLE), Mode.OPTIMAL, Algorithm.IDASTAR,
                     Budget(seconds=None, nodes=3_000_000, memory_mib=1))
    assert solution.optimal and solution.length == 79
    assert 0 < solution.stats.table_bytes <= MIB


def test_any_mode_that_fills_its_memory_answers_unknown_within_it():
    position = deal(77, find_variant("streets-and-alleys"))  # hard: no quick line
    solution = solve(position, Mode.ANY, budget=Budget(seconds=None, nodes=2_000_000,
                                                       memory_mib=1))
    assert solution.status is Status.UNKNOWN and not solution.moves
    assert 0 < solution.stats.table_bytes <= MIB
    assert solution.stats.nodes < 2_000_000  # the memory ended it, not the nodes


def test_an_optimal_search_out_of_memory_and_nodes_keeps_a_proven_lower_bound():
    position = deal(17, CASTLE)  # 78 moves at the fewest (A* with room proves it)
    assert solve(position, Mode.OPTIMAL, budget=ROOMY).length == 78
    root = solve(position, Mode.OPTIMAL, budget=Budget(seconds=None, nodes=1))
    solution = solve(position, Mode.OPTIMAL, budget=Budget(seconds=None, nodes=200_000,
                                                           memory_mib=1))
    assert not solution.optimal and solution.stats.table_bytes <= MIB
    assert root.lower_bound is not None and solution.lower_bound is not None
    assert root.lower_bound <= solution.lower_bound <= 78


def test_the_python_reference_caps_its_tables_in_entries_of_the_memory():
    """Its cap is the memory its search is measured to add to the process, no longer a
    count of entries of an assumed size: with room it proves deal 12's 75 moves, and its
    A* of a hard deal given 8 MiB (in a process of its own) stops within them
    (tests/search/test_memory.py holds every Python search to its memory)."""
    with using(Engine.PYTHON):
        roomy = solve(deal(12, CASTLE), Mode.OPTIMAL, budget=Budget(seconds=None))
    assert roomy.optimal and roomy.length == 75
    status, grown = ask("patience-astar", 8)
    assert status is Status.UNKNOWN and grown <= 8 * MIB * 11 // 10


@pytest.mark.parametrize("memory", [0, -1])
def test_a_budget_of_no_memory_is_refused(memory):
    with pytest.raises(ValueError, match="memory_mib must be positive"):
        Budget(memory_mib=memory)
