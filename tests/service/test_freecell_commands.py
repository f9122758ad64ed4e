"""The FreeCell family through the commands and the RPCs: both metrics, lines written out
in single cards, the sequence moves printed with the cards they carry, and a client's
answers over gRPC and HTTP the same as the local commands' (a real server on 127.0.0.1).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc
from solver.beleaguered import Mode, Move, deal, replay, solve
from solver.beleaguered.position import Position
from solver.beleaguered.rules import TABLEAU, apply
from solver.beleaguered.variant import find_variant
from solver.budget import Budget
from tests.support.batch_output import batch_records
from tests.support.cli import run, run_json, timeless
from tests.support.http import post
from tests.support.serve_process import ServeProcess
from tests.support.servers import running_server

FREECELL = find_variant("freecell")
DEAL = 2  # proven in 73 moves (81 single-card moves), and in 75 single-card moves


def moves_of(data: dict) -> list[Move]:
    return [Move.from_json(move) for move in data["moves"]]


def carried(position: Position, moves: list[Move]) -> list[int]:
    """The cards each move of a line carries."""
    counts = []
    for move in moves:
        pile = position.tableau[move.source.index or 0] if move.source.kind == TABLEAU else ()
        counts.append(len(pile) - pile.index(move.card) if move.card in pile else 1)
        position = apply(position, move)
    return counts


def test_solve_counts_a_run_as_one_move_and_reports_its_single_cards(capsys):
    data = run_json(capsys, "solve", "--deal", str(DEAL), "--variant", "freecell", "--json")
    moves = moves_of(data)
    assert (data["status"], data["optimal"], data["metric"]) == ("solved", True, "moves")
    assert data["length"] == data["lower_bound"] == len(moves) == 73
    assert replay(deal(DEAL, FREECELL), moves).is_won
    runs = [n for n in carried(deal(DEAL, FREECELL), moves) if n > 1]
    assert runs  # sequence moves make the line
    assert data["single_card_moves"] == 81 > data["length"]
    assert data["single_cards"] is False


def test_the_cards_metric_minimises_single_card_moves(capsys):
    data = run_json(capsys, "solve", "--deal", str(DEAL), "--variant", "freecell",
                    "--metric", "cards", "--json")
    moves = moves_of(data)
    assert (data["optimal"], data["metric"]) == (True, "cards")
    assert data["length"] == data["single_card_moves"] == data["lower_bound"] == 75
    assert set(carried(deal(DEAL, FREECELL), moves)) == {1}
    assert replay(deal(DEAL, FREECELL), moves).is_won
    # fewer single cards than the moves metric's line written out, more moves
    assert 73 < data["length"] < 81


def test_single_cards_writes_the_line_out_and_keeps_its_length_in_moves(capsys):
    data = run_json(capsys, "solve", "--deal", str(DEAL), "--variant", "freecell",
                    "--single-cards", "--json")
    moves = moves_of(data)
    assert data["single_cards"] is True
    assert (data["length"], data["lower_bound"], data["optimal"]) == (73, 73, True)
    assert len(moves) == data["single_card_moves"] == 81
    assert set(carried(deal(DEAL, FREECELL), moves)) == {1}
    assert replay(deal(DEAL, FREECELL), moves).is_won


def test_the_text_names_the_cards_a_run_carries(capsys):
    code, out, err = run(capsys, "solve", "--deal", str(DEAL), "--variant", "freecell")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("freecell deal 2: solved, optimal, 73 moves (81 single-card "
                               "moves)")
    data = run_json(capsys, "solve", "--deal", str(DEAL), "--variant", "freecell", "--json")
    counts = carried(deal(DEAL, FREECELL), moves_of(data))
    assert [move["cards"] for move in data["moves"]] == counts  # the JSON says them too
    for line, count in zip(lines[1:], counts, strict=True):
        assert line.endswith(f" ({count} cards)") == (count > 1), line


def test_hint_in_either_metric(capsys):
    code, out, err = run(capsys, "hint", "--deal", str(DEAL), "--variant", "freecell",
                         "--metric", "cards")
    assert code == 0, err
    assert "(75 single-card moves left, winnable)" in out
    hinted = run_json(capsys, "hint", "--deal", str(DEAL), "--variant", "freecell", "--json")
    assert hinted["moves_left"] == 73


def test_batch_lines_record_the_metric_and_single_cards(capsys, tmp_path: Path):
    out_path = tmp_path / "out.jsonl"
    code, _, err = run(capsys, "batch", "--variant", "freecell", "--deals", "1-4", "--jobs",
                       "1", "--out", str(out_path))
    assert code == 0, err
    for record in batch_records(out_path.read_text()):
        assert record["metric"] == "moves" and record["status"] == "solved"
        assert record["single_card_moves"] >= record["length"]
    code, _, err = run(capsys, "batch", "--variant", "freecell", "--deals", "1-5", "--jobs",
                       "1", "--out", str(out_path), "--metric", "cards")
    assert code == 2 and "freecell any-mode in cards" in err  # a file of another metric


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[ServeProcess]:
    process = ServeProcess(tmp_path_factory.mktemp("freecell") / "serve.log", "--http-port",
                           "0")
    try:
        process.wait_serving()
        yield process
    finally:
        process.stop()


@pytest.mark.parametrize("extra", [[], ["--metric", "cards"], ["--single-cards"]])
def test_client_solve_prints_what_the_local_command_prints(capsys, server, extra):
    command = ["solve", "--deal", str(DEAL), "--variant", "freecell", *extra]
    for shown in ([], ["--json"]):
        local = run(capsys, *command, *shown)
        remote = run(capsys, "client", command[0], "--server", server.address, *command[1:],
                     *shown)
        assert (remote[0], timeless(remote[1])) == (local[0], timeless(local[1]))


def test_client_hint_in_cards_is_the_local_one(capsys, server):
    command = ["hint", "--deal", str(DEAL), "--variant", "freecell", "--metric", "cards"]
    local = run(capsys, *command)
    remote = run(capsys, "client", "hint", "--server", server.address, *command[1:])
    assert remote == local


def test_http_solve_takes_the_metric_and_answers_single_cards():
    with running_server(workers=1, queue=2, http_port=0) as running:
        position = {"json": json.dumps(deal(DEAL, FREECELL).to_json())}
        status, body = post(running, "Solve", {"position": position,
                                               "beleaguered": {"metric": "METRIC_CARDS"}})
        assert status == 200, body
        assert (body["length"], body["singleCardMoves"], body["metric"]) == (75, 75,
                                                                             "METRIC_CARDS")
        status, body = post(running, "Solve", {"position": position,
                                               "beleaguered": {"singleCards": True}})
        assert status == 200, body
        assert (body["length"], body["singleCardMoves"], len(body["moves"])) == (73, 81, 81)
        assert body["singleCards"] is True and body["metric"] == "METRIC_MOVES"



def test_client_generate_sends_proven_deals_of_the_variant(capsys, server):
    code, out, err = run(capsys, "client", "generate", "--server", server.address, "--count",
                         "2", "--deals", "1-20", "--variant", "seahaven-towers", "--seconds",
                         "10")
    assert code == 0, err
    rules = find_variant("seahaven-towers")
    found = [json.loads(line) for line in out.splitlines()]
    assert len(found) == 2
    for each in found:
        assert each["position"] == deal(each["deal"], rules).to_json()
        assert all({"cards", "standard"} <= set(move) for move in each["moves"])
        alone = solve(deal(each["deal"], rules), Mode.OPTIMAL, budget=Budget(seconds=10))
        assert alone.optimal and alone.length == each["length"]


def test_a_hint_over_grpc_and_http_carries_its_cards_and_standard_notation(server):
    """A FreeCell endgame whose fewest moves start with a run of three onto an empty pile
    (tests/beleaguered/test_notation.py); the Play RPC takes standard notation and the
    lines `solve` prints; standard notation of a variant with a reserve is refused."""
    endgame = {"game": "patience", "variant": "freecell",
               "tableau": [["TH", "KS", "QH", "JS"], ["TS", "KH", "QS", "JH"], [], [], [], [],
                           [], []],
               "cells": [None] * 4, "foundations": {"C": 13, "D": 13, "H": 9, "S": 9}}
    source = pb.PositionSource(json=json.dumps(endgame))
    with grpc.insecure_channel(server.address) as channel:
        answer = fortress_solver_pb2_grpc.SolverStub(channel).Hint(
            pb.HintRequest(position=source, beleaguered=pb.BeleagueredHintOptions(
                notation=pb.NOTATION_STANDARD)), timeout=60)
    assert (answer.move.card, answer.move.cards, answer.move.standard) == ("KS", 3, "13v3")
    status, body = post(server, "Hint", {"position": {"json": json.dumps(endgame)}})
    assert status == 200, body
    assert body["move"] == {"card": "KS", "source": "tableau:0", "target": "tableau:2",
                            "cards": 3, "standard": "13v3"}
    status, body = post(server, "Play", {"position": {"json": json.dumps(endgame)},
                                         "moves": ["   1. 13v3 (3 cards)", "1h",
                                                   "3. JH tableau:1 -> foundation"]})
    assert status == 200, body
    assert json.loads(body["positionJson"])["foundations"]["H"] == 11
    status, body = post(server, "Hint", {"position": {"beleaguered_deal": 2},
                                         "beleaguered": {"notation": "NOTATION_STANDARD"}})
    assert status == 400 and "beleaguered-fortress has a reserve" in body["message"], body
