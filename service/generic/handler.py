"""The RPCs every game has from its descriptor alone: positions through
`PositionSource.json`, the question and its options through `QuestionOptions`, the
answer sent back as its JSON beside its status and statistics.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from service.api import fortress_solver_pb2 as pb
from service.generic.commands import default_question, options_from_json
from service.messages import STATUS, stats_to_proto
from solver.errors import InvalidInput
from solver.games import Answer, Game
from solver.json_text import strict_dumps

if TYPE_CHECKING:
    from prometheus_client.registry import Collector

    from service.calls import Calls
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
        answer = self._ask(request, "solve", position, calls)
        return pb.SolveResponse(status=STATUS[answer.status], stats=stats_to_proto(answer.stats),
                                answer_json=strict_dumps(answer.to_json()))

    def hint(self, request: pb.HintRequest, position: Any, calls: Calls) -> pb.HintResponse:
        answer = self._ask(request, "hint", position, calls)
        return pb.HintResponse(status=STATUS[answer.status],
                               answer_json=strict_dumps(answer.to_json()))

    def collectors(self) -> Iterable[Collector]:
        return ()

    def _ask(self, request: pb.SolveRequest | pb.HintRequest, rpc: str, position: Any,
             calls: Calls) -> Answer:
        chosen = request.WhichOneof("options")
        if chosen not in (None, "question_options"):
            raise InvalidInput(f"options are for {chosen}, but the position is {self.game.name}")
        named = request.question_options.question
        question = self.game.question(named) if named else default_question(self.game, rpc)
        options = options_from_json(question, request.question_options.options)
        answer: Answer = calls.ask(question, position, options, request.budget)
        return answer
