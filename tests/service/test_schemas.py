"""`fortress-solver schema GAME`: a valid JSON Schema per registered game, that every
position the games deal and every position a reader accepts validates against."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from solver.errors import InvalidInput
from solver.games import find_game, games
from tests.support.cli import run
from tests.support.json_mutation import mutate
from tests.support.schema_sketch import sketch
from tests.support.seeds import own_positions, seeds

SEEDS = seeds()  # every game's positions to fuzz from (a schema's sketch at least)
NAMES = [game.name for game in games()]


def own(name: str) -> list:
    """What the game deals or starts and its examples; a game with none is skipped."""
    found = own_positions(find_game(name))
    if not found:
        pytest.skip(f"{name} deals, starts and exemplifies no position")
    return found


def _validator(capsys, name: str) -> Draft202012Validator:
    code, out, err = run(capsys, "schema", name)
    assert code == 0, err
    document = json.loads(out)
    Draft202012Validator.check_schema(document)
    return Draft202012Validator(document)


@pytest.mark.parametrize("name", NAMES)
def test_the_schema_is_a_json_schema_of_the_game(capsys, name):
    validator = _validator(capsys, name)
    assert validator.schema["$id"].endswith(f"/{name}.json")


@pytest.mark.parametrize("name", NAMES)
def test_every_dealt_position_validates(capsys, name):
    validator = _validator(capsys, name)
    for data in own(name):
        assert not list(validator.iter_errors(data))


@pytest.mark.parametrize("name", NAMES)
def test_every_written_position_validates(capsys, name):
    """What `to_json` writes (every field spelled out) is a position too."""
    game = find_game(name)
    validator = _validator(capsys, name)
    for data in own(name):
        written = game.to_json(game.from_json(data))
        assert written["game"] == name
        assert not list(validator.iter_errors(written))


@pytest.mark.parametrize("name", NAMES)
def test_the_schema_refuses_nothing_the_reader_accepts(capsys, name):
    """Mutated positions that the game reads are valid by its schema: a client that
    validates first never refuses what the server would answer."""
    game = find_game(name)
    validator = _validator(capsys, name)
    rng = random.Random(12)
    accepted = 0
    for _ in range(400):
        data = mutate(rng.choice(SEEDS[name]), rng)
        try:
            game.from_json(data)
        except InvalidInput:
            continue
        accepted += 1
        errors = [error.message for error in validator.iter_errors(data)]
        assert not errors, (data, errors)
    if own_positions(game):  # mutations of a bare sketch may all be refused
        assert accepted > 20


@pytest.mark.parametrize("name", NAMES)
def test_the_sketch_of_the_schema_is_read_or_refused_in_one_fault_list(capsys, name):
    """The smallest document the schema suggests (where the fuzzer starts for a game
    that gives no position) is read, and then valid by the schema, or refused with
    InvalidInput naming its faults: nothing else escapes the reader."""
    game = find_game(name)
    data = sketch(game.schema())
    assert data["game"] == name
    try:
        game.from_json(data)
    except InvalidInput as refusal:
        assert refusal.problems and all(problem for problem in refusal.problems)
    else:
        assert not list(_validator(capsys, name).iter_errors(data))


def test_an_unknown_game_is_refused_with_the_list(capsys):
    code, _, err = run(capsys, "schema", "chess")
    assert code == 2 and "no game is called 'chess'" in err and "stronghold" in err


def test_every_puzzle_position_validates(capsys):
    """The Fortress Fight Kingdom puzzles the tests and README use are positions too."""
    validator = _validator(capsys, "fortress-fight-kingdom")
    folder = Path(__file__).parents[1] / "ffkingdom" / "puzzles"
    files = sorted(folder.glob("*.json"))
    assert files
    for path in files:
        position = json.loads(path.read_text(encoding="utf-8"))["position"]
        assert not list(validator.iter_errors(position)), path.name


def test_the_readme_stronghold_example_validates(capsys):
    """The commented Stronghold files of docs/stronghold.md (README's example moved
    there), each read as the command line reads it."""
    page = (Path(__file__).parents[2] / "docs" / "stronghold.md").read_text(encoding="utf-8")
    blocks = [part.split("```", 1)[0] for part in page.split("```jsonc\n")[1:]]
    assert blocks
    game = find_game("stronghold")
    for block in blocks:
        data = game.loads(block)
        game.from_json(data)
        assert not list(_validator(capsys, "stronghold").iter_errors(data))


@pytest.mark.parametrize("name", NAMES)
def test_the_published_schema_files_are_not_stale(capsys, name):
    """docs/schemas/GAME.json, which README links, is what `schema GAME` prints."""
    published = Path(__file__).parents[2] / "docs" / "schemas" / f"{name}.json"
    code, out, _ = run(capsys, "schema", name)
    assert code == 0
    assert published.is_file(), f"no {published.name}: run `make schemas`"
    assert published.read_text(encoding="utf-8") == out, "run `make schemas`"
