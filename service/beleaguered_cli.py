"""Beleaguered Fortress's commands: `deal`, `solve`, `hint`, `batch`, and under `client`
the same with `--server` and `generate`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.arguments import (
    Shortfall,
    add_budget,
    add_progress,
    budget_of,
    positive,
    progress_bar,
    read_position,
    source_name,
)
from solver.beleaguered import (
    Algorithm,
    Engine,
    Hint,
    Mode,
    Position,
    Solution,
    apply,
    deal,
    hint,
    solve,
)
from solver.beleaguered.deals import MAX_DEAL
from solver.beleaguered.drawing import picture
from solver.beleaguered.game import GAME
from solver.beleaguered.grading import Graded, grade_moves

if TYPE_CHECKING:
    from service.batch import Records
    from service.client import Client

# service.batch and service.convert are imported by the commands that use them: `deal`,
# `solve` and `hint` start sooner without them.


def deal_number(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"deal number {text!r} is not an integer") from None
    if not 1 <= number <= MAX_DEAL:
        raise argparse.ArgumentTypeError(f"deal number {number} is out of range 1..{MAX_DEAL}")
    return number


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    low, high = deal_number(first), deal_number(last or first)
    if high < low:
        raise argparse.ArgumentTypeError(f"deal range {text!r} runs backwards")
    return range(low, high + 1)


_SERVER = "--server 127.0.0.1:50051"  # the examples' server, as `serve` starts it


def add_commands(commands: Any) -> None:
    show = commands.add_parser(
        "deal", help="the position of deal N",
        description="Print the starting position of Beleaguered Fortress deal N, laid out "
                    "for reading or as JSON.",
        epilog="examples:\n  fortress-solver deal 1\n  fortress-solver deal 1 --json")
    show.add_argument("number", type=deal_number, help=f"the deal number, 1 to {MAX_DEAL}")
    show.add_argument("--json", action="store_true", help="print the position as JSON")
    show.set_defaults(run=_deal)
    _add_solving_commands(commands, server=False)


def add_client_commands(commands: Any) -> None:
    _add_solving_commands(commands, server=True)
    generate = commands.add_parser(
        "generate", help="winnable deals, one JSON line each",
        description="Ask the server for COUNT winnable Beleaguered Fortress deals, each "
                    "solved optimally within the budget (and within the band of optimal "
                    "lengths, if given), trying the deal numbers of --deals in order. When "
                    "the range is spent first, it says how many it found and exits 1.",
        epilog="example:\n  fortress-solver client generate "
               f"{_SERVER} --count 3 --min-length 75 --deals 1-500")
    generate.add_argument("--server", required=True, metavar="HOST:PORT",
                          help="the server to ask")
    generate.add_argument("--count", type=positive(int), required=True,
                          help="deals to find (exit 1 when the range yields fewer)")
    generate.add_argument("--min-length", type=positive(int),
                          help="only deals whose optimal solution has at least this many "
                               "moves (no minimum when not given)")
    generate.add_argument("--max-length", type=positive(int),
                          help="only deals whose optimal solution has at most this many "
                               "moves (no maximum when not given)")
    generate.add_argument("--deals", type=deal_range, default=f"1-{MAX_DEAL}", metavar="A-B",
                          help="the deal numbers to try, in order")
    add_budget(generate, seconds=30)
    add_progress(generate)
    generate.add_argument("--json", action="store_true", help="(the output is always JSON)")
    generate.set_defaults(run_remote=_generate)


def _add_position(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", help="position JSON file, or - for standard input")
    source.add_argument("--deal", type=deal_number, metavar="N", help="deal number N")


def _add_solving_commands(commands: Any, server: bool) -> None:
    """solve, hint and batch; the client's take --server as well, the local ones --engine."""
    def command(name: str, help: str, local: Any, remote: Any,
                example: str) -> argparse.ArgumentParser:
        where = f"client {name} {_SERVER}" if server else name
        parser: argparse.ArgumentParser = commands.add_parser(
            name, help=help, description=f"Beleaguered Fortress: {help}.",
            epilog=f"example:\n  fortress-solver {where} {example}")
        if server:
            parser.add_argument("--server", required=True, metavar="HOST:PORT",
                                help="the server to ask")
            parser.set_defaults(run_remote=remote)
        else:
            parser.add_argument("--engine", choices=[e.value for e in Engine], default="native",
                                help="the compiled kernel, or the Python reference")
            parser.set_defaults(run=local)
        return parser

    solve_cmd = command("solve", "solve a position", _solve, _solve_remote, "--deal 2 --steps")
    _add_position(solve_cmd)
    solve_cmd.add_argument("--mode", choices=[m.value for m in Mode], default="optimal",
                           help="optimal: a shortest solution, proven; any: the fastest "
                                "verdict, any length")
    solve_cmd.add_argument("--algorithm", choices=[a.value for a in Algorithm], default="astar",
                           help="the optimal search (any mode always takes the greedy route)")
    add_budget(solve_cmd, seconds=60)
    solve_cmd.add_argument("--json", action="store_true", help="print one JSON object")
    solve_cmd.add_argument("--steps", action="store_true",
                           help="also the board at the start and after every move "
                                "(in the JSON, `steps`: the position after each move)")

    hint_cmd = command("hint", "the next move of an optimal solution", _hint, _hint_remote,
                       "--deal 2 --all-moves")
    _add_position(hint_cmd)
    add_budget(hint_cmd, seconds=60)
    hint_cmd.add_argument("--json", action="store_true", help="print one JSON object")
    hint_cmd.add_argument("--all-moves", action="store_true",
                          help="grade every legal move too: wins in N moves (counting it), "
                               "loses (proven) or unknown, best first; the moves share the "
                               "budget's seconds")

    batch = command("batch", "solvability of a range of deals, as JSON lines",
                    _batch, _batch_remote, "--deals 1-100 --out results.jsonl")
    batch.add_argument("--deals", type=deal_range, required=True, metavar="A-B",
                       help="the deal numbers to solve, A to B (or one number)")
    batch.add_argument("--mode", choices=[m.value for m in Mode], default="any",
                       help="any: the fastest verdict; optimal: a shortest solution, proven")
    batch.add_argument("--algorithm", choices=[a.value for a in Algorithm], default="astar",
                       help="the optimal search (any mode always takes the greedy route)")
    batch.add_argument("--jobs", type=positive(int), default=os.cpu_count() or 1,
                       help="worker processes, by default one per core (local runs only)")
    batch.add_argument("--out", type=Path, metavar="FILE.jsonl",
                       help="append results here, not to standard output; deals already "
                            "in it are skipped, so a run started again resumes")
    add_budget(batch, seconds=30)
    add_progress(batch)


def _read(args: argparse.Namespace) -> tuple[str, Position]:
    """The position's name and the position."""
    if args.deal is not None:
        return f"deal {args.deal}", deal(args.deal)
    position: Position = read_position(GAME, args.file)
    return source_name(args.file), position


def _print_json(data: Any) -> None:
    print(json.dumps(data))


def _deal(args: argparse.Namespace) -> None:
    position = deal(args.number)
    if args.json:
        _print_json(position.to_json())
    else:
        print(f"deal {args.number}\n{picture(position)}")


def _print_solution(name: str, solution: Solution, as_json: bool,
                    steps_from: Position | None = None) -> None:
    """The verdict and the moves; from `steps_from` (`--steps`), the board after each move
    too (in the JSON, `steps`: the position after each move)."""
    boards = [] if steps_from is None else _after_each(steps_from, solution)
    if as_json:
        _print_json(solution.to_json() | ({} if steps_from is None else
                                          {"steps": [board.to_json() for board in boards]}))
        return
    stats = solution.stats
    verdict = solution.status.value
    if solution.length is not None:
        verdict += f", {'optimal' if solution.optimal else 'not proven optimal'}, "
        verdict += f"{solution.length} moves"
    print(f"{name}: {verdict} ({stats.nodes} nodes, {stats.seconds:.2f} s)")
    if steps_from is not None:
        print(picture(steps_from))
    for number, move in enumerate(solution.moves, 1):
        print(f"{number:4}. {move.card} {move.source} -> {move.target}")
        if boards:
            print(picture(boards[number - 1]))


def _after_each(position: Position, solution: Solution) -> list[Position]:
    boards = []
    for move in solution.moves:
        position = apply(position, move)
        boards.append(position)
    return boards


def _print_hint(name: str, advice: Hint, as_json: bool,
                graded: tuple[Graded, ...] | None = None) -> None:
    if as_json:
        _print_json(advice.to_json() | ({} if graded is None else
                                        {"all_moves": [g.to_json() for g in graded]}))
        return
    _print_hint_line(name, advice)
    for g in graded or ():
        verdict = f"wins in {g.moves_left}" if g.moves_left is not None else g.outcome.value
        print(f"  {g.move.card} {g.move.source} -> {g.move.target}: {verdict}")


def _print_hint_line(name: str, advice: Hint) -> None:
    if advice.move is not None:
        move = advice.move
        print(f"{name}: {move.card} {move.source} -> {move.target} "
              f"({advice.moves_left} moves left, winnable)")
    elif advice.moves_left == 0:
        print(f"{name}: already won")
    else:
        print(f"{name}: {advice.status.value}, no hint")


def _solve(args: argparse.Namespace) -> None:
    name, position = _read(args)
    solution = solve(position, Mode(args.mode), Algorithm(args.algorithm), budget_of(args),
                     Engine(args.engine))
    _print_solution(name, solution, args.json, position if args.steps else None)


def _hint(args: argparse.Namespace) -> None:
    name, position = _read(args)
    engine, budget = Engine(args.engine), budget_of(args)
    advice = hint(position, budget, engine)
    graded = grade_moves(position, budget, engine).moves if args.all_moves else None
    _print_hint(name, advice, args.json, graded)


def _remote_source(args: argparse.Namespace) -> tuple[str, Any]:
    """The position's name and its PositionSource: a deal goes as its number."""
    from service.convert import beleaguered as convert

    if args.deal is not None:
        return f"deal {args.deal}", convert.deal_source(args.deal)
    name, position = _read(args)
    return name, convert.position_source(position)


def _solve_remote(args: argparse.Namespace, client: Client) -> None:
    from service.convert import beleaguered as convert

    name, source = _remote_source(args)
    request = convert.solve_request(source, Mode(args.mode), Algorithm(args.algorithm),
                                    budget_of(args))
    start = (deal(args.deal) if args.deal is not None else _read(args)[1]) if args.steps else None
    _print_solution(name, convert.solution_from_proto(client.solve(request)), args.json, start)


def _hint_remote(args: argparse.Namespace, client: Client) -> None:
    from service.convert import beleaguered as convert

    name, source = _remote_source(args)
    request = convert.hint_request(source, budget_of(args), args.all_moves)
    response = client.hint(request)
    graded = tuple(convert.graded_from_proto(g) for g in response.all_moves) \
        if args.all_moves else None
    _print_hint(name, convert.hint_from_proto(response), args.json, graded)


def _run_batch(args: argparse.Namespace, solve_many: Any) -> None:
    from service.batch import run_batch

    if args.out is None:
        summary = run_batch(args.deals, solve_many, sys.stdout, progress=args.progress)
    else:
        with args.out.open("a") as out:
            summary = run_batch(args.deals, solve_many, out, args.out, args.progress)
    print(summary, file=sys.stderr)


def _batch(args: argparse.Namespace) -> None:
    from service.batch import solve_locally

    _run_batch(args, solve_locally(Mode(args.mode), Algorithm(args.algorithm), budget_of(args),
                                   args.jobs, Engine(args.engine)))


def _batch_remote(args: argparse.Namespace, client: Client) -> None:
    from service.batch import record
    from service.convert import beleaguered as convert

    def solve_many(todo: list[int]) -> Records:
        request = convert.batch_request(todo, Mode(args.mode), Algorithm(args.algorithm),
                                        budget_of(args))
        for result in client.solve_batch(request):
            yield record(result.deal, convert.solution_from_proto(result.result))
    _run_batch(args, solve_many)


def _generate(args: argparse.Namespace, client: Client) -> None:
    """Prints each deal as it arrives; the stream ends early when the server has tried
    every deal of the range, which is a Shortfall."""
    from service.convert import beleaguered as convert

    request = convert.generate_request(args.count, args.min_length, args.max_length,
                                       budget_of(args))
    request.first_deal, request.last_deal = args.deals.start, args.deals.stop - 1
    stream: Iterator[Any] = client.generate_deals(request)
    found = 0
    with progress_bar(total=args.count, unit="deal", forced=args.progress) as bar:
        for deal_found in stream:
            position = convert.position_from_proto(deal_found.position)
            _print_json({"deal": deal_found.deal, "position": position.to_json(),
                         "length": deal_found.length})
            found += 1
            bar.update()
    if found < args.count:
        band = "" if args.min_length is None and args.max_length is None else \
            f" within {args.min_length or '...'}-{args.max_length or '...'} moves"
        raise Shortfall(f"deals {request.first_deal}-{request.last_deal} spent: {found} of "
                        f"{args.count} deals found{band}")
