"""Each game's front ends, the one place in service/ that names games: its commands and
its RPC handler. The games themselves are the library's (`solver.games.games()`); a game
this file does not list, such as a plug-in's, gets the front ends every game has from
its descriptor (service/generic/): `fortress-solver GAME QUESTION FILE`, and the RPCs
through `PositionSource.json`. Adding a game to the registry is its folder under
solver/, its registry line and its line here, with its own commands and typed messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from solver.errors import InvalidInput
from solver.games import Game, Question, find_game, games, plug_ins
from solver.json_text import json_of

if TYPE_CHECKING:
    from prometheus_client.registry import Collector

    from service.api import fortress_solver_pb2 as pb
    from service.calls import Calls



@dataclass(frozen=True)
class Own:
    """A game's own front ends: the package whose `commands` and `handler` modules hold
    them, and the commands it adds at the top with their one-line help, by which the
    command line lists them, and finds the package of the one given, without importing
    any game (tests/service/test_cli_halfway.py checks them against its parsers)."""

    package: str
    commands: dict[str, str]
    # its pages of docs/ (the rules) that the HTTP face serves to the playground
    pages: tuple[str, ...] = ()
    # whether its package has a `routes` module whose ROUTES the HTTP face adds
    routes: bool = False


_PATIENCE = "Patience"  # the game of the commands at the top: Beleaguered Fortress's family
OWN = {
    "patience": Own("service.beleaguered", {
        "deal": f"{_PATIENCE}: the position of deal N",
        # a question's command's help is its summary (solver/beleaguered/game.py)
        "solve": f"{_PATIENCE}: the fewest moves that win, any win, or a proof there is none",
        "hint": f"{_PATIENCE}: the next move of an optimal solution, or of the best line "
                "found in the budget",
        "grade": f"{_PATIENCE}: every legal move: wins in N moves, loses, or unknown",
        "batch": f"{_PATIENCE}: a range of deals solved, as JSON lines",
        "census": f"{_PATIENCE}: the census of a range of deals",
        "generate": f"{_PATIENCE}: winnable deals of a band of optimal lengths",
        "deal-info": f"{_PATIENCE}: deal N's verdict, from the shipped census",
        "variants": f"{_PATIENCE}: the variants these commands play"},
        pages=("beleaguered-fortress.md", "castle-family.md", "freecell-family.md")),
    "fortress-fight-kingdom": Own("service.ffkingdom", {
        "ffk": "Fortress Fight Kingdom: puzzles, hints, self-play"},
        pages=("fortress-fight-kingdom.md",), routes=True),
    "farbduell": Own("service.farbduell", {
        "farbduell": "Farbduell: chains, puzzles, hints, self-play"},
        pages=("farbduell.md",)),
    "stronghold": Own("service.stronghold", {
        "stronghold": "Stronghold: plan, clear, race (CP-SAT)"},
        pages=("stronghold.md",)),
}


class Commands(Protocol):
    """A game's commands. Each parser it adds sets `run=function(args)` (local) or
    `run_remote=function(args, client)` (under `client`) as its defaults."""

    def add_commands(self, commands: Any) -> None: ...

    def add_client_commands(self, commands: Any) -> None: ...


@dataclass(frozen=True)
class Settings:
    """What a server offers its games' handlers: room for what a game keeps between calls."""

    # a game's cache of answers, such as hints along a solution: at most this many, in
    # at most this many MiB, and of those the part one client may hold
    cache_entries: int = 200_000
    cache_mib: int = 64
    cache_share: float = 1.0
    # files of the users' own rules (`serve --rules`), read by the game that plays them
    # as its handler starts: a fault in one stops the start, named in one line
    rules: tuple[Path, ...] = ()


class Handler(Protocol):
    """A game's RPCs on one server. The servicer reads the request's position once (a
    typed message through `position`, JSON through the game's reader) and hands the
    value over; what a game keeps between calls (a cache) lives in its handler."""

    @property
    def sources(self) -> tuple[str, ...]:
        """The PositionSource oneof fields that hold its positions (none: JSON only)."""
        ...

    def info(self) -> pb.GameInfo: ...

    def position(self, source: pb.PositionSource) -> Any:
        """The position a typed message holds (InvalidInput naming every fault)."""
        ...

    def source(self, position: Any) -> pb.PositionSource:
        """The message a client sends for one of its positions."""
        ...

    def solve(self, request: pb.SolveRequest, position: Any,
              calls: Calls) -> pb.SolveResponse: ...

    def hint(self, request: pb.HintRequest, position: Any,
             calls: Calls) -> pb.HintResponse: ...

    def answer(self, question: Question[Any, Any, Any], source: pb.PositionSource,
               position: Any, options: Any, budget: pb.Budget, calls: Calls) -> Any:
        """A question's answer, however it is asked (a typed request or QuestionOptions):
        the search's (`Calls.ask`), or one from what the handler keeps between calls or
        knows of the position's source (Beleaguered Fortress's hint cache, its census of
        numbered deals)."""
        ...

    def collectors(self) -> Iterable[Collector]:
        """Its own metrics, read at each scrape (none for most games)."""
        ...


@runtime_checkable
class Streams(Protocol):
    """The streaming RPCs, offered by a game's handler that numbers its deals."""

    def solve_batch(self, request: pb.SolveBatchRequest,
                    calls: Calls) -> Iterator[pb.BatchResult]: ...

    def generate_deals(self, request: pb.GenerateDealsRequest,
                       calls: Calls) -> Iterator[pb.GeneratedDeal]: ...


@runtime_checkable
class Deals(Protocol):
    """Deal, offered by a game's handler that reads more of the request than its seed
    (the variant of a game that has several)."""

    def deal(self, request: pb.DealRequest) -> Any: ...


@runtime_checkable
class SafeMoves(Protocol):
    """The moves a game's solver makes at once, offered by a handler whose game has them
    (the patience family's safe moves home): sent with every position a player sees."""

    def safe_moves(self, position: Any) -> tuple[str, ...]: ...


class HandlerFactory(Protocol):
    def __call__(self, game: Game[Any], settings: Settings) -> Handler: ...


@dataclass(frozen=True)
class FrontEnd:
    commands: Commands
    handler: HandlerFactory


@cache
def front_end(game: Game[Any]) -> FrontEnd:
    """The game's own front ends, else the generic ones."""
    own = OWN.get(game.name)
    if own is None:
        from service.generic.commands import Commands as GenericCommands
        return FrontEnd(GenericCommands(game), _generic_handler)
    return FrontEnd(own_commands(own), partial(_own_handler, own.package))


def own_commands(own: Own) -> Commands:
    """The commands of a game's own front ends (importing them imports its game)."""
    commands: Any = import_module(f"{own.package}.commands")
    return commands  # type: ignore[no-any-return]


def generic_games(every: bool) -> tuple[Game[Any], ...]:
    """The games that get the generic front ends: every game without its own (`every`,
    which loads every game), or the plug-ins' alone, enough to list the commands while
    every game of the registry has its own (a test checks that it has)."""
    return tuple(game for game in (games() if every else plug_ins()) if game.name not in OWN)


def words_of(game: Game[Any], question: str) -> str:
    """The command words that ask `game` its `question`: its own command's (`GAME
    QUESTION`), or the question's alone for a game whose front end adds its questions
    at the top."""
    own = OWN.get(game.name)
    if own is None:
        return f"{game.name} {question}"
    group = next((word for word in own.commands if word in (game.name, *game.aliases)), None)
    return question if group is None else f"{group} {question}"


def rules_pages() -> tuple[str, ...]:
    """The pages of docs/ that the games' rules are: all the HTTP face serves of docs/."""
    return tuple(page for own in OWN.values() for page in own.pages)


def http_routes() -> list[Any]:
    """The games' own routes on the HTTP face (starlette's Route values)."""
    found: list[Any] = []
    for own in OWN.values():
        if own.routes:
            found.extend(import_module(f"{own.package}.routes").ROUTES)
    return found


def _own_handler(package: str, game: Game[Any], settings: Settings) -> Handler:
    handler: Any = import_module(f"{package}.handler")  # grpc only when served
    made: Handler = handler.Handler(game, settings)
    return made


def _generic_handler(game: Game[Any], settings: Settings) -> Handler:
    from service.generic.handler import Handler as GenericHandler
    return GenericHandler(game, settings)


def search_modules() -> tuple[str, ...]:
    """What a search process imports as it starts, so that no call's deadline pays for
    an import (CP-SAT's takes half a second, a game's first question some 50 ms): the
    module of every question of every game, and what each game says its questions
    import when asked."""
    asked = (question.run.__module__ for game in games() for question in game.questions)
    late = (module for game in games() for module in game.imports)
    return tuple(dict.fromkeys((*asked, *late)))


def read_any(raw: bytes, source: str, game: Game[Any] | None = None) -> tuple[Game[Any], Any]:
    """A position of any game from bytes: `game`'s, else the game its "game" key names."""
    if game is not None:
        return game, game.read(raw, source)
    game, data = named_game(raw, source)
    return game, game.from_json(data)


def text_game() -> Game[Any] | None:
    """The game that reads a position file holding no JSON (the first game with
    `from_text`), or None."""
    return next((game for game in games() if game.from_text is not None), None)


def named_game(raw: bytes, source: str) -> tuple[Game[Any], Any]:
    """The game a position's "game" key names, and its JSON, not yet read by the game."""
    data = _any_json(raw, source)
    named = data.get("game") if isinstance(data, dict) else None
    if not isinstance(named, str):
        raise InvalidInput(f'{source} names no game: give it a "game" key '
                           f"({', '.join(game.name for game in games())})",
                           command_line=", or give --game")
    return find_game(named), data


def _any_json(raw: bytes, source: str) -> Any:
    """The JSON of a file of an unknown game: plain JSON, else any game's dialect."""
    try:
        return json_of(raw, source)
    except InvalidInput as plain:
        for game in games():
            try:
                return json_of(raw, source, game.loads)
            except InvalidInput:
                continue
        raise plain from None
