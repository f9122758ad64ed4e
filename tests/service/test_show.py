"""`fortress-solver show`: any game's position drawn for a person, its game taken from
its "game" key (or --game)."""

from __future__ import annotations

import io
import json

import pytest

from solver.games import find_game, games
from tests.support.cli import assert_one_line_error, run, run_json
from tests.support.seeds import own_positions


@pytest.mark.parametrize("name", [game.name for game in games()])
def test_show_draws_every_game_by_its_game_key(capsys, tmp_path, name):
    game = find_game(name)
    found = own_positions(game)
    if not found:
        pytest.skip(f"{name} deals, starts and exemplifies no position")
    for k, data in enumerate(found):
        path = tmp_path / f"{k}.json"
        path.write_text(json.dumps(game.to_json(game.from_json(data))))
        code, out, err = run(capsys, "show", str(path))
        assert code == 0, err
        assert out == game.picture(game.from_json(data)) + "\n"
        assert out.strip()
        if game.draw is not None:  # a game that draws none shows its JSON
            assert not out.lstrip().startswith("{")


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


# ---------------------------------------------------------------- apply


def test_hint_then_apply_the_hinted_move_walks_a_deal_to_the_win(capsys, tmp_path):
    """From a mid-game position, each hint's move applied: moves left fall by one each
    time, and the last position is won."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(run_json(capsys, "apply", "--deal", "2",
                                        "AS reserve:8 foundation", "--json")))
    left = run_json(capsys, "hint", str(path), "--json")["moves_left"]
    while left:
        advice = run_json(capsys, "hint", str(path), "--json")
        assert advice["moves_left"] == left and advice["winnable"]
        path.write_text(json.dumps(run_json(capsys, "apply", str(path),
                                            json.dumps(advice["move"]), "--json")))
        left -= 1
    final = run_json(capsys, "hint", str(path), "--json")
    assert final["moves_left"] == 0
    assert all(top == 13 for top in json.loads(path.read_text())["foundations"].values())


def test_apply_refuses_an_illegal_move_with_the_rule_it_breaks(capsys):
    code, out, err = run(capsys, "apply", "--deal", "2", "AS reserve:8 foundation",
                         "KD tableau:6 foundation")
    assert_one_line_error(code, out, err,
                          "move 2: KD tableau:6 foundation: KD is not the top of tableau:6")


def test_apply_a_move_in_its_text_or_its_json_is_the_same(capsys):
    text = run_json(capsys, "apply", "--deal", "2", "AS reserve:8 foundation", "--json")
    as_json = run_json(capsys, "apply", "--deal", "2",
                       '{"card": "AS", "from": "reserve:8", "to": "foundation"}', "--json")
    assert text == as_json and text["foundations"]["S"] == 1


def test_apply_plays_the_duels_actions_in_their_text(capsys, tmp_path):
    for name, command in (("fortress-fight-kingdom", "ffk"), ("farbduell", "farbduell")):
        game = find_game(name)
        position = game.from_json(own_positions(game)[0])
        path = tmp_path / f"{command}.json"
        path.write_text(json.dumps(game.to_json(position)))
        legal = _legal_action(name, position)
        after = run_json(capsys, "apply", str(path), legal, "--json")
        assert after == game.to_json(game.play(position, legal))
        assert after != game.to_json(position)
        assert_one_line_error(*run(capsys, "apply", str(path), "play no-such-card"),
                              "move 1 (play no-such-card)")


def _legal_action(name: str, position) -> str:
    if name == "farbduell":
        from solver.farbduell.rules import legal_actions
        return str(legal_actions(position)[0])
    from solver.ffkingdom import legal_actions as ffk_actions
    return str(ffk_actions(position.state)[0])


def test_apply_says_when_a_game_has_no_moves_to_apply(capsys, tmp_path):
    path = tmp_path / "siege.json"
    path.write_text(json.dumps({"game": "stronghold", "units": []}))
    assert_one_line_error(*run(capsys, "apply", str(path), "a O1"), "has no moves to apply")
