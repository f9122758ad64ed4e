"""Real requests of every RPC, for every registered game (`solver.games.games()`): where
the wire fuzz starts its mutations, and what the fuzz's server answers first.

Each game's positions (tests/support/seeds.py) go as the game's own message when its
handler has one (`front_end(game).handler(...).source`), and as JSON, which every game
takes; a position that does not read (a plug-in's schema sketch) goes as JSON as it is.
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf.message import Message

from service.api import fortress_solver_pb2 as pb
from service.frontends import Settings, front_end
from solver.errors import InvalidInput
from solver.games import Game, games
from tests.support.seeds import seeds

SOLVER = pb.DESCRIPTOR.services_by_name["Solver"]


def _positions() -> list[tuple[Game[Any], Any, pb.PositionSource]]:
    """(game, position or None when it does not read, source) of every game's seeds."""
    found: list[tuple[Game[Any], Any, pb.PositionSource]] = []
    dealt = seeds()
    for game in games():
        handler = front_end(game).handler(game, Settings(cache_entries=1))
        for data in dealt[game.name]:
            try:
                position = game.from_json(data)
            except InvalidInput:
                found.append((game, None, pb.PositionSource(json=json.dumps(data))))
                continue
            if handler.sources:
                found.append((game, position, handler.source(position)))
            text = json.dumps({"game": game.name, **game.to_json(position)})
            found.append((game, position, pb.PositionSource(json=text)))
    return found


POSITIONS = _positions()
SOURCES: list[tuple[str, pb.PositionSource]] = [(game.name, source)
                                                for game, _, source in POSITIONS]


def _plays() -> list[pb.PlayRequest]:
    """A legal first move (when the game has moves) from each position, as its game's
    message when it has one (else as JSON), with and without the bots' replies."""
    typed = {game.name for game, _, source in POSITIONS if source.WhichOneof("source") != "json"}
    requests = []
    for k, (game, position, source) in enumerate(POSITIONS):
        as_json = source.WhichOneof("source") == "json"
        if position is None or as_json == (game.name in typed):
            continue
        moves = game.moves(position) if game.moves else ()
        requests.append(pb.PlayRequest(position=source, moves=moves[:1], replies=k % 2 == 0))
    return requests


def _valid() -> dict[str, list[Message]]:
    """Requests each RPC answers (or refuses as bad input), to start mutations from."""
    beleaguered = [s.beleaguered for _, s in SOURCES if s.WhichOneof("source") == "beleaguered"]
    return {
        "Solve": [pb.SolveRequest(position=source) for _, source in SOURCES],
        "Hint": [pb.HintRequest(position=source) for _, source in SOURCES],
        "SolveBatch": [pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=3)],
                                            positions=beleaguered[:1], mode=pb.MODE_ANY),
                       pb.SolveBatchRequest(deals=[pb.DealRange(first=2, last=2),
                                                   pb.DealRange(first=9, last=12)])],
        "GenerateDeals": [pb.GenerateDealsRequest(count=2, min_length=60, max_length=70,
                                                  first_deal=1, last_deal=20),
                          pb.GenerateDealsRequest(count=1, first_deal=1, last_deal=5)],
        "GetServerInfo": [pb.GetServerInfoRequest()],
        "Deal": [pb.DealRequest(game=game.name, seed=seed) for game in games()
                 for seed in (1, 2)],
        "Play": _plays(),
    }


VALID = _valid()
