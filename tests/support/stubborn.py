"""A test-only game whose one question keeps to its budget or not, as its options say: it
answers at once, or waits for its stop alone (its clock never read), or sleeps an hour
whatever it is told. Its answers name the worker process that gave them (0: none did,
the pool answered for it). The pool's tests ask it directly; a server finds it through
an entry point (`distribution`), as it finds any plug-in game."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.budget import Budget, SearchStats, Status
from solver.games import Game, Question


@dataclass(frozen=True)
class Options:
    heeds: str = "everything"


@dataclass(frozen=True)
class Worked:
    status: Status
    worker: int  # the process that answered; 0 for the pool's answer in its place
    stats: SearchStats

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value, "worker": self.worker}

    @classmethod
    def unknown(cls, seconds: float) -> Worked:
        return cls(Status.UNKNOWN, 0, SearchStats(0, seconds, 0))


def work(position: int, options: Options, budget: Budget) -> Worked:
    if options.heeds == "stop":
        while budget.stop is None or not budget.stop():
            time.sleep(0.01)
        return Worked(Status.UNKNOWN, os.getpid(), SearchStats(0, 0.0, 0))
    if options.heeds == "nothing":
        time.sleep(3600)
    return Worked(Status.SOLVED, os.getpid(), SearchStats(1, 0.0, 0))


WORK = Question("work", "keeps to its budget, or heeds its stop alone, or nothing", Options,
                Worked, work)
GAME: Game[int] = Game(name="stubborn", aliases=(), summary="stubborn: a test-only game",
                       from_json=lambda data: int(data["n"]),
                       to_json=lambda n: {"game": "stubborn", "n": n},
                       schema=lambda: {"title": "stubborn"}, questions=(WORK,))


def distribution(root: Path) -> None:
    """A distribution in `root` that declares the game: `root` and the checkout on the
    path, a server serves it."""
    info = root / "stubborn_games-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: stubborn-games\n"
                                   "Version: 1.0\n")
    (info / "entry_points.txt").write_text("[fortress_solver.games]\n"
                                           "stubborn = tests.support.stubborn:GAME\n")
