"""Every number a command takes has a bound the code beneath it takes (the compiled
kernel's 64-bit counts, the clocks' waits, grpc's options), and past it argparse refuses
it in one line naming the flag and the bound, exit 2: not a kernel binding's TypeError
or an OverflowError from a wait, after the command has started."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import pytest

from service.api import fortress_solver_pb2 as pb
from service.arguments import MOST_COUNT, Number
from service.cli import build_parser
from service.messages import budget_from_proto
from service.server import ServerConfig
from solver.beleaguered import deal, native
from solver.budget import Budget, Status
from tests.support.cli import assert_one_line_error, run


def _commands(parser: argparse.ArgumentParser,
              words: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...],
                                                             argparse.ArgumentParser]]:
    """Every command's words and parser, the subcommands' of `client` and `ask` too."""
    yield words, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            seen = set()
            for name, command in action.choices.items():
                if id(command) not in seen:  # an alias names the same parser
                    seen.add(id(command))
                    yield from _commands(command, (*words, name))


COMMANDS = list(_commands(build_parser()))
NUMBER_FLAGS = [(words, parser, action) for words, parser in COMMANDS
                for action in parser._actions if isinstance(action.type, Number)]


def _past(number: Number) -> list[str]:
    """Numbers past the bounds of `number`: just past each, and far past."""
    beyond = [str(number.most + 1) if number.kind is int else f"{number.most * 10:g}",
              "1e400", str(2**70)]
    if number.least is not None:
        beyond.append(str(number.least - 1))
    return beyond


def test_the_walk_finds_the_number_flags_of_every_game():
    flags = {(" ".join(words), argparse._get_action_name(action))
             for words, _, action in NUMBER_FLAGS}
    for flag in [("solve", "--memory"), ("hint", "--table-entries"), ("grade", "--nodes"),
                 ("batch", "--seconds"), ("generate", "--max-seconds"), ("deal", "number"),
                 ("serve", "--port"), ("serve", "--memory-per-worker"),
                 ("client generate", "--count"), ("ffk deal", "--seed"),
                 ("farbduell puzzle", "--turns"), ("ask fortress-fight-kingdom hint", "--worlds"),
                 ("stronghold race", "--max-turns"), ("show", "--deal"),
                 ("client ask patience solve", "--memory")]:
        assert flag in flags


def test_every_flag_that_reads_a_number_is_a_bounded_number():
    """A flag whose type reads "7" as a number is a Number, whose bound the walk knows:
    none is read by int() or float() alone."""
    for words, _, action in [(w, p, a) for w, p in COMMANDS for a in p._actions]:
        if action.type is None or isinstance(action.type, Number):
            continue
        try:
            value = action.type("7")
        except (ValueError, TypeError, argparse.ArgumentTypeError):
            continue
        assert not isinstance(value, int | float), (words, action.option_strings)


@pytest.mark.parametrize(("words", "parser", "action"), NUMBER_FLAGS,
                         ids=[" ".join((*words, argparse._get_action_name(action)))
                              for words, _, action in NUMBER_FLAGS])
def test_a_number_past_its_bound_is_refused_in_one_line(capsys, words, parser, action):
    name = argparse._get_action_name(action)
    for text in _past(action.type):
        capsys.readouterr()
        with pytest.raises(SystemExit) as stop:
            parser.parse_args([*action.option_strings[-1:], text])
        out, err = capsys.readouterr()
        just_past = text == _past(action.type)[0]
        assert_one_line_error(stop.value.code, out, err, f"argument {name}: ",
                              *([action.type.bound] if just_past else []))


@pytest.mark.parametrize("argv", [
    ["solve", "--deal", "2", "--memory", str(2**44)],
    ["hint", "--deal", "2", "--table-entries", str(2**64)],
    ["grade", "--deal", "2", "--nodes", str(2**64)],
    ["batch", "--deals", "1-2", "--memory", str(2**44)],
    ["ask", "patience", "solve", "--deal", "2", "--memory", str(2**44)],
    ["generate", "--count", "1", "--deals", "1-2", "--max-seconds", "1e10"],
    ["client", "hint", "--deal", "2", "--memory", str(2**32)],
])
def test_the_commands_refuse_what_the_kernel_and_the_clocks_cannot_take(capsys, argv):
    assert_one_line_error(*run(capsys, *argv), f"argument {argv[-2]}: ")


WIRE_MOST = pb.Budget(seconds=1.7e308, nodes=2**64 - 1, table_entries=2**64 - 1,
                      memory_mib=2**32 - 1)


@pytest.mark.parametrize("memory_per_worker", [MOST_COUNT, None],
                         ids=["serve --memory-per-worker at its bound", "no limit"])
def test_a_wire_budget_at_every_fields_most_is_one_the_kernel_takes(memory_per_worker):
    """A Budget whose every field holds the most its wire type carries, capped by the
    server's limits (--memory-per-worker at its flag's bound, or none at all), is one
    the kernel's binding takes: it searches, and answers."""
    limits = Budget(seconds=ServerConfig.limits.seconds, nodes=None, table_entries=None,
                    memory_mib=memory_per_worker)
    budget = budget_from_proto(WIRE_MOST, limits)
    assert budget.memory_mib == (memory_per_worker or 2**32 - 1)
    status, moves, _, _ = native.search(deal(2), "greedy", budget)
    assert status is Status.SOLVED and moves
