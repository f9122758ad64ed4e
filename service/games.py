"""The list of games the service and the command line offer: the one place that names them.

Each entry pairs a game's descriptor (`solver/<game>/`) with its two front ends: its
commands (`service/<game>_cli.py`) and its wire converter (`service/convert/<game>.py`).
The servicer, the worker pool, the client and the command line iterate `GAMES`; adding
a game is its folder, one entry here, its proto messages and its converter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from service import beleaguered_cli, farbduell_cli, ffk_cli, stronghold_cli
from service.convert import beleaguered, farbduell, ffkingdom, stronghold
from solver.beleaguered.game import GAME as BELEAGUERED
from solver.budget import Budget
from solver.errors import InvalidInput
from solver.farbduell.game import GAME as FARBDUELL
from solver.ffkingdom.game import GAME as FFKINGDOM
from solver.games import Game, Question, find_game
from solver.reading import json_of
from solver.stronghold.game import GAME as STRONGHOLD

if TYPE_CHECKING:
    from service.api import fortress_solver_pb2 as pb
    from service.hint_cache import HintCache


T = TypeVar("T")


class Commands(Protocol):
    """A game's commands. Each parser it adds sets `run=function(args)` (local) or
    `run_remote=function(args, client)` (under `client`) as its defaults."""

    def add_commands(self, commands: Any) -> None: ...

    def add_client_commands(self, commands: Any) -> None: ...


class Calls(Protocol):
    """What the servicer lends a converter for one call: the worker pool under the call's
    budget and deadline, the hint cache, and many jobs at once for the streams (at most
    `max_batch` items a stream)."""

    cache: HintCache
    limits: Budget
    max_batch: int

    def ask(self, question: Question[Any, Any, Any], position: Any, options: Any,
            budget: pb.Budget) -> Any:
        """The question's answer from a worker, within the request's budget."""
        ...

    def ask_many(self, jobs: Iterator[tuple[T, Question[Any, Any, Any], Any, Any]],
                 budget: Budget, enough: Callable[[], bool] = ...
                 ) -> Iterator[tuple[T, Any]]:
        """(tag, answer) for each (tag, question, position, options), on every worker at
        once, as each finishes; no more are started once `enough()`."""
        ...


class Wire(Protocol):
    """A game's gRPC side: its PositionSource fields and how it answers each RPC."""

    @property
    def sources(self) -> tuple[str, ...]:
        """The PositionSource oneof fields that hold its positions."""
        ...

    def info(self) -> pb.GameInfo: ...

    def source(self, position: Any) -> pb.PositionSource:
        """The message a client sends for one of its positions."""
        ...

    def position(self, source: pb.PositionSource) -> Any:
        """The position a message holds (InvalidInput naming every fault)."""
        ...

    def solve(self, request: pb.SolveRequest, calls: Calls) -> pb.SolveResponse: ...

    def hint(self, request: pb.HintRequest, calls: Calls) -> pb.HintResponse: ...


class Streams(Protocol):
    """The streaming RPCs, offered by the game that numbers its deals."""

    def solve_batch(self, request: pb.SolveBatchRequest,
                    calls: Calls) -> Iterator[pb.BatchResult]: ...

    def generate_deals(self, request: pb.GenerateDealsRequest,
                       calls: Calls) -> Iterator[pb.GeneratedDeal]: ...


@dataclass(frozen=True)
class Entry:
    game: Game[Any]
    commands: Commands
    wire: Wire | None = None       # None: a game the command line offers, not the server
    streams: Streams | None = None


GAMES: list[Entry] = [
    Entry(BELEAGUERED, beleaguered_cli, beleaguered.WIRE, beleaguered.STREAMS),
    Entry(FFKINGDOM, ffk_cli, ffkingdom.WIRE),
    Entry(FARBDUELL, farbduell_cli, farbduell.WIRE),
    Entry(STRONGHOLD, stronghold_cli, stronghold.WIRE),
]


def register(entry: Entry) -> None:
    """Offer one more game (a test's, or a plug-in's) after the built-in ones."""
    GAMES.append(entry)


# What questions import only when asked, so that the command line starts quickly.
_ASKED_LATE = ("solver.cpsat", "solver.stronghold.plan", "solver.stronghold.clear_driver")


def search_modules() -> tuple[str, ...]:
    """What a search process imports as it starts, so that no call's deadline pays for
    an import (CP-SAT's takes half a second, a game's first question some 50 ms): the
    module of every question of every game, and what they import when asked."""
    asked = (question.run.__module__ for entry in GAMES for question in entry.game.questions)
    return tuple(dict.fromkeys((*asked, *_ASKED_LATE)))


def read_any(raw: bytes, source: str, game: Game[Any] | None = None) -> tuple[Game[Any], Any]:
    """A position of any game from bytes: `game`'s, else the game its "game" key names."""
    if game is not None:
        return game, game.read(raw, source)
    data = _any_json(raw, source)
    named = data.get("game") if isinstance(data, dict) else None
    if not isinstance(named, str):
        raise InvalidInput(f'{source} names no game: give it a "game" key or --game '
                           f"({', '.join(entry.game.name for entry in GAMES)})")
    game = find(named).game
    return game, game.from_json(data)


def _any_json(raw: bytes, source: str) -> Any:
    """The JSON of a file of an unknown game: plain JSON, else any game's dialect."""
    try:
        return json_of(raw, source)
    except InvalidInput as plain:
        for entry in GAMES:
            try:
                return json_of(raw, source, entry.game.loads)
            except InvalidInput:
                continue
        raise plain from None


def find(name: str) -> Entry:
    """The entry of the game called `name` or one of its aliases."""
    game = find_game(name, (entry.game for entry in GAMES))
    return next(entry for entry in GAMES if entry.game is game)
