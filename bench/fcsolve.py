"""Freecell Solver (`fc-solve`, Debian package freecell-solver-bin) as a yardstick for the
down-building variants and the FreeCell family: our position as its board text, one run
of it under a timeout, and its verdict and solution.

fc-solve plays a run of k cards as one move where its rules allow (a "supermove"
through empty piles and free cells). Its solution is played through our rules, each
printed move kept as one of our moves (a k-card move from pile to pile as our sequence
move of the k-th card from the top) and written out in single-card moves by
solver.beleaguered.sequences, the recursive supermove our own lines are written out
with: the lengths are then counts of legal moves both ways, and a solution that breaks
our rules or does not win is refused. Where the variant has sequence moves (the FreeCell
family) the printed line must replay as it stands too. Forcing atomic moves instead
(`-to 01ABCDE`) would make each printed move one card, but it changes the search so much
(solutions of thousands of moves, other deals timing out) that it would no longer be
fc-solve's figure.

Besides its default search, one of its presets (`-l lg`: looking-glass, a scan of many
soft threads written for FreeCell) may be asked for. A preset written for FreeCell may
break another game's rules (`-l lg` fills an empty pile with any card in
Seahaven Towers): such a line is kept as `Run.refused`, its reason, not raised, so that
a long benchmark lists it among its findings.

The board goes in as fc-solve's `-p -t` text (solver/beleaguered/board_text.py, which
reads it back too), so that what it is given is our deal, not one it makes itself;
`pysol_layout` gives the same deal from the pysol-cards package (the dealer PySolFC and
fc-solve's own board generator use), read back to check that both are the same cards.
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

from solver.beleaguered.board_text import board_text, read_board
from solver.beleaguered.position import Position
from solver.beleaguered.rules import CELL, FOUNDATION, TABLEAU, Location, Move, replay
from solver.beleaguered.sequences import single_cards
from solver.beleaguered.variant import SequenceMoves
from solver.budget import Status
from solver.cards import Card
from solver.errors import IllegalMove, InvalidInput

EXECUTABLE = "fc-solve"
# Our variant name -> fc-solve's preset (`--game`), which is also pysol-cards' game id.
GAMES = {"beleaguered-castle": "beleaguered_castle",
         "streets-and-alleys": "streets_and_alleys",
         "citadel": "citadel"}
# The FreeCell family, which `make bench-freecell` compares: the same for its variants.
FREECELL_GAMES = {"freecell": "freecell", "bakers-game": "bakers_game",
                  "eight-off": "eight_off", "seahaven-towers": "seahaven_towers",
                  "forecell": "forecell"}
DEFAULT_PRESET = "default"  # its own search settings, no `-l`
PYSOL_CARDS_LAST_LCG_DEAL = 31999  # pysol-cards deals 32000 on by the LCG, PySolFC does not


def command(game: str, piles: int, cells: int, executable: str = EXECUTABLE,
            atomic: bool = False, preset: str = DEFAULT_PRESET) -> list[str]:
    """fc-solve's preset for the game (how piles build, what fills an empty one, runs as
    long as the free cells and empty piles allow), with its own search settings or those
    of `preset` (`-l NAME`, after the game's, which it would otherwise not override); the
    pile and cell counts said again (the board names only what it holds); -m prints the
    moves alone (`read_line` replays them, so the states of -sam are not needed); -sel says
    "Iterations count exceeded." where a limit, not the search space, ran out.
    `atomic`: single-card moves only (`-to 01ABCDE`), the move set its docs give for a
    board it wrongly calls unsolvable."""
    return [executable, "--game", game, "--stacks-num", str(piles),
            "--freecells-num", str(cells),
            *([] if preset == DEFAULT_PRESET else ["-l", preset]),
            *(["-to", "01ABCDE"] if atomic else []), "-m", "-sel", "-"]


def preset_exists(preset: str, executable: str = EXECUTABLE) -> bool:
    """Whether fc-solve knows `preset` (it fails to start on one it does not)."""
    if preset == DEFAULT_PRESET:
        return True
    return subprocess.run([executable, "-l", preset, "--version"], capture_output=True,
                          check=False).returncode == 0


@dataclass(frozen=True)
class Line:
    """A solution fc-solve printed, read through our rules both ways."""

    printed: tuple[Move, ...]       # one per move it printed, a run as one sequence move
    single_cards: tuple[Move, ...]  # the same written out in single-card moves


@dataclass(frozen=True)
class Run:
    status: Status       # SOLVED, UNSOLVABLE (its move set exhausted), UNKNOWN
    line: Line | None    # its solution, when SOLVED and our rules play it
    seconds: float            # wall clock, process start included; the timeout when killed
    timed_out: bool
    refused: str | None = None  # SOLVED, but our rules refuse its line: why

    @property
    def moves(self) -> tuple[Move, ...] | None:
        """Its solution in single-card moves, when SOLVED."""
        return None if self.line is None else self.line.single_cards


def run(position: Position, game: str, timeout: float, executable: str = EXECUTABLE,
        atomic: bool = False, preset: str = DEFAULT_PRESET) -> Run:
    """One fc-solve run on `position`, killed (its whole process group) at `timeout`; a
    win whose line breaks our rules or does not win comes back with `refused`."""
    text = board_text(position)
    started = time.perf_counter()
    process = subprocess.Popen(
        command(game, len(position.tableau), len(position.cells), executable, atomic, preset),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, env={**os.environ, "FREECELL_SOLVER_QUIET": "1"})
    try:
        out, err = process.communicate(text, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return Run(Status.UNKNOWN, None, timeout, True)
    seconds = time.perf_counter() - started
    try:
        status, line = parse_output(out, position)
    except (IllegalMove, ValueError) as fault:
        return Run(Status.SOLVED, None, seconds, False, str(fault))
    if status is None:
        raise RuntimeError(f"fc-solve gave no verdict (exit {process.returncode}): "
                           f"{err.strip()[-300:] or out.strip()[-300:]}")
    return Run(status, line, seconds, False)


# "1 cards" is how it prints a single card moved from pile to pile
_MOVE = re.compile(r"Move (a card|\d+ cards) from (stack|freecell) (\d+) to "
                   r"(?:the (foundations)|(stack|freecell) (\d+))$")


def parse_output(out: str, position: Position) -> tuple[Status | None, Line | None]:
    """The verdict of a run (`command`) from `position` and, when solved, its
    solution (`read_line`); (None, None) when the output holds no verdict."""
    if "Iterations count exceeded." in out:
        return Status.UNKNOWN, None
    if "I could not solve this game." in out:
        return Status.UNSOLVABLE, None
    if "This game is solveable." not in out:
        return None, None
    return Status.SOLVED, read_line(out, position)


def read_line(out: str, position: Position) -> Line:
    """fc-solve's printed solution played through our rules (solver.beleaguered.rules):
    each printed move written out in single cards and replayed; where the variant has
    sequence moves, the printed line replayed as it stands as well. IllegalMove if a
    move breaks our rules, ValueError if the line does not win or a move is not
    understood."""
    start = position
    printed: list[Move] = []
    written: list[Move] = []
    for text in out.splitlines():
        if not text.startswith("Move"):
            continue
        found = _MOVE.match(text)
        if found is None:
            raise ValueError(f"fc-solve move not understood: {text!r}")
        what, kind, index, home, target_kind, target = found.groups()
        count = 1 if what == "a card" else int(what.split()[0])
        source = Location(TABLEAU if kind == "stack" else CELL, int(index))
        to = (Location(FOUNDATION) if home
              else Location(TABLEAU if target_kind == "stack" else CELL, int(target)))
        if count > 1 and (source.kind, to.kind) != (TABLEAU, TABLEAU):
            raise ValueError(f"fc-solve moves {count} cards other than pile to pile: {text!r}")
        move = Move(_card(position, source, count), source, to)
        step = single_cards(position, move)
        position = replay(position, step)
        printed.append(move)
        written += step
    if not position.is_won:
        raise ValueError("fc-solve's solution does not win")
    if (start.variant.sequence_moves is not SequenceMoves.NONE
            and not replay(start, printed).is_won):
        raise ValueError("fc-solve's solution as printed does not win")
    return Line(tuple(printed), tuple(written))


def _card(position: Position, source: Location, count: int) -> Card:
    """The card a move of `count` cards from `source` names: the bottom one of the run."""
    k = source.index or 0
    if source.kind == TABLEAU:
        pile = position.tableau[k] if k < len(position.tableau) else ()
        if len(pile) >= count:
            return pile[-count]
    else:
        card = position.cells[k] if k < len(position.cells) else None
        if card is not None:
            return card
    raise IllegalMove(f"fc-solve moves {count} card(s) from {source}, which has fewer")


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
    if theirs is None:
        return None
    try:
        return read_board(theirs, position.variant) == position
    except InvalidInput:  # not a deck, or not the variant's layout: not our cards
        return False


def version(executable: str = EXECUTABLE) -> str:
    out = subprocess.run([executable, "--version"], capture_output=True, text=True,
                         check=True).stdout
    return " ".join(line for line in out.splitlines() if "version" in line) or out.strip()
