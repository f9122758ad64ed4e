"""Mutated positions through every registered game's commands: how many crash (a Python
exception escaping the command line, instead of an answer or one line naming the fault).
`python -m bench.fuzz_positions` runs it; the tests import its parts.

What it fuzzes is the registry's (`solver.games.games()`): every game, and every
question each game lists, asked by the command that asks it (service/frontends.py
`words_of`: `solve FILE` for patience, `ffk hint FILE`, `GAME QUESTION FILE` for a
plug-in) with a small budget, some with options tuned here (TUNED, keyed by a name the
registry knows the game by, so that a renamed game keeping its old name as an alias stays
tuned); and `show FILE --game GAME` (its reader and drawing, even for a game with no
question). Each input is one of the game's positions (tests/support/seeds.py: dealt,
started, its schema's examples or a few kept for the built-in games, else the sketch of
its schema) mutated a few times (tests/support/json_mutation.py, a number JSON has not
among the values put in), its bytes now and then spoiled (cut short, say). Every game's
`schema GAME` is run once and must print a JSON Schema. It runs in-process through
`service.cli.main`; a crash prints its command, input and traceback, and the exit status
is 1 when any crashed. With `--server` the question commands run as `fortress-solver
client ...` against that server, whose answers and refusals must be the command line's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from service.arguments import add_progress, progress_bar
from service.cli import main as cli
from service.frontends import words_of
from solver.errors import InvalidInput
from solver.games import Game, find_game, games
from tests.support.json_mutation import NOT_FINITE, ODD_VALUES, mutate, spoil
from tests.support.seeds import seeds

SECONDS = "0.2"  # every command's budget, small enough for thousands of runs
FILE = "{}"      # where a command takes the position's file

# Options tuned for some questions of the built-in games, by (game, question): each list
# the options of one command past the file and the budget. A question not here gets one
# command with none.
TUNED: dict[tuple[str, str], list[list[str]]] = {
    ("patience", "solve"): [[], ["--json"]],
    ("fortress-fight-kingdom", "puzzle"): [[], ["--turns", "2"]],
    ("fortress-fight-kingdom", "hint"): [["--worlds", "2"]],
    ("farbduell", "hint"): [["--worlds", "2"]],
    ("stronghold", "clear"): [["--max-turns", "6"]],
    ("stronghold", "race"): [["--max-turns", "6", "--defender", "greedy"]],
}


def asked(game: Game[Any], server: str | None = None) -> dict[str, list[list[str]]]:
    """The commands that ask each of the game's questions, by question: its command
    words, the file, the budget and each of its tuned options; with a server, under
    `client`."""
    names = {game.name, *game.aliases}
    tuned = {question: options for (name, question), options in TUNED.items()
             if name in names}
    found: dict[str, list[list[str]]] = {}
    for question in game.questions:
        words = words_of(game, question.name).split()
        local = [[*words, FILE, "--seconds", SECONDS, *options]
                 for options in tuned.get(question.name, [[]])]
        found[question.name] = (local if server is None else
                                [["client", *command, "--server", server] for command in local])
    return found


def commands(game: Game[Any], server: str | None = None) -> list[list[str]]:
    """Every command the game's inputs go through: its questions', and `show` (which
    has no client form) unless under a server."""
    found = [command for each in asked(game, server).values() for command in each]
    return found if server is not None else [*found, ["show", FILE, "--game", game.name]]


def run(argv: list[str]) -> tuple[str, str | None, str]:
    """('ok' | 'refused' | 'crash', the traceback of a crash, what it printed)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    except Exception:
        return "crash", traceback.format_exc(), out.getvalue()
    if code == 2 and len(err.getvalue().strip().splitlines()) != 1:
        return "crash", f"exit 2 with stderr:\n{err.getvalue()}", out.getvalue()
    if code == 1:  # a server that failed (INTERNAL, UNKNOWN, ...)
        return "crash", f"exit 1 with stderr:\n{err.getvalue()}", out.getvalue()
    return ("ok" if code == 0 else "refused"), None, out.getvalue()


def check_schema(game: Game[Any]) -> str | None:
    """What is wrong with `schema GAME`'s output (None: a JSON Schema of the game)."""
    outcome, trace, printed = run(["schema", game.name])
    if outcome != "ok":
        return trace or f"schema {game.name} was refused"
    try:
        document = json.loads(printed)
        Draft202012Validator.check_schema(document)
    except Exception as error:
        return f"schema {game.name} printed no JSON Schema: {error}"
    return None


def inputs(game: Game[Any], rng: random.Random, positions: list[Any]) -> bytes:
    """One input for `game`: one of its positions mutated one to three times (a value
    put in may be a number JSON has not, written as json.dumps writes it: NaN), its
    bytes spoiled one time in ten (often enough that some 3,000 inputs hold NaN in a
    text cut short: a reader's two faults at once)."""
    data = rng.choice(positions)
    for _ in range(rng.choice([1, 1, 2, 3])):
        data = mutate(data, rng, [*ODD_VALUES, *NOT_FINITE])
    raw = json.dumps(data).encode()
    return spoil(raw, rng) if rng.random() < 0.1 else raw


def fuzz(chosen: Sequence[Game[Any]], count: int, seed: int, server: str | None = None,
         progress: bool | None = None) -> Counter[tuple[str, str]]:
    """(game, outcome) -> inputs, over `count` inputs taken in turn from the games, each
    through one of its commands at random; each crash printed to stderr. A game with no
    command (no question, under a server) is left out."""
    rng = random.Random(seed)
    positions = seeds()
    tally: Counter[tuple[str, str]] = Counter()
    playable = [game for game in chosen if commands(game, server)]
    if not playable:
        return tally
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "position.json"
        for k in progress_bar(range(count), total=count, unit="input", forced=progress):
            game = playable[k % len(playable)]
            raw = inputs(game, rng, positions[game.name])
            path.write_bytes(raw)
            command = [part.replace(FILE, str(path))
                       for part in rng.choice(commands(game, server))]
            outcome, trace, _ = run(command)
            tally[game.name, outcome] += 1
            if trace is not None:
                print(f"CRASH {' '.join(command)}\n{raw[:2000]!r}\n{trace}", file=sys.stderr)
    return tally


def _games(text: str) -> list[Game[Any]]:
    try:
        return [find_game(name) for name in text.split(",") if name.strip()]
    except InvalidInput as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="python -m bench.fuzz_positions --inputs 10000 --seed 1; "
               "--server 127.0.0.1:50051 for the clients")
    parser.add_argument("--inputs", type=int, default=2000, help="inputs in all (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="the mutations' seed (default 1)")
    parser.add_argument("--games", type=_games, default=list(games()),
                        help="comma-separated games, by name or alias (default: every "
                             "registered game)")
    parser.add_argument("--server", metavar="HOST:PORT",
                        help="run the client commands against this server (default: local)")
    add_progress(parser)
    args = parser.parse_args(arguments)
    schema_faults = {game.name: check_schema(game) for game in args.games}
    tally = fuzz(args.games, args.inputs, args.seed, args.server, args.progress)
    for name, fault in schema_faults.items():
        if fault is not None:
            print(f"CRASH schema {name}\n{fault}", file=sys.stderr)
    print(f"{'game':24} {'ok':>6} {'refused':>8} {'crash':>6} {'schema':>7}")
    for game in args.games:
        schema = "ok" if schema_faults[game.name] is None else "CRASH"
        print(f"{game.name:24} {tally[game.name, 'ok']:6} {tally[game.name, 'refused']:8} "
              f"{tally[game.name, 'crash']:6} {schema:>7}")
    crashed = any(outcome == "crash" for _, outcome in tally)
    return 1 if crashed or any(schema_faults.values()) else 0
