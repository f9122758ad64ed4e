"""Farbduell's RPCs: Solve (the puzzle, or the chain when one is asked for) and Hint."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from service.api import fortress_solver_pb2 as pb
from service.farbduell.messages import (
    MODES,
    chain_to_proto,
    hint_to_proto,
    position_from_proto,
    puzzle_to_proto,
    source,
)
from service.messages import options_of, worlds
from solver.errors import InvalidInput
from solver.farbduell.chains import Chain
from solver.farbduell.data import default_tables
from solver.farbduell.game import CHAIN, HINT, PUZZLE, ChainOptions, HintOptions, PuzzleOptions
from solver.farbduell.hints import Hint
from solver.farbduell.position import Position
from solver.farbduell.puzzles import PuzzleAnswer
from solver.farbduell.rules import new_game
from solver.games import Game

if TYPE_CHECKING:
    from prometheus_client.registry import Collector

    from service.calls import Calls
    from service.frontends import Settings


# the tables' names as the rules spell them (GameInfo.variants)
TABLE_TITLES = {"classic": "Classic", "belagerung": "Belagerung", "tag_nacht": "Tag & Nacht"}


class Handler:
    sources = ("farbduell",)

    def __init__(self, game: Game[Position], settings: Settings) -> None:
        self.game = game

    def info(self) -> pb.GameInfo:
        tables = [pb.VariantInfo(name=name, title=TABLE_TITLES.get(name, name))
                  for name in default_tables()]
        return pb.GameInfo(name=self.game.name, modes=MODES, variants=tables)

    def deal(self, request: pb.DealRequest) -> Position:
        """A new game on the table asked for (DealRequest.variant), of 2 to 6 seats."""
        tables = default_tables()
        table = request.variant or "classic"
        if table not in tables:
            raise InvalidInput(f"Farbduell has no table {table!r} ({', '.join(tables)})")
        return new_game(tables[table], request.players or 2, request.seed, first=0)

    def source(self, state: Position) -> pb.PositionSource:
        return source(state)

    def position(self, source: pb.PositionSource) -> Position:
        return position_from_proto(source.farbduell)

    def solve(self, request: pb.SolveRequest, state: Position, calls: Calls) -> pb.SolveResponse:
        options = self._solve_options(request)
        if isinstance(options, ChainOptions):
            found: Chain = calls.ask(CHAIN, state, options, request.budget)
            return chain_to_proto(found, state.to_move)
        answer: PuzzleAnswer = calls.ask(PUZZLE, state, options, request.budget)
        return puzzle_to_proto(answer)

    def hint(self, request: pb.HintRequest, state: Position, calls: Calls) -> pb.HintResponse:
        advice: Hint = calls.ask(HINT, state, self._hint_options(request), request.budget)
        return hint_to_proto(advice)

    def collectors(self) -> Iterable[Collector]:
        return ()

    def _solve_options(self, request: pb.SolveRequest) -> PuzzleOptions | ChainOptions:
        """The request's options message, or else its deprecated flat fields."""
        message = options_of(request, "farbduell", self.game.name)
        if message.chain:
            return ChainOptions(message.chain)
        return PuzzleOptions(message.turns or 1)


    def _hint_options(self, request: pb.HintRequest) -> HintOptions:
        message = options_of(request, "farbduell", self.game.name)
        return HintOptions(worlds(message.worlds, HintOptions().worlds), message.seed)
