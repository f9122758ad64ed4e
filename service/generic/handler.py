"""Every game's questions from its descriptor alone: positions through
`PositionSource.json` (or the game's typed message), the question and its options
through `QuestionOptions`, the answer sent back as its JSON beside its status and
statistics. The servicer answers a request that sets `question_options` here, whatever
the game; a game without typed messages of its own is served here whole.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter

from service.api import fortress_solver_pb2 as pb
from service.generic.commands import default_question, options_from_json
from service.messages import STATUS, stats_to_proto
from solver.errors import InvalidInput
from solver.games import Answer, Game, Question
from solver.json_text import strict_dumps

if TYPE_CHECKING:
    from prometheus_client.registry import Collector

    from service.calls import Calls
    from service.frontends import Handler as FrontHandler
    from service.frontends import Settings


class Handler:
    """A game's RPCs from its descriptor: positions as JSON, answers as JSON."""

    sources: tuple[str, ...] = ()

    def __init__(self, game: Game[Any], settings: Settings) -> None:
        self.game = game

    def info(self) -> pb.GameInfo:
        return pb.GameInfo(name=self.game.name, modes=[q.name for q in self.game.questions])

    def position(self, source: pb.PositionSource) -> Any:
        raise InvalidInput(f"{self.game.name} positions are sent as json")

    def source(self, position: Any) -> pb.PositionSource:
        return pb.PositionSource(json=strict_dumps(self.game.to_json(position)))

    def solve(self, request: pb.SolveRequest, position: Any, calls: Calls) -> pb.SolveResponse:
        return described_solve(self.game, request, position, calls, self)

    def hint(self, request: pb.HintRequest, position: Any, calls: Calls) -> pb.HintResponse:
        return described_hint(self.game, request, position, calls, self)

    def answer(self, question: Question[Any, Any, Any], source: pb.PositionSource,
               position: Any, options: Any, budget: pb.Budget, calls: Calls) -> Any:
        return calls.ask(question, position, options, budget)

    def collectors(self) -> Iterable[Collector]:
        return ()


def described(request: pb.SolveRequest | pb.HintRequest) -> bool:
    """Whether the request asks its question through `QuestionOptions`."""
    return bool(request.WhichOneof("options") == "question_options")


def described_solve(game: Game[Any], request: pb.SolveRequest, position: Any,
                    calls: Calls, handler: FrontHandler) -> pb.SolveResponse:
    """The Solve of a request that sets QuestionOptions, answered by the game's
    `handler` (its `answer`)."""
    answer = _ask(game, request, "solve", position, calls, handler)
    return pb.SolveResponse(status=STATUS[answer.status], stats=stats_to_proto(answer.stats),
                            answer_json=strict_dumps(answer.to_json()))


def described_hint(game: Game[Any], request: pb.HintRequest, position: Any,
                   calls: Calls, handler: FrontHandler) -> pb.HintResponse:
    """As `described_solve`, for a Hint."""
    answer = _ask(game, request, "hint", position, calls, handler)
    return pb.HintResponse(status=STATUS[answer.status],
                           answer_json=strict_dumps(answer.to_json()))


def questions(game: Game[Any]) -> list[pb.QuestionInfo]:
    """What GameInfo.questions says of a game: each question and its options' schema."""
    return [pb.QuestionInfo(name=question.name, summary=question.summary,
                            options_schema=_options_schema(question))
            for question in game.questions]


@cache
def _options_schema(question: Question[Any, Any, Any]) -> str:
    """The options' JSON Schema, with what an options field's metadata says of it: its
    `help` as its description, its `choices` as its enum, its `minimum` and `maximum`;
    as options_from_json reads them, each of its type alone and no other key."""
    schema = {**TypeAdapter(question.options).json_schema(), "additionalProperties": False}
    for field in dataclasses.fields(question.options):
        choices = field.metadata.get("choices")
        said = {"description": field.metadata.get("help"),
                "enum": None if choices is None else list(choices),
                "minimum": field.metadata.get("minimum"),
                "maximum": field.metadata.get("maximum")}
        schema["properties"][field.name].update(
            {key: value for key, value in said.items() if value is not None})
    return json.dumps(schema, sort_keys=True)


def _ask(game: Game[Any], request: pb.SolveRequest | pb.HintRequest, rpc: str, position: Any,
         calls: Calls, handler: FrontHandler) -> Answer:
    chosen = request.WhichOneof("options")
    if chosen not in (None, "question_options"):
        raise InvalidInput(f"options are for {chosen}, but the position is {game.name}")
    named = request.question_options.question
    question = game.question(named) if named else default_question(game, rpc)
    options = options_from_json(question, request.question_options.options)
    answer: Answer = handler.answer(question, request.position, position, options,
                                    request.budget, calls)
    return answer
