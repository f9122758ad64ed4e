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

from service.answer_messages import enum_text, message_fields
from service.api import fortress_solver_pb2 as pb
from service.messages import STATUS, options_of, stats_to_proto
from solver.budget import Status
from solver.errors import InvalidInput
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
        target, stats_within, stats_at_top, when_solved = _shape(kind.DESCRIPTOR, self.within)
        data = answer.to_json()
        data.pop("stats", None)  # written from the answer's own, its seconds not rounded
        fields = message_fields(target, data, self.renamed)
        if stats_within:
            fields["stats"] = stats_to_proto(answer.stats)
        made: dict[str, Any] = {self.within: fields} if self.within else fields
        if stats_at_top:
            made["stats"] = stats_to_proto(answer.stats)
        made["status"] = STATUS[answer.status]
        response = kind(**made)
        if answer.status is not Status.SOLVED:
            for name in when_solved:
                response.ClearField(name)
        if self.then is not None:
            self.then(response, answer, position)
        return response


@cache
def _shape(top: Any, within: str) -> tuple[Any, bool, bool, tuple[str, ...]]:
    """Of a response's descriptor: the message its answer fills (the response, or its
    field `within`), whether the statistics go into that message or beside it into the
    response, and the response's fields set only when SOLVED."""
    target = top.fields_by_name[within].message_type if within else top
    stats_within = "stats" in target.fields_by_name
    return (target, stats_within, not stats_within and "stats" in top.fields_by_name,
            tuple(name for name in _WHEN_SOLVED if name in top.fields_by_name))


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
        name (`MODE_ANY`: "any"), a field at its zero (unset, in proto3) leaving the
        option's default. An enum's number that names no value is refused: proto3 keeps
        it, over gRPC and in JSON alike, and it is the client's mistake, not a default."""
        given = {}
        for option, name, enum, kind in _readings(question, message.DESCRIPTOR,
                                                  tuple(self.renamed.items())):
            value = getattr(message, name)
            if not value:
                continue
            if enum is None:
                given[option] = value
            elif value in enum.values_by_number:
                given[option] = kind(enum_text(enum, value))
            else:
                known = ", ".join(f"{number} ({enum.values_by_number[number].name})"
                                  for number in sorted({each.number for each in enum.values}))
                raise InvalidInput(f"{message.DESCRIPTOR.name}.{name}: {value} is no "
                                   f"{enum.name}: send one of {known}")
        return question.options(**given)


@cache
def _readings(question: Question[Any, Any, Any], descriptor: Any,
              renamed: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str, Any, Any], ...]:
    """Each option a message of `descriptor` has a field for: the option's name, the
    field's, the field's enum (None: not one) and the option's type."""
    names, types = dict(renamed), typing.get_type_hints(question.options)
    return tuple((option.name, field.name, field.enum_type, types[option.name])
                 for option in dataclasses.fields(question.options)
                 if (field := descriptor.fields_by_name.get(names.get(option.name, option.name)))
                 is not None)


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
