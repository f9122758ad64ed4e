"""Positions travel to the search processes pickled: a position on the shipped card
table (or a shipped Farbduell table) carries the table by name, and comes back equal."""

from __future__ import annotations

import pickle

from solver.farbduell.data import default_tables, load_tables
from solver.farbduell.rules import new_game as new_farbduell
from solver.ffkingdom import load_cards, new_game
from solver.ffkingdom.data import shipped_cards


def test_a_position_on_the_shipped_card_table_carries_it_by_name():
    state = new_game(shipped_cards(), 7)
    back = pickle.loads(pickle.dumps(state))
    assert back == state and back.rules is shipped_cards()
    assert len(pickle.dumps(state)) * 3 < len(pickle.dumps(new_game(load_cards(), 7)))


def test_a_position_on_other_rules_carries_them_whole():
    rules = load_cards()
    state = new_game(rules, 7)
    back = pickle.loads(pickle.dumps(state))
    assert back == state and back.rules is not shipped_cards() and back.rules == rules


def test_a_farbduell_position_carries_its_shipped_table_by_name():
    for table in default_tables().values():
        state = new_farbduell(table, 3, 5, first=0)
        back = pickle.loads(pickle.dumps(state))
        assert back == state and back.table is table
    other = load_tables()["classic"]
    state = new_farbduell(other, 2, 5, first=0)
    back = pickle.loads(pickle.dumps(state))
    assert back == state and back.table is not default_tables()["classic"]
