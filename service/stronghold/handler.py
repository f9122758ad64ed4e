"""Stronghold's RPCs: Solve (clear or race) and Hint (the attacker's plan)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from service.api import fortress_solver_pb2 as pb
from service.messages import options_of
from service.stronghold.messages import (
    MODES,
    QUESTIONS,
    outcome_to_proto,
    plan_to_proto,
    position_from_proto,
    source,
)
from solver.errors import InvalidInput
from solver.games import Game
from solver.stronghold.answers import Outcome, Plan, Race
from solver.stronghold.game import CLEAR, PLAN, RACE, ClearOptions, PlanOptions
from solver.stronghold.position import Position
from solver.stronghold.search import MAX_TURNS

if TYPE_CHECKING:
    from prometheus_client.registry import Collector

    from service.calls import Calls
    from service.frontends import Settings


class Handler:
    sources = ("stronghold",)

    def __init__(self, game: Game[Position], settings: Settings) -> None:
        self.game = game

    def info(self) -> pb.GameInfo:
        return pb.GameInfo(name=self.game.name, modes=MODES)

    def source(self, position: Position) -> pb.PositionSource:
        return source(position)

    def position(self, source: pb.PositionSource) -> Position:
        return position_from_proto(source.stronghold)

    def solve(self, request: pb.SolveRequest, position: Position,
              calls: Calls) -> pb.SolveResponse:
        """The fewest turns to clear all nine, or the defender's race."""
        question, options = self._solve_options(request)
        if question == "race":
            race: Race = calls.ask(RACE, position, options, request.budget)
            return outcome_to_proto(race.outcome, race)
        outcome: Outcome = calls.ask(CLEAR, position, options, request.budget)
        return outcome_to_proto(outcome)

    def hint(self, request: pb.HintRequest, position: Position,
             calls: Calls) -> pb.HintResponse:
        """The best assignment of the attacker to move, after the hold step of its turn."""
        plan: Plan = calls.ask(PLAN, position, self._hint_options(request), request.budget)
        return plan_to_proto(plan)

    def collectors(self) -> Iterable[Collector]:
        return ()

    def _solve_options(self, request: pb.SolveRequest) -> tuple[str, ClearOptions]:
        """The question and its options: from `options`, or from the deprecated flat fields
        when no options are set."""
        asked: pb.SolveRequest | pb.StrongholdSolveOptions = options_of(
            request, "stronghold", self.game.name)
        question = asked.question or "clear"
        if question not in QUESTIONS:
            raise InvalidInput(f"question must be one of {', '.join(QUESTIONS)}, "
                               f"not {question!r}")
        return question, ClearOptions(asked.defender or "passive", asked.max_turns or MAX_TURNS,
                                      asked.method or "cpsat")

    def _hint_options(self, request: pb.HintRequest) -> PlanOptions:
        return PlanOptions(options_of(request, "stronghold", self.game.name).exact)

