"""Freecell Solver (`fc-solve`, Debian package freecell-solver-bin) as a yardstick for the
down-building variants: our position as its board text, one run of it under a timeout,
and its verdict and solution length in single-card moves.

fc-solve plays a sequence of k cards as one move where its rules allow (a "supermove"
through empty piles and free cells), while our lengths count single cards; so its
solution is played through our rules, each sequence move expanded into the single-card
moves of the standard recursive supermove: the length is then a count of legal moves,
and a solution that broke our rules or did not win would raise. Forcing atomic moves
instead (`-to 01ABCDE`) would make each printed move one card, but it changes the
search so much (solutions of thousands of moves, other deals timing out) that it would
no longer be fc-solve's figure.

The board goes in as fc-solve's `-p -t` text (columns bottom to top, `T` for ten), so
that what it is given is our deal, not one it makes itself; `pysol_layout` gives the
same deal from the pysol-cards package (the dealer PySolFC and fc-solve's own board
generator use), to check that both are the same cards.
"""

from __future__ import annotations

import importlib
import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from solver.beleaguered.position import Position
from solver.beleaguered.rules import CELL, FOUNDATION, TABLEAU, Location, Move, apply
from solver.budget import Status
from solver.cards import Rank
from solver.errors import IllegalMove

EXECUTABLE = "fc-solve"
# Our variant name -> fc-solve's preset (`--game`), which is also pysol-cards' game id.
GAMES = {"beleaguered-castle": "beleaguered_castle",
         "streets-and-alleys": "streets_and_alleys",
         "citadel": "citadel"}
# fc-solve writes foundations in the order H C D S; ours are C D H S.
FOUNDATION_SUITS = (("H", 2), ("C", 0), ("D", 1), ("S", 3))
PYSOL_CARDS_LAST_LCG_DEAL = 31999  # pysol-cards deals 32000 on by the LCG, PySolFC does not


def rank_text(rank: int) -> str:
    return "0" if rank == 0 else str(Rank(rank))


def board_text(position: Position) -> str:
    """fc-solve's board text of `position`. It has no open reserve (cards playable but
    not fillable), so a position with reserve cards is refused."""
    if any(card is not None for card in position.reserve):
        raise ValueError("fc-solve has no open reserve: only reserve-free positions convert")
    lines = ["Foundations: " + " ".join(f"{suit}-{rank_text(position.foundations[k])}"
                                        for suit, k in FOUNDATION_SUITS)]
    if position.cells:
        lines.append("Freecells: " + " ".join("-" if card is None else str(card)
                                              for card in position.cells))
    lines += [(": " + " ".join(str(card) for card in pile)).rstrip() for pile in position.tableau]
    return "\n".join(lines) + "\n"


def command(game: str, piles: int, cells: int, executable: str = EXECUTABLE,
            atomic: bool = False) -> list[str]:
    """fc-solve's preset for the game, with its own search settings; the pile and cell
    counts said again (the board names only what it holds); -m prints the moves alone
    (`single_card_moves` replays them, so the states of -sam are not needed); -sel says
    "Iterations count exceeded." where a limit, not the search space, ran out.
    `atomic`: single-card moves only (`-to 01ABCDE`), the move set its docs give for a
    board it wrongly calls unsolvable."""
    return [executable, "--game", game, "--stacks-num", str(piles),
            "--freecells-num", str(cells), *(["-to", "01ABCDE"] if atomic else []),
            "-m", "-sel", "-"]


@dataclass(frozen=True)
class Run:
    status: Status       # SOLVED, UNSOLVABLE (its move set exhausted), UNKNOWN
    moves: tuple[Move, ...] | None  # its solution in single-card moves, when SOLVED
    seconds: float            # wall clock, process start included; the timeout when killed
    timed_out: bool


def run(position: Position, game: str, timeout: float, executable: str = EXECUTABLE,
        atomic: bool = False) -> Run:
    """One fc-solve run on `position`, killed (its whole process group) at `timeout`."""
    text = board_text(position)
    started = time.perf_counter()
    process = subprocess.Popen(
        command(game, len(position.tableau), len(position.cells), executable, atomic),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, env={**os.environ, "FREECELL_SOLVER_QUIET": "1"})
    try:
        out, err = process.communicate(text, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return Run(Status.UNKNOWN, None, timeout, True)
    seconds = time.perf_counter() - started
    status, moves = parse_output(out, position)
    if status is None:
        raise RuntimeError(f"fc-solve gave no verdict (exit {process.returncode}): "
                           f"{err.strip()[-300:] or out.strip()[-300:]}")
    return Run(status, moves, seconds, False)


_MOVE = re.compile(r"Move (a card|\d+ cards) from (stack|freecell) (\d+) to "
                   r"(?:the (foundations)|(stack|freecell) (\d+))$")


def parse_output(out: str, position: Position) -> tuple[Status | None, tuple[Move, ...] | None]:
    """The verdict of a run (`command`) from `position` and, when solved, its
    solution as single-card moves; (None, None) when the output holds no verdict."""
    if "Iterations count exceeded." in out:
        return Status.UNKNOWN, None
    if "I could not solve this game." in out:
        return Status.UNSOLVABLE, None
    if "This game is solveable." not in out:
        return None, None
    return Status.SOLVED, single_card_moves(out, position)


def single_card_moves(out: str, position: Position) -> tuple[Move, ...]:
    """fc-solve's printed solution played through our rules (solver.beleaguered.rules),
    each sequence move expanded into the single-card moves of the recursive supermove;
    IllegalMove if a move breaks our rules, ValueError if the line does not win."""
    moves: list[Move] = []
    for line in out.splitlines():
        if not line.startswith("Move"):
            continue
        found = _MOVE.match(line)
        if found is None:
            raise ValueError(f"fc-solve move not understood: {line!r}")
        what, kind, index, home, target_kind, target = found.groups()
        count = 1 if what == "a card" else int(what.split()[0])
        source = Location(TABLEAU if kind == "stack" else CELL, int(index))
        to = (Location(FOUNDATION) if home
              else Location(TABLEAU if target_kind == "stack" else CELL, int(target)))
        if count == 1:
            position = _play(position, source, to, moves)
        elif source.kind == TABLEAU and to.kind == TABLEAU:
            empty = [k for k, pile in enumerate(position.tableau) if not pile
                     and k != int(target)]
            position = _supermove(position, count, source, to, empty, moves)
        else:
            raise ValueError(f"fc-solve moves {count} cards other than pile to pile: {line!r}")
    if not position.is_won:
        raise ValueError("fc-solve's solution does not win")
    return tuple(moves)


def _play(position: Position, source: Location, target: Location,
          moves: list[Move]) -> Position:
    """The top card of `source` to `target`, by our rules."""
    k = source.index or 0
    if source.kind == TABLEAU:
        card = position.tableau[k][-1] if position.tableau[k] else None
    else:
        card = position.cells[k]
    if card is None:
        raise IllegalMove(f"fc-solve moves a card from {source}, which has none")
    moves.append(Move(card, source, target))
    return apply(position, moves[-1])


def _supermove(position: Position, count: int, source: Location, target: Location,
               empty: list[int], moves: list[Move]) -> Position:
    """`count` cards from pile `source` to pile `target`, one at a time: through the free
    cells when they hold all but one, else parking the top part on an empty pile."""
    cells = [Location(CELL, k) for k, card in enumerate(position.cells) if card is None]
    supermove(count, len(cells), len(empty))  # refuses a move too big for the room
    if count <= len(cells) + 1:
        parked = cells[:count - 1]
        for cell in parked:
            position = _play(position, source, cell, moves)
        position = _play(position, source, target, moves)
        for cell in reversed(parked):
            position = _play(position, cell, target, moves)
        return position
    top = _split(count, len(cells), len(empty))
    park, rest = Location(TABLEAU, empty[0]), empty[1:]
    position = _supermove(position, top, source, park, rest, moves)
    position = _supermove(position, count - top, source, target, rest, moves)
    return _supermove(position, top, park, target, rest, moves)


def _split(count: int, cells: int, empty: int) -> int:
    """How many of `count` cards the cheapest supermove parks on its first empty pile."""
    half = (cells + 1) << (empty - 1)  # what one pile fewer can move
    return min(range(max(1, count - half), min(half, count - 1) + 1),
               key=lambda top: 2 * supermove(top, cells, empty - 1)
               + supermove(count - top, cells, empty - 1))


@cache
def supermove(count: int, cells: int, empty: int) -> int:
    """Fewest single-card moves of the recursive supermove of `count` cards with `cells`
    free cells and `empty` empty piles (the target aside): up to cells+1 cards go through
    the cells; more park their top part on an empty pile, move the rest with one pile
    fewer, then bring the parked part over, again with one fewer."""
    if count <= cells + 1:
        return 2 * count - 1
    if count > (cells + 1) << empty:
        raise ValueError(f"{count} cards cannot move with {cells} free cells and "
                         f"{empty} empty piles")
    top = _split(count, cells, empty)
    return 2 * supermove(top, cells, empty - 1) + supermove(count - top, cells, empty - 1)


Layout = tuple[tuple[int, ...], tuple[tuple[str, ...], ...], tuple[str, ...]]


def parse_board(text: str) -> Layout:
    """A board text as (foundation ranks C D H S, columns, cells), for comparing two
    boards: absent foundations are 0, an empty cell is '-', '10' reads as 'T'."""
    ranks = {rank_text(r): r for r in range(14)}
    foundations = [0, 0, 0, 0]
    columns: list[tuple[str, ...]] = []
    cells: tuple[str, ...] = ()
    for line in text.splitlines():
        if line.startswith(("Foundations:", "Founds:")):
            for item in line.split(":", 1)[1].split():
                suit, _, rank = item.partition("-")
                foundations["CDHS".index(suit)] = ranks[rank]
        elif line.startswith(("Freecells:", "FC:")):
            cells = tuple(line.split(":", 1)[1].split())
        elif line.strip():
            columns.append(tuple(c.replace("10", "T") for c in line.lstrip(":").split()))
    return (tuple(foundations), tuple(columns), cells)


def pysol_layout(game: str, number: int) -> str | None:
    """Deal `number` of `game` as pysol-cards deals it, in board text; None when
    pysol-cards is not installed or deals that number otherwise than PySolFC."""
    if number > PYSOL_CARDS_LAST_LCG_DEAL:
        return None
    modules = _pysol_cards()
    if modules is None:
        return None
    deal_game, random_base, cards = modules
    layout = deal_game.Game(game, number, random_base.RandomBase.DEALS_PYSOLFC)
    return str(layout.calc_layout_string(cards.CardRenderer(True)))


@cache
def _pysol_cards() -> tuple[Any, Any, Any] | None:
    """pysol-cards has no type hints: its modules are used as Any."""
    try:
        return tuple(importlib.import_module(f"pysol_cards.{name}")  # type: ignore[return-value]
                     for name in ("deal_game", "random_base", "cards"))
    except ImportError:
        return None


def same_cards(position: Position, game: str, number: int) -> bool | None:
    """Whether our deal and pysol-cards' deal `number` of `game` are the same board;
    None when that cannot be checked."""
    theirs = pysol_layout(game, number)
    return None if theirs is None else parse_board(board_text(position)) == parse_board(theirs)


def version(executable: str = EXECUTABLE) -> str:
    out = subprocess.run([executable, "--version"], capture_output=True, text=True,
                         check=True).stdout
    return " ".join(line for line in out.splitlines() if "version" in line) or out.strip()
