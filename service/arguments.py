"""What every game's commands share: number arguments, budgets and reading a position."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from solver.budget import Budget
from solver.errors import InvalidInput
from solver.games import Game
from solver.reading import MAX_BYTES

N = TypeVar("N", int, float)


def positive(kind: type[N]) -> Callable[[str], N]:
    """An argparse `type` for a number above 0."""
    def read(text: str) -> N:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be positive")
        return value
    return read


def add_budget(parser: argparse.ArgumentParser, seconds: float) -> None:
    """--seconds, --nodes and --table-entries."""
    parser.add_argument("--seconds", type=positive(float), default=seconds,
                        help=f"time budget (default {seconds:g})")
    parser.add_argument("--nodes", type=positive(int), help="node budget (default none)")
    parser.add_argument("--table-entries", type=positive(int), default=Budget().table_entries,
                        help="transposition table cap (default %(default)s)")


def budget_of(args: argparse.Namespace) -> Budget:
    return Budget(seconds=args.seconds, nodes=args.nodes, table_entries=args.table_entries)


def seconds_of(args: argparse.Namespace) -> Budget:
    """The budget of a command that takes only --seconds."""
    return Budget(seconds=args.seconds, nodes=None, table_entries=None)


def source_name(path: str) -> str:
    return "standard input" if path == "-" else path


def read_bytes(path: str) -> bytes:
    """The bytes of a file or of standard input (`-`); more than MAX_BYTES is refused
    without reading the rest."""
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)  # None: a text stream stands in
            raw = (stream.read(MAX_BYTES + 1) if stream is not None
                   else sys.stdin.read(MAX_BYTES + 1).encode())
        else:
            with Path(path).open("rb") as file:
                raw = file.read(MAX_BYTES + 1)
    except OSError as err:
        raise InvalidInput(f"cannot read {path}: {err.strerror}") from None
    if len(raw) > MAX_BYTES:
        raise InvalidInput(f"{source_name(path)} is more than {MAX_BYTES:,} bytes; "
                           f"a position is at most {MAX_BYTES:,}")
    return raw


def read_position(game: Game[Any], path: str) -> Any:
    """The position in a file or standard input, read by `game`."""
    return game.read(read_bytes(path), source_name(path))


def quiet_on_interrupt() -> None:
    """The initializer of a command's worker processes: Ctrl-C reaches the whole process
    group, and only the command itself should answer it (one line, not a traceback from
    every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
