"""The command line meets people halfway, each checked through a real `fortress-solver`
process: `apply` takes back every notation the project prints a move in; a position of
another game is refused with that fact first and the command that asks it; the top-level
help names the game of each game's commands; `client` commands find the server that
`serve` starts by default, or the one the environment names."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.cli import PROG, build_parser
from service.frontends import OWN, words_of
from solver.games import REGISTRY, games

CLI = Path(sys.executable).parent / PROG


def cli(*args: str, stdin: str | None = None,
        environment: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CLI), *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **(environment or {})})


def output(*args: str) -> str:
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


# ---------------------------------------------------------------- apply


@pytest.fixture(scope="module")
def solution() -> tuple[list[str], list[dict[str, str]]]:
    """The moves of deal 2's optimal solution as `solve` prints them: its text lines
    (`   1. AS reserve:8 -> foundation`) and its JSON moves."""
    lines = [line for line in output("solve", "--deal", "2").splitlines()[1:]]
    moves = json.loads(output("solve", "--deal", "2", "--json"))["moves"]
    assert len(lines) == len(moves) > 0
    return lines, moves


def renamed(move: dict[str, str]) -> dict[str, str]:
    """A move as the RPCs' JSON (the HTTP face's, the playground's) writes it."""
    return {"card": move["card"], "source": move["from"], "target": move["to"]}


NOTATIONS = {
    "solve's lines, step numbers and all": lambda lines, moves: lines,
    "solve's arrow": lambda lines, moves: [line.split(". ", 1)[1] for line in lines],
    "the playground's arrow": lambda lines, moves: [
        f"{m['card']} {m['from']} → {m['to']}" for m in moves],
    "the plain notation": lambda lines, moves: [
        f"{m['card']} {m['from']} {m['to']}" for m in moves],
    "solve --json's moves": lambda lines, moves: [json.dumps(m) for m in moves],
    "the RPCs' JSON moves": lambda lines, moves: [json.dumps(renamed(m)) for m in moves],
}


@pytest.mark.parametrize("notation", NOTATIONS)
def test_apply_replays_a_solution_printed_in_every_notation_to_a_win(notation, solution):
    moves = NOTATIONS[notation](*solution)
    after = json.loads(output("apply", "--deal", "2", *moves, "--json"))
    assert after["foundations"] == {"C": 13, "D": 13, "H": 13, "S": 13}
    assert all(pile == [] for pile in after["tableau"])


def test_apply_takes_hint_json_from_a_file_and_names_a_bad_move(solution, tmp_path):
    position = tmp_path / "position.json"
    position.write_text(output("deal", "2", "--json"))
    move = json.loads(output("hint", str(position), "--json"))["move"]
    assert cli("apply", str(position), json.dumps(move)).returncode == 0
    done = cli("apply", str(position), "AS reserve:8 => foundation")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "move 1" in done.stderr and "is not a move" in done.stderr


# ---------------------------------------------------------------- another game's position


@pytest.fixture(scope="module")
def positions(tmp_path_factory) -> dict[str, Path]:
    """A position file of every game, named by its game."""
    folder = tmp_path_factory.mktemp("positions")
    made = {
        "patience": output("deal", "2", "--json"),
        "fortress-fight-kingdom": output("ffk", "deal", "--seed", "7"),
        "farbduell": output("farbduell", "deal", "--seed", "3"),
        "stronghold": json.dumps({"game": "stronghold", "mode": "1v3", "units": [
            {"id": "a1", "owner": "A1", "might": 2}, {"id": "a2", "owner": "A2", "might": 2},
            {"id": "a3", "owner": "A3", "might": 2},
            {"id": "d1", "owner": "D", "might": 1, "loc": "O1"}]}),
    }
    assert set(made) == {game.name for game in games()}
    for name, text in made.items():
        (folder / f"{name}.json").write_text(text)
    return {name: folder / f"{name}.json" for name in made}


PAIRS = [(asked, given) for asked in games() for given in games() if asked is not given]


@pytest.mark.parametrize("asked, given", PAIRS,
                         ids=[f"{a.name} asked of {g.name}" for a, g in PAIRS])
def test_another_games_position_is_refused_with_the_command_that_asks_it(asked, given,
                                                                         positions):
    question = asked.questions[0].name
    path = str(positions[given.name])
    done = cli(*words_of(asked, question).split(), path)
    answered = [q.name for q in given.questions]
    matching = next((name for name in (question, "hint") if name in answered), answered[0])
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"{PROG}: this is a {given.title} position: try "
                           f"`{PROG} {words_of(given, matching)} {path}`\n")


def test_the_client_is_told_the_client_command(positions):
    path = str(positions["fortress-fight-kingdom"])
    done = cli("client", "solve", path, environment={"FORTRESS_SOLVER_SERVER": "127.0.0.1:1"})
    assert done.returncode == 2
    assert done.stderr == (f"{PROG}: this is a Fortress Fight Kingdom position: try "
                           f"`{PROG} client ffk hint {path}`\n")


def test_show_with_the_wrong_game_is_told_to_leave_it_out(positions):
    path = str(positions["farbduell"])
    done = cli("show", path, "--game", "stronghold")
    assert done.returncode == 2
    assert done.stderr == f"{PROG}: this is a Farbduell position: try `{PROG} show {path}`\n"


# ---------------------------------------------------------------- the top-level help


def test_the_top_level_help_names_the_game_of_each_games_commands():
    text = " ".join(output("--help").split())
    for game in games():
        for word, about in OWN[game.name].commands.items():
            assert about.startswith(game.title), (word, about)
            assert f"{word} {about}" in text, word


def test_the_commands_listed_by_their_help_alone_are_the_ones_built():
    """The top-level commands of each game's own front ends, with their help, as the
    index the command line lists them from says; every registry game has its entry."""
    assert len(OWN) == len(REGISTRY)
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    listed = {choice.dest: choice.help for choice in action._choices_actions}
    for own in OWN.values():
        assert {word: listed.get(word) for word in own.commands} == own.commands


# ---------------------------------------------------------------- the default server


def test_a_client_command_asks_the_default_server_or_the_environments(solver_server):
    environment = {"FORTRESS_SOLVER_SERVER": f"127.0.0.1:{solver_server.port}"}
    done = cli("client", "hint", "--deal", "2", environment=environment)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("deal 2: AS reserve:8 -> foundation")
    help_text = " ".join(output("client", "hint", "--help").split())
    assert "FORTRESS_SOLVER_SERVER" in help_text
    assert "(default: 127.0.0.1:50051)" in " ".join(
        cli("client", "hint", "--help",
            environment={"FORTRESS_SOLVER_SERVER": ""}).stdout.split())
