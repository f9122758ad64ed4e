"""Fortress Fight Kingdom's RPCs: Solve (the puzzles) and Hint."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from service.api import fortress_solver_pb2 as pb
from service.ffkingdom.messages import (
    MODES,
    hint_to_proto,
    position_from_proto,
    position_source,
    puzzle_to_proto,
)
from service.messages import options_of, worlds
from solver.ffkingdom import Position
from solver.ffkingdom.game import GAME, HINT, PUZZLE, HintOptions, PuzzleOptions
from solver.ffkingdom.hints import Hint
from solver.ffkingdom.puzzles import PuzzleAnswer, check_complete
from solver.games import Game

if TYPE_CHECKING:
    from prometheus_client.registry import Collector

    from service.calls import Calls
    from service.frontends import Settings


class Handler:
    sources: tuple[str, ...] = ("ffkingdom",)

    def __init__(self, game: Game[Position], settings: Settings) -> None:
        self.game = game

    def info(self) -> pb.GameInfo:
        return pb.GameInfo(name=self.game.name, modes=MODES)

    def source(self, position: Position) -> pb.PositionSource:
        return position_source(position)

    def position(self, source: pb.PositionSource) -> Position:
        return position_from_proto(source.ffkingdom)

    def solve(self, request: pb.SolveRequest, position: Position,
              calls: Calls) -> pb.SolveResponse:
        options = solve_options(request)
        check_complete(position, options.turns)
        answer: PuzzleAnswer = calls.ask(PUZZLE, position, options, request.budget)
        return puzzle_to_proto(answer)

    def hint(self, request: pb.HintRequest, position: Position, calls: Calls) -> pb.HintResponse:
        answer: Hint = calls.ask(HINT, position, hint_options(request), request.budget)
        return hint_to_proto(answer)

    def collectors(self) -> Iterable[Collector]:
        return ()


def _options_of(request: pb.SolveRequest | pb.HintRequest) -> Any:
    """The request's FFK options, or the request itself for a client that sends the
    deprecated flat fields (their names are the same)."""
    return options_of(request, "ffkingdom", GAME.name)


def solve_options(request: pb.SolveRequest) -> PuzzleOptions:
    return PuzzleOptions(turns=_options_of(request).turns or 1)


def hint_options(request: pb.HintRequest) -> HintOptions:
    options = _options_of(request)
    return HintOptions(worlds=worlds(options.worlds, HintOptions().worlds), seed=options.seed)
