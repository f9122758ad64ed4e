"""The turn procedure (docs/stronghold.md C.3), removals and row falls (B.5), and the defender
policies (C.6)."""

from __future__ import annotations

import pytest

from solver.errors import IllegalMove
from solver.stronghold.policies import greedy_deny, passive
from solver.stronghold.position import Position
from solver.stronghold.rules import act, begin_turn, destinations, play_turn, simulate


def at(turn: int, units: list[tuple], **fields):
    """A 1v3 position at the start of global turn `turn` (1: D, 2: A1, 3: A2, 4: A3)."""
    return Position.from_json({"turn": turn, "units": [
        {"id": name, "owner": owner, "might": might, "loc": loc, **extra}
        for name, owner, might, loc, *rest in units for extra in (rest[0] if rest else {},)],
        **fields})


def test_an_attacker_removes_what_it_holds_and_its_units_go_home_exhausted():
    p = begin_turn(at(2, [("a", "A1", 2, "O1"), ("r", "D", 1, "O2")]))
    assert p.removed == {"O1"} and p.defender_bonus == 1 and "O1" not in p.controller
    assert [(u.id, u.loc, u.ready) for u in p.units if u.owner == "A1"] == [("a", "base", False)]
    with pytest.raises(IllegalMove, match="unit a cannot move"):
        act(p, {"a": "O2"})


def test_the_second_removal_of_a_row_takes_the_third_and_reveals_the_next_row():
    p = begin_turn(at(3, [("b", "A2", 2, "O3"), ("r", "D", 1, "O2")], removed=["O1"]))
    assert p.removed == {"O1", "O2", "O3"} and p.active == ("I1", "I2", "I3")
    assert p.defender_bonus == 1   # none for the battlefield that fell with it
    assert all(u.loc == "base" and not u.ready for u in p.units)


def test_the_fall_of_the_stronghold_row_is_the_attackers_win():
    removed = ["O1", "O2", "O3", "I1", "I2", "I3", "S1"]
    p = begin_turn(at(2, [("a", "A1", 2, "S2")], removed=removed))
    assert p.winner == "attackers"
    with pytest.raises(IllegalMove, match="the game is over"):
        begin_turn(p)


def test_the_defender_scores_its_holds_from_its_second_turn():
    units = [("r", "D", 1, "O1"), ("s", "D", 1, "O2")]
    assert begin_turn(at(1, units)).defender_score == 0
    assert begin_turn(at(5, units)).defender_score == 2
    assert begin_turn(at(5, units, defender_score=4)).winner == "defender"


def test_burn_outs():
    attacker = begin_turn(at(2, [], burnouts={"A1": [2]}, defender_score=5))
    assert attacker.defender_score == 6 and attacker.winner == "defender"
    units = [("r", "D", 3, "O2"), ("s", "D", 1, "O3")]
    defender = begin_turn(at(5, units, burnouts={"D": [5]}))
    assert defender.removed == {"O2"} and defender.defender_bonus == 0   # largest garrison
    picked = begin_turn(at(5, units, burnouts={"D": [5]}, removed=["O1"]), burn_pick="O3")
    assert picked.removed == {"O1", "O2", "O3"}                            # the cascade
    with pytest.raises(IllegalMove, match="only remove an active battlefield"):
        begin_turn(at(5, units, burnouts={"D": [5]}), burn_pick="I1")


def test_reinforcements_enter_exhausted_at_base():
    p = begin_turn(at(2, [], reinforcements={"A1": [{"turn": 2, "might": 3, "tank": True}]}))
    (new,) = p.units
    assert (new.owner, new.might, new.tank, new.loc, new.ready) == ("A1", 3, True, "base", False)


def test_moves_fight_recall_and_conquer():
    p = at(2, [("a", "A1", 2, "base"), ("b", "A1", 1, "base"), ("r", "D", 3, "O1"),
               ("t", "D", 1, "O2", {"shield": 1})])
    after = play_turn(p, {"a": "O1", "b": "O3"})
    assert after.controller == {"O1": "D", "O2": "D", "O3": "A1"}   # a died on O1
    assert {u.id for u in after.units} == {"b", "r", "t"}
    recalled = play_turn(at(2, [("a", "A1", 2, "base"), ("r", "D", 5, "O1", {"tank": True}),
                                ("s", "D", 1, "O1")]), {"a": "O1"})
    assert [(u.id, u.loc) for u in recalled.units if u.owner == "A1"] == []   # 2 < 6: dies
    both_live = play_turn(at(2, [("a", "A1", 3, "base"), ("r", "D", 2, "O1", {"tank": True}),
                                 ("s", "D", 3, "O1")]), {"a": "O1"})
    # 3 kills the tank, 1 left < 3; the defenders' 5 kill the 3: the defender keeps O1
    assert both_live.controller == {"O1": "D"} and len(both_live.units) == 1


def test_survivors_on_both_sides_send_the_attackers_home():
    """Only units of Might 0 can survive on both sides: each needs 1 damage, adds none."""
    p = at(2, [("a", "A1", 4, "base"), ("z", "A1", 0, "base"), ("r", "D", 4, "O1"),
               ("y", "D", 0, "O1")])
    after = play_turn(p, {"a": "O1", "z": "O1"})
    assert after.controller == {"O1": "D"}
    assert [(u.id, u.loc, u.ready) for u in after.units] == [("y", "O1", True),
                                                             ("z", "base", False)]


def test_an_attacker_may_not_join_another_attackers_battlefield():
    p = at(3, [("a", "A1", 2, "O1"), ("b", "A2", 2, "base")])
    with pytest.raises(IllegalMove, match="unit b cannot move to O1"):
        play_turn(p, {"b": "O1"})


def test_ganking_moves_battlefield_to_battlefield_and_control_lapses_behind():
    p = at(5, [("g", "D", 3, "O1", {"ganking": True}), ("r", "D", 1, "O2"),
               ("a", "A1", 2, "O3")])
    moved = play_turn(p, {"g": "O3", "r": "base"})
    assert moved.controller == {"O3": "D"}   # O1 and O2 lapse: nobody is left there
    started = begin_turn(p)
    by_id = {u.id: u for u in started.units}
    assert destinations(started, by_id["r"]) == ("base",)          # no Ganking
    assert destinations(started, by_id["g"]) == ("base", "O2", "O3")
def test_the_defender_conquering_an_attackers_battlefield_consoles_it_once_a_round():
    p = at(5, [("a", "A1", 1, "O1"), ("r", "D", 3, "base")])
    after = play_turn(p, {"r": "O1"})
    assert after.controller == {"O1": "D"} and dict(after.consolation) == {"A1": 1}
    assert after.consoled == (("O1", 2),)


def test_greedy_deny_denies_the_urgent_battlefield_with_the_cheapest_force():
    units = [("a", "A1", 2, "O1"), ("b", "A2", 3, "O2"), ("c", "A2", 1, "O3"),
             ("x", "D", 3, "base"), ("y", "D", 2, "base"), ("z", "D", 1, "base")]
    p = begin_turn(at(5, units))
    # A2 holds two of a full row: O3 (garrison 1) then O2 (3) come first, then O1 (2)
    assert greedy_deny(p) == {"z": "O3", "x": "O2", "y": "O1"}
    assert passive(p) == {}


def test_greedy_deny_sends_its_smallest_base_unit_to_each_empty_battlefield():
    p = begin_turn(at(5, [("x", "D", 3, "base"), ("y", "D", 2, "base"), ("r", "D", 1, "O1")]))
    assert greedy_deny(p) == {"y": "O2", "x": "O3"}


def test_the_spec_trace_of_case_1_wins_on_turn_20():
    """docs/stronghold.md E.3's line for case 1, played by the simulator against the
    passive defender."""
    position = at(1, [("r1", "D", 1, "O1"), ("r2", "D", 1, "O2"), ("a", "A1", 2, "base"),
                      ("b", "A2", 2, "base"), ("c", "A3", 2, "base")])
    trace = {2: {"a": "O1"}, 3: {"b": "O2"}, 4: {"c": "O3"}, 8: {"c": "I1"}, 10: {"a": "I2"},
             11: {"b": "I3"}, 15: {"b": "S1"}, 16: {"c": "S2"}, 18: {"a": "S3"}}
    end = simulate(position, trace, passive)
    assert (end.winner, end.turn, end.defender_score) == ("attackers", 20, 0)
    stalled = simulate(position, {}, passive, turns=12)
    assert stalled.winner is None and stalled.turn == 13 and stalled.defender_score == 4
