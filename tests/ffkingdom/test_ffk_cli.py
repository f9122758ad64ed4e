"""`fortress-solver ffk ...`: deal, puzzle, hint and selfplay output, exit codes and
one-line errors, run in-process through `service.cli.main`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.ffkingdom import legal_actions, load, new_game, parse, parse_action
from solver.ffkingdom.puzzles import solve_puzzle

from ..cli import assert_one_line_error, keep_sigpipe, run, run_json  # noqa: F401
from .helpers import RULES, rest_of_deck

SIMPLE_WIN = {"players": [{"W": 4, "hand": ["angriff", "mauer"]}, {"castle": 6, "wall": 0}]}


def write_position(tmp_path: Path, data: object) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_deal_prints_a_complete_position_that_loads_back(capsys):
    code, out, err = run(capsys, "ffk", "deal", "--seed", "3")
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 1
    loaded = load(json.loads(out), RULES)
    assert loaded.complete
    assert parse(out, RULES) == new_game(RULES, 3)
    assert sum(loaded.state.cards().values()) == 72


def test_deal_with_a_first_player_and_leaders(capsys):
    code, out, _ = run(capsys, "ffk", "deal", "--seed", "3", "--first", "1",
                       "--leaders", "haendler,festungsherr")
    assert code == 0
    assert parse(out, RULES) == new_game(RULES, 3, 1, ("haendler", "festungsherr"))


def test_deal_refuses_an_unknown_leader(capsys):
    assert_one_line_error(*run(capsys, "ffk", "deal", "--leaders", "koenig,haendler"),
                          "no leader is called 'koenig'")


def test_puzzle_json_for_a_one_action_win(capsys, tmp_path):
    data = run_json(capsys, "ffk", "puzzle", write_position(tmp_path, SIMPLE_WIN), "--json")
    assert set(data) == {"status", "turns", "optimal", "actions", "line", "nodes", "seconds"}
    assert {key: data[key] for key in ("status", "turns", "optimal", "actions", "line")} == {
        "status": "solved", "turns": 1, "optimal": True, "actions": 1,
        "line": [{"player": 0, "action": "play angriff"}],
    }
    expected = solve_puzzle(load(SIMPLE_WIN, RULES).state)
    assert data["nodes"] == expected.stats.nodes
    assert type(data["seconds"]) is float and data["seconds"] >= 0


def test_puzzle_json_for_no_win(capsys, tmp_path):
    position = {"players": [{"W": 3, "hand": ["angriff", "mauer"]}, {"castle": 6, "wall": 0}]}
    data = run_json(capsys, "ffk", "puzzle", write_position(tmp_path, position), "--json")
    assert {key: data[key] for key in ("status", "turns", "optimal", "actions", "line")} == {
        "status": "unsolvable", "turns": None, "optimal": False, "actions": 0, "line": [],
    }


def test_puzzle_text_names_the_winner_and_the_line(capsys, tmp_path):
    code, out, err = run(capsys, "ffk", "puzzle", write_position(tmp_path, SIMPLE_WIN))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("player 0 wins in 1 turn (fewest actions) (")
    assert lines[1:] == ["  1. player 0: play angriff"]


def test_puzzle_over_two_turns_needs_the_whole_position(capsys, tmp_path):
    path = write_position(tmp_path, SIMPLE_WIN)
    assert_one_line_error(*run(capsys, "ffk", "puzzle", path, "--turns", "2"),
                          "--turns 2 needs the whole position")


def test_puzzle_over_two_turns_on_a_whole_position(capsys, tmp_path):
    hands = (["angriff", "mauer"], ["turm"])
    position = {"players": [{"W": 4, "hand": hands[0]},
                            {"castle": 6, "wall": 0, "hand": hands[1]}],
                "deck": rest_of_deck(*hands)}
    data = run_json(capsys, "ffk", "puzzle", write_position(tmp_path, position),
                    "--turns", "2", "--json")
    assert (data["status"], data["turns"], data["optimal"], data["line"]) == \
        ("solved", 1, True, [{"player": 0, "action": "play angriff"}])


def test_hint_json_gives_a_legal_action(capsys, tmp_path):
    position = {"players": [{"hand": ["angriff", "mauer", "turm", "katapult", "markt"]},
                            {"castle": 40}]}
    data = run_json(capsys, "ffk", "hint", write_position(tmp_path, position), "--json",
                    "--worlds", "2", "--seed", "4")
    assert set(data) == {"status", "action", "value", "plan", "runners_up", "seconds"}
    assert data["status"] == "solved"
    state = load(position, RULES).state
    assert parse_action(data["action"]) in legal_actions(state)
    assert data["plan"][0] == data["action"]
    assert type(data["value"]) is float
    assert all(set(entry) == {"action", "value"} for entry in data["runners_up"])
    assert data["action"] not in [entry["action"] for entry in data["runners_up"]]
    assert type(data["seconds"]) is float


def test_hint_json_for_a_win_this_turn(capsys, tmp_path):
    data = run_json(capsys, "ffk", "hint", write_position(tmp_path, SIMPLE_WIN), "--json",
                    "--worlds", "2")
    assert {key: data[key] for key in ("status", "action", "value", "plan", "runners_up")} == {
        "status": "solved", "action": "play angriff", "value": 10000.0,
        "plan": ["play angriff"], "runners_up": [{"action": "play mauer", "value": 10000.0}],
    }


def test_hint_refuses_a_finished_game(capsys, tmp_path):
    position = {**SIMPLE_WIN, "winner": 1}
    assert_one_line_error(*run(capsys, "ffk", "hint", write_position(tmp_path, position)),
                          "the game is over: player 1 won")


def test_selfplay_json_counts_wins_of_both_bots(capsys):
    data = run_json(capsys, "ffk", "selfplay", "--bots", "greedy,random", "--games", "4",
                    "--seed", "3", "--json", "--jobs", "1")
    assert {"games", "wins", "seconds_per_hint"} <= set(data)
    assert set(data) == {"games", "wins", "seconds_per_hint", "draws", "seed"}
    assert data["games"] == 4
    assert data["wins"] == {"greedy": 4, "random": 0}
    assert (data["seconds_per_hint"], data["draws"], data["seed"]) == (0.0, 0, 3)


def test_selfplay_refuses_an_unknown_bot(capsys):
    assert_one_line_error(*run(capsys, "ffk", "selfplay", "--bots", "hint,nobody",
                               "--games", "2"),
                          "--bots takes two of random, greedy, hint", "'hint,nobody'")


@pytest.mark.parametrize("command", ["puzzle", "hint"])
def test_a_bad_card_in_a_position_file_is_named(capsys, tmp_path, command):
    position = {"players": [{"hand": ["angriff", "zauberstab"]}, {}]}
    assert_one_line_error(*run(capsys, "ffk", command, write_position(tmp_path, position)),
                          "'zauberstab'", "which no card is called")


@pytest.mark.parametrize("command", ["puzzle", "hint"])
def test_a_file_that_is_not_json_is_refused(capsys, tmp_path, command):
    path = tmp_path / "position.json"
    path.write_text("{players")
    assert_one_line_error(*run(capsys, "ffk", command, str(path)), "is not JSON")


@pytest.mark.parametrize("command", ["puzzle", "hint"])
def test_a_missing_file_is_refused(capsys, tmp_path, command):
    assert_one_line_error(*run(capsys, "ffk", command, str(tmp_path / "absent.json")),
                          "cannot read", "absent.json")
