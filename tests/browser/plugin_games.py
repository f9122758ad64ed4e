"""Two tiny games that a server of the browser tests serves as plug-ins (the
`fortress_solver.games` entry point group), which the playground has no board of its own
for: it must list them from GetServerInfo and show them in its generic view.

- coins: one pile of Nim, two seats taking one or two coins in turn, whoever takes the
  last coin wins; it deals (deal N: 5 + N % 7 coins) and plays ("take 1", "take 2"), and
  answers "solve" (who wins, and what to take) and "hint" (what to take).
- pebbles: a heap that is only counted; it deals nothing and takes no moves, and answers
  "count".

`plugin_path(folder)` writes a distribution's metadata into `folder` naming them, for a
server started with `folder` on its PYTHONPATH.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from operator import attrgetter
from pathlib import Path
from typing import Any

from solver.budget import Budget, SearchStats, Status
from solver.errors import InvalidInput
from solver.games import Game, Question

MOST = 1000  # coins or pebbles in one position


@dataclass(frozen=True)
class Heap:
    size: int
    to_move: int = 0


@dataclass(frozen=True)
class Told:
    """An answer: its status and what it says."""

    status: Status
    facts: tuple[tuple[str, Any], ...]
    stats: SearchStats

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value, **dict(self.facts)}

    @classmethod
    def unknown(cls, seconds: float) -> Told:
        return cls(Status.UNKNOWN, (), SearchStats(0, seconds, 0))


@dataclass(frozen=True)
class NoOptions:
    pass


def read_heap(game: str, key: str, data: Any) -> Heap:
    """A position of `game`, its size under `key`; every fault named."""
    if not isinstance(data, dict):
        raise InvalidInput(f"a {game} position is a JSON object")
    faults = [f"{name}: is not a field of {game}" for name in data
              if name not in ("game", key, "to_move")]
    size, to_move = data.get(key), data.get("to_move", 0)
    if data.get("game") != game:
        faults.append(f'game: must be "{game}"')
    if not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= MOST:
        faults.append(f"{key}: must be a whole number within 0..{MOST}")
    if to_move not in (0, 1):
        faults.append("to_move: must be 0 or 1")
    if faults:
        raise InvalidInput(faults)
    return Heap(size, to_move)


def write_heap(game: str, key: str, heap: Heap) -> dict[str, Any]:
    return {"game": game, key: heap.size, "to_move": heap.to_move}


def heap_schema(game: str, key: str) -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
            "properties": {"game": {"const": game},
                           key: {"type": "integer", "minimum": 0, "maximum": MOST},
                           "to_move": {"enum": [0, 1]}},
            "required": ["game", key], "additionalProperties": False}


# ---------------------------------------------------------------- coins


def wins(coins: int) -> bool:
    """Whether the seat to move with `coins` left wins (searched, not by rule)."""
    winning = [False, True]
    for n in range(2, coins + 1):
        winning.append(not winning[n - 1] or not winning[n - 2])
    return winning[coins]


def take(coins: int) -> int | None:
    return next((k for k in (1, 2) if k <= coins and not wins(coins - k)), None)


def solve_coins(heap: Heap, options: NoOptions, budget: Budget) -> Told:
    return Told(Status.SOLVED, (("wins", wins(heap.size)), ("take", take(heap.size))),
                SearchStats(heap.size, 0.0, 0))


def hint_coins(heap: Heap, options: NoOptions, budget: Budget) -> Told:
    return Told(Status.SOLVED, (("take", take(heap.size)),), SearchStats(heap.size, 0.0, 0))


def coin_moves(heap: Heap) -> tuple[str, ...]:
    return tuple(f"take {k}" for k in (1, 2) if k <= heap.size)


def play_coins(heap: Heap, move: str) -> Heap:
    if move not in coin_moves(heap):
        raise InvalidInput(f"{move!r} is not a move here ({', '.join(coin_moves(heap)) or 'none'})")
    return Heap(heap.size - int(move.split()[1]), 1 - heap.to_move)


def coins_winner(heap: Heap) -> int | None:
    return 1 - heap.to_move if heap.size == 0 else None


def deal_coins(seed: int) -> Heap:
    return Heap(5 + seed % 7)


def draw_coins(heap: Heap) -> str:
    if heap.size == 0:
        return f"no coins left: seat {1 - heap.to_move} took the last"
    return f"{' '.join('o' * heap.size)}\n{heap.size} coins, seat {heap.to_move} to move"


COINS: Game[Heap] = Game(
    name="coins", aliases=("nim",), summary="one pile of Nim, taking one or two coins",
    from_json=partial(read_heap, "coins", "coins"), to_json=partial(write_heap, "coins", "coins"),
    schema=partial(heap_schema, "coins", "coins"),
    questions=(Question("solve", "who wins, and what to take", NoOptions, Told, solve_coins),
               Question("hint", "what to take", NoOptions, Told, hint_coins)),
    draw=draw_coins, deal=deal_coins, play=play_coins, moves=coin_moves, winner=coins_winner,
    to_move=attrgetter("to_move"))

# ---------------------------------------------------------------- pebbles


def count_pebbles(heap: Heap, options: NoOptions, budget: Budget) -> Told:
    return Told(Status.SOLVED, (("pebbles", heap.size), ("even", heap.size % 2 == 0)),
                SearchStats(heap.size, 0.0, 0))


PEBBLES: Game[Heap] = Game(
    name="pebbles", aliases=(), summary="a heap of pebbles, counted",
    from_json=partial(read_heap, "pebbles", "pebbles"),
    to_json=partial(write_heap, "pebbles", "pebbles"),
    schema=partial(heap_schema, "pebbles", "pebbles"),
    questions=(Question("count", "how many pebbles, and whether evenly many", NoOptions, Told,
                        count_pebbles),))

# ---------------------------------------------------------------- the plug-in

DISTRIBUTION = "fortress_solver_browser_games-0.dist-info"


def plugin_path(folder: Path) -> Path:
    """`folder`, holding the metadata of an installed distribution whose entry points
    are these games."""
    info = folder / DISTRIBUTION
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fortress-solver-browser-games\n"
                                   "Version: 0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[fortress_solver.games]\n"
        f"coins = {__name__}:COINS\n"
        f"pebbles = {__name__}:PEBBLES\n", encoding="utf-8")
    return folder
