"""`verdict` mode end to end: the first win found, or a proof there is none. On the
command line (`solve`, `batch`, `client batch`), over gRPC (MODE_VERDICT) and over HTTP
(the typed options' "MODE_VERDICT", QuestionOptions' "verdict"): its lines replay to a
win, its verdicts are the shipped census's and `any` mode's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.api import fortress_solver_pb2 as pb
from service.server import RunningServer
from solver.beleaguered import Move, Position, deal, replay
from solver.beleaguered.census import shipped
from solver.beleaguered.variant import find_variant
from solver.budget import Status
from tests.support.batch_output import batch_records
from tests.support.cli import run, run_json
from tests.support.http import post
from tests.support.servers import address, connect, deal_source, moves_from_proto, running_server

UNWINNABLE = (3, 4, 5, 7)
WINNABLE = (2, 6, 13, 15)
CENSUS = shipped()
needs_census = pytest.mark.skipif(CENSUS is None, reason="no census is shipped")


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=2, queue=8, http_port=0) as running:
        yield running


def wins(position: Position, moves: list[Move]) -> bool:
    return replay(position, moves).is_won


def json_moves(answer: dict) -> list[Move]:
    return [Move.from_json(move) for move in answer["moves"]]


# ----------------------------------------------------------------------- the command line


@pytest.mark.parametrize(("variant", "number"), [("freecell", 1), ("freecell", 2),
                                                 ("beleaguered-castle", 2), ("citadel", 3)])
def test_solve_in_verdict_mode_answers_a_line_that_wins(capsys, variant, number):
    answer = run_json(capsys, "solve", "--deal", str(number), "--variant", variant,
                      "--mode", "verdict", "--json")
    assert answer["status"] == "solved"
    moves = json_moves(answer)
    assert answer["length"] == len(moves)
    assert wins(deal(number, find_variant(variant)), moves)
    assert answer["lower_bound"] is None or answer["length"] >= answer["lower_bound"]


@pytest.mark.parametrize("number", UNWINNABLE)
def test_solve_in_verdict_mode_proves_an_unwinnable_deal_unsolvable(capsys, number):
    answer = run_json(capsys, "solve", "--deal", str(number), "--mode", "verdict", "--json")
    assert (answer["status"], answer["length"], answer["moves"]) == ("unsolvable", None, [])
    code, out, err = run(capsys, "solve", "--deal", str(number), "--mode", "verdict")
    assert code == 0, err
    assert out.startswith(f"deal {number}: unsolvable (")


@pytest.mark.parametrize("number", WINNABLE)
def test_solve_in_verdict_mode_wins_a_winnable_deal(capsys, number):
    answer = run_json(capsys, "solve", "--deal", str(number), "--mode", "verdict", "--json")
    assert answer["status"] == "solved"
    assert wins(deal(number), json_moves(answer))


def batch_of(capsys, *argv: str) -> dict[int, dict]:
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    return {line["deal"]: line for line in batch_records(out)}


@needs_census
def test_batch_in_verdict_mode_has_any_modes_verdicts_and_the_census(capsys, tmp_path: Path):
    out = tmp_path / "verdicts.jsonl"
    batch_of(capsys, "batch", "--deals", "1-300", "--mode", "verdict", "--jobs", "2",
             "--out", str(out))
    verdict = {line["deal"]: line for line in map(json.loads, out.read_text().splitlines())}
    assert {line["mode"] for line in verdict.values()} == {"verdict"}
    quick = batch_of(capsys, "batch", "--deals", "1-300", "--mode", "any", "--jobs", "2")
    assert sorted(verdict) == sorted(quick) == list(range(1, 301))
    for number, line in verdict.items():
        known = CENSUS.info(number)
        assert known is not None
        assert line["status"] == quick[number]["status"] == known.status.value
        if known.status is Status.SOLVED:
            assert known.length is not None and line["length"] >= known.length


@pytest.mark.parametrize("variant", ["freecell", "beleaguered-castle"])
def test_verdict_and_any_modes_agree_on_a_variants_deals(capsys, variant):
    """Deals both modes decide within the budget get the same verdict."""
    common = ("batch", "--variant", variant, "--deals", "1-40", "--jobs", "2", "--seconds",
              "5")
    verdict = batch_of(capsys, *common, "--mode", "verdict")
    quick = batch_of(capsys, *common, "--mode", "any")
    decided = [n for n in verdict if "unknown" not in (verdict[n]["status"],
                                                      quick[n]["status"])]
    assert len(decided) >= 30
    assert all(verdict[n]["status"] == quick[n]["status"] for n in decided)


def test_client_batch_in_verdict_mode_is_the_local_one(capsys, server):
    local = batch_of(capsys, "batch", "--deals", "1-40", "--mode", "verdict", "--jobs", "1")
    remote = batch_of(capsys, "client", "batch", "--server", address(server), "--deals",
                      "1-40", "--mode", "verdict")
    assert {n: (line["status"], line["length"]) for n, line in remote.items()} == \
        {n: (line["status"], line["length"]) for n, line in local.items()}


# ------------------------------------------------------------------------ gRPC and HTTP


@pytest.mark.parametrize("number", (*WINNABLE, *UNWINNABLE))
def test_solve_with_mode_verdict_over_grpc(server, number):
    with connect(server) as stub:
        answer = stub.Solve(pb.SolveRequest(
            position=deal_source(number),
            beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_VERDICT)), timeout=60)
    if number in UNWINNABLE:
        assert answer.status == pb.STATUS_UNSOLVABLE and not answer.moves
    else:
        assert answer.status == pb.STATUS_SOLVED
        assert wins(deal(number), moves_from_proto(answer.moves))
        assert answer.length == len(answer.moves)


def test_solve_batch_with_mode_verdict_has_any_modes_verdicts(server):
    def verdicts(mode: int) -> dict[int, int]:
        request = pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=60)], mode=mode,
                                       without_moves=True)
        with connect(server) as stub:
            return {result.deal: result.result.status
                    for result in stub.SolveBatch(request, timeout=120)}

    verdict = verdicts(pb.MODE_VERDICT)
    assert len(verdict) == 60 and pb.STATUS_UNKNOWN not in verdict.values()
    assert verdict == verdicts(pb.MODE_ANY)
    assert {verdict[n] for n in WINNABLE} == {pb.STATUS_SOLVED}
    assert {verdict[n] for n in UNWINNABLE} == {pb.STATUS_UNSOLVABLE}


def test_server_info_lists_verdict_mode(server):
    with connect(server) as stub:
        info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=10)
    patience = next(game for game in info.games if game.name == "patience")
    assert "verdict" in patience.modes
    solving = next(q for q in patience.questions if q.name == "solve")
    assert "verdict" in json.loads(solving.options_schema)["$defs"]["Mode"]["enum"]


@pytest.mark.parametrize("number", [6, 7])
def test_solve_in_verdict_mode_over_http(server, number):
    typed = {"position": {"beleaguered_deal": number}, "beleaguered": {"mode": "MODE_VERDICT"}}
    status, body = post(server, "Solve", typed)
    assert status == 200
    asked = {"position": {"beleaguered_deal": number},
             "questionOptions": {"question": "solve", "options": '{"mode": "verdict"}'}}
    status, by_name = post(server, "Solve", asked)
    assert status == 200
    answer = json.loads(by_name["answerJson"])
    if number == 7:
        assert body["status"] == by_name["status"] == "STATUS_UNSOLVABLE"
        assert answer["status"] == "unsolvable" and answer["moves"] == []
        return
    assert body["status"] == by_name["status"] == "STATUS_SOLVED"
    line = [Move.parse(f"{m['card']} {m['source']} {m['target']}") for m in body["moves"]]
    assert wins(deal(number), line)
    assert wins(deal(number), json_moves(answer))

