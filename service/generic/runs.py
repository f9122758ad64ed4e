"""`batch` and `client batch` for a game that numbers its deals: one question asked of
each deal of a range, here in a pool of processes or on a Dask cluster, or of servers
through SolveBatch, one JSON line a deal, resumable (service/batch.py). The game says
what a run asks and what its lines and settings are (`Runs`); the command is made here.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.arguments import (
    PER_CORE,
    add_budget,
    add_progress,
    add_retry,
    add_server,
    add_variant,
    appending,
    budget_of,
    positive,
    processes,
    ranged,
    sigterm_as_interrupt,
)
from service.generic.commands import Commands, add_options, options_from_args
from solver.budget import Budget
from solver.games import Question
from solver.results import Settings

if TYPE_CHECKING:
    from service.api import fortress_solver_pb2 as pb
    from service.batch import Part, Records
    from service.client import Client

Line = Callable[[int, Any], dict[str, Any]]  # a deal's line from its number and answer


@dataclass(frozen=True)
class Runs:
    """What a game's runs over its deals ask and write."""

    question: Question[Any, Any, Any]  # asked of each deal
    flags: tuple[str, ...]  # the question's options that are the command's flags
    defaults: Mapping[str, Any]  # a run's options, as JSON, where not the question's
    finds: str  # what a run finds, for the help
    line: Line  # module-level: it goes to the worker processes
    # the run's settings (its lines record them), its range checked: (arguments, range,
    # options, budget)
    settings: Callable[[argparse.Namespace, range, Any, Budget], Settings]
    # the SolveBatch request of some deals (the run's settings, deals, options, budget)
    request: Callable[[Settings, list[int], Any, Budget], pb.SolveBatchRequest]
    result: Callable[[pb.BatchResult], dict[str, Any]]  # a deal's line from a server
    # where the game solves a run of deals faster than a deal at a time: the lines of some
    # deals (service/batch.py Part) for a run's (arguments, options, budget), else None
    parts: Callable[[argparse.Namespace, Any, Budget], Part | None] | None = None


def add_batch(commands: Any, asked: Commands, runs: Runs, remote: bool, about: str) -> None:
    """`batch` (`remote`: `client batch`, with --server and --chunk) among `commands`,
    for the game `asked` plays; `about`: its help."""
    game = asked.game
    where = "client batch --server 127.0.0.1:50051" if remote else "batch"
    batch: argparse.ArgumentParser = commands.add_parser(
        "batch", help=about,
        description=f"{game.title}"
                    + (" (any of its variants: --variant)" if asked.in_variant else "")
                    + f": {runs.finds} of a range of deals, as JSON lines.",
        epilog=f"example:\n  fortress-solver {where} --deals 1-100 --out results.jsonl")
    if remote:
        add_server(batch)
        batch.set_defaults(run_remote=partial(_remote, asked, runs))
    else:
        batch.set_defaults(run=partial(_local, asked, runs))
    if asked.flags is not None:
        asked.flags(batch, runs.question, remote)
    if asked.in_variant is not None:
        add_variant(batch)
    batch.add_argument("--deals", type=ranged(asked.deal_number), required=True,
                       metavar="A-B", help="the deal numbers to solve, A to B (or one number)")
    add_options(batch, runs.question, runs.flags, runs.defaults)
    batch.add_argument("--jobs", type=processes, default=os.cpu_count() or 1,
                       help=f"worker processes, by default one per core, at most "
                            f"{PER_CORE} a core (local runs only)")
    if not remote:
        batch.add_argument("--dask", metavar="SCHEDULER",
                           help="solve on a Dask cluster instead: `local` (a LocalCluster of "
                                "one worker per core) or a scheduler's address such as "
                                "tcp://scheduler:8786; --jobs does not apply (needs "
                                "pip install 'fortress-solver[dask]')")
    batch.add_argument("--out", type=Path, metavar="FILE.jsonl",
                       help="append results here, not to standard output; deals already "
                            "in it are skipped, so a run started again resumes (a run of "
                            "the same settings, the variant, options and budget: each line "
                            "records them)")
    add_retry(batch)
    add_budget(batch, seconds=30)
    add_progress(batch)
    if remote:
        batch.add_argument("--chunk", type=positive(int), default=50, metavar="N",
                           help="deals per call: two calls per replica run at once, and a "
                                "call cut off by its replica going away is sent again, with "
                                "the deals it has not answered, to another")


def deal_line(number: int, deal: Callable[[int], Any], question: Question[Any, Any, Any],
              options: Any, budget: Budget, line: Line) -> dict[str, Any]:
    """Deal `number`'s line: the question's answer of it (in a worker process)."""
    return line(number, question.ask(deal(number), options, budget))


def _local(asked: Commands, runs: Runs, args: argparse.Namespace) -> None:
    from service.batch import runner

    options = options_from_args(runs.question, args, runs.defaults)
    budget = budget_of(args)
    settings = runs.settings(args, args.deals, options, budget)
    game = asked.game
    if asked.in_variant is not None:
        game = asked.in_variant(game, args.variant, args.rules)
    if game.deal is None:
        raise TypeError(f"{game.name} numbers no deals, so it runs no batch")
    work = partial(deal_line, deal=game.deal, question=runs.question, options=options,
                   budget=budget, line=runs.line)
    parts = None if runs.parts is None else runs.parts(args, options, budget)
    run_deals(args, settings, runner(work, args.jobs, args.dask, parts))


def _remote(asked: Commands, runs: Runs, args: argparse.Namespace, client: Client) -> None:
    options = options_from_args(runs.question, args, runs.defaults)
    budget = budget_of(args)
    settings = runs.settings(args, args.deals, options, budget)

    def solve_chunk(todo: list[int]) -> Iterator[tuple[int, dict[str, Any]]]:
        for result in client.solve_batch(runs.request(settings, todo, options, budget)):
            yield result.deal, runs.result(result)

    def solve_many(todo: list[int]) -> Records:
        return client.in_chunks(todo, args.chunk, solve_chunk)
    run_deals(args, settings, solve_many)


def run_deals(args: argparse.Namespace, settings: Settings,
              solve_many: Callable[[list[int]], Records]) -> None:
    """The lines of --deals (a batch's, a census's), to standard output or appended to
    --out, resumed from it, then the summary on standard error."""
    from service.batch import run_batch

    with sigterm_as_interrupt(), appending(args.out) as out:
        summary = run_batch(args.deals, solve_many, settings, out or sys.stdout, args.out,
                            args.progress, args.retry_unknown, args.retry_unproven)
    print(summary, file=sys.stderr)
