"""Every flag README.md and docs/*.md name is an option of the command they name it for,
as the command line's parsers (service/cli.py) have it: a flag of a
`fortress-solver COMMAND ...` line or code span, or of a code block's `args: [...]` (the
image runs fortress-solver), is that command's, at the point of the line where argparse
would read it; a code span that starts with a command's last words (`serve --workers 1`,
`race --json`) names one of the commands whose words end so; a span of flags alone
(`--json`) names no command, and some command has it. Another program's flags
(`python -m bench.load --secure`, `pytest -n 2`) are not looked at.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from service.cli import PROG, build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^\s*```")
SPAN = re.compile(r"`([^`]+)`")
FLAG = re.compile(r"--[a-z][a-z0-9-]*")
# where a command ends in a line of shell: a pipe, a list, a substitution, a redirection
COMMAND_END = re.compile(r"\||;|&&|\$\(|\)|[<>]")
ARGS = re.compile(r"\bargs:\s*(\[.*\])")


def parsers(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()
            ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """(a command's words, its parser) for the root and every subcommand, nested; an
    alias's words too (`ask bf solve`)."""
    yield words, parser
    for name, sub in _subcommands(parser).items():
        yield from parsers(sub, (*words, name))


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return {name: sub for action in parser._actions
            if isinstance(action, argparse._SubParsersAction)
            for name, sub in action.choices.items()}


PARSER = build_parser()
COMMANDS = dict(parsers(PARSER))


@dataclass(frozen=True)
class Named:
    """A flag the docs name, where, and the commands it may be an option of: one, where
    the text says which; every command, where it cannot be told."""

    where: str
    flag: str
    commands: tuple[tuple[str, ...], ...]

    def exists(self) -> bool:
        return any(self.flag in COMMANDS[words]._option_string_actions
                   for words in self.commands)

    def __str__(self) -> str:
        named = ("any command" if len(self.commands) == len(COMMANDS) else
                 " or ".join(" ".join((PROG, *words)) for words in self.commands))
        return f"{self.where}: {self.flag} is no option of {named}"


def in_command_line(argv: list[str], where: str) -> Iterator[Named]:
    """The flags of `fortress-solver ARGV`, each with the command whose parser reads it:
    the words before it that name subcommands. None, unless ARGV starts with a command
    or a flag (not `fortress-solver: error ...`, nor `the fortress-solver image`)."""
    if not argv or (argv[0].rstrip(":") not in _subcommands(PARSER) and not _flag(argv[0])):
        return
    words: tuple[str, ...] = ()
    for token in argv:
        if token.rstrip(":,.") in _subcommands(COMMANDS[words]):
            words = (*words, token.rstrip(":,."))
        flag = _flag(token)
        if flag:
            yield Named(where, flag, (words,))


def in_span(text: str, where: str) -> Iterator[Named]:
    """The flags of a code span: of each `fortress-solver ...` in it; else, for a span of
    a command's last words and flags, of one of the commands that end so; for flags
    alone, of any command; for another program's, none."""
    if PROG in text:
        yield from in_text(text, where)
        return
    tokens = text.split()
    leading = tuple(tokens[:next((k for k, token in enumerate(tokens) if _flag(token)),
                                 len(tokens))])
    for size in range(len(leading), 0, -1):  # the longest start that ends some commands
        told = tuple(words for words in COMMANDS if words[-size:] == leading[:size])
        if told:
            yield from (Named(where, flag, told) for flag in map(_flag, tokens[size:]) if flag)
            return
    if not leading:
        yield from (Named(where, flag, tuple(COMMANDS)) for flag in map(_flag, tokens) if flag)


def in_text(text: str, where: str) -> Iterator[Named]:
    """The flags of every `fortress-solver ...` command in a line of text or shell."""
    for found in re.finditer(rf"{PROG}(?=\s)", text):
        yield from in_command_line(COMMAND_END.split(text[found.end():])[0].split(), where)


def _flag(token: str) -> str | None:
    """The long flag a word is (`--json`, `[--json]`, `--seconds=5`), if it is one."""
    found = FLAG.match(token.lstrip("[(\"'"))
    return found[0] if found else None


def named_in(text: str, name: str) -> Iterator[Named]:
    """Every flag a page names in its code: its code blocks' lines (a line ending in \\
    runs on) and `args: [...]`, and its code spans (which may run over a line's end)."""
    prose: list[str] = []
    fenced = False
    joined, first = "", 0
    for number, line in enumerate(text.splitlines(), 1):
        fence = FENCE.match(line) is not None
        fenced ^= fence
        prose.append("" if fenced or fence else line)
        if not fenced or fence:
            continue
        joined, first = joined + line.removesuffix("\\"), first or number
        if line.endswith("\\"):
            continue
        args = ARGS.search(joined)
        yield from (in_command_line(json.loads(args[1]), f"{name}:{first}") if args
                    else in_text(joined, f"{name}:{first}"))
        joined, first = "", 0
    outside = "\n".join(prose)  # the code blocks' lines left blank
    for span in SPAN.finditer(outside):
        number = outside.count("\n", 0, span.start()) + 1
        yield from in_span(" ".join(span[1].split()), f"{name}:{number}")


@pytest.mark.parametrize("path", DOCS, ids=[str(path.relative_to(ROOT)) for path in DOCS])
def test_every_flag_the_docs_name_is_an_option_of_its_command(path):
    named = named_in(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    stale = [str(found) for found in named if not found.exists()]
    assert not stale, "\n".join(stale)


PAGE = """\
Run `fortress-solver client --server 127.0.0.1:1 ffk hint FILE --worlds 2` or
`serve --workers
1`; `race --json`, `--json`, `python -m bench.load --secure`, `pytest -n 2 --dist x`.
```sh
fortress-solver deal 5 --json | fortress-solver show - --no-such \\
  --nor-this
fortress-solver: error: argument --bad
```
```yaml
args: ["serve", "--host", "0.0.0.0"]
```
`stronghold plan --wrong` and `--none-at-all`.
"""


def test_each_way_of_naming_a_flag_reaches_its_command():
    """And a flag no command has is found, however it is named."""
    named = {(found.where, found.flag, found.commands[0] if len(found.commands) == 1
              else "any" if len(found.commands) == len(COMMANDS) else "some", found.exists())
             for found in named_in(PAGE, "page")}
    assert named == {
        ("page:1", "--server", ("client",), False),  # the question's, after its words
        ("page:1", "--worlds", ("client", "ffk", "hint"), True),
        ("page:2", "--workers", ("serve",), True),
        ("page:3", "--json", "some", True),  # stronghold race's, asked or sent to a server
        ("page:3", "--json", "any", True),
        ("page:5", "--json", ("deal",), True),
        ("page:5", "--no-such", ("show",), False),
        ("page:5", "--nor-this", ("show",), False),
        ("page:10", "--host", ("serve",), True),
        ("page:12", "--wrong", "some", False),
        ("page:12", "--none-at-all", "any", False)}
