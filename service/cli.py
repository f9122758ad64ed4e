"""fortress-solver: the command line. Bad input exits 2 with one line naming the fault."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any, NoReturn

from service import farbduell_cli, ffk_cli, stronghold_cli
from service.batch import record, run_batch, solve_locally
from solver.beleaguered import (
    Algorithm,
    Engine,
    Hint,
    Mode,
    Position,
    Solution,
    deal,
    hint,
    solve,
)
from solver.beleaguered.deals import MAX_DEAL
from solver.budget import Budget
from solver.errors import InvalidInput

PROG = "fortress-solver"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _deal_number(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"deal number {text!r} is not an integer") from None
    if not 1 <= number <= MAX_DEAL:
        raise argparse.ArgumentTypeError(f"deal number {number} is out of range 1..{MAX_DEAL}")
    return number


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    low, high = _deal_number(first), _deal_number(last or first)
    if high < low:
        raise argparse.ArgumentTypeError(f"deal range {text!r} runs backwards")
    return range(low, high + 1)


def _positive(kind: type) -> Any:
    def read(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} must be positive")
        return value
    return read


def _add_position(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", help="position JSON file, or - for standard input")
    source.add_argument("--deal", type=_deal_number, metavar="N", help="deal number N")


def _add_budget(parser: argparse.ArgumentParser, seconds: float) -> None:
    parser.add_argument("--seconds", type=_positive(float), default=seconds,
                        help=f"time budget (default {seconds:g})")
    parser.add_argument("--nodes", type=_positive(int), help="node budget (default none)")
    parser.add_argument("--table-entries", type=_positive(int), default=Budget().table_entries,
                        help="transposition table cap (default %(default)s)")


def _add_solving_commands(commands: Any, server: bool = False) -> None:
    """solve, hint and batch; the client's take --server as well, the local ones --engine."""
    def command(name: str, help: str) -> argparse.ArgumentParser:
        parser = commands.add_parser(name, help=help)
        if server:
            parser.add_argument("--server", required=True, metavar="HOST:PORT")
        else:
            parser.add_argument("--engine", choices=[e.value for e in Engine], default="native",
                                help="the compiled kernel, or the Python reference "
                                     "(default %(default)s)")
        return parser

    solve_cmd = command("solve", "solve a position")
    _add_position(solve_cmd)
    solve_cmd.add_argument("--mode", choices=[m.value for m in Mode], default="optimal")
    solve_cmd.add_argument("--algorithm", choices=[a.value for a in Algorithm], default="astar")
    _add_budget(solve_cmd, seconds=60)
    solve_cmd.add_argument("--json", action="store_true")

    hint_cmd = command("hint", "the next move of an optimal solution")
    _add_position(hint_cmd)
    _add_budget(hint_cmd, seconds=60)
    hint_cmd.add_argument("--json", action="store_true")

    batch = command("batch", "solvability of a range of deals, as JSON lines")
    batch.add_argument("--deals", type=deal_range, required=True, metavar="A-B")
    batch.add_argument("--mode", choices=[m.value for m in Mode], default="any")
    batch.add_argument("--algorithm", choices=[a.value for a in Algorithm], default="astar")
    batch.add_argument("--jobs", type=_positive(int), default=os.cpu_count() or 1,
                       help="worker processes (local runs only)")
    batch.add_argument("--out", type=Path, metavar="FILE.jsonl",
                       help="append results here; deals already in it are skipped")
    _add_budget(batch, seconds=30)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG,
                     description="Exact solvers and hints for fortress-and-siege card games.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    show = commands.add_parser("deal", help="the position of deal N")
    show.add_argument("number", type=_deal_number)
    show.add_argument("--json", action="store_true")

    _add_solving_commands(commands)
    ffk_cli.add_commands(commands, _positive)
    farbduell_cli.add_commands(commands, _positive)
    stronghold_cli.add_commands(commands, _positive)

    serve = commands.add_parser("serve", help="run the gRPC server until SIGTERM or SIGINT")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=50051)
    serve.add_argument("--workers", type=_positive(int), default=os.cpu_count() or 1,
                       help="search processes (default: one per core)")
    serve.add_argument("--queue", type=_positive(int), default=16,
                       help="calls that may wait for a worker (default %(default)s)")

    client = commands.add_parser("client", help="the same commands, answered by a server")
    remote = client.add_subparsers(dest="remote", required=True, parser_class=_Parser)
    _add_solving_commands(remote, server=True)
    ffk_cli.add_client_commands(remote, _positive)
    farbduell_cli.add_client_commands(remote, _positive)
    stronghold_cli.add_client_commands(remote, _positive)
    generate = remote.add_parser("generate", help="winnable deals, one JSON line each")
    generate.add_argument("--server", required=True, metavar="HOST:PORT")
    generate.add_argument("--count", type=_positive(int), required=True)
    generate.add_argument("--min-length", type=_positive(int))
    generate.add_argument("--max-length", type=_positive(int))
    _add_budget(generate, seconds=30)
    generate.add_argument("--json", action="store_true", help="(the output is always JSON)")
    return parser


def _read_position(args: argparse.Namespace) -> tuple[str, Position | None]:
    """The position's name and the position (None for a deal a server will deal)."""
    if args.deal is not None:
        if getattr(args, "server", None):
            return f"deal {args.deal}", None
        return f"deal {args.deal}", deal(args.deal)
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text()
    except OSError as err:
        raise InvalidInput(f"cannot read {args.file}: {err.strerror}") from None
    return ("standard input" if args.file == "-" else args.file), Position.parse(text)


def _budget(args: argparse.Namespace) -> Budget:
    return Budget(seconds=args.seconds, nodes=args.nodes, table_entries=args.table_entries)


def layout(position: Position) -> str:
    """The board as a person reads it: one line per pile, then reserve and foundations."""
    lines = [f"tableau:{i}  " + " ".join(map(str, pile)) for i, pile in enumerate(position.tableau)]
    lines.append("reserve    " + " ".join("--" if c is None else str(c) for c in position.reserve))
    lines.append("foundation " + " ".join(f"{suit}:{top}" for suit, top in
                                          position.to_json()["foundations"].items()))
    return "\n".join(lines)


def _print_json(data: Any) -> None:
    print(json.dumps(data))


def _cmd_deal(args: argparse.Namespace) -> None:
    position = deal(args.number)
    if args.json:
        _print_json(position.to_json())
    else:
        print(f"deal {args.number}\n{layout(position)}")


def _print_solution(name: str, solution: Solution, as_json: bool) -> None:
    if as_json:
        _print_json(solution.to_json())
        return
    stats = solution.stats
    verdict = solution.status.value
    if solution.length is not None:
        verdict += f", {'optimal' if solution.optimal else 'not proven optimal'}, "
        verdict += f"{solution.length} moves"
    print(f"{name}: {verdict} ({stats.nodes} nodes, {stats.seconds:.2f} s)")
    for number, move in enumerate(solution.moves, 1):
        print(f"{number:4}. {move.card} {move.source} -> {move.target}")


def _print_hint(name: str, advice: Hint, as_json: bool) -> None:
    if as_json:
        _print_json(advice.to_json())
    elif advice.move is not None:
        move = advice.move
        print(f"{name}: {move.card} {move.source} -> {move.target} "
              f"({advice.moves_left} moves left, winnable)")
    elif advice.moves_left == 0:
        print(f"{name}: already won")
    else:
        print(f"{name}: {advice.status.value}, no hint")


def _cmd_solve(args: argparse.Namespace) -> None:
    name, position = _read_position(args)
    solution = solve(position, Mode(args.mode), Algorithm(args.algorithm), _budget(args),
                     Engine(args.engine))
    _print_solution(name, solution, args.json)


def _cmd_hint(args: argparse.Namespace) -> None:
    name, position = _read_position(args)
    _print_hint(name, hint(position, _budget(args), Engine(args.engine)), args.json)


def _batch(args: argparse.Namespace, solve_many: Any) -> None:
    if args.out is None:
        summary = run_batch(args.deals, solve_many, sys.stdout)
    else:
        with args.out.open("a") as out:
            summary = run_batch(args.deals, solve_many, out, args.out)
    print(summary, file=sys.stderr)


def _cmd_batch(args: argparse.Namespace) -> None:
    _batch(args, solve_locally(Mode(args.mode), Algorithm(args.algorithm), _budget(args),
                               args.jobs, Engine(args.engine)))


def _cmd_serve(args: argparse.Namespace) -> None:
    from service.server import ServerConfig, serve  # grpc only for the commands that use it

    serve(ServerConfig(host=args.host, port=args.port, workers=args.workers, queue=args.queue))


def _cmd_client(args: argparse.Namespace) -> None:
    import grpc

    from service.client import Client, source_of

    client = Client(args.server)
    try:
        if args.remote == "generate":
            for number, position, length in client.generate(
                    args.count, args.min_length, args.max_length, _budget(args)):
                _print_json({"deal": number, "position": position.to_json(), "length": length})
        elif args.remote == "ffk":
            ffk_cli.run_remote(args, client)
        elif args.remote == "farbduell":
            farbduell_cli.run_remote(args, client)
        elif args.remote == "stronghold":
            stronghold_cli.run_remote(args, client)
        elif args.remote == "batch":
            def solve_many(todo: list[int]) -> Any:
                budget, mode = _budget(args), Mode(args.mode)
                results = client.batch(todo, mode, Algorithm(args.algorithm), budget)
                return (record(number, solution) for number, solution in results)
            _batch(args, solve_many)
        else:
            name, position = _read_position(args)
            source = source_of(position, args.deal)
            if args.remote == "solve":
                solution = client.solve(source, Mode(args.mode), Algorithm(args.algorithm),
                                        _budget(args))
                _print_solution(name, solution, args.json)
            else:
                _print_hint(name, client.hint(source, _budget(args)), args.json)
    except grpc.RpcError as error:
        if error.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.OUT_OF_RANGE,
                            grpc.StatusCode.UNIMPLEMENTED):
            raise InvalidInput(error.details()) from None
        raise ServiceError(f"{args.server}: {error.code().name}: {error.details()}") from None
    finally:
        client.close()


class ServiceError(Exception):
    """The server could not be reached or failed: exit 1."""


_COMMANDS = {"deal": _cmd_deal, "solve": _cmd_solve, "hint": _cmd_hint, "batch": _cmd_batch,
             "serve": _cmd_serve, "client": _cmd_client, "ffk": ffk_cli.run,
             "farbduell": farbduell_cli.run, "stronghold": stronghold_cli.run}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command != "serve":  # `| head` ends a command quietly; a server keeps serving
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        _COMMANDS[args.command](args)
    except InvalidInput as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    except ServiceError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
