"""Stronghold positions: docs/stronghold.md C.2's form in and out, and every fault named."""

from __future__ import annotations

import pytest

from solver.errors import InvalidInput
from solver.stronghold.position import Position
from tests.support.stronghold import SPEC_EXAMPLE


def test_the_spec_example_reads_and_round_trips():
    position = Position.from_json(SPEC_EXAMPLE)
    assert position.player == "D" and position.active == ("O1", "O2", "O3")
    assert position.controller == {"O1": "D", "O2": "A1"}
    assert Position.from_json(position.to_json()) == position


def test_defaults_fill_a_short_position():
    position = Position.from_json({"mode": "1v2",
                                   "units": [{"id": "x", "owner": "A2", "might": 3}]})
    assert position.turn_order == ("D", "A1", "A2") and position.win_target == 8
    assert position.grid[0] == ("O1", "O2", "O3") and position.turn == 1


def test_units_on_a_battlefield_control_it():
    position = Position.from_json({"units": [{"id": "r", "owner": "D", "might": 1, "loc": "O2"}]})
    assert position.controller == {"O2": "D"}


def test_the_active_row_follows_the_removals():
    position = Position.from_json({"removed": ["O1", "O2", "O3", "I2"]})
    assert position.active == ("I1", "I3")


@pytest.mark.parametrize("fields, problem", [
    ({"mode": "2v2"}, "mode: input should be '1v3' or '1v2', not \"2v2\""),
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
    ({"units": [{"id": "x", "owner": "A1", "might": -1}]},
     r"units\[0\].might: must be at least 0, not -1"),
    ({"units": [{"id": "x", "owner": "A1", "might": 1}, {"id": "x", "owner": "A2", "might": 1}]},
     "two units are called 'x'"),
    ({"units": [{"id": "x", "owner": "A1"}]}, r"units\[0\].might: is missing"),
    ({"units": [{"id": "x", "owner": "A1", "might": 1, "speed": 3}]},
     r"units\[0\].speed: is not a field of this position"),
    ({"turn": 0}, "turn: must be at least 1, not 0"),
    ({"colour": "red"}, "colour: is not a field of this position"),
    ({"control": {"O1": "A1"}, "units": [{"id": "r", "owner": "D", "might": 1, "loc": "O1"}]},
     "O1 is controlled by A1 but holds units of D"),
])
def test_faults_are_named(fields, problem):
    with pytest.raises(InvalidInput, match=problem):
        Position.from_json(fields)


def test_all_faults_at_once():
    """The wire schema's faults all at once; once the types are right, the rules' faults
    all at once."""
    with pytest.raises(InvalidInput) as info:
        Position.from_json({"turn": -1, "units": [{"id": "x", "owner": "A1", "might": -1,
                                                    "speed": 3}]})
    assert info.value.problems == ["turn: must be at least 1, not -1",
                                   "units[0].might: must be at least 0, not -1",
                                   "units[0].speed: is not a field of this position"]
    with pytest.raises(InvalidInput) as info:
        Position.from_json({"removed": ["Z1"], "units": [{"id": "x", "owner": "Q", "might": 1,
                                                           "loc": "S1"}]})
    assert len(info.value.problems) == 3


@pytest.mark.parametrize("fields, problem", [
    ({"grid": {"O": ["O1", "O2", "base"], "I": ["I1", "I2", "I3"], "S": ["S1", "S2", "S3"]}},
     "grid names 'base' as a battlefield"),
    ({"units": [{"id": f"u{k}", "owner": "A1", "might": 1} for k in range(17)]},
     r"A1 has 17 units \(reinforcements to come included\); a player has at most 16"),
    ({"units": [{"id": "A1-t6-1", "owner": "A1", "might": 1}],
      "reinforcements": {"A1": [{"turn": 6, "might": 2}]}},
     "unit 'A1-t6-1' has the name of a reinforcement A1 receives on turn 6"),
    ({"units": [{"id": "u x", "owner": "A1", "might": 1}]}, r"units\[0\].id: string should"),
    ({"units": [{"id": "x", "owner": "A1", "might": 1, "ready": 1}]},
     r"units\[0\].ready: must be true or false, not 1"),
    ({"burnouts": {"A1": [True]}}, r"burnouts.A1\[0\]: must be a whole number, not true"),
    ({"control": "O1"}, "control: must be an object"),
    ({"reinforcements": {"A1": [{"turn": 2, "might": 1, "speed": 1}]}},
     r"reinforcements.A1\[0\].speed: is not a field of this position"),
    ({"reinforcements": {"A9": [{"turn": 2, "might": 1}]}},
     "reinforcements names 'A9', who is not playing"),
])
def test_more_faults_are_named(fields, problem):
    with pytest.raises(InvalidInput, match=problem):
        Position.from_json(fields)


def test_the_game_is_written_and_may_be_read():
    position = Position.from_json({"game": "stronghold"})
    assert position.to_json()["game"] == "stronghold" == Position.from_json({}).to_json()["game"]
    with pytest.raises(InvalidInput, match="this is a Farbduell position, not a Stronghold one"):
        Position.from_json({"game": "farbduell"})
