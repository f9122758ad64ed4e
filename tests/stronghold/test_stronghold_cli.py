"""The `fortress-solver stronghold` commands: the JSON shapes the issue names, the grid
picture, positions with comments, and one-line errors."""

from __future__ import annotations

import io

from tests.support.cli import assert_one_line_error, run, run_json

CASE_1 = """{
  "mode": "1v3",                 // docs/stronghold.md E.3 case 1
  "turn_order": ["D", "A1", "A2", "A3"],
  "units": [
    {"id": "r1", "owner": "D", "might": 1, "loc": "O1"},   // the two Recruits
    {"id": "r2", "owner": "D", "might": 1, "loc": "O2"},
    {"id": "a", "owner": "A1", "might": 2},
    {"id": "b", "owner": "A2", "might": 2},
    {"id": "c", "owner": "A3", "might": 2}
  ]
}"""
CASE_3 = """{"units": [
  {"id": "x", "owner": "D", "might": 5, "loc": "O1"},
  {"id": "y", "owner": "D", "might": 5, "loc": "O2"},
  {"id": "z", "owner": "D", "might": 5, "loc": "O3"},
  {"id": "a", "owner": "A1", "might": 2}, {"id": "b", "owner": "A2", "might": 2},
  {"id": "c", "owner": "A3", "might": 2}]}"""

E2 = """{ // docs/stronghold.md E.2: A1 to move (turn 2), Outer row O1 {3}, O2 {2, 2 Tank}, O3 empty
  "mode": "1v3", "turn": 2,
  "units": [
    {"id": "u4", "owner": "A1", "might": 4}, {"id": "u3", "owner": "A1", "might": 3},
    {"id": "u2", "owner": "A1", "might": 2}, {"id": "u1", "owner": "A1", "might": 1},
    {"id": "d3", "owner": "D", "might": 3, "loc": "O1"},
    {"id": "d2", "owner": "D", "might": 2, "loc": "O2"},
    {"id": "t2", "owner": "D", "might": 2, "tank": true, "loc": "O2"},
    {"id": "b2", "owner": "D", "might": 2}
  ]
}"""


def write(tmp_path, text: str) -> str:
    path = tmp_path / "position.jsonc"
    path.write_text(text)
    return str(path)


def test_plan_json_is_spec_e2(capsys, tmp_path):
    out = run_json(capsys, "stronghold", "plan", write(tmp_path, E2), "--json")
    assert out["moves"] == {"u1": "O3", "u2": "O3", "u3": "O3", "u4": "O1"}
    assert out["objective"] == {"removals": 3, "controlled": 2, "garrison": 10,
                                "minus_moved": -4}
    assert (out["cp_status"], out["optimal"]) == ("OPTIMAL", True)
    assert out["conquerable"] == ["O1", "O2", "O3"]
    exact = run_json(capsys, "stronghold", "plan", write(tmp_path, E2), "--exact", "--json")
    assert exact["moves"] == {"u1": "O3", "u2": "O2", "u3": "O2", "u4": "O1"}
    assert [b["garrison"] for b in exact["battlefields"]] == [4, 2, 1]
    assert list(exact["objective"].values()) == [3, 3, 7, -4]


def test_plan_text(capsys, tmp_path):
    code, out, err = run(capsys, "stronghold", "plan", write(tmp_path, E2))
    assert code == 0, err
    assert "A1 moves: u1 -> O3, u2 -> O3, u3 -> O3, u4 -> O1" in out
    assert "O1: A1, garrison 4, secure, conquerable" in out


def test_plan_for_the_defender_is_refused(capsys, tmp_path):
    code, out, err = run(capsys, "stronghold", "plan", write(tmp_path, CASE_3))
    assert_one_line_error(code, out, err, "defender")


def test_clear_json(capsys, tmp_path):
    out = run_json(capsys, "stronghold", "clear", write(tmp_path, CASE_1), "--json")
    assert {"winner", "turn", "rounds", "proven", "plan"} <= set(out)
    assert (out["winner"], out["turn"], out["rounds"], out["proven"], out["cp_status"]) == (
        "attackers", 20, 5, True, "OPTIMAL")
    searched = run_json(capsys, "stronghold", "clear", write(tmp_path, CASE_1), "--method",
                        "search", "--json")
    assert {k: searched[k] for k in ("winner", "turn", "rounds", "proven")} == {
        k: out[k] for k in ("winner", "turn", "rounds", "proven")}
    assert searched["cp_status"] == ""
    assert searched["plan"][1] == {"turn": 2, "player": "A1", "moves": {"a": "O1"}}


def test_clear_against_the_greedy_defender(capsys, tmp_path):
    out = run_json(capsys, "stronghold", "clear", write(tmp_path, CASE_1), "--defender",
                   "greedy", "--json")
    assert out["winner"] == "attackers" and out["proven"]


def test_race_json(capsys, tmp_path):
    out = run_json(capsys, "stronghold", "race", write(tmp_path, CASE_3), "--json")
    assert {"defender_first", "turn", "proven"} <= set(out)
    assert (out["defender_first"], out["turn"], out["proven"]) == (True, 9, True)


def test_text_shows_the_grid(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(CASE_1.encode())))
    code, out, err = run(capsys, "stronghold", "clear", "-")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1].startswith("Stronghold") and "S1 ??" in lines[1]
    assert lines[3].startswith("Outer Defense") and "O1 D r1:1" in lines[3]
    assert "clear all nine on turn 20 (round 5), proven minimal (CP-SAT OPTIMAL" in out


def test_a_budget_too_small_is_unknown(capsys, tmp_path):
    out = run_json(capsys, "stronghold", "race", write(tmp_path, CASE_1), "--max-turns", "5",
                   "--json")
    assert (out["defender_first"], out["turn"], out["proven"]) == (None, None, False)


def test_bad_positions_are_one_line(capsys, tmp_path):
    bad = '{"units": [{"id": "x", "owner": "A1", "might": 2, "loc": "I1"}]}'
    code, out, err = run(capsys, "stronghold", "clear", write(tmp_path, bad))
    assert_one_line_error(code, out, err, "unit 'x' is on I1, which is not in the active row")
    code, out, err = run(capsys, "stronghold", "race", write(tmp_path, "{units: ["))
    assert_one_line_error(code, out, err, "is not JSON")
