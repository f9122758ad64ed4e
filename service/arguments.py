"""What every game's commands share: help layout, number arguments, budgets, progress
bars and reading a position."""

from __future__ import annotations

import argparse
import math
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TextIO, TypeVar

from solver.budget import DEFAULT_MEMORY_MIB, Budget, Disk
from solver.errors import InvalidInput
from solver.json_text import MAX_BYTES
from solver.numerals import read_number

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

    from tqdm import tqdm

    from solver.games import Game

N = TypeVar("N", int, float)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter,
                    argparse.RawDescriptionHelpFormatter):
    """Every option's default after its help, and the epilogs' examples as written."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        """The width as argparse takes it, without its import of shutil (which imports
        bz2 and lzma): every parser makes a formatter, the quick commands too."""
        super().__init__(prog, indent_increment, max_help_position,
                         _columns() - 2 if width is None else width)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        """No "(default: None)": a required option has no default, an option that is off,
        absent or empty unless given says in its help what that means."""
        empty = action.default is None or action.default is False or action.default == []
        return action.help if action.required or empty else super()._get_help_string(action)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """Each line of prose wrapped as a paragraph; indented lines (an epilog's example
        commands) kept as they are written, to be copied."""
        as_written = super()._fill_text  # RawDescriptionHelpFormatter's
        return "\n".join(as_written(line, width, indent) if line[:1] in ("", " ")
                         else argparse.HelpFormatter._fill_text(self, line, width, indent)
                         for line in text.splitlines())


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size() finds it: $COLUMNS, else the
    terminal of standard output, else 80."""
    columns = read_number(os.environ.get("COLUMNS", ""))
    if columns is not None:
        return columns
    if sys.__stdout__ is None:
        return 80
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (ValueError, OSError):
        return 80


class Shortfall(Exception):
    """A command ran to its end with less than it was asked for: exit 1."""


class Version(argparse.Action):
    """--version, the package's own `__version__` (which pyproject.toml reads): looking
    it up in the installed metadata would import importlib.metadata, some 40 ms."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 help: str = "print the version and exit") -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> NoReturn:
        from solver import __version__

        print(f"{parser.prog} {__version__}")
        parser.exit()


# The most each kind of number a flag takes: what the code beneath it takes.
MOST_SECONDS = 1e9  # some 31 years: threading's and multiprocessing's waits, whose
# deadlines are nanoseconds in 63 bits (1e10 s from now overflows them), take it with room
MOST_COUNT = 2**31 - 1  # a C int: grpc's options (--max-request-bytes) take no more
MOST_NODES = 2**64 - 1  # the compiled kernel counts nodes and table entries in 64 bits


@dataclass(frozen=True)
class Number(Generic[N]):
    """An argparse `type`: a finite number of `kind` in ASCII digits within
    `least`..`most` (`least` None: above 0), else one line that names the bound. `name`
    goes before the number in that line ("deal number 0 is out of range 1..9"); `said`:
    `most` in words."""

    kind: type[N]
    most: N
    least: N | None = None
    name: str = ""
    said: str = ""

    def __call__(self, text: str) -> N:
        name = f"{self.name} " if self.name else ""
        value = read_number(text, self.kind)
        if value is None:
            what = "an integer" if self.kind is int else "a number"
            written = "" if text.isascii() else " written in ASCII digits"
            raise argparse.ArgumentTypeError(f"{name}{text!r} is not {what}{written}")
        if isinstance(value, float) and not math.isfinite(value):  # float() reads "nan"
            raise argparse.ArgumentTypeError(  # and "inf": a NaN budget never runs out
                f"{name}{text!r} is not a finite number (at most {self.bound})")
        if self.least is not None and not self.least <= value <= self.most:
            raise argparse.ArgumentTypeError(
                f"{name}{value} is out of range {_written(self.least)}..{self.bound}")
        if self.least is None and value <= 0:
            raise argparse.ArgumentTypeError(f"{name}{text!r} must be positive")
        if value > self.most:
            raise argparse.ArgumentTypeError(f"{name}{text!r} is more than {self.bound}")
        return value

    @property
    def bound(self) -> str:
        """The most, as a refusal says it."""
        return self.said or _written(self.most)


def _written(number: float) -> str:
    """A bound as a refusal says it: a float briefly, an integer's 64 bits as powers of
    two ("2^63 - 1", not 9223372036854775807)."""
    if isinstance(number, float):
        return f"{number:g}"
    for bits in (63, 64):
        if number == 2**bits - 1:
            return f"2^{bits} - 1"
        if number == -(2**bits):
            return f"-2^{bits}"
    return str(number)


def positive(kind: type[N], most: N | None = None) -> Number[N]:
    """A number above 0 and at most `most`: by default MOST_SECONDS for a float (every
    float flag is a number of seconds), MOST_COUNT for an integer."""
    if most is None:
        most = kind(MOST_SECONDS if kind is float else MOST_COUNT)
    return Number(kind, most)


# an integer that is no count (a seed, a number a game checks itself): a signed 64-bit one
integer = Number(int, 2**63 - 1, -(2**63))
# a number that is no count nor seconds (a plug-in's option): any finite one
real = Number(float, sys.float_info.max, -sys.float_info.max)

PER_CORE = 8  # worker processes a core at most: a search keeps a core busy, and each
# process holds its own interpreter and tables, so a typo's thousands would take the machine
_MOST_PROCESSES = PER_CORE * (os.cpu_count() or 1)

# a count of worker processes (--workers, --jobs): at most PER_CORE a core of this machine
processes = Number(int, _MOST_PROCESSES,
                   said=f"{PER_CORE} processes a core ({_MOST_PROCESSES} here)")


def ranged(number: Callable[[str], int]) -> Callable[[str], range]:
    """The argument type of a range of numbers, "A-B" or "A", each read by `number`."""
    def numbers(text: str) -> range:
        first, _, last = text.partition("-")
        low, high = number(first), number(last or first)
        if high < low:
            raise argparse.ArgumentTypeError(f"deal range {text!r} runs backwards")
        return range(low, high + 1)
    return numbers


def add_retry(parser: argparse.ArgumentParser) -> None:
    """--retry-unknown and --retry-unproven, of a run over deals (service/batch.py)."""
    parser.add_argument("--retry-unknown", action="store_true",
                        help="with --out: redo the deals the file has as unknown within "
                             "another budget, with this run's (give a larger --seconds or "
                             "--nodes); their new lines supersede the old")
    parser.add_argument("--retry-unproven", action="store_true",
                        help="with --out: redo the deals the file has as won without a "
                             "proven optimal length, within another budget, as "
                             "--retry-unknown does (a census keeps each deal's shortest "
                             "line and best lower bound of all its lines)")


@contextmanager
def appending(path: Path | None) -> Iterator[TextIO | None]:
    """--out's file opened to append to, or None without --out."""
    if path is None:
        yield None
        return
    with path.open("a") as out:
        yield out


def add_budget(parser: argparse.ArgumentParser, seconds: float, buys: str = "",
               memory_mib: int = DEFAULT_MEMORY_MIB) -> None:
    """--seconds, --nodes, --table-entries and --memory, by default `seconds` and
    `memory_mib`; `buys`: what a larger --seconds buys, said in its help."""
    parser.add_argument("--seconds", type=positive(float), default=seconds,
                        help="time budget in seconds" + (f": {buys}" if buys else ""))
    parser.add_argument("--nodes", type=positive(int, MOST_NODES),
                        help="node budget: the search nodes to stop after (no limit when "
                             "not given)")
    parser.add_argument("--table-entries", type=positive(int, MOST_NODES),
                        help="transposition table cap (no cap but --memory when not given)")
    parser.add_argument("--memory", type=positive(int), default=memory_mib,
                        metavar="MIB",
                        help="the MiB a search may add to the process's memory, its "
                             "tables at their largest (an optimal search that fills them "
                             "goes on within them, else answers unknown); against a "
                             "server, at most what its --memory-per-worker leaves")


DISK_GIB = 32.0  # what --disk's files may hold at once, by default


def add_disk(parser: argparse.ArgumentParser) -> None:
    """--disk and --disk-budget: where a search that fills --memory goes on."""
    parser.add_argument("--disk", type=directory, metavar="DIR",
                        help="a directory where a search of the compiled kernel that "
                             "fills --memory goes on, breadth-first on disk, to a verdict "
                             "(its files are removed when it ends; a line it finds is not "
                             "proven shortest)")
    parser.add_argument("--disk-budget", type=positive(float), default=DISK_GIB,
                        metavar="GIB",
                        help=f"the GiB --disk's files may hold at once (by default "
                             f"{DISK_GIB:g}); past it the answer is unknown")


def directory(text: str) -> Path:
    """An existing directory, for --disk."""
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: not a directory")
    return path


def add_variant(parser: argparse.ArgumentParser) -> None:
    """--variant and --rules, for a game whose front end plays variants (`in_variant`)."""
    parser.add_argument("--variant", metavar="NAME",
                        help="the variant of a game that has several, such as the patience "
                             "variants `fortress-solver variants` lists (when not given: the "
                             "position's own, else the game's first)")
    parser.add_argument("--rules", type=Path, metavar="FILE",
                        help="a rules file of a variant of your own, for a game that reads "
                             "them (--variant may name it too, no other)")


SERVER = "127.0.0.1:50051"  # where `serve`, and so `make run`, listens by default
SERVER_VARIABLE = "FORTRESS_SOLVER_SERVER"  # the environment's server, over SERVER


def add_server(parser: argparse.ArgumentParser) -> None:
    """--server of a client command; service.client reads the target when the command
    runs, so that building the parser imports no grpc."""
    parser.add_argument("--server", default=os.environ.get(SERVER_VARIABLE) or SERVER,
                        metavar="TARGET",
                        help="the server to ask: HOST:PORT, replicas as HOST:PORT,HOST:PORT, "
                             "or a gRPC target such as dns:///HOST:PORT (every address the "
                             "name resolves to) or ipv4:ADDR:PORT,ADDR:PORT; the calls are "
                             f"spread over the replicas; the environment variable "
                             f"{SERVER_VARIABLE}, when set, takes the place of the default, "
                             "which is where `serve` listens unless told otherwise")
    parser.add_argument("--deadline", type=positive(float), metavar="SECONDS",
                        help="the gRPC deadline of each call, apart from the search budget "
                             "(--seconds): the server answers UNKNOWN before it (by default "
                             "the budget and 5 seconds of room)")
    parser.add_argument("--tls-ca", type=Path, metavar="FILE",
                        help="speak TLS, trusting server certificates this PEM CA signed "
                             "(TLS with the system's CAs when only --tls-cert is given)")
    parser.add_argument("--tls-cert", type=Path, metavar="FILE",
                        help="this client's PEM certificate, for a server that asks for one "
                             "(mutual TLS; with --tls-key)")
    parser.add_argument("--tls-key", type=Path, metavar="FILE",
                        help="the PEM private key of --tls-cert")
    parser.add_argument("--token-file", type=Path, metavar="FILE",
                        help="send the first token of this file as 'authorization: Bearer "
                             "TOKEN' (else the FORTRESS_SOLVER_TOKEN environment variable's, "
                             "if set)")


def add_progress(parser: argparse.ArgumentParser) -> None:
    """--progress, for a command that shows a progress bar."""
    parser.add_argument("--progress", action="store_true",
                        help="show a progress bar even when stderr is not a terminal")


def progress_bar(iterable: Iterable[Any] | None = None, *, total: int, unit: str,
                 forced: bool, desc: str | None = None) -> tqdm[Any]:
    """A progress bar on stderr, the one rule of every command: shown when stderr is a
    terminal, or when `forced` (--progress); a log or a pipe gets no bar otherwise.
    Wrap `iterable`, or call update() on the bar."""
    from tqdm import tqdm  # only the commands that show a bar pay for its import

    return tqdm(iterable, total=total, unit=unit, desc=desc, file=sys.stderr,
                disable=False if forced else None)  # None: off when not a terminal


def budget_of(args: argparse.Namespace) -> Budget:
    disk = getattr(args, "disk", None)
    return Budget(seconds=args.seconds, nodes=args.nodes, table_entries=args.table_entries,
                  memory_mib=args.memory,
                  disk=None if disk is None else Disk(str(disk), args.disk_budget))


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


_HELD = {signal.SIGINT, signal.SIGTERM}


def quiet_on_interrupt() -> None:
    """The initializer of a command's worker processes: Ctrl-C reaches the whole process
    group, and only the command itself should answer it (one line, not a traceback from
    every worker). SIGTERM ends a worker (the pool stops its workers with it), as an
    exit that lets go of the pool's locks: an idle worker waits for its next task
    holding the lock of the pool's task queue, and a worker killed outright there
    leaves the pool's terminate waiting for that lock for ever. Either signal held
    while the worker started (worker_pool) comes now."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _leave)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


def _leave(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


STOP_SECONDS = 5.0  # how long a worker has to end on the pool's SIGTERM before it is killed


@contextmanager
def worker_pool(jobs: int) -> Iterator[Pool]:
    """A pool of `jobs` worker processes for a command (quiet_on_interrupt), forked with
    Ctrl-C and SIGTERM held until each has set its own: a fork inherits the command's
    handlers, which would lose a SIGTERM the pool sends a worker that has just started
    (the pool would then wait for it for ever), or answer Ctrl-C with a traceback.
    Stopped by `_stop` however the block ends."""
    from multiprocessing import Pool  # only the commands that run workers pay for it

    held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        pool = Pool(jobs, initializer=quiet_on_interrupt)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    try:
        yield pool
    finally:
        _stop(pool)


def _stop(pool: Pool) -> None:
    """The pool terminated, a worker that has not ended STOP_SECONDS after its SIGTERM
    killed: a SIGTERM that comes just as a worker starts to wait for the task queue's
    lock reaches its handler only once the wait is over, and the pool's terminate holds
    that lock while it waits for the worker."""
    import multiprocessing
    import threading

    workers = multiprocessing.active_children()
    stopping = threading.Thread(target=pool.terminate, daemon=True)
    stopping.start()
    stopping.join(STOP_SECONDS)
    while stopping.is_alive():
        for worker in workers:
            worker.kill()
        stopping.join(1.0)


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (`kill PID`, a service manager's stop) answered as Ctrl-C is: a
    KeyboardInterrupt, so that a command stops its workers, leaves its output whole and
    says one line. The handler before is put back after."""
    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
