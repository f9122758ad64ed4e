"""Deal and Play send, with each position of the patience family, the moves home its
solver makes at once (`safe_moves`, solver/beleaguered/problem.py), for a player's
auto-play: over HTTP and gRPC alike, the library's own, playable as they come, none
once played; the other games send none."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from service.api import fortress_solver_pb2 as pb
from service.server import RunningServer
from solver.beleaguered import apply, deal
from solver.beleaguered.problem import safe_moves
from solver.beleaguered.variant import find_variant
from tests.support.http import post
from tests.support.servers import connect, running_server


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=1, http_port=0) as running:
        yield running


@pytest.mark.parametrize("variant", ["freecell", "beleaguered-fortress", "eight-off"])
def test_a_deal_comes_with_its_safe_moves_and_playing_them_leaves_none(server, variant):
    dealt = deal(2, find_variant(variant))
    expected = [str(move) for move in safe_moves(dealt)]
    assert expected  # each of these deals has a card to send home at once
    status, view = post(server, "Deal", {"game": "patience", "seed": "2", "variant": variant})
    assert status == 200 and view["safeMoves"] == expected
    status, after = post(server, "Play", {"position": view["position"],
                                          "moves": view["safeMoves"]})
    played = dealt
    for move in safe_moves(dealt):
        played = apply(played, move)
    assert status == 200 and json.loads(after["positionJson"]) == played.to_json()
    assert "safeMoves" not in after  # none left: proto3 JSON leaves an empty list out


def test_grpc_sends_them_too_and_the_other_games_none(server):
    with connect(server) as stub:
        view = stub.Deal(pb.DealRequest(game="patience", seed=2), timeout=10)
        assert list(view.safe_moves) == [str(m) for m in safe_moves(deal(2))]
        duel = stub.Deal(pb.DealRequest(game="farbduell", seed=2), timeout=10)
        assert list(duel.safe_moves) == []
