"""The `fortress-solver farbduell` commands: shapes of their JSON and one-line errors."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.farbduell.data import load_tables
from solver.farbduell.position import Position
from tests.support.cli import assert_one_line_error, run, run_json
from tests.support.farbduell_strategies import mutated

CHAIN = {"hands": [["red-skip", "blue-skip", "blue-7"], ["green-1"]], "discard": ["red-9"]}


def write(tmp_path, data) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_deal_prints_a_loadable_position(capsys):
    data = run_json(capsys, "farbduell", "deal", "--table", "belagerung", "--players", "3")
    state = Position.from_json(data, load_tables())
    assert state.players == 3 and all(len(hand) == 7 for hand in state.hands)


def test_chain_json(capsys, tmp_path):
    out = run_json(capsys, "farbduell", "chain", write(tmp_path, CHAIN), "--json")
    assert out | {"seconds": 0} == {
        "status": "solved", "goes_out": True, "cards": 3, "points": 47, "optimal": True,
        "plays": ["play red-skip", "play blue-skip", "play blue-7"], "seconds": 0}


def test_puzzle_json(capsys, tmp_path):
    out = run_json(capsys, "farbduell", "puzzle", write(tmp_path, CHAIN), "--json")
    assert out["status"] == "solved" and out["turns"] == 1
    assert [step["action"] for step in out["line"]] == [
        "play red-skip", "play blue-skip", "play blue-7"]


def test_hint_json(capsys, tmp_path):
    out = run_json(capsys, "farbduell", "hint", write(tmp_path, CHAIN), "--json")
    assert set(out) == {"status", "action", "value", "wins", "chain", "runners_up", "seconds"}
    assert out["status"] == "solved" and out["action"].startswith(("play", "draw"))


def test_selfplay_json(capsys):
    out = run_json(capsys, "farbduell", "selfplay", "--bots", "greedy,random", "--games", "4",
                   "--seed", "3", "--jobs", "1", "--json")
    assert {"games", "wins", "seconds_per_hint"} <= set(out)
    assert out["games"] == 4 and set(out["wins"]) == {"greedy", "random"}


def test_bad_card_is_one_line(capsys, tmp_path):
    bad = {"hands": [["red-11"], ["green-1"]], "discard": ["red-9"]}
    code, out, err = run(capsys, "farbduell", "chain", write(tmp_path, bad))
    assert_one_line_error(code, out, err, "'red-11' is not a card")


def test_bad_bots_are_one_line(capsys):
    code, out, err = run(capsys, "farbduell", "selfplay", "--bots", "hint,nobody",
                         "--games", "2")
    assert_one_line_error(code, out, err, "--bots takes two of")


def test_tag_nacht_deal_hint_and_selfplay(capsys, tmp_path):
    data = run_json(capsys, "farbduell", "deal", "--table", "tag_nacht")
    assert data["table"] == "tag_nacht" and "/" in data["hands"][0][0]
    out = run_json(capsys, "farbduell", "hint", write(tmp_path, data), "--worlds", "3", "--json")
    assert out["status"] == "solved" and out["action"].startswith(("play", "draw"))
    out = run_json(capsys, "farbduell", "selfplay", "--table", "tag_nacht", "--bots",
                   "hint,greedy", "--games", "2", "--jobs", "1", "--json")
    assert sum(out["wins"].values()) + out["draws"] == 2


def test_tag_nacht_chain_is_refused_in_one_line(capsys, tmp_path):
    data = run_json(capsys, "farbduell", "deal", "--table", "tag_nacht")
    code, out, err = run(capsys, "farbduell", "chain", write(tmp_path, data))
    assert_one_line_error(code, out, err, "go-out chains are for the one-faced tables")


QUICK = {"chain": ["--seconds", "1"], "puzzle": ["--seconds", "0.3", "--nodes", "300"],
         "hint": ["--seconds", "0.3", "--worlds", "2"]}


@settings(max_examples=90, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(data=mutated(), command=st.sampled_from(sorted(QUICK)))
def test_mutated_positions_are_answered_or_one_line(capsys, tmp_path, data, command):
    """Through the whole command line: exit 0 with an answer, or exit 2 with one line."""
    path = tmp_path / "fuzzed.json"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "farbduell", command, str(path), *QUICK[command])
    if code == 0:
        assert out.strip() and not err
    else:
        assert_one_line_error(code, out, err)


def test_bytes_that_are_no_position_are_one_line(capsys, tmp_path):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    code, out, err = run(capsys, "farbduell", "hint", str(path))
    assert_one_line_error(code, out, err, "is not UTF-8 text")
    path.write_bytes("\ufeff".encode() + json.dumps(CHAIN).encode())
    assert run_json(capsys, "farbduell", "chain", str(path), "--json")["goes_out"]
