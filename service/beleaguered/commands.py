"""Beleaguered Fortress's commands: `deal`, `solve`, `hint`, `batch`, `census`,
`deal-info`, and under `client` the solving ones with `--server` and `generate`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.arguments import (
    Shortfall,
    add_budget,
    add_progress,
    add_server,
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
from solver.beleaguered import census as census_data
from solver.beleaguered.deals import MAX_DEAL
from solver.beleaguered.drawing import picture
from solver.beleaguered.game import GAME
from solver.beleaguered.grading import Graded, grade_moves
from solver.budget import Status
from solver.errors import InvalidInput

if TYPE_CHECKING:
    from service.beleaguered.batch import Records
    from service.client import Client

# service.beleaguered.batch and .messages are imported by the commands that use them:
# `deal`, `solve` and `hint` start sooner without them.


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
    _add_census_commands(commands)


def _add_census_commands(commands: Any) -> None:
    """census (run, summarise, pack) and deal-info (what the shipped census knows)."""
    census = commands.add_parser(
        "census", help="decide every deal of a range and solve each winnable one optimally",
        description="Run `any` mode on every deal of --deals and optimal A* on every winnable "
                    "one, one JSON line per deal into --out (resumable, like batch); or "
                    "summarise such a file (--summary), or pack it into the compact data "
                    "file the package ships (--pack).",
        epilog="examples:\n  fortress-solver census --deals 1-1000 --out census.jsonl\n"
               "  fortress-solver census --summary census.jsonl\n"
               "  fortress-solver census --pack census.jsonl --to census.bin")
    what = census.add_mutually_exclusive_group(required=True)
    what.add_argument("--deals", type=deal_range, metavar="A-B",
                      help="the deal numbers to decide, A to B (needs --out)")
    what.add_argument("--summary", type=Path, metavar="FILE.jsonl",
                      help="print the winnable share with its 95 %% interval, the histogram "
                           "of optimal lengths and the hardest deals of a census file")
    what.add_argument("--pack", type=Path, metavar="FILE.jsonl",
                      help="write a census file's verdicts as the compact data file --to")
    census.add_argument("--out", type=Path, metavar="FILE.jsonl",
                        help="with --deals: append the lines here; deals already in it are "
                             "skipped, so a run started again resumes")
    census.add_argument("--to", type=Path, default=census_data.PATH, metavar="FILE",
                        help="with --pack: the data file to write")
    census.add_argument("--jobs", type=positive(int), default=os.cpu_count() or 1,
                        help="worker processes, by default one per core (not with --dask)")
    census.add_argument("--dask", metavar="SCHEDULER",
                        help="with --deals: run on a Dask cluster, as `batch --dask` does "
                             "(`local`, or a scheduler's address)")
    census.add_argument("--engine", choices=[e.value for e in Engine], default="native",
                        help="the compiled kernel, or the Python reference")
    census.add_argument("--json", action="store_true", help="with --summary: one JSON object")
    add_budget(census, seconds=30)
    add_progress(census)
    census.set_defaults(run=_census)

    info = commands.add_parser(
        "deal-info", help="a deal's verdict and optimal length, from the shipped census",
        description="What the census shipped with the package knows of deal N: winnable "
                    "with its optimal length, unwinnable (proven), or unknown; at once, "
                    "without a search.",
        epilog="examples:\n  fortress-solver deal-info 2\n  fortress-solver deal-info 11982 "
               "--json")
    info.add_argument("number", type=deal_number, help="the deal number")
    info.add_argument("--json", action="store_true", help="print one JSON object")
    info.set_defaults(run=_deal_info)


def add_client_commands(commands: Any) -> None:
    _add_solving_commands(commands, server=True)
    generate = commands.add_parser(
        "generate", help="winnable deals, one JSON line each",
        description="Ask the server for COUNT winnable Beleaguered Fortress deals, each "
                    "solved optimally within the budget (and within the band of optimal "
                    "lengths, if given), trying the deal numbers of --deals in order. When "
                    "the range is spent first, or the server's --max-batch tries, it says "
                    "how many it found and exits 1.",
        epilog="example:\n  fortress-solver client generate "
               f"{_SERVER} --count 3 --min-length 75 --deals 1-500")
    add_server(generate)
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
            add_server(parser)
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
    if not server:
        batch.add_argument("--dask", metavar="SCHEDULER",
                           help="solve on a Dask cluster instead: `local` (a LocalCluster of "
                                "one worker per core) or a scheduler's address such as "
                                "tcp://scheduler:8786; --jobs does not apply (needs "
                                "pip install 'fortress-solver[dask]')")
    batch.add_argument("--out", type=Path, metavar="FILE.jsonl",
                       help="append results here, not to standard output; deals already "
                            "in it are skipped, so a run started again resumes")
    add_budget(batch, seconds=30)
    add_progress(batch)
    if server:
        batch.add_argument("--chunk", type=positive(int), default=50, metavar="N",
                           help="deals per call: two calls per replica run at once, and a "
                                "call cut off by its replica going away is sent again, with "
                                "the deals it has not answered, to another")


def _census(args: argparse.Namespace) -> None:
    from service.beleaguered import census

    if args.summary is not None:
        found = census.summary(args.summary)
        print(json.dumps(found.to_json()) if args.json else found)
    elif args.pack is not None:
        packed = census.pack(args.pack, args.to)
        print(f"{args.to}: deals {packed.first}-{packed.last}", file=sys.stderr)
    else:
        if args.out is None:
            raise InvalidInput("census --deals needs --out FILE.jsonl (it runs for long "
                               "and resumes from that file)")
        from service.beleaguered.batch import in_pool, run_batch

        work = partial(census.census_deal, budget=budget_of(args), engine=Engine(args.engine))
        if args.dask is not None:
            from service.beleaguered.dask_batch import on_dask  # Dask is optional: only for --dask

            solve_many = on_dask(args.dask, work)
        else:
            solve_many = in_pool(work, args.jobs)
        with args.out.open("a") as out:
            done = run_batch(args.deals, solve_many, out, args.out, args.progress)
        print(done, file=sys.stderr)


def _deal_info(args: argparse.Namespace) -> None:
    info = census_data.deal_info(args.number)
    if info is None:
        raise InvalidInput(f"deal {args.number} is not in the shipped census "
                           f"({_census_range()})")
    if args.json:
        _print_json(info.to_json())
    elif info.status is Status.SOLVED:
        length = "its optimal length unknown" if info.length is None else \
            f"in {info.length} moves (optimal)"
        print(f"deal {args.number}: winnable {length}")
    elif info.status is Status.UNSOLVABLE:
        print(f"deal {args.number}: not winnable (proven)")
    else:
        print(f"deal {args.number}: unknown (the census's budget ran out)")


def _census_range() -> str:
    shipped = census_data.shipped()
    return "none is shipped" if shipped is None else f"deals {shipped.first}-{shipped.last}"


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
    from service.beleaguered import messages as convert

    if args.deal is not None:
        return f"deal {args.deal}", convert.deal_source(args.deal)
    name, position = _read(args)
    return name, convert.position_source(position)


def _solve_remote(args: argparse.Namespace, client: Client) -> None:
    from service.beleaguered import messages as convert

    name, source = _remote_source(args)
    request = convert.solve_request(source, Mode(args.mode), Algorithm(args.algorithm),
                                    budget_of(args))
    start = (deal(args.deal) if args.deal is not None else _read(args)[1]) if args.steps else None
    _print_solution(name, convert.solution_from_proto(client.solve(request)), args.json, start)


def _hint_remote(args: argparse.Namespace, client: Client) -> None:
    from service.beleaguered import messages as convert

    name, source = _remote_source(args)
    request = convert.hint_request(source, budget_of(args), args.all_moves)
    response = client.hint(request)
    graded = tuple(convert.graded_from_proto(g) for g in response.all_moves) \
        if args.all_moves else None
    _print_hint(name, convert.hint_from_proto(response), args.json, graded)


def _run_batch(args: argparse.Namespace, solve_many: Any) -> None:
    from service.beleaguered.batch import run_batch

    if args.out is None:
        summary = run_batch(args.deals, solve_many, sys.stdout, progress=args.progress)
    else:
        with args.out.open("a") as out:
            summary = run_batch(args.deals, solve_many, out, args.out, args.progress)
    print(summary, file=sys.stderr)


def _batch(args: argparse.Namespace) -> None:
    mode, algorithm, budget, engine = (Mode(args.mode), Algorithm(args.algorithm),
                                       budget_of(args), Engine(args.engine))
    if args.dask is not None:
        from service.beleaguered.dask_batch import (
            solve_on_dask,  # Dask is optional: only for --dask
        )

        _run_batch(args, solve_on_dask(args.dask, mode, algorithm, budget, engine))
        return
    from service.beleaguered.batch import solve_locally

    _run_batch(args, solve_locally(mode, algorithm, budget, args.jobs, engine))


def _batch_remote(args: argparse.Namespace, client: Client) -> None:
    from service.beleaguered import messages as convert
    from service.beleaguered.batch import line

    def solve_chunk(todo: list[int]) -> Iterator[tuple[int, dict[str, Any]]]:
        request = convert.batch_request(todo, Mode(args.mode), Algorithm(args.algorithm),
                                        budget_of(args), without_moves=True)
        for result in client.solve_batch(request):
            yield result.deal, line(result.deal, *convert.verdict_from_proto(result.result))

    def solve_many(todo: list[int]) -> Records:
        return client.in_chunks(todo, args.chunk, solve_chunk)
    _run_batch(args, solve_many)


def _generate(args: argparse.Namespace, client: Client) -> None:
    """Prints each deal as it arrives; the stream ends early, with OUT_OF_RANGE, when the
    server has tried every deal of the range or as many as it lets one call try, which
    is a Shortfall."""
    import grpc

    from service.beleaguered import messages as convert

    request = convert.generate_request(args.count, args.min_length, args.max_length,
                                       budget_of(args))
    request.first_deal, request.last_deal = args.deals.start, args.deals.stop - 1
    stream: Iterator[Any] = client.generate_deals(request)
    found = 0
    spent = f"deals {request.first_deal}-{request.last_deal} spent: "
    tried = None  # the server's word for the tries it let this call make, when they ran out
    with progress_bar(total=args.count, unit="deal", forced=args.progress) as bar:
        try:
            for deal_found in stream:
                position = convert.position_from_proto(deal_found.position)
                _print_json({"deal": deal_found.deal, "position": position.to_json(),
                             "length": deal_found.length})
                found += 1
                bar.update()
        except grpc.RpcError as error:
            details = error.details() or ""
            if error.code() != grpc.StatusCode.OUT_OF_RANGE or not (
                    details.startswith(spent) or " tried (the most one call may try" in details):
                raise
            if not details.startswith(spent):
                tried = details
    if tried is not None:
        raise Shortfall(tried)
    if found < args.count:
        band = "" if args.min_length is None and args.max_length is None else \
            f" within {args.min_length or '...'}-{args.max_length or '...'} moves"
        raise Shortfall(f"{spent}{found} of {args.count} deals found{band}")
