"""The position fuzzer (tests/support/fuzz_positions.py, run as `python -m
bench.fuzz_positions`) takes what it fuzzes from the registry: every registered game has
positions to mutate, every question of every game is asked by one of its commands (as
the command line parses them), a game it has no tuned options for gets the plain
commands, its inputs may hold NaN and be cut short, and a short run over every game
crashes nothing.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from service.cli import build_parser
from solver.budget import Budget
from solver.errors import InvalidInput
from solver.games import Game, Question, find_game, games, plug_ins
from solver.json_text import json_of
from tests.support.fuzz_positions import (
    FILE,
    SECONDS,
    TUNED,
    asked,
    check_schema,
    commands,
    fuzz,
    inputs,
    run,
)
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
    if game not in plug_ins():  # the built-in games give positions of their own
        assert own_positions(game)


def test_every_question_of_every_registered_game_is_fuzzed():
    """The questions the fuzzer's commands ask, as the command line parses them, are
    every question the registry declares: a renamed game, or a question added, stays
    fuzzed, and no tuned option is one a command has not."""
    declared = {(game.name, question.name) for game in games() for question in game.questions}
    owner = {question: game.name for game in games() for question in game.questions}
    fuzzed = set()
    for game in games():
        for name, each in asked(game).items():
            for command in each:
                question = build_parser(command).parse_args(command).run.args[0]
                assert (owner[question], question.name) == (game.name, name), command
                fuzzed.add((game.name, name))
    assert fuzzed == declared


def test_every_tuned_question_is_a_registered_games():
    for name, question in TUNED:
        assert question in [asked.name for asked in find_game(name).questions]


def test_the_inputs_may_hold_nan_and_be_no_json_besides():
    """NaN, then the text cut short, say: what json_of once let a traceback out on."""
    rng, patience = random.Random(1), find_game("patience")
    made = (inputs(patience, rng, seeds()["patience"]) for _ in range(20_000))
    assert any(b"NaN" in raw and _not_json(raw) for raw in made)


def _not_json(raw: bytes) -> bool:
    try:
        json_of(raw)
    except InvalidInput as refusal:
        return "is not JSON" in str(refusal)
    return False


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
