"""The seam every game plugs in through: one `Game` descriptor per `solver/<game>/`.

A descriptor says what the game is called, how its positions are read (bytes or JSON,
through its wire schema) and written, and the questions it answers: each with its
options (a frozen dataclass), its answer type and the function that answers it under a
Budget. The service and the command line iterate descriptors; they name no game.
A question pickles (by value, its types and its function by reference, which is why they
are module-level), so a job can be sent to a worker process.

The list of games is `REGISTRY` below, one line a game, as python-chess lists its
variants; a package of its own adds a game through the `fortress_solver.games` entry
point group instead (`games()` reads both, `find_game` looks a name up in them).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar, runtime_checkable

from solver.budget import Budget, SearchStats, Status
from solver.errors import InvalidInput
from solver.json_text import is_json_text, json_of, text_of
from solver.memory import let_go, resident_bytes
from solver.operator_files import read_text

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint


@runtime_checkable
class Answer(Protocol):
    """What every question returns: an honest status, what the search spent, and JSON."""

    @property
    def status(self) -> Status: ...

    @property
    def stats(self) -> SearchStats: ...

    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    def unknown(cls, seconds: float) -> Self:
        """The answer when nothing was searched: the time ran out before a worker was free."""
        ...


P = TypeVar("P")
O = TypeVar("O")  # noqa: E741 - the options of a question
A = TypeVar("A", bound=Answer)

MAX_REPLIES = 1000  # bots' moves in one reply: more than any game's turn (a loop guard)


@dataclass(frozen=True)
class Question(Generic[P, O, A]):
    """One thing a game can be asked about a position."""

    name: str                            # "solve", "hint", "chain", "plan", ...
    summary: str                         # one line, for help texts
    options: type[O]                     # a frozen dataclass; its defaults are the defaults
    answer: type[A]
    run: Callable[[P, O, Budget], A]     # a module-level function, so it pickles
    # refuses what the question cannot answer (a finished game, a position it needs
    # whole) with InvalidInput, on the server before a search is queued; None: nothing
    check: Callable[[P, O], None] | None = None
    seconds: float = 10.0  # a command's time budget when none is given
    # a question a player waits on: asked of a server with no time budget, it has
    # `seconds` too (else the server's limit)
    quick: bool = False
    seconds_help: str = ""  # what a larger budget buys, for --seconds's help

    def ask(self, position: P, options: O | None, budget: Budget) -> A:
        """The answer, once `check` has let the question be asked of the position. Its
        searches, however many, share the one memory, counted from its start: what one
        leaves in the process counts against the next, where each counted from its own
        start would have the budget whole again; and once they are done, what they left
        is let go."""
        chosen = self.options() if options is None else options
        self.refuse(position, chosen)
        since = resident_bytes() if budget.memory_from is None else budget.memory_from
        try:
            return self.run(position, chosen, replace(budget, memory_from=since))
        finally:
            let_go(since)

    def refuse(self, position: P, options: O) -> None:
        """InvalidInput when the question cannot be asked of this position."""
        if self.check is not None:
            self.check(position, options)


@dataclass(frozen=True)
class Game(Generic[P]):
    """A game: its names, its positions' reading and writing, and its questions."""

    name: str                                   # the "game" key of its positions
    aliases: tuple[str, ...]                    # other names a person may type
    summary: str
    from_json: Callable[[Any], P]               # InvalidInput naming every fault
    to_json: Callable[[P], dict[str, Any]]
    schema: Callable[[], dict[str, Any]]        # the JSON Schema of its positions
    questions: tuple[Question[P, Any, Any], ...] = ()
    loads: Callable[[str], Any] = field(default=json.loads)  # its files' JSON dialect
    # a position from text other tools write, for a file that holds no JSON (InvalidInput
    # naming the fault), and that text in a few words, for a file's help
    from_text: Callable[[str], P] | None = None
    text_name: str = ""
    draw: Callable[[P], str] | None = None      # the position for a person to read
    deal: Callable[[int], P] | None = None      # deal N, for a game that numbers its deals
    play: Callable[[P, str], P] | None = None   # the position after a move in its notation
    moves: Callable[[P], tuple[str, ...]] | None = None  # the legal moves, in that notation
    winner: Callable[[P], int | None] | None = None  # the seat that has won (0 alone), or None
    win_reason: Callable[[P], str | None] | None = None  # why the winner won, for a person
    start: Callable[[int], P] | None = None     # a new game from a seed, played against bots
    to_move: Callable[[P], int] | None = None   # the seat to move, for a game of several
    bot: Callable[[P], str] | None = None       # the greedy bot's move for the seat to move
    imports: tuple[str, ...] = ()  # modules its questions import only when asked, for a
    #                                search process to import as it starts

    @property
    def title(self) -> str:
        """The game's name as people write it: its summary up to the colon."""
        return self.summary.partition(":")[0]

    def read(self, raw: bytes, source: str = "input") -> P:
        """A position from bytes (a file, standard input, a request): its JSON, or the
        other text the game reads (`from_text`) when they open as no JSON does."""
        if self.from_text is not None and not is_json_text(raw):
            return self.from_text(text_of(raw, source))
        return self.from_json(json_of(raw, source, self.loads))

    def picture(self, position: P) -> str:
        """The position drawn for a person (its JSON when the game draws none)."""
        if self.draw is None:
            return json.dumps(self.to_json(position), indent=2, ensure_ascii=False)
        return self.draw(position)

    def replies(self, position: P, seat: int) -> tuple[P, tuple[tuple[int, str], ...]]:
        """The bots' moves for the other seats until `seat` is to move again or the game
        is over, each with the seat that made it: what a person playing `seat` against
        the bots sees happen."""
        if self.play is None or self.bot is None or self.to_move is None:
            raise InvalidInput(f"{self.name} has no bots to reply")
        played: list[tuple[int, str]] = []
        while (self.to_move(position) != seat and len(played) < MAX_REPLIES
               and (self.winner is None or self.winner(position) is None)):
            mover, move = self.to_move(position), self.bot(position)
            position = self.play(position, move)
            played.append((mover, move))
        return position, tuple(played)

    def question(self, name: str) -> Question[P, Any, Any]:
        for question in self.questions:
            if question.name == name:
                return question
        raise InvalidInput(f"{self.name} answers {', '.join(q.name for q in self.questions)}, "
                           f"not {name!r}")


# The games, one line each: where its descriptor is, as an entry point names an object.
REGISTRY = (
    "solver.beleaguered.game:GAME",
    "solver.ffkingdom.game:GAME",
    "solver.farbduell.game:GAME",
    "solver.stronghold.game:GAME",
)
PLUG_INS = "fortress_solver.games"  # the entry point group of games in other packages


@cache
def games() -> tuple[Game[Any], ...]:
    """Every game: the registry's in its order, then the installed plug-ins'. Loaded on
    first use, so that importing this module imports no game."""
    return (*map(_built_in, REGISTRY), *plug_ins())


@cache
def plug_ins() -> tuple[Game[Any], ...]:
    """The installed plug-ins' games, by their packages' names, then their entry points'.
    An entry point that fails to load, names no Game, or names a game whose name a game
    before it has (the registry's first) is skipped with one line of warning, once a
    process: one bad package must not take every command down."""
    if not _declared():
        return ()
    from importlib.metadata import entry_points

    taken = {game.name: "the registry" for game in map(_built_in, REGISTRY)}
    found: list[Game[Any]] = []
    for point in sorted(entry_points(group=PLUG_INS), key=_order):
        try:
            game = _checked(point.load(), point.value)
        except Exception as error:  # whatever importing another package's module raises
            _skip(point, f"{type(error).__name__}: {error}")
            continue
        if game.name in taken:
            _skip(point, f"{taken[game.name]} has a game called {game.name!r} already")
            continue
        taken[game.name] = f"entry point {point.name} of {_package(point)}"
        found.append(game)
    return tuple(found)


def _order(point: EntryPoint) -> tuple[str, str]:
    """Plug-ins load in the order of their packages' names, then their entry points'."""
    name = point.dist.metadata["Name"] if point.dist is not None else None
    return (name or "").lower(), point.name


def _package(point: EntryPoint) -> str:
    """The package that declares an entry point, as a warning names it."""
    metadata = point.dist.metadata if point.dist is not None else None
    if metadata is None or not metadata["Name"]:
        return "a package with no name"
    return f"package {metadata['Name']} {metadata['Version'] or ''}".rstrip()


def _skip(point: EntryPoint, reason: str) -> None:
    """The warning of a skipped entry point, on one line whatever its error says."""
    logging.getLogger("fortress_solver.games").warning(
        " ".join(f"fortress-solver: skipped plug-in game {point.name!r} (entry point "
                 f"{point.name} = {point.value} of {_package(point)}): {reason}".split()))


def _declared() -> bool:
    """Whether an installed distribution may declare a plug-in: a look for the group's
    name in the entry point files on the path, where importlib.metadata would first read
    every distribution's metadata (some 40 ms, most of `fortress-solver --help`)."""
    header = f"[{PLUG_INS}]"
    for folder in map(Path, sys.path):
        for found in (*folder.glob("*.dist-info/entry_points.txt"),
                      *folder.glob("*.egg-info/entry_points.txt")):
            try:  # another package's file: bounded like an operator's (a FIFO, say)
                if header in read_text(found, 1 << 20, "entry points"):
                    return True
            except InvalidInput:
                continue
    return False


@cache
def _built_in(value: str) -> Game[Any]:
    """The game of a registry line, imported when first asked for."""
    module, _, name = value.partition(":")
    return _checked(getattr(import_module(module), name), value)


def _checked(game: Any, value: str) -> Game[Any]:
    if not isinstance(game, Game):
        raise TypeError(f"{value} is not a solver.games.Game")
    return game


def each_game() -> Iterator[Game[Any]]:
    """The games in the order of games(), each loaded only when reached: a look-up that
    finds a game of the registry loads none after it."""
    yield from map(_built_in, REGISTRY)
    yield from plug_ins()


def find_game(name: str, among: Iterable[Game[Any]] | None = None) -> Game[Any]:
    """The game called `name` (or one of its aliases), case-insensitively, among every
    game or those given."""
    wanted = name.strip().lower()
    given = None if among is None else tuple(among)
    for game in each_game() if given is None else given:
        if wanted == game.name or wanted in game.aliases:
            return game
    listed = games() if given is None else given
    raise InvalidInput(f"no game is called {name!r} "
                       f"(games: {', '.join(game.name for game in listed)})")
