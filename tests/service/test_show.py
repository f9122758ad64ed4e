"""`fortress-solver show`: any game's position drawn for a person, its game taken from
its "game" key (or --game)."""

from __future__ import annotations

import io
import json

import pytest

from bench.fuzz_positions import seeds
from service.games import GAMES, find
from tests.cli import assert_one_line_error, run

SEEDS = seeds()


@pytest.mark.parametrize("name", [entry.game.name for entry in GAMES])
def test_show_draws_every_game_by_its_game_key(capsys, tmp_path, name):
    game = find(name).game
    for k, data in enumerate(SEEDS[name]):
        path = tmp_path / f"{k}.json"
        path.write_text(json.dumps(game.to_json(game.from_json(data))))
        code, out, err = run(capsys, "show", str(path))
        assert code == 0, err
        assert out == game.picture(game.from_json(data)) + "\n"
        assert out.strip() and not out.lstrip().startswith("{")  # a drawing, not JSON


def test_show_a_deal_is_the_deal_commands_board(capsys):
    _, dealt, _ = run(capsys, "deal", "7")
    code, shown, _ = run(capsys, "show", "--deal", "7")
    assert code == 0 and shown == dealt.split("\n", 1)[1]


def test_show_reads_standard_input_and_a_game_named_on_the_command_line(capsys, monkeypatch):
    stronghold = {"units": [{"id": "a", "owner": "A1", "might": 2}]}  # no "game" key
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(stronghold)))
    code, out, err = run(capsys, "show", "-", "--game", "siege")
    assert code == 0, err
    assert "Outer Defense" in out and "A1: a:2" in out


def test_show_refuses_a_position_that_names_no_game(capsys, tmp_path):
    path = tmp_path / "p.json"
    path.write_text('{"units": []}')
    assert_one_line_error(*run(capsys, "show", str(path)), 'names no game', "--game",
                          "stronghold")


def test_show_refuses_a_bad_position_with_its_games_message(capsys, tmp_path):
    path = tmp_path / "p.json"
    path.write_text('{"game": "beleaguered-fortress", "tableau": [["7H", "7H"]]}')
    assert_one_line_error(*run(capsys, "show", str(path)), "holds 7H twice")
