"""Hints that tell the truth, end to end: a Farbduell go-out and a Fortress Fight Kingdom
win this turn are reported as wins (with the line that wins) and an estimate as a chance
of winning, the same through the library, the command line, gRPC and HTTP (Connect JSON)
on one real server on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from service.api import fortress_solver_pb2 as pb
from service.server import RunningServer
from solver.farbduell.hints import hint as farbduell_hint
from solver.farbduell.position import Position
from solver.ffkingdom import load
from solver.ffkingdom.evaluate import log_odds
from solver.ffkingdom.hints import hint as ffk_hint
from tests.support.cli import assert_client_prints_what_local_prints, run
from tests.support.farbduell import GOES_OUT, TABLES
from tests.support.ffkingdom import RULES, WIN_THIS_TURN, view
from tests.support.http import post
from tests.support.servers import address, running_server

GO_OUT = {"game": "farbduell", **GOES_OUT}
CHAIN = ["play red-skip", "play blue-skip", "play blue-7"]
FFK_WIN = {"game": "fortress-fight-kingdom", **WIN_THIS_TURN}
FFK_OPEN = {"game": "fortress-fight-kingdom", **view(3)}


@pytest.fixture(scope="module")
def solver_server() -> Iterator[RunningServer]:
    """The module's server (with conftest's `stub` on it), with its HTTP face too."""
    with running_server(workers=2, queue=8, http_port=0) as running:
        yield running


def grpc_hint(stub, data: dict) -> pb.HintResponse:
    return stub.Hint(pb.HintRequest(position=pb.PositionSource(json=json.dumps(data))),
                     timeout=60)


def http_hint(server: RunningServer, data: dict) -> dict:
    status, body = post(server, "Hint", {"position": {"json": json.dumps(data)}})
    assert status == 200, body
    return body


def test_a_farbduell_go_out_is_a_win_over_grpc_and_http(stub, solver_server):
    local = farbduell_hint(Position.from_json(GO_OUT, TABLES))
    assert local.wins and [str(action) for action in local.chain] == CHAIN
    advice = grpc_hint(stub, GO_OUT).farbduell
    assert (advice.action, advice.value, advice.wins, list(advice.chain)) == \
        ("play red-skip", 1.0, True, CHAIN)
    assert [(other.action, other.wins) for other in advice.runners_up] == [("draw", False)]
    body = http_hint(solver_server, GO_OUT)["farbduell"]
    assert (body["action"], body["value"], body["wins"], body["chain"]) == \
        ("play red-skip", 1.0, True, CHAIN)
    assert [other["action"] for other in body["runnersUp"]] == ["draw"]


def test_a_farbduell_estimate_is_no_win(stub, solver_server):
    data = {"game": "farbduell", "hands": [["red-skip", "joker", "blue-5", "green-2"],
                                           ["green-1"]], "discard": ["red-9"]}
    advice = grpc_hint(stub, data).farbduell
    assert not advice.wins and list(advice.chain) == [] and 0 < advice.value < 1
    body = http_hint(solver_server, data)["farbduell"]
    assert "wins" not in body and "chain" not in body  # proto3 JSON leaves defaults out
    assert 0 < body["value"] < 1


def test_an_ffk_win_this_turn_is_a_win_over_grpc_and_http(stub, solver_server):
    local = ffk_hint(load(FFK_WIN, RULES).state)
    plan = [str(action) for action in local.plan]
    response = grpc_hint(stub, FFK_WIN).ffk
    assert (response.action, response.wins, response.win_chance, list(response.plan)) == \
        (plan[0], True, 1.0, plan)
    assert not response.HasField("value")  # log-odds of a certain win: none to give
    assert all(other.wins and other.win_chance == 1.0 and not other.HasField("value")
               for other in response.runners_up)
    body = http_hint(solver_server, FFK_WIN)["ffk"]
    assert (body["action"], body["wins"], body["winChance"], body["plan"]) == \
        (plan[0], True, 1.0, plan)
    assert "value" not in body
    assert all(other["wins"] and other["winChance"] == 1.0 and "value" not in other
               for other in body["runnersUp"])


def test_an_ffk_estimate_is_a_chance_with_its_log_odds(stub, solver_server):
    response = grpc_hint(stub, FFK_OPEN).ffk
    assert not response.wins and 0 < response.win_chance < 1
    assert response.value == pytest.approx(log_odds(response.win_chance))
    chances = [response.win_chance, *(other.win_chance for other in response.runners_up)]
    assert chances == sorted(chances, reverse=True)
    body = http_hint(solver_server, FFK_OPEN)["ffk"]
    assert "wins" not in body and body["winChance"] == pytest.approx(response.win_chance)
    assert body["value"] == pytest.approx(response.value)


@pytest.mark.parametrize(("game", "data", "shown"), [
    ("farbduell", GO_OUT, "play red-skip (wins this turn: " + ", ".join(CHAIN) + ")"),
    ("ffk", FFK_WIN, "(wins this turn: "),
    ("ffk", FFK_OPEN, "(chance of winning 0."),
])
def test_the_command_line_says_win_or_chance_and_the_client_says_the_same(
        capsys, tmp_path, solver_server, game, data, shown):
    path = tmp_path / "position.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, game, "hint", str(path))
    assert (code, err) == (0, "") and shown in out.splitlines()[0]
    assert "10000" not in out and "expected" not in out
    assert ("estimated" in out) == (shown == "(chance of winning 0.")
    assert_client_prints_what_local_prints(capsys, address(solver_server), game, "hint",
                                           str(path))
