"""The seam: a fifth game, registered here only, runs through the worker pool and the
command line with no change anywhere else; and the shared files name no game."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import Field

from service import games
from service.arguments import add_budget, budget_of, read_position
from service.cli import main
from service.games import Entry
from service.pool import Job, WorkerPool
from solver.budget import Budget, SearchStats, Status
from solver.games import Game, Question
from solver.reading import Wire, check, schema

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------- the tiny game
# Nim with one pile: take one or two coins; whoever takes the last coin wins.


class CoinsWire(Wire):
    game: Literal["coins"] = "coins"
    coins: Annotated[int, Field(ge=0, le=10_000)]


@dataclass(frozen=True)
class Pile:
    coins: int


@dataclass(frozen=True)
class Verdict:
    status: Status
    wins: bool | None
    take: int | None
    stats: SearchStats

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value, "wins": self.wins, "take": self.take}

    @classmethod
    def unknown(cls, seconds: float) -> Verdict:
        return cls(Status.UNKNOWN, None, None, SearchStats(0, seconds, 0))


@dataclass(frozen=True)
class NoOptions:
    pass


def solve_pile(pile: Pile, options: NoOptions, budget: Budget) -> Verdict:
    """Searched, not computed by rule, so that the answer is the pool's work."""
    wins = [False, True]  # wins[n]: the player to move with n coins wins
    for n in range(2, pile.coins + 1):
        wins.append(not wins[n - 1] or not wins[n - 2])
    won = wins[pile.coins] if pile.coins else False
    take = next((k for k in (1, 2) if k <= pile.coins and not wins[pile.coins - k]), None)
    return Verdict(Status.SOLVED, won, take, SearchStats(pile.coins, 0.0, 0))


def read_pile(data: Any) -> Pile:
    return Pile(check(CoinsWire, data).coins)


SOLVE = Question("solve", "who wins, and what to take", NoOptions, Verdict, solve_pile)
COINS: Game[Pile] = Game(
    name="coins", aliases=("nim",), summary="one pile of Nim",
    from_json=read_pile, to_json=lambda pile: {"game": "coins", "coins": pile.coins},
    schema=lambda: schema(CoinsWire, "coins"), questions=(SOLVE,))


class CoinsCommands:
    @staticmethod
    def add_commands(commands: Any) -> None:
        parser = commands.add_parser("coins", help="one pile of Nim")
        parser.add_argument("file")
        add_budget(parser, seconds=5)
        parser.set_defaults(run=_run)

    @staticmethod
    def add_client_commands(commands: Any) -> None:
        pass


def _run(args: argparse.Namespace) -> None:
    verdict = SOLVE.ask(read_position(COINS, args.file), None, budget_of(args))
    print(json.dumps(verdict.to_json()))


@pytest.fixture
def coins() -> Iterator[Game[Pile]]:
    entry = Entry(COINS, CoinsCommands())
    games.register(entry)
    try:
        yield COINS
    finally:
        games.GAMES.remove(entry)


# ---------------------------------------------------------------- the tests


def test_the_fifth_game_runs_on_the_command_line(coins, tmp_path, capsys):
    for number, wins, take in ((7, True, 1), (9, False, None), (11, True, 2)):
        path = tmp_path / "pile.json"
        path.write_text(json.dumps({"game": "coins", "coins": number}))
        assert main(["coins", str(path)]) == 0
        assert json.loads(capsys.readouterr().out) == {"status": "solved", "wins": wins,
                                                       "take": take}


def test_the_fifth_game_refuses_bad_input_in_one_line(coins, tmp_path, capsys):
    path = tmp_path / "pile.json"
    path.write_text(json.dumps({"coins": -3, "colour": "red"}))
    assert main(["coins", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "coins: must be at least 0" in err and "colour" in err


def test_the_fifth_game_prints_its_schema(coins, capsys):
    assert main(["schema", "nim"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["properties"]["coins"]["maximum"] == 10_000


def test_the_fifth_game_runs_in_the_worker_pool(coins):
    pool = WorkerPool(workers=1, queue_size=1)
    try:
        for number in (0, 1, 5, 6, 1000):
            answer = pool.run(Job(SOLVE, Pile(number), None, Budget(seconds=10)),
                              lambda: False)
            assert answer == solve_pile(Pile(number), NoOptions(), Budget())
    finally:
        pool.close()


def test_a_job_that_cannot_start_is_unknown_of_its_own_answer_type(coins):
    pool = WorkerPool(workers=1, queue_size=1)
    try:
        answer = pool.run(Job(SOLVE, Pile(3), None, Budget(seconds=10)), lambda: True)
        assert isinstance(answer, Verdict) and answer.status is Status.UNKNOWN
    finally:
        pool.close()


SHARED = ("service/servicer.py", "service/pool.py", "service/client.py", "service/cli.py",
          "service/arguments.py")


@pytest.mark.parametrize("path", SHARED)
def test_the_shared_service_files_name_no_game(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    assert not re.findall(r"(?i)ffk|farbduell|stronghold|beleaguered", text)


def test_every_game_is_found_by_its_name_and_aliases():
    for entry in games.GAMES:
        assert games.find(entry.game.name) is entry
        for alias in entry.game.aliases:
            assert games.find(alias.upper()) is entry
