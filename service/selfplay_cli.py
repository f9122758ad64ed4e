"""Self-play for the command line, shared by the games: read the bots, play the games on
every core with a progress bar, print the win rates (or one JSON object)."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from service.arguments import (
    PER_CORE,
    add_progress,
    integer,
    processes,
    progress_bar,
    worker_pool,
)
from solver.errors import InvalidInput
from solver.intervals import wilson_interval
from solver.selfplay import tally

G = TypeVar("G")


class Result(Protocol):
    @property
    def winner(self) -> int | None: ...

    @property
    def hints(self) -> int: ...

    @property
    def hint_seconds(self) -> float: ...


def add_selfplay(commands: argparse._SubParsersAction[argparse.ArgumentParser],
                 positive: Callable[[type[int]], Callable[[str], int]],
                 bots: Sequence[str], example: str) -> argparse.ArgumentParser:
    """The `selfplay` subcommand with the arguments every game takes; `example` is the
    command its help ends with."""
    selfplay = commands.add_parser(
        "selfplay", help="win rates of two bots over many games",
        description="Play GAMES games between two bots, seats alternating, on every core, "
                    "and print each bot's wins with a 95 % interval.",
        epilog=f"example:\n  {example}")
    selfplay.add_argument("--bots", required=True, metavar="A,B",
                          help=f"two of {', '.join(bots)}, e.g. hint,greedy")
    selfplay.add_argument("--games", type=positive(int), required=True,
                          help="games to play")
    selfplay.add_argument("--seed", type=integer, default=1,
                          help="the first deal's seed; each pair of games plays one deal, "
                               "seats swapped")
    selfplay.add_argument("--jobs", type=processes, default=os.cpu_count() or 1,
                          help=f"worker processes, by default one per core (at most "
                               f"{PER_CORE} a core)")
    selfplay.add_argument("--json", action="store_true", help="print one JSON object")
    add_progress(selfplay)
    return selfplay


def read_bots(text: str, known: Sequence[str]) -> tuple[str, str]:
    bots = tuple(text.split(","))
    if len(bots) != 2 or any(bot not in known for bot in bots):
        raise InvalidInput(f"--bots takes two of {', '.join(known)} separated by a comma, "
                           f"not {text!r}")
    return bots


def play_all(play: Callable[[G], Result], games: list[G], jobs: int,
             progress: bool = False) -> list[Result]:
    """Every game in a pool of `jobs` processes, results in the order of `games`; a bar
    on stderr when it is a terminal or `progress` (--progress) asks for one."""
    with worker_pool(jobs) as pool:
        return list(progress_bar(pool.imap(play, games), total=len(games), unit="game",
                                 forced=progress))


def report(bots: tuple[str, str], results: list[Result], seed: int, as_json: bool,
           about: dict[str, Any]) -> None:
    """Win counts per bot with 95 % intervals, draws, and the time per hint; `about`
    names the setting (table, players) in both forms."""
    games = len(results)
    wins = tally(bots, [result.winner for result in results])
    hints = sum(result.hints for result in results)
    per_hint = sum(result.hint_seconds for result in results) / hints if hints else 0.0
    draws = games - sum(wins.values())
    if as_json:
        print(json.dumps({"games": games, "wins": wins, "seconds_per_hint": round(per_hint, 6),
                          "draws": draws, **about, "seed": seed}))
        return
    setting = "".join(f", {value} {key}" for key, value in about.items())
    print(f"{' vs '.join(wins)}: {games} games{setting}, seed {seed}, seats alternating")
    width = max(8, *map(len, wins))  # the names in a column
    for name, won in wins.items():
        low, high = wilson_interval(won, games)
        print(f"  {name:{width}} {won:5} wins  {won / games:6.1%}  "
              f"(95 % interval {low:.1%}-{high:.1%})")
    print(f"  {'draws':{width}} {draws:5}")
    if hints:
        print(f"  {per_hint * 1000:.1f} ms per hint over {hints} hints")
