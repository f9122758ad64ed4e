"""The commands every game has from its descriptor alone: one per question
(`fortress-solver GAME QUESTION FILE`), its options as flags made from the question's
options dataclass, the answer printed as its JSON; the same under `client`, sent to a
server through `PositionSource.json` and `QuestionOptions`.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import json
import typing
from functools import partial
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter, ValidationError

from service.arguments import add_budget, add_server, budget_of, read_position
from solver.errors import InvalidInput
from solver.games import Game, Question
from solver.reading import faults, json_of

if TYPE_CHECKING:
    from service.client import Client

_SECONDS = 10.0  # a command's default budget


def default_question(game: Game[Any], rpc: str) -> Question[Any, Any, Any]:
    """The question an RPC asks when the request names none: its namesake, else the
    game's first."""
    return next((q for q in game.questions if q.name == rpc), game.questions[0])


def options_from_json(question: Question[Any, Any, Any], text: str) -> Any:
    """A question's options from a JSON object (empty: its defaults), every fault named."""
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
    try:
        return TypeAdapter(question.options).validate_python(data)
    except ValidationError as error:
        raise InvalidInput([f"options.{fault}" for fault in faults(error)]) from None


class Commands:
    """`fortress-solver GAME QUESTION FILE` and `client GAME QUESTION FILE`."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def add_commands(self, commands: Any) -> None:
        self._add(commands, remote=False)

    def add_client_commands(self, commands: Any) -> None:
        self._add(commands, remote=True)

    def _add(self, commands: Any, remote: bool) -> None:
        game = self.game
        parser = commands.add_parser(game.name, aliases=list(game.aliases),
                                     help=game.summary, description=game.summary)
        questions = parser.add_subparsers(dest="question", required=True,
                                          parser_class=type(parser))
        for question in game.questions:
            asked = questions.add_parser(question.name, help=question.summary,
                                         description=question.summary)
            asked.add_argument("file", help="position JSON file, or - for standard input")
            add_budget(asked, seconds=_SECONDS)
            for field, kind in _option_fields(question):
                _add_option(asked, field, kind)
            if remote:
                add_server(asked)
                asked.set_defaults(run_remote=partial(self._ask_server, question))
            else:
                asked.set_defaults(run=partial(self._ask, question))

    def _ask(self, question: Question[Any, Any, Any], args: argparse.Namespace) -> None:
        position = read_position(self.game, args.file)
        answer = question.ask(position, _options_of(question, args), budget_of(args))
        print(json.dumps(answer.to_json(), ensure_ascii=False))

    def _ask_server(self, question: Question[Any, Any, Any], args: argparse.Namespace,
                    client: Client) -> None:
        from service.api import fortress_solver_pb2 as pb
        from service.messages import budget_to_proto

        position = read_position(self.game, args.file)
        options = dataclasses.asdict(_options_of(question, args))
        chosen = pb.QuestionOptions(question=question.name, options=json.dumps(
            {key: value.value if isinstance(value, enum.Enum) else value
             for key, value in options.items()}))
        request = pb.SolveRequest(
            position=pb.PositionSource(json=json.dumps(self.game.to_json(position))),
            question_options=chosen, budget=budget_to_proto(budget_of(args)))
        print(client.solve(request).answer_json)


def _option_fields(question: Question[Any, Any, Any]) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(question.options)
    return [(field.name, hints[field.name]) for field in dataclasses.fields(question.options)]


def _add_option(parser: argparse.ArgumentParser, name: str, kind: Any) -> None:
    """A flag for one option: a number, a text, on/off, or one of an enum's values."""
    flag = "--" + name.replace("_", "-")
    if kind is bool:
        parser.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction,
                            default=None, help=f"the {name} option")
    elif isinstance(kind, type) and issubclass(kind, enum.Enum):
        parser.add_argument(flag, dest=name, choices=[member.value for member in kind],
                            help=f"the {name} option")
    else:
        parser.add_argument(flag, dest=name, type=kind if kind in (int, float) else str,
                            help=f"the {name} option")


def _options_of(question: Question[Any, Any, Any], args: argparse.Namespace) -> Any:
    given = {name: getattr(args, name) for name, _ in _option_fields(question)
             if getattr(args, name) is not None}
    return options_from_json(question, json.dumps(given) if given else "")


