"""A Python search's memory is measured (solver/memory.py), not assumed from its table
entries: given a small budget and nothing else, the hardest searches of the games (the
forced-win search of a six-player Farbduell puzzle, the patience reference's A* and
IDA*, and its solve question, A* then greedy, Stronghold's breadth-first search) fill it
and end UNKNOWN, the process grown by no more than the budget and a tenth (what grows
between two looks). Each asks in a
process of its own (tests/support/search_memory.py): within this one, memory that earlier
tests freed would be used again unseen."""

from __future__ import annotations

import pytest

from solver.budget import Status
from tests.support.search_memory import QUESTIONS, ask

MIB = 1 << 20
BUDGET_MIB = 16


@pytest.mark.parametrize("question", sorted(QUESTIONS))
def test_a_search_given_little_memory_fills_it_and_ends_unknown(question):
    status, grown = ask(question, BUDGET_MIB)
    assert status is Status.UNKNOWN  # no limit of time or nodes: the memory ended it
    assert BUDGET_MIB * MIB // 2 < grown <= BUDGET_MIB * MIB * 11 // 10, grown / MIB
