"""The commands every game has from its descriptor alone: one per question
(`fortress-solver ask GAME QUESTION FILE`, and at the top for a game without commands of
its own), its options as flags made from the question's options dataclass, the answer
printed as its JSON; the same under `client`, sent to a server through
`PositionSource.json` and `QuestionOptions`.

A game with commands of its own makes them here too, from its questions, keeping only
its printers: each prints an answer's JSON for a person, so that a command prints the
same from an answer found here and from one a server sent.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import json
import typing
from collections.abc import Callable, Mapping
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.arguments import (
    add_budget,
    add_server,
    add_variant,
    budget_of,
    integer,
    read_position,
    real,
)
from solver.budget import DEFAULT_MEMORY_MIB, HINT_MEMORY_MIB, Budget
from solver.errors import InvalidInput
from solver.games import Game, Question

if TYPE_CHECKING:
    from service.api import fortress_solver_pb2 as pb
    from service.client import Client

# a game's front end's `in_variant(game, --variant, --rules)`: the game in that variant
InVariant = Callable[[Game[Any], str | None, Path | None], Game[Any]]
# prints a question's answer for a person, from its JSON, the position, the options and
# the command's arguments (for a flag of the game's own, or the position's name)
Printer = Callable[[dict[str, Any], Any, Any, argparse.Namespace], None]
# a game's own flags on a question's command: (the parser, the question, under `client`)
Flags = Callable[[argparse.ArgumentParser, Question[Any, Any, Any], bool], None]
# the PositionSource a client sends for a position a command read (its arguments too)
Source = Callable[[Any, argparse.Namespace], "pb.PositionSource"]


def default_question(game: Game[Any], rpc: str) -> Question[Any, Any, Any]:
    """The question an RPC asks when the request names none: its namesake, else the
    game's first."""
    return next((q for q in game.questions if q.name == rpc), game.questions[0])


def options_from_json(question: Question[Any, Any, Any], text: str) -> Any:
    """A question's options from a JSON object (empty: its defaults), each of its type
    alone (as the options schema says it), every fault named."""
    from pydantic import ValidationError  # a command's parser needs neither

    from solver.reading import faults, json_of

    if not text:
        return question.options()
    data = json_of(text.encode(), "options")
    known = {field.name for field in dataclasses.fields(question.options)}
    if not isinstance(data, dict):
        raise InvalidInput("options must be a JSON object")
    strays = [f"options.{key}: is not an option of {question.name}" for key in data
              if key not in known]
    if strays:
        raise InvalidInput(strays)
    try:  # strictly, as JSON: no "yes" or 1 for true, no "3" or true for 3
        return _validator(question).validate_json(json.dumps(data), strict=True)
    except ValidationError as error:
        refused = [e["ctx"]["error"] for e in error.errors()
                   if isinstance(e.get("ctx", {}).get("error"), InvalidInput)]
        if refused:  # an options class's own check (a range, a choice), in its own words
            raise refused[0] from None
        raise InvalidInput([f"options.{fault}" for fault in faults(error)]) from None


@cache
def _validator(question: Question[Any, Any, Any]) -> Any:
    """The question's options' pydantic validator, made once: making one takes some
    0.5 ms, more than the rest of a call's way through the server."""
    from pydantic import TypeAdapter

    return TypeAdapter(question.options)


class Commands:
    """`fortress-solver GAME QUESTION FILE` and `client GAME QUESTION FILE`."""

    def __init__(self, game: Game[Any], in_variant: InVariant | None = None,
                 printers: Mapping[str, Printer] | None = None,
                 deal_number: Callable[[str], int] = integer, flags: Flags | None = None,
                 source: Source | None = None) -> None:
        """`in_variant`: how the game's front end plays the variant --variant and
        --rules choose, for a game that has variants (None: it has none). `printers`:
        the game's own commands' printers, by question (without: the JSON).
        `deal_number`: --deal's type, which refuses a number the game deals not.
        `flags`: adds the game's own flags to a question's command. `source`: what a
        client sends for the position (without: its JSON)."""
        self.game = game
        self.in_variant = in_variant
        self.printers = printers or {}
        self.deal_number = deal_number
        self.flags = flags
        self.source = source

    def add_commands(self, commands: Any) -> None:
        self.add_questions(commands, remote=False)

    def add_client_commands(self, commands: Any) -> None:
        self.add_questions(commands, remote=True, under="client")

    def add_questions(self, commands: Any, remote: bool, under: str = "", name: str = "",
                      about: str = "") -> Any:
        """`GAME QUESTION FILE` for each question, asked here or (`remote`) of a server,
        its answer printed as JSON: a plug-in's commands at the top, and every game's
        under `ask` (`under`: the words between the program's name and the game's, for
        the examples). `name` and `about`: a game's own command's name and help, in place
        of the game's names and summary; its other commands go into the subcommands
        returned."""
        game = self.game
        parser = commands.add_parser(name or game.name, aliases=[] if name else list(game.aliases),
                                     help=about or game.summary,
                                     description=(about or game.summary)
                                     + (", answered by a server" if remote and name else ""))
        questions = parser.add_subparsers(dest="question", required=True,
                                          parser_class=type(parser),
                                          help="what to do (each has its own --help)")
        words = " ".join(("fortress-solver", *under.split(), name or game.name))
        parser.epilog = f"example:\n  {self.example(words, game.questions[0], remote)}"
        self.add_each(questions, remote, words)
        return questions

    def add_each(self, questions: Any, remote: bool, words: str, titled: bool = False) -> None:
        """One command per question in `questions` (a subparsers action), named for it,
        which prints with the game's printer of the question if it has one (--json: the
        JSON), else the JSON. `words`: the command line up to the question's name, for
        the examples; `titled`: each help names the game (commands at the top)."""
        for question in self.game.questions:
            about = f"{self.game.title}: {question.summary}" if titled else question.summary
            asked = questions.add_parser(question.name, help=about,
                                         description=question.summary,
                                         epilog="example:\n  "
                                                + self.example(words, question, remote))
            source = asked.add_mutually_exclusive_group(required=True)
            text = f", or {self.game.text_name}" if self.game.from_text is not None else ""
            source.add_argument("file", nargs="?",
                                help=f"position JSON file{text}, or - for standard input")
            if self.game.deal is not None:
                source.add_argument("--deal", type=self.deal_number, metavar="N",
                                    help="deal N of the game, instead of a file")
            if self.game.start is not None:
                source.add_argument("--start", type=integer, metavar="SEED",
                                    help="a new game from SEED, instead of a file")
            if self.in_variant is not None:
                add_variant(asked)
            add_budget(asked, seconds=question.seconds, buys=question.seconds_help,
                       memory_mib=HINT_MEMORY_MIB if question.quick else DEFAULT_MEMORY_MIB)
            add_options(asked, question)
            if self.flags is not None:
                self.flags(asked, question, remote)
            printer = self.printers.get(question.name)
            if printer is not None:
                asked.add_argument("--json", action="store_true",
                                   help="print the answer as one JSON object")
            if remote:
                add_server(asked)
                asked.set_defaults(run_remote=partial(self._ask_server, question, printer))
            else:
                asked.set_defaults(run=partial(self._ask, question, printer))

    def example(self, words: str, question: Question[Any, Any, Any], remote: bool) -> str:
        """A command that asks the question of a position the game gives: a deal, a new
        game, or its schema's example (else a file of the reader's)."""
        server = " --server 127.0.0.1:50051" if remote else ""
        game = self.game
        if game.deal is not None:
            return f"{words} {question.name} --deal 2{server}"
        if game.start is not None:
            return f"{words} {question.name} --start 7{server}"
        found = game.schema().get("examples")
        if isinstance(found, list) and found:
            return f"echo '{json.dumps(found[0])}' | {words} {question.name} -{server}"
        return f"{words} {question.name} position.json{server}"

    def _ask(self, question: Question[Any, Any, Any], printer: Printer | None,
             args: argparse.Namespace) -> None:
        position = self._position(args)
        options = options_from_args(question, args)
        answer = question.ask(position, options, budget_of(args))
        _print(printer, args, answer.to_json(), position, options)

    def _ask_server(self, question: Question[Any, Any, Any], printer: Printer | None,
                    args: argparse.Namespace, client: Client) -> None:
        position = self._position(args)
        options = options_from_args(question, args)
        source = (_json_source(self.game, position) if self.source is None
                  else self.source(position, args))
        answer = ask_server(client, self.game, question, source, options, budget_of(args))
        _print(printer, args, answer, position, options)

    def _position(self, args: argparse.Namespace) -> Any:
        """The position of FILE, of --deal N, or of --start SEED, in the variant chosen."""
        game = self.game
        if self.in_variant is not None and (args.variant is not None or args.rules is not None):
            game = self.in_variant(game, args.variant, args.rules)
        if getattr(args, "deal", None) is not None and game.deal is not None:
            return game.deal(args.deal)
        if getattr(args, "start", None) is not None and game.start is not None:
            return game.start(args.start)
        return read_position(game, args.file)


def _json_source(game: Game[Any], position: Any) -> pb.PositionSource:
    """The PositionSource of a position as its JSON, which any game's server reads."""
    from service.api import fortress_solver_pb2 as pb

    return pb.PositionSource(json=json.dumps(game.to_json(position)))


def ask_server(client: Client, game: Game[Any], question: Question[Any, Any, Any],
               source: pb.PositionSource, options: Any, budget: Budget) -> dict[str, Any]:
    """The answer's JSON, the question asked of a server through QuestionOptions: by a
    Hint when it is the question a Hint asks by default (the game's hint, else its
    first question), else by a Solve, as typed requests are."""
    from service.api import fortress_solver_pb2 as pb
    from service.messages import budget_to_proto

    sent = budget_to_proto(budget)
    chosen = pb.QuestionOptions(question=question.name, options=json.dumps(
        {key: value.value if isinstance(value, enum.Enum) else value
         for key, value in dataclasses.asdict(options).items()}))
    response: pb.HintResponse | pb.SolveResponse = (
        client.hint(pb.HintRequest(position=source, budget=sent, question_options=chosen))
        if default_question(game, "hint") is question else
        client.solve(pb.SolveRequest(position=source, budget=sent, question_options=chosen)))
    answer: dict[str, Any] = json.loads(response.answer_json)
    return answer


def _print(printer: Printer | None, args: argparse.Namespace, answer: dict[str, Any],
           position: Any, options: Any) -> None:
    """The answer for a person by the game's printer, else (and with --json) its JSON."""
    if printer is None or args.json:
        print(json.dumps(answer, ensure_ascii=False))
    else:
        printer(answer, position, options, args)


def _option_fields(question: Question[Any, Any, Any]) -> list[tuple[dataclasses.Field[Any], Any]]:
    """Each option's field and its type."""
    hints = typing.get_type_hints(question.options)
    return [(field, hints[field.name]) for field in dataclasses.fields(question.options)]


def add_options(parser: argparse.ArgumentParser, question: Question[Any, Any, Any],
                only: tuple[str, ...] | None = None,
                defaults: Mapping[str, Any] | None = None) -> None:
    """A flag for each of the question's options (`options_from_args` reads them), or
    for those named in `only`; `defaults`: the command's own, as JSON, shown in the help."""
    for field, kind in _option_fields(question):
        if only is None or field.name in only:
            _add_option(parser, field, kind, (defaults or {}).get(field.name, field.default))


# an option's number flag: its own range is its options class's to check, in the words
# the service says it in; the flag's bound is the integer's or the float's of any option
_NUMBERS: dict[Any, Callable[[str], Any]] = {int: integer, float: real}


def _add_option(parser: argparse.ArgumentParser, field: dataclasses.Field[Any],
                kind: Any, default: Any) -> None:
    """A flag for one option: a number, a text, on/off, or one of its choices (an
    enum's values, or the field's `choices`), its help the field's `help` and default."""
    name = field.name
    about = field.metadata.get("help", f"the {name} option")
    if default is not dataclasses.MISSING:
        shown = default.value if isinstance(default, enum.Enum) else default
        about += f" (default: {shown})"
    flag = "--" + name.replace("_", "-")
    if kind is bool:
        parser.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction,
                            default=None, help=about)
    elif isinstance(kind, type) and issubclass(kind, enum.Enum):
        parser.add_argument(flag, dest=name, choices=[member.value for member in kind],
                            help=about)
    else:
        parser.add_argument(flag, dest=name, type=_NUMBERS.get(kind, str),
                            choices=field.metadata.get("choices"), help=about)


def options_from_args(question: Question[Any, Any, Any], args: argparse.Namespace,
                      defaults: Mapping[str, Any] | None = None) -> Any:
    """The question's options its flags (`add_options`) give, over `defaults` (the
    command's own, as JSON), each fault named."""
    given = {**(defaults or {}),
             **{field.name: getattr(args, field.name) for field, _ in _option_fields(question)
                if getattr(args, field.name, None) is not None}}
    return options_from_json(question, json.dumps(given) if given else "")


