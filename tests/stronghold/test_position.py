"""Stronghold positions: the spec's C.2 form in and out, and every fault named."""

from __future__ import annotations

import pytest

from solver.errors import InvalidInput
from solver.stronghold.position import parse, to_json

SPEC_EXAMPLE = {   # spec C.2, comments aside
    "mode": "1v3", "win_target": 6, "turn_order": ["D", "A1", "A2", "A3"], "turn": 5,
    "defender_turns_taken": 1,
    "grid": {"O": ["O1", "O2", "O3"], "I": ["I1", "I2", "I3"], "S": ["S1", "S2", "S3"]},
    "removed": [], "control": {"O1": "D", "O2": "A1"},
    "units": [
        {"id": "r1", "owner": "D", "might": 1, "assault": 0, "shield": 0, "tank": False,
         "ganking": False, "loc": "O1", "ready": True},
        {"id": "a", "owner": "A1", "might": 4, "assault": 0, "shield": 0, "tank": False,
         "ganking": False, "loc": "base", "ready": True}],
    "defender_score": 0, "reinforcements": {"A1": [{"turn": 6, "might": 2}]},
    "burnouts": {"D": [], "A1": []}, "counters": {"defender_bonus": 0, "consolation": {"A1": 0}},
}


def test_the_spec_example_reads_and_round_trips():
    position = parse(SPEC_EXAMPLE)
    assert position.player == "D" and position.active == ("O1", "O2", "O3")
    assert position.controller == {"O1": "D", "O2": "A1"}
    assert parse(to_json(position)) == position


def test_defaults_fill_a_short_position():
    position = parse({"mode": "1v2", "units": [{"id": "x", "owner": "A2", "might": 3}]})
    assert position.turn_order == ("D", "A1", "A2") and position.win_target == 8
    assert position.grid[0] == ("O1", "O2", "O3") and position.turn == 1


def test_units_on_a_battlefield_control_it():
    position = parse({"units": [{"id": "r", "owner": "D", "might": 1, "loc": "O2"}]})
    assert position.controller == {"O2": "D"}


def test_the_active_row_follows_the_removals():
    position = parse({"removed": ["O1", "O2", "O3", "I2"]})
    assert position.active == ("I1", "I3")


@pytest.mark.parametrize("fields, problem", [
    ({"mode": "2v2"}, "mode must be one of 1v3, 1v2"),
    ({"mode": "1v2", "turn_order": ["D", "A1", "A2", "A3"]}, "mode 1v2 is the defender D and 2"),
    ({"units": [{"id": "x", "owner": "A1", "might": 2, "loc": "X9"}]},
     "unit 'x' is at 'X9', which is neither base nor a battlefield"),
    ({"units": [{"id": "x", "owner": "A1", "might": 2, "loc": "I1"}]},
     "unit 'x' is on I1, which is not in the active row"),
    ({"units": [{"id": "x", "owner": "A1", "might": 2, "loc": "O1"},
                {"id": "y", "owner": "A2", "might": 2, "loc": "O1"}]},
     r"two attackers \(A1 and A2\) have units on O1"),
    ({"units": [{"id": "x", "owner": "A1", "might": 2, "loc": "O1"},
                {"id": "y", "owner": "D", "might": 2, "loc": "O1"}]},
     r"two players \(A1 and D\) have units on O1"),
    ({"removed": ["O1", "O2"]}, "row O has two battlefields removed and one standing"),
    ({"removed": ["I1"]}, "row I lost battlefields while an earlier row stands"),
    ({"removed": ["Z1"]}, "removed names 'Z1'"),
    ({"control": {"I1": "A1"}}, "control names I1, which is not an active battlefield"),
    ({"control": {"O1": "A9"}}, "control of O1 names 'A9', who is not playing"),
    ({"units": [{"id": "x", "owner": "A1", "might": -1}]}, "might must be a whole number"),
    ({"units": [{"id": "x", "owner": "A1", "might": 1}, {"id": "x", "owner": "A2", "might": 1}]},
     "two units are called 'x'"),
    ({"units": [{"id": "x", "owner": "A1"}]}, "unit 'x' needs might"),
    ({"units": [{"id": "x", "owner": "A1", "might": 1, "speed": 3}]}, "unknown field 'speed'"),
    ({"turn": 0}, "turn must be a whole number of at least 1"),
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"control": {"O1": "A1"}, "units": [{"id": "r", "owner": "D", "might": 1, "loc": "O1"}]},
     "O1 is controlled by A1 but holds units of D"),
])
def test_faults_are_named(fields, problem):
    with pytest.raises(InvalidInput, match=problem):
        parse(fields)


def test_all_faults_at_once():
    with pytest.raises(InvalidInput) as info:
        parse({"turn": -1, "units": [{"id": "x", "owner": "Q", "might": 1, "loc": "S1"}]})
    assert len(info.value.problems) == 3
