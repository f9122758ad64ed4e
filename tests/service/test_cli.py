"""The fortress-solver command line: output shapes, exit codes and error messages.

Most tests call `service.cli.main(argv)` in-process; one or two run the installed
console script to check what a shell user sees (exit code, one stderr line, no traceback).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest

from service.cli import main
from solver.beleaguered import Move, Position, apply, deal, legal_moves, replay
from solver.beleaguered.notation import move_json
from tests.support.batch_output import batch_records, batch_summary, check_summary
from tests.support.cli import assert_one_line_error, run, run_json
from tests.support.servers import address

SCRIPT = Path(sys.executable).parent / "fortress-solver"
PYTHON_ENGINE = {**os.environ, "FORTRESS_SOLVER_ENGINE": "python"}  # slow enough to stop

OPTIMAL_LENGTH_DEAL_2 = 66

CARD = re.compile(r"[A2-9TJQK][CDHS]")
SOURCE = re.compile(r"tableau:[0-7]|reserve:(?:[0-9]|1[01])")
TARGET = re.compile(r"tableau:[0-7]|foundation")
NUMBERED = re.compile(r"^\s*(\d+)\. (\S+) (\S+) -> (\S+)$")
BATCH_KEYS = {"deal", "status", "optimal", "length", "single_card_moves", "nodes", "seconds",
              "metric"}


# ----------------------------------------------------------------------------- helpers


def assert_move_shape(move: object) -> None:
    """A Beleaguered Fortress move: one card (no sequence moves), and no standard
    notation (it has a reserve)."""
    assert isinstance(move, dict)
    assert set(move) == {"card", "from", "to", "cards"}
    assert move["cards"] == 1
    assert CARD.fullmatch(move["card"]), move
    assert SOURCE.fullmatch(move["from"]), move
    assert TARGET.fullmatch(move["to"]), move


def assert_solution_shape(data: dict) -> None:
    assert set(data) == {"status", "optimal", "length", "lower_bound", "moves", "stats",
                         "metric", "single_card_moves", "single_cards"}
    assert data["metric"] in {"moves", "cards"}
    # without sequence moves a line's moves are single cards
    assert data["single_card_moves"] == data["length"]
    assert data["status"] in {"solved", "unsolvable", "unknown"}
    assert isinstance(data["optimal"], bool)
    assert data["length"] is None or (
        isinstance(data["length"], int) and not isinstance(data["length"], bool))
    assert isinstance(data["moves"], list)
    for move in data["moves"]:
        assert_move_shape(move)
    stats = data["stats"]
    assert set(stats) == {"nodes", "seconds", "table_entries", "table_bytes", "line_seconds"}
    assert type(stats["nodes"]) is int and stats["nodes"] >= 0
    assert type(stats["seconds"]) is float and stats["seconds"] >= 0
    assert type(stats["table_entries"]) is int and stats["table_entries"] >= 0
    # when the line was found: none without a line, else within the search
    assert (stats["line_seconds"] is None) is (data["length"] is None)
    assert data["length"] is None or 0 <= stats["line_seconds"] <= stats["seconds"]


def assert_hint_shape(data: dict) -> None:
    assert set(data) == {"status", "move", "moves_left", "winnable"}
    assert data["status"] in {"solved", "unsolvable", "unknown"}
    if data["move"] is not None:
        assert_move_shape(data["move"])
    assert data["moves_left"] is None or type(data["moves_left"]) is int
    assert data["winnable"] in (True, False, None)


def replays_to_win(number: int, moves: list[dict]) -> bool:
    return replay(deal(number), [Move.from_json(m) for m in moves]).is_won


def verdict(data: dict) -> dict:
    """A solve answer without its timing, for comparing runs."""
    return {key: data[key] for key in ("status", "optimal", "length", "moves")}


def write_position(tmp_path: Path, data: object, name: str = "position.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


WON = {
    "game": "beleaguered-fortress",
    "tableau": [[] for _ in range(8)],
    "reserve": [None] * 12,
    "foundations": {"C": 13, "D": 13, "H": 13, "S": 13},
}


# ----------------------------------------------------------------------------- deal


def test_deal_json_round_trips(capsys):
    data = run_json(capsys, "deal", "1", "--json")
    assert set(data) == {"game", "tableau", "reserve", "foundations"}
    assert data["game"] == "patience"
    assert Position.from_json(data) == deal(1)
    assert data == deal(1).to_json()


def test_deal_text_layout(capsys):
    code, out, err = run(capsys, "deal", "1")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "deal 1"
    tableau = [line for line in lines if line.startswith("tableau:")]
    assert len(tableau) == 8
    assert [line.split()[0] for line in tableau] == [f"tableau:{i}" for i in range(8)]
    for line, pile in zip(tableau, deal(1).tableau, strict=True):
        assert line.split()[1:] == [str(card) for card in pile]
    assert any(line.startswith("reserve") for line in lines)
    assert any(line.startswith("foundation") for line in lines)


# ----------------------------------------------------------------------------- solve


@pytest.fixture(scope="module")
def optimal_2() -> dict:
    """solve --deal 2 --json, run once for the module (no capsys at module scope)."""
    out = io.StringIO()
    saved, sys.stdout = sys.stdout, out
    try:
        assert main(["solve", "--deal", "2", "--json"]) == 0
    finally:
        sys.stdout = saved
    return json.loads(out.getvalue())


def test_solve_optimal_json(optimal_2):
    data = optimal_2
    assert_solution_shape(data)
    assert data["status"] == "solved"
    assert data["optimal"] is True
    assert data["length"] == len(data["moves"]) == OPTIMAL_LENGTH_DEAL_2
    assert replays_to_win(2, data["moves"])


def test_solve_idastar_same_length(capsys, optimal_2):
    data = run_json(capsys, "solve", "--deal", "2", "--algorithm", "idastar", "--json")
    assert_solution_shape(data)
    assert data["status"] == "solved"
    assert data["optimal"] is True
    assert data["length"] == len(data["moves"]) == optimal_2["length"]
    assert replays_to_win(2, data["moves"])


def test_solve_any_mode(capsys, optimal_2):
    data = run_json(capsys, "solve", "--deal", "2", "--mode", "any", "--json")
    assert_solution_shape(data)
    assert data["status"] == "solved"
    assert data["length"] == len(data["moves"])
    assert data["length"] >= optimal_2["length"]
    if data["length"] > optimal_2["length"]:
        assert data["optimal"] is False
    assert replays_to_win(2, data["moves"])


def test_solve_explicit_defaults_match(capsys, optimal_2):
    data = run_json(capsys, "solve", "--deal", "2", "--mode", "optimal",
                    "--algorithm", "astar", "--json")
    assert verdict(data) == verdict(optimal_2)


@pytest.mark.parametrize("mode", ["optimal", "any"])
@pytest.mark.parametrize("number", ["1", "3"])  # deal 3 has moves home before it is stuck
def test_solve_unsolvable(capsys, mode, number):
    code, out, err = run(capsys, "solve", "--deal", number, "--mode", mode, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert_solution_shape(data)
    assert data["status"] == "unsolvable"
    assert data["optimal"] is False
    assert data["length"] is None
    assert data["moves"] == []


@pytest.mark.parametrize("budget", [["--nodes", "1"], ["--seconds", "0.001"]])
def test_solve_budget_runs_out(capsys, budget):
    """Out of budget, the answer is the line found by then, if any, not proven shortest."""
    code, out, err = run(capsys, "solve", "--deal", "29", *budget, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert_solution_shape(data)
    assert data["status"] == ("solved" if data["moves"] else "unknown")
    assert data["optimal"] is False
    assert data["length"] is None or data["length"] > data["lower_bound"]
    if budget[0] == "--nodes":
        assert data["status"] == "unknown"


def test_solve_budget_runs_out_text(capsys):
    code, out, err = run(capsys, "solve", "--deal", "29", "--nodes", "1")
    assert code == 0, err
    assert out.splitlines()[0].startswith("deal 29: unknown")


def test_solve_from_file(capsys, tmp_path, optimal_2):
    path = write_position(tmp_path, str(deal(2)))
    data = run_json(capsys, "solve", str(path), "--json")
    assert verdict(data) == verdict(optimal_2)


def test_solve_from_stdin(capsys, monkeypatch, optimal_2):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(deal(2).to_json(), indent=2)))
    data = run_json(capsys, "solve", "-", "--json")
    assert verdict(data) == verdict(optimal_2)


def test_solve_text_names_its_source(capsys, monkeypatch, tmp_path):
    path = write_position(tmp_path, str(deal(1)))
    code, out, _ = run(capsys, "solve", str(path))
    assert code == 0
    assert out.splitlines()[0].startswith(f"{path}: unsolvable")
    monkeypatch.setattr(sys, "stdin", io.StringIO(str(deal(1))))
    code, out, _ = run(capsys, "solve", "-")
    assert code == 0
    assert out.splitlines()[0].startswith("standard input: unsolvable")


def test_solve_text_is_numbered_list(capsys, optimal_2):
    code, out, err = run(capsys, "solve", "--deal", "2")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("deal 2: solved, optimal, 66 moves")
    numbered = [NUMBERED.match(line) for line in lines]
    numbered = [m for m in numbered if m]
    assert len(numbered) == OPTIMAL_LENGTH_DEAL_2
    assert [int(m.group(1)) for m in numbered] == list(range(1, OPTIMAL_LENGTH_DEAL_2 + 1))
    assert lines[1] == "   1. AS reserve:8 -> foundation"
    as_json = [{"card": m.group(2), "from": m.group(3), "to": m.group(4), "cards": 1}
               for m in numbered]
    assert as_json == optimal_2["moves"]


def test_solve_text_unsolvable(capsys):
    code, out, _ = run(capsys, "solve", "--deal", "1")
    assert code == 0
    assert out.splitlines()[0].startswith("deal 1: unsolvable")
    assert not any(NUMBERED.match(line) for line in out.splitlines())


# ----------------------------------------------------------------------------- hint


def test_hint_json(capsys, tmp_path, optimal_2):
    data = run_json(capsys, "hint", "--deal", "2", "--json")
    assert_hint_shape(data)
    assert data["status"] == "solved"
    assert data["winnable"] is True
    assert data["move"] == optimal_2["moves"][0]
    assert data["moves_left"] == OPTIMAL_LENGTH_DEAL_2

    after = apply(deal(2), Move.from_json(data["move"]))
    path = write_position(tmp_path, str(after))
    then = run_json(capsys, "hint", str(path), "--json")
    assert_hint_shape(then)
    assert then["status"] == "solved"
    assert then["moves_left"] == OPTIMAL_LENGTH_DEAL_2 - 1
    assert then["move"] is not None
    apply(after, Move.from_json(then["move"]))  # legal from there


def test_hint_text(capsys, optimal_2):
    code, out, _ = run(capsys, "hint", "--deal", "2")
    assert code == 0
    first = optimal_2["moves"][0]
    assert out.strip() == (f"deal 2: {first['card']} {first['from']} -> {first['to']} "
                           f"(66 moves left, winnable)")


def test_hint_unsolvable(capsys):
    data = run_json(capsys, "hint", "--deal", "1", "--json")
    assert_hint_shape(data)
    assert data == {"status": "unsolvable", "move": None, "moves_left": None,
                    "winnable": False}
    code, out, _ = run(capsys, "hint", "--deal", "1")
    assert code == 0
    assert out.strip() == "deal 1: unsolvable, no hint"


def test_hint_unsolvable_with_opening_has_no_move(capsys):
    data = run_json(capsys, "hint", "--deal", "3", "--json")
    assert data == {"status": "unsolvable", "move": None, "moves_left": None,
                    "winnable": False}


def test_hint_unknown_text_makes_no_claim(capsys):
    code, out, _ = run(capsys, "hint", "--deal", "29", "--nodes", "1")
    assert code == 0
    assert "winnable" not in out
    assert "None" not in out


def test_hint_unknown_json(capsys):
    data = run_json(capsys, "hint", "--deal", "29", "--nodes", "1", "--json")
    assert_hint_shape(data)
    assert data["status"] == "unknown"
    assert data["moves_left"] is None
    assert data["winnable"] is None


def test_hint_won_position(capsys, tmp_path):
    path = write_position(tmp_path, WON)
    data = run_json(capsys, "hint", str(path), "--json")
    assert_hint_shape(data)
    assert data["status"] == "solved"
    assert data["moves_left"] == 0
    assert data["move"] is None
    assert data["winnable"] is True
    code, out, _ = run(capsys, "hint", str(path))
    assert code == 0
    assert out.strip() == f"{path}: already won"


def test_solve_won_position(capsys, tmp_path):
    path = write_position(tmp_path, WON)
    data = run_json(capsys, "solve", str(path), "--json")
    assert_solution_shape(data)
    assert data["status"] == "solved"
    assert data["length"] == 0
    assert data["moves"] == []


# ----------------------------------------------------------------------------- bad input


def _deal_2_with(change) -> dict:
    data = deal(2).to_json()
    change(data)
    return data


def _duplicate_7h(data: dict) -> None:
    pile = 0 if "7H" not in data["tableau"][0] else 1
    data["tableau"][pile][0] = "7H"


def _bad_card(data: dict) -> None:
    data["tableau"][3][2] = "XX"


def _nine_piles(data: dict) -> None:
    data["tableau"].append([])


def _bad_foundation(data: dict) -> None:
    data["foundations"]["H"] = 14


def _unknown_field(data: dict) -> None:
    data["free_cells"] = []


@pytest.mark.parametrize("command", ["solve", "hint"])
@pytest.mark.parametrize(("change", "fragments"), [
    (_duplicate_7h, ["holds 7H twice"]),
    (_bad_card, ["'XX' is not a card", "tableau:3"]),
    (_nine_piles, ["tableau: has 9 items, at most 8"]),
    (_bad_foundation, ["foundations.H: must be at most 13, not 14"]),
    (_unknown_field, ["cells: is not a field of this position"]),
], ids=["duplicate", "not-a-card", "nine-piles", "foundation", "unknown-field"])
def test_bad_position_file(capsys, tmp_path, command, change, fragments):
    path = write_position(tmp_path, _deal_2_with(change))
    code, out, err = run(capsys, command, str(path), "--json")
    assert_one_line_error(code, out, err, "fortress-solver", *fragments)


def test_bad_position_on_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(_deal_2_with(_duplicate_7h))))
    code, out, err = run(capsys, "solve", "-")
    assert_one_line_error(code, out, err, "holds 7H twice")


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2]", '"deal 2"'])
def test_position_not_json_object(capsys, tmp_path, text):
    path = write_position(tmp_path, text)
    code, out, err = run(capsys, "solve", str(path))
    assert_one_line_error(code, out, err, "fortress-solver")
    assert "JSON" in err


def test_invalid_json_names_it(capsys, tmp_path):
    path = write_position(tmp_path, "{not json")
    code, out, err = run(capsys, "solve", str(path), "--json")
    assert_one_line_error(code, out, err, f"{path} is not JSON", "line 1 column 2")


@pytest.mark.parametrize("command", ["solve", "hint"])
def test_missing_file(capsys, tmp_path, command):
    path = tmp_path / "nowhere.json"
    code, out, err = run(capsys, command, str(path))
    assert_one_line_error(code, out, err, "cannot read", str(path), "No such file")


BAD_ARGUMENTS = [
    (["solve", "--deal", "0"], ["deal 0 is out of range: Beleaguered Fortress deals are "
                                "numbered 1 to 2147483647 (2^31 - 1)"]),
    (["solve", "--deal", "abc"], ["--deal", "'abc'", "not an integer"]),
    (["hint", "--deal", "-3"], ["deal -3 is out of range"]),
    (["deal", "0"], ["deal 0 is out of range"]),
    (["deal", "0", "--variant", "fortress"], ["Fortress deals are numbered 1 to 2^63 - 1"]),
    (["solve", "--deal", str(2**63)], ["--deal", "no variant numbers its deals past 2^63 - 1"]),
    (["solve", "--deal", str(-2**63 - 1)], ["--deal", "deals are numbered from 1"]),
    (["show", "--deal", str(2**63)], ["--deal", "out of range -2^63..2^63 - 1"]),
    (["solve", "--deal", "2", "--nodes", str(2**64)], ["--nodes", "more than 2^64 - 1"]),
    (["deal", "abc"], ["'abc'"]),
    (["solve", "--deal", "2", "--mode", "fast"], ["--mode", "'fast'"]),
    (["batch", "--deals", "1-3", "--mode", "fast"], ["--mode", "'fast'"]),
    (["solve", "--deal", "2", "--algorithm", "dfs"], ["--algorithm", "'dfs'"]),
    (["solve", "--deal", "2", "--nodes", "0"], ["--nodes", "'0'"]),
    (["solve", "--deal", "2", "--seconds", "soon"], ["--seconds", "'soon'"]),
    (["solve", "--deal", "2", "--seconds", "nan"], ["--seconds", "'nan'", "not a finite"]),
    (["hint", "--deal", "2", "--seconds", "inf"], ["--seconds", "'inf'", "not a finite"]),
    (["solve", "--deal", "2", "--seconds", "-1"], ["--seconds", "'-1'", "must be positive"]),
    (["solve", "--deal", "2", "--seconds", "0"], ["--seconds", "'0'", "must be positive"]),
    (["client", "hint", "--server", "127.0.0.1:1", "--deal", "2", "--deadline", "nan"],
     ["--deadline", "'nan'", "not a finite"]),
    (["serve", "--grace", "inf"], ["--grace", "'inf'", "not a finite"]),
    (["batch", "--deals", "5-2"], ["--deals", "'5-2'", "backwards"]),
    (["batch", "--deals", "1-x"], ["--deals", "'x'"]),
    (["batch", "--deals", "1-3", "--jobs", "0"], ["--jobs", "'0'"]),
    # a typo's thousands of processes would take the machine: at most 8 a core
    (["serve", "--workers", "100000"], ["--workers", "100000", "8 processes a core"]),
    (["batch", "--deals", "1-3", "--jobs", "100000"], ["--jobs", "8 processes a core"]),
    (["census", "--deals", "1-3", "--out", "c.jsonl", "--jobs", "100000"],
     ["--jobs", "8 processes a core"]),
    (["generate", "--count", "1", "--jobs", "100000"], ["--jobs", "8 processes a core"]),
    (["ffk", "selfplay", "--bots", "hint,greedy", "--games", "2", "--jobs", "100000"],
     ["--jobs", "8 processes a core"]),
    (["solve"], ["required"]),
    (["solve", "pos.json", "--deal", "2"], ["--deal", "not allowed"]),
    (["frobnicate"], ["frobnicate"]),
]


@pytest.mark.parametrize(("argv", "fragments"), BAD_ARGUMENTS,
                         ids=[" ".join(argv) for argv, _ in BAD_ARGUMENTS])
def test_bad_arguments(capsys, argv, fragments):
    code, out, err = run(capsys, *argv)
    assert_one_line_error(code, out, err, "fortress-solver", *fragments)


def test_console_script_bad_position(tmp_path):
    """What a shell sees: exit 2, one line on stderr naming the card, no traceback."""
    path = write_position(tmp_path, _deal_2_with(_duplicate_7h))
    done = subprocess.run([str(SCRIPT), "solve", str(path), "--json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith("fortress-solver: ")
    assert "holds 7H twice" in done.stderr


def test_console_script_bad_argument():
    done = subprocess.run([str(SCRIPT), "batch", "--deals", "5-2"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert "5-2" in done.stderr


# ----------------------------------------------------------------------------- batch


def test_batch_writes_and_resumes(capsys, tmp_path):
    out_path = tmp_path / "results.jsonl"
    code, out, err = run(capsys, "batch", "--deals", "1-20", "--jobs", "2",
                         "--out", str(out_path), "--progress")
    assert code == 0, err
    assert out == ""
    first_text = out_path.read_text()
    records = batch_records(first_text)
    assert len(first_text.splitlines()) == 20
    for record in records:  # each line of the file says what it is a result of
        assert set(record) == BATCH_KEYS | {"game", "variant", "mode", "budget"}
        assert (record["game"], record["variant"], record["mode"]) == (
            "patience", "beleaguered-fortress", "any")
        assert record["budget"] == {"seconds": 30, "nodes": None, "table_entries": None,
                                    "memory_mib": 512}
        assert record["status"] in {"solved", "unsolvable", "unknown"}
        assert isinstance(record["optimal"], bool)
        assert type(record["nodes"]) is int
        assert isinstance(record["seconds"], float)
        if record["status"] == "solved":
            assert type(record["length"]) is int
        else:
            assert record["length"] is None
    assert sorted(r["deal"] for r in records) == list(range(1, 21))
    assert "deal" in err  # the progress bar's unit
    check_summary(batch_summary(err), records, processed=20)

    by_deal = {r["deal"]: r for r in records}
    assert by_deal[1]["status"] == "unsolvable"
    assert by_deal[2]["status"] == "solved"
    for number in (1, 2, 3, 6):
        single = run_json(capsys, "solve", "--deal", str(number), "--mode", "any", "--json")
        assert by_deal[number]["status"] == single["status"]
        assert by_deal[number]["length"] == single["length"]
        assert by_deal[number]["optimal"] == single["optimal"]

    code, out, err = run(capsys, "batch", "--deals", "1-25", "--jobs", "2",
                         "--out", str(out_path))
    assert code == 0, err
    text = out_path.read_text()
    assert text.startswith(first_text)  # appended, not rewritten
    all_records = batch_records(text)
    assert len(text.splitlines()) == 25
    deals = [r["deal"] for r in all_records]
    assert len(deals) == len(set(deals))
    assert sorted(deals) == list(range(1, 26))
    match = batch_summary(err)
    assert match.group(1) == "25"
    check_summary(match, all_records, processed=5)

    code, _, err = run(capsys, "batch", "--deals", "3-7", "--jobs", "2",
                       "--out", str(out_path))
    assert code == 0
    assert out_path.read_text() == text  # nothing left to do
    match = batch_summary(err)
    check_summary(match, [r for r in all_records if 3 <= r["deal"] <= 7], processed=0)


def test_batch_shows_no_bar_when_stderr_is_not_a_terminal(capsys):
    """Without --progress, a log or a pipe gets the summary line only."""
    assert not sys.stderr.isatty()
    code, out, err = run(capsys, "batch", "--deals", "1-4", "--jobs", "1")
    assert code == 0, err
    assert len(err.splitlines()) == 1 and "\r" not in err and "it/s" not in err
    check_summary(batch_summary(err), batch_records(out), processed=4)


def test_batch_drops_a_partial_last_line_and_runs_its_deal_again(capsys, tmp_path):
    """A run killed mid-write leaves a line without its newline: the rerun cuts it and
    appends whole lines, each deal once."""
    out_path = tmp_path / "results.jsonl"
    assert run(capsys, "batch", "--deals", "1-3", "--jobs", "1", "--out", str(out_path))[0] == 0
    whole = out_path.read_text()
    out_path.write_text(whole + '{"deal": 4, "status": "uns')
    code, _, err = run(capsys, "batch", "--deals", "1-6", "--jobs", "1", "--out", str(out_path))
    assert code == 0, err
    text = out_path.read_text()
    assert text.startswith(whole) and text.endswith("\n")
    assert sorted(r["deal"] for r in batch_records(text)) == [1, 2, 3, 4, 5, 6]
    check_summary(batch_summary(err), batch_records(text), processed=3)


@pytest.mark.parametrize("text", ["not json\n", '{"deal": 1}\n', '[1]\n{"deal": 2, "st'])
def test_batch_refuses_an_out_file_that_is_not_batch_lines(capsys, tmp_path, text):
    """One line naming the file and the line, and the file left as it was."""
    out_path = write_position(tmp_path, text, "results.jsonl")
    code, out, err = run(capsys, "batch", "--deals", "1-3", "--out", str(out_path))
    assert_one_line_error(code, out, err, f"{out_path} line 1 is not a batch result")
    assert out_path.read_text() == text


def test_batch_to_stdout(capsys):
    code, out, err = run(capsys, "batch", "--deals", "1-4", "--jobs", "1")
    assert code == 0, err
    records = batch_records(out)
    assert len(out.splitlines()) == 4
    assert sorted(r["deal"] for r in records) == [1, 2, 3, 4]
    assert all(set(r) == BATCH_KEYS for r in records)
    check_summary(batch_summary(err), records, processed=4)


def test_batch_single_deal_and_optimal_mode(capsys):
    code, out, err = run(capsys, "batch", "--deals", "2", "--mode", "optimal", "--jobs", "1")
    assert code == 0, err
    [record] = batch_records(out)
    assert record["deal"] == 2
    assert record["status"] == "solved"
    assert record["optimal"] is True
    assert record["length"] == OPTIMAL_LENGTH_DEAL_2


def test_version_names_the_package(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.strip() == f"fortress-solver {version('fortress-solver')}"


def test_a_closed_pipe_ends_a_command_quietly_with_the_shells_code():
    """`batch ... | head -1`: the reader leaves after a line; the command ends at its next
    write with exit code 141 (128 + SIGPIPE), as a shell tool does, and no traceback.
    1,000 deals print about 100 KB, more than a pipe holds, so the write must fail."""
    batch = subprocess.Popen([str(SCRIPT), "batch", "--deals", "1-1000", "--jobs", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert batch.stdout is not None and batch.stdout.readline().startswith(b'{"deal": 1,')
    batch.stdout.close()
    _, err = batch.communicate(timeout=60)
    assert (batch.returncode, err) == (141, b"")


def test_calling_main_leaves_the_callers_sigpipe_alone():
    """main() is also a library call (the tests, scripts): it must not change how the
    calling process treats a closed socket or pipe."""
    before = signal.getsignal(signal.SIGPIPE)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["solve", "--deal", "2", "--mode", "any"]) == 0
    assert signal.getsignal(signal.SIGPIPE) == before


def test_ctrl_c_in_a_batch_is_one_line_exit_130_and_the_batch_resumes(tmp_path):
    """SIGINT to the whole process group, as a terminal sends it: the workers stay quiet,
    the command says one line and exits 130, and a rerun solves only what is left."""
    out = tmp_path / "results.jsonl"
    command = [sys.executable, "-m", "service.cli", "batch", "--deals", "1-300",
               "--mode", "optimal", "--jobs", "2", "--out", str(out)]
    batch = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=PYTHON_ENGINE,
                             start_new_session=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while (not out.exists() or len(out.read_text().splitlines()) < 10) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(batch.pid, signal.SIGINT)
    _, err = batch.communicate(timeout=60)
    assert batch.returncode == 130
    assert err.splitlines()[-1] == "fortress-solver: interrupted"
    assert err == "fortress-solver: interrupted\n"  # one line: no bar on a pipe either
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    done = {json.loads(line)["deal"] for line in out.read_text().splitlines()}
    assert 10 <= len(done) < 300
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    lines = [json.loads(line)["deal"] for line in out.read_text().splitlines()]
    assert sorted(lines) == list(range(1, 301))


def test_sigint_to_a_batch_alone_is_one_line_exit_130_and_a_rerun_fills_the_file(tmp_path):
    """SIGINT to the command only (as `kill -INT` sends it), not its workers: one line on
    stderr, exit 130; the rerun appends what is left, every deal exactly once. The Python
    engine takes a minute or more over these deals, so the signal comes long before the
    end even on a busy machine; the rerun takes the kernel and seconds."""
    out = tmp_path / "results.jsonl"
    command = [str(SCRIPT), "batch", "--deals", "1-1000", "--mode", "optimal", "--jobs", "2",
               "--out", str(out)]
    batch = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=PYTHON_ENGINE,
                             stderr=subprocess.PIPE, text=True,  # SIGINT as a shell leaves
                             # it, whatever this test's runner ignores (children inherit that)
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while (not out.exists() or len(out.read_text().splitlines()) < 5) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    batch.send_signal(signal.SIGINT)
    _, err = batch.communicate(timeout=60)
    assert (batch.returncode, err) == (130, "fortress-solver: interrupted\n")
    done = [json.loads(line)["deal"] for line in out.read_text().splitlines()]
    assert 5 <= len(done) < 1000 and len(set(done)) == len(done)
    rerun = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert len(rerun.stderr.splitlines()) == 1  # the summary alone
    check_summary(batch_summary(rerun.stderr), batch_records(out.read_text()),
                   processed=1000 - len(done))
    lines = [json.loads(line)["deal"] for line in out.read_text().splitlines()]
    assert sorted(lines) == list(range(1, 1001))


# ----------------------------------------------------------------------------- generate


def test_client_generate_finds_the_deals_of_a_band(capsys, solver_server):
    code, out, err = run(capsys, "client", "generate", "--server", address(solver_server),
                         "--count", "2", "--min-length", "60", "--max-length", "70",
                         "--deals", "1-20")
    assert (code, err) == (0, "")
    found = sorted((r["deal"], r["length"]) for r in batch_records(out))
    assert found == [(2, 66), (13, 69)]


def test_client_generate_says_when_the_range_is_spent_and_exits_1(capsys, solver_server):
    """A band no deal of the range meets: the stream ends with what it found, and the
    command says so in one line."""
    code, out, err = run(capsys, "client", "generate", "--server", address(solver_server),
                         "--count", "5", "--min-length", "200", "--deals", "1-30")
    assert (code, out) == (1, "")
    assert err == ("fortress-solver: deals 1-30 spent: 0 of 5 deals found within "
                   "200-... moves\n")
    code, out, err = run(capsys, "client", "generate", "--server", address(solver_server),
                         "--count", "3", "--min-length", "60", "--max-length", "70",
                         "--deals", "1-20")
    assert code == 1 and len(batch_records(out)) == 2
    assert err == "fortress-solver: deals 1-20 spent: 2 of 3 deals found within 60-70 moves\n"


def test_solve_steps_draws_the_board_after_every_move_to_the_win(capsys):
    code, out, err = run(capsys, "solve", "--deal", "2", "--steps")
    assert code == 0, err
    boards = out.count("foundation ")
    solution = run_json(capsys, "solve", "--deal", "2", "--steps", "--json")
    assert boards == solution["length"] + 1  # the start, then one per move
    assert out.rstrip().endswith("foundation C:13 D:13 H:13 S:13")
    steps = [Position.from_json(step) for step in solution["steps"]]
    moves = [Move.from_json(move) for move in solution["moves"]]
    position = deal(2)
    for move, step in zip(moves, steps, strict=True):
        position = apply(position, move)
        assert position == step
    assert steps[-1].is_won


def test_hint_all_moves_grades_every_legal_move_best_first(capsys):
    plain = run_json(capsys, "hint", "--deal", "2", "--json")
    assert "all_moves" not in plain  # the hint's JSON is as it was without the flag
    graded = run_json(capsys, "hint", "--deal", "2", "--json", "--all-moves")
    assert {k: v for k, v in graded.items() if k != "all_moves"} == plain
    moves = graded["all_moves"]
    assert {json.dumps(g["move"], sort_keys=True) for g in moves} == \
        {json.dumps(move_json(deal(2), m), sort_keys=True) for m in legal_moves(deal(2))}
    assert all(set(g) == {"move", "outcome", "moves_left"} for g in moves)
    assert moves[0]["outcome"] == "wins" and moves[0]["moves_left"] == plain["moves_left"]
    code, out, _ = run(capsys, "hint", "--deal", "2", "--all-moves")
    assert code == 0 and len(out.splitlines()) == 1 + len(moves)


def test_hint_all_moves_grades_the_hints_move_a_win_under_a_small_budget(capsys):
    """Deal 23 with 16000 nodes, the hint's search 8000 of them (half): the hint finds a
    winning line (not proven shortest), so its move wins, though the grading's own
    searches of it prove no length."""
    graded = run_json(capsys, "hint", "--deal", "23", "--all-moves", "--nodes", "16000",
                      "--seconds", "60", "--json")
    assert graded["winnable"] is True and graded["optimal"] is False
    headline = next(g for g in graded["all_moves"] if g["move"] == graded["move"])
    assert headline == {"move": graded["move"], "outcome": "wins", "moves_left": None}


# ------------------------------------------------------------------------------ engines


def test_the_engine_is_the_process_s_and_engine_is_accepted_with_a_deprecation_line():
    """The environment picks the engine (`decimal`'s way), for the process and its workers;
    --engine still works, saying in one line what replaces it; a wrong choice is one line."""
    def run_cli(*argv: str, engine: str | None = None) -> subprocess.CompletedProcess[str]:
        env = {key: value for key, value in os.environ.items()
               if key != "FORTRESS_SOLVER_ENGINE"}
        if engine is not None:
            env["FORTRESS_SOLVER_ENGINE"] = engine
        return subprocess.run([str(SCRIPT), *argv], capture_output=True, text=True, env=env,
                              timeout=120)

    native = run_cli("solve", "--deal", "2", "--json")
    python = run_cli("solve", "--deal", "2", "--json", engine="python")
    assert (native.returncode, native.stderr, python.returncode, python.stderr) == (0, "", 0, "")
    assert json.loads(native.stdout)["length"] == json.loads(python.stdout)["length"] == 66
    flagged = run_cli("solve", "--deal", "2", "--json", "--engine", "python")
    assert flagged.returncode == 0 and json.loads(flagged.stdout)["length"] == 66
    assert flagged.stderr == ("fortress-solver: --engine is deprecated: set "
                              "FORTRESS_SOLVER_ENGINE=python instead\n")
    wrong = run_cli("solve", "--deal", "2", engine="fast")
    assert (wrong.returncode, wrong.stdout) == (2, "")
    assert wrong.stderr == ("fortress-solver: FORTRESS_SOLVER_ENGINE='fast': expected native "
                            "or python\n")
