"""A game's typed messages as a view of its descriptor: the options message of a Solve or
a Hint read as its question's options, field by field by name, and the answer's JSON
written into the game's typed response (service/answer_messages.py). A game with typed
messages says how they map (its `View`, each question's `Reply`); its handler is `Typed`
with that view. A request that sets `QuestionOptions` is answered through the descriptor
alone (service/generic/handler.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
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
        deprecated flat fields): each option its field's value, a field at its zero
        (unset, in proto3) leaving the option's default."""
        fields = {each.name for each in message.DESCRIPTOR.fields}
        given = {}
        for option in dataclasses.fields(question.options):
            name = self.renamed.get(option.name, option.name)
            if name in fields and (value := getattr(message, name)):
                given[option.name] = value
        return question.options(**given)


class Typed:
    """A game's Solve and Hint through its typed messages, as its `view` maps them."""

    view: View

    def __init__(self, game: Game[Any], settings: Settings) -> None:
        self.game = game
        self.sources: tuple[str, ...] = (self.view.field,)

    def info(self) -> pb.GameInfo:
        return pb.GameInfo(name=self.game.name, modes=self.view.modes)

    def position(self, source: pb.PositionSource) -> Any:
        return self.view.read(getattr(source, self.view.field))

    def source(self, position: Any) -> pb.PositionSource:
        return self.view.write(position)

    def solve(self, request: pb.SolveRequest, position: Any,
              calls: Calls) -> pb.SolveResponse:
        message = options_of(request, self.view.field, self.game.name)
        return self._ask(pb.SolveResponse, self.view.solve(message), message, position,
                         request.budget, calls)

    def hint(self, request: pb.HintRequest, position: Any, calls: Calls) -> pb.HintResponse:
        message = options_of(request, self.view.field, self.game.name)
        return self._ask(pb.HintResponse, self.view.hint, message, position, request.budget,
                         calls)

    def collectors(self) -> Iterable[Collector]:
        return ()

    def _ask(self, kind: type[R], question: Question[Any, Any, Any], message: Any,
             position: Any, budget: pb.Budget, calls: Calls) -> R:
        answer = calls.ask(question, position, self.view.options(question, message), budget)
        return self.view.answers[question.name](kind, answer, position)
