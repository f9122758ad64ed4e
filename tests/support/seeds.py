"""Real positions of every registered game (`solver.games.games()`), as JSON: where the
fuzzers start their mutations and the schema tests look for what a game writes.

A game's own positions come first: those it deals (`deal`, for a game that numbers its
deals) or starts (`start`, a new game from a seed). Then the examples its JSON Schema
gives, and a few kept here for the built-in games: what their deals never hold (the other
Farbduell tables; Stronghold deals nothing). A game with none of these, a plug-in that
neither deals nor starts nor gives an example, gets the sketch of its schema
(tests/support/schema_sketch.py): it may not even read, but its mutations reach the
game's reader.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from functools import cache
from typing import Any

from service.cli import main
from solver.games import Game, games
from tests.support.schema_sketch import examples, sketch
from tests.support.stronghold import FUZZ_EXAMPLE, SPEC_EXAMPLE

DEALS = (1, 2, 617)  # the deals of a game that numbers them
STARTS = (1, 2)      # the seeds of a game that starts new games


def printed(*argv: str) -> Any:
    """The JSON a command prints (it must succeed)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(list(argv))
    assert code == 0, argv
    return json.loads(out.getvalue())


# Positions of the built-in games their deal or start cannot give, by game name.
EXAMPLES: dict[str, Callable[[], list[Any]]] = {
    "farbduell": lambda: [printed("farbduell", "deal", "--seed", str(seed), "--table", table)
                          for seed, table in ((2, "belagerung"), (3, "tag_nacht"))],
    "stronghold": lambda: [FUZZ_EXAMPLE, SPEC_EXAMPLE],
}


def own_positions(game: Game[Any]) -> list[Any]:
    """The positions the game deals or starts, its schema's examples and those kept here
    for it: none for a game that gives none."""
    found: list[Any] = []
    if game.deal is not None:
        found += [game.to_json(game.deal(number)) for number in DEALS]
    if game.start is not None:
        found += [game.to_json(game.start(seed)) for seed in STARTS]
    found += examples(game.schema())
    found += EXAMPLES.get(game.name, list)()
    return found


def positions(game: Game[Any]) -> list[Any]:
    """The game's positions to start from: its own, else the sketch of its schema."""
    return own_positions(game) or [sketch(game.schema())]


@cache
def _all() -> dict[str, str]:
    return {game.name: json.dumps(positions(game)) for game in games()}


def seeds() -> dict[str, list[Any]]:
    """Every registered game's positions to start from, by game name (fresh copies: a
    caller may change them)."""
    return {name: json.loads(found) for name, found in _all().items()}
