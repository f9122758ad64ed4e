"""A game's typed messages as a view of its descriptor: the options message of a Solve or
a Hint read as its question's options, field by field by name, and the answer's JSON
written into the game's typed response (service/answer_messages.py). A game with typed
messages says how they map (its `View`, each question's `Reply`); its handler is `Typed`
with that view. A request that sets `QuestionOptions` is answered through the descriptor
alone (service/generic/handler.py).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from service.answer_messages import message_fields
from service.api import fortress_solver_pb2 as pb
from service.messages import STATUS, options_of, stats_to_proto
from solver.budget import Status
from solver.games import Answer, Game, Question

if TYPE_CHECKING:
    from prometheus_client.registry import Collector

    from service.calls import Calls
    from service.frontends import Settings


R = TypeVar("R", pb.SolveResponse, pb.HintResponse)

# what a SolveResponse sets only when SOLVED (its proto says so of each)
_WHEN_SOLVED = ("length", "goes_out", "points", "single_card_moves")


@dataclass(frozen=True)
class Reply:
    """How a question's answer fills its typed response: the answer's JSON written into
    the response's field `within` (empty: the response itself), a key `renamed` into the
    field it names; the status and the statistics from the answer; `then` adds what the
    JSON does not say, from the answer and the position."""

    within: str = ""
    renamed: Mapping[str, str] = dataclasses.field(default_factory=dict)
    then: Callable[[Any, Any, Any], None] | None = None  # (response, answer, position)

    def __call__(self, kind: type[R], answer: Answer, position: Any) -> R:
        top: Any = kind.DESCRIPTOR
        target = top.fields_by_name[self.within].message_type if self.within else top
        fields = message_fields(target, answer.to_json(), self.renamed)
        stats = stats_to_proto(answer.stats)
        if "stats" in target.fields_by_name:
            fields["stats"] = stats
        made: dict[str, Any] = {self.within: fields} if self.within else fields
        if "stats" in top.fields_by_name and "stats" not in made:
            made["stats"] = stats
        response = kind(**made | {"status": STATUS[answer.status]})
        if answer.status is not Status.SOLVED:
            for name in _WHEN_SOLVED:
                if name in top.fields_by_name:
                    response.ClearField(name)
        if self.then is not None:
            self.then(response, answer, position)
        return response


@dataclass(frozen=True)
class View:
    """How a game's typed messages map onto its questions."""

    field: str  # its field in PositionSource and in the requests' `options` oneof
    modes: tuple[str, ...]  # what GameInfo.modes lists
    read: Callable[[Any], Any]  # its position message -> the position
    write: Callable[[Any], pb.PositionSource]  # the position -> the message a client sends
    solve: Callable[[Any], Question[Any, Any, Any]]  # the question a Solve's options ask
    hint: Question[Any, Any, Any]  # the question a Hint asks
    answers: Mapping[str, Reply]  # by question
    # an option whose typed field has another name: option -> field
    renamed: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def options(self, question: Question[Any, Any, Any], message: Any) -> Any:
        """The question's options from a typed options message (or a request's
        deprecated flat fields): each option its field's value, an enum's value by its
        name (`MODE_ANY`: "any"), a field at its zero (unset, in proto3) or an enum's
        number that names no value leaving the option's default."""
        fields = message.DESCRIPTOR.fields_by_name
        given = {}
        for option in dataclasses.fields(question.options):
            field = fields.get(self.renamed.get(option.name, option.name))
            if field is None or not (value := getattr(message, field.name)):
                continue
            if field.enum_type is None:
                given[option.name] = value
            elif value in field.enum_type.values_by_number:  # another number: the default
                given[option.name] = _types(question)[option.name](_named(field.enum_type,
                                                                          value))
        return question.options(**given)


@cache
def _types(question: Question[Any, Any, Any]) -> dict[str, Any]:
    """The types of the question's options."""
    return typing.get_type_hints(question.options)


def _named(enum: Any, number: int) -> str:
    """An enum value's name after the enum's prefix, lower case: `MODE_ANY` is "any"."""
    prefix = enum.values_by_number[0].name.removesuffix("UNSPECIFIED")
    return str(enum.values_by_number[number].name.removeprefix(prefix).lower())


class Typed:
    """A game's Solve and Hint through its typed messages, as its `view` maps them."""

    view: View

    def __init__(self, game: Game[Any], settings: Settings) -> None:
        self.game = game

    @property
    def sources(self) -> tuple[str, ...]:
        return (self.view.field,)

    def info(self) -> pb.GameInfo:
        return pb.GameInfo(name=self.game.name, modes=self.view.modes)

    def position(self, source: pb.PositionSource) -> Any:
        return self.view.read(getattr(source, self.view.field))

    def source(self, position: Any) -> pb.PositionSource:
        return self.view.write(position)

    def solve(self, request: pb.SolveRequest, position: Any,
              calls: Calls) -> pb.SolveResponse:
        message = options_of(request, self.view.field, self.game.name)
        return self._ask(pb.SolveResponse, self.view.solve(message), message, request,
                         position, calls)

    def hint(self, request: pb.HintRequest, position: Any, calls: Calls) -> pb.HintResponse:
        message = options_of(request, self.view.field, self.game.name)
        return self._ask(pb.HintResponse, self.view.hint, message, request, position, calls)

    def answer(self, question: Question[Any, Any, Any], source: pb.PositionSource,
               position: Any, options: Any, budget: pb.Budget, calls: Calls) -> Any:
        """A question's answer, asked through the typed messages or QuestionOptions alike
        (service/frontends.py `Handler.answer`): the search's. A handler that keeps
        answers between calls answers from them instead."""
        return calls.ask(question, position, options, budget)

    def collectors(self) -> Iterable[Collector]:
        return ()

    def _ask(self, kind: type[R], question: Question[Any, Any, Any], message: Any,
             request: pb.SolveRequest | pb.HintRequest, position: Any, calls: Calls) -> R:
        options = self.view.options(question, message)
        answer = self.answer(question, request.position, position, options, request.budget,
                             calls)
        return self.view.answers[question.name](kind, answer, position)
