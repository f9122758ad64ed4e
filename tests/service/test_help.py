"""Every command's --help: each option says what it does, and each command's help ends
with an example that parses, and that works when it needs no server and is quick."""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from service.cli import PROG, build_parser

BIN = Path(sys.executable).parent
SLOW = {"selfplay", "batch", "census"}  # examples that run for long, or on files of each other


def commands(parser: argparse.ArgumentParser,
             path: tuple[str, ...] = ()) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """(the command's words, its parser) for the root and every subcommand, nested; a
    command's aliases (`ask bf` beside `ask beleaguered-fortress`) are its own parser,
    walked once, by its name."""
    yield " ".join((PROG, *path)), parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            walked: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) not in walked:
                    walked.add(id(sub))
                    yield from commands(sub, (*path, name))


PARSER = build_parser()
COMMANDS = dict(commands(PARSER))


def examples(epilog: str) -> list[str]:
    """The example commands of an epilog: its lines, less the "example(s):" label."""
    lines = epilog.splitlines()
    lines[0] = lines[0].split(":", 1)[1]
    return [line.strip() for line in lines if line.strip().startswith(("echo", PROG))]


def test_the_walk_reaches_every_game_and_the_client():
    for words in ("fortress-solver deal", "fortress-solver ffk selfplay",
                  "fortress-solver farbduell chain", "fortress-solver stronghold race",
                  "fortress-solver client generate", "fortress-solver client ffk hint",
                  "fortress-solver client stronghold plan"):
        assert words in COMMANDS


@pytest.mark.parametrize("words", COMMANDS)
def test_every_option_and_subcommand_says_what_it_does(words):
    for action in COMMANDS[words]._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help and action.help != argparse.SUPPRESS, (words, action.dest)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                assert choice.help, (words, choice.dest)


@pytest.mark.parametrize("words", COMMANDS)
def test_every_help_ends_with_an_example_that_parses(words):
    parser = COMMANDS[words]
    assert parser.epilog and parser.epilog.startswith("example"), words
    found = examples(parser.epilog)
    assert found, (words, parser.epilog)
    for example in found:
        for part in example.split("|"):
            argv = shlex.split(part.split(">")[0])
            if argv[0] == PROG:
                try:
                    PARSER.parse_args(argv[1:])
                except SystemExit as stop:
                    pytest.fail(f"{words}: {part!r} does not parse (exit {stop.code})")


def test_defaults_are_shown_and_only_real_ones():
    """A value the option takes unless given is shown; None, off and required are not."""
    text = " ".join(COMMANDS["fortress-solver batch"].format_help().split())
    assert "time budget in seconds (default: 30)" in text
    assert "(default: any)" in text and "(default: moves)" in text
    assert "(default: None)" not in text and "(default: False)" not in text
    assert "or one number) (default" not in text  # --deals is required


def quick_examples() -> list[str]:
    """The examples that need no server and finish in seconds."""
    return sorted({example for words, parser in COMMANDS.items()
                   if not {"client", "serve", *SLOW} & set(words.split())
                   for example in examples(parser.epilog or "example:")})


def test_the_examples_that_need_no_server_run_and_exit_0(tmp_path):
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}

    def run(example: str) -> tuple[str, int, str]:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", example], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=120)
        return example, done.returncode, done.stderr

    ran = quick_examples()
    assert {"fortress-solver deal 1", "fortress-solver show --deal 5",
            "fortress-solver hint --deal 2"} <= set(ran)
    with ThreadPoolExecutor(2) as pool:
        for example, code, err in pool.map(run, ran):
            assert code == 0 and "Traceback" not in err, (example, err)
