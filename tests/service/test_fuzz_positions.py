"""The position fuzzer (tests/support/fuzz_positions.py, run as `python -m
bench.fuzz_positions`) takes its games from the registry: every registered game has
positions to mutate and commands to run them through, a game it has no tuned commands
for gets the generic ones, and a short run over every game crashes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from solver.budget import Budget
from solver.games import Game, Question, games
from tests.support.fuzz_positions import COMMANDS, FILE, SECONDS, check_schema, commands, fuzz, run
from tests.support.seeds import own_positions, positions, seeds


@dataclass(frozen=True)
class _Options:
    depth: int = 1


def _never(position: Any, options: _Options, budget: Budget) -> Any:
    raise AssertionError("the fuzzer's command list asks nothing")


# A game the fuzzer has never heard of, that deals, starts and exemplifies nothing.
PEBBLES: Game[Any] = Game(
    name="pebbles", aliases=(), summary="a heap of pebbles",
    from_json=lambda data: data, to_json=lambda heap: dict(heap),
    schema=lambda: {"type": "object", "required": ["pebbles"], "properties": {
        "game": {"const": "pebbles"}, "pebbles": {"type": "integer", "minimum": 3}}},
    questions=(Question("take", "what to take", _Options, object, _never),
               Question("count", "how many are left", _Options, object, _never)))


@pytest.mark.parametrize("game", games(), ids=[game.name for game in games()])
def test_every_registered_game_has_positions_and_commands(game):
    assert seeds()[game.name] and commands(game)
    if game.name in COMMANDS:  # the built-in games give positions of their own
        assert own_positions(game)


def test_a_game_without_tuned_commands_gets_each_questions_generic_command():
    assert commands(PEBBLES) == [
        ["pebbles", "take", FILE, "--seconds", SECONDS],
        ["pebbles", "count", FILE, "--seconds", SECONDS],
        ["show", FILE, "--game", "pebbles"]]
    assert commands(PEBBLES, server="127.0.0.1:1") == [
        ["client", "pebbles", "take", FILE, "--seconds", SECONDS, "--server", "127.0.0.1:1"],
        ["client", "pebbles", "count", FILE, "--seconds", SECONDS, "--server", "127.0.0.1:1"]]


def test_a_game_that_gives_no_position_is_fuzzed_from_its_schemas_sketch():
    assert own_positions(PEBBLES) == []
    assert positions(PEBBLES) == [{"game": "pebbles", "pebbles": 3}]


@pytest.mark.parametrize("game", games(), ids=[game.name for game in games()])
def test_every_command_takes_a_real_position(game, tmp_path):
    """Each command of each game answers one of its positions, unmutated (or refuses it
    in one line): the command lines are the CLI's."""
    path = tmp_path / "position.json"
    path.write_text(json.dumps(positions(game)[0]))
    for command in commands(game):
        outcome, trace, _ = run([part.replace(FILE, str(path)) for part in command])
        assert outcome in ("ok", "refused"), (command, trace)


@pytest.mark.parametrize("game", games(), ids=[game.name for game in games()])
def test_every_games_schema_command_prints_a_json_schema(game):
    assert check_schema(game) is None


def test_a_short_run_over_every_game_crashes_nothing(capsys):
    tally = fuzz(games(), 12 * len(games()), seed=5)
    assert not [key for key in tally if key[1] == "crash"], capsys.readouterr().err
    assert {name for name, _ in tally} == {game.name for game in games()}
    assert sum(tally.values()) == 12 * len(games())
