"""Every variant of Beleaguered Fortress's family served through the same code: dealt,
solved and hinted over gRPC and over the HTTP face, played move by move, in batches and
generated deals; and a seventh variant, read from a rules file this test writes, served
by `serve --rules FILE` with no code change, its positions reaching the worker process
by value. Unknown and mismatched variants are refused in one line."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import grpc
import pytest
from google.protobuf.json_format import MessageToDict

from service.answer_cache import AnswerCache
from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.batch import in_pool
from service.beleaguered.messages import (
    batch_request,
    generate_request,
    position_from_proto,
    position_to_proto,
)
from service.generic.runs import deal_line
from solver.beleaguered import (
    Algorithm,
    Mode,
    Move,
    Position,
    apply,
    deal,
    legal_moves,
    replay,
    solve,
)
from solver.beleaguered.game import SOLVE, SolveOptions
from solver.beleaguered.reading import read
from solver.beleaguered.results import record
from solver.beleaguered.solve import Hint, hints_along
from solver.beleaguered.variant import (
    DEFAULT,
    Variant,
    find_variant,
    parse_variant_file,
    shipped_variants,
)
from solver.budget import Budget
from tests.support.castle_one_cell import CASTLE_ONE_CELL
from tests.support.http import post
from tests.support.serve_process import SCRIPT, ServeProcess
from tests.support.servers import moves_from_proto, rpc_error

GAME = "patience"

# read here without registering it: this process's variants stay the shipped ones
OWN = parse_variant_file(CASTLE_ONE_CELL, "castle-one-cell.toml")
SHIPPED = [variant.name for variant in shipped_variants()]

# a deal of each variant that is won, solved optimally and graded in well under a second
DEALS = {"beleaguered-fortress": 2, "fortress": 3, "bastion": 3, "beleaguered-castle": 2,
         "streets-and-alleys": 17, "citadel": 3, "freecell": 2, "bakers-game": 1,
         "eight-off": 1, "seahaven-towers": 1, "forecell": 2, "castle-one-cell": 3}


def test_every_shipped_variant_and_the_rules_files_has_its_deal_here():
    assert [*SHIPPED, OWN.name] == list(DEALS)


@pytest.fixture(scope="module")
def rules_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rules") / "castle-one-cell.toml"
    path.write_text(CASTLE_ONE_CELL, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory, rules_file) -> Iterator[ServeProcess]:
    """`serve --rules FILE` as a real process: one spawned worker, the HTTP face beside."""
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    process = ServeProcess(log, "--http-port", "0", "--rules", str(rules_file))
    try:
        process.wait_serving()
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def stub(server) -> Iterator[pb_grpc.SolverStub]:
    channel = grpc.insecure_channel(server.address)
    try:
        grpc.channel_ready_future(channel).result(timeout=30)
        yield pb_grpc.SolverStub(channel)
    finally:
        channel.close()


def _http(server: ServeProcess, method: str, body: Any) -> tuple[int, dict[str, Any]]:
    """One call to the process's HTTP face (the support helper takes a RunningServer)."""
    return post(SimpleNamespace(http=SimpleNamespace(port=server.http_port)), method, body)


def _variant(name: str) -> Variant:
    return OWN if name == OWN.name else find_variant(name)


def _moves(items: list[dict[str, str]]) -> list[Move]:
    return [Move.parse(f"{m['card']} {m['source']} {m['target']}") for m in items]


def _one_line(error: grpc.RpcError, *words: str) -> None:
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT, error.details()
    details = error.details() or ""
    assert "\n" not in details
    for word in words:
        assert word in details, details


# ---------------------------------------------------------------- messages and batches


@pytest.mark.parametrize("name", list(DEALS))
def test_a_position_of_each_variant_makes_its_message_and_back(name):
    variant = _variant(name)
    position = deal(DEALS[name], variant)
    message = position_to_proto(position)
    assert message.variant == ("" if name == DEFAULT else name)
    assert len(message.cells) == variant.cells
    assert position_from_proto(pb.BeleagueredPosition.FromString(
        message.SerializeToString()), variant) == position
    if name != OWN.name:  # a shipped variant is known by name: its message says it all
        assert position_from_proto(message) == position


def test_the_clients_requests_name_a_variant_other_than_the_seed_game():
    fortress = find_variant("fortress")
    budget = Budget(seconds=1)
    assert batch_request([1, 2], Mode.ANY, Algorithm.ASTAR, budget,
                         variant=fortress).variant == "fortress"
    assert generate_request(1, None, None, budget, fortress).variant == "fortress"
    for default in (None, find_variant(DEFAULT)):  # the requests of before variants
        assert batch_request([1], Mode.ANY, Algorithm.ASTAR, budget,
                             variant=default).variant == ""
        assert generate_request(1, None, None, budget, default).variant == ""


def test_a_local_batch_solves_the_deals_of_a_rules_files_variant():
    options = SolveOptions(mode=Mode.ANY, moves=False)
    work = partial(deal_line, deal=partial(deal, variant=OWN), question=SOLVE,
                   options=options, budget=Budget(seconds=10), line=record)
    lines = sorted(in_pool(work, 1)([3, 4]), key=lambda line: line["deal"])
    assert [(line["deal"], line["status"], line["length"]) for line in lines] == [
        (n, "solved", solve(deal(n, OWN), Mode.ANY).length) for n in (3, 4)]
    assert deal_line(3, deal, SOLVE, options, Budget(seconds=10), record)["length"] == \
        solve(deal(3), Mode.ANY).length  # the game's own deal: Beleaguered Fortress's


# ---------------------------------------------------------------- gRPC


def _source(position: Position) -> pb.PositionSource:
    return pb.PositionSource(beleaguered=position_to_proto(position))


@pytest.mark.parametrize("name", list(DEALS))
def test_each_variant_is_dealt_then_solved_over_grpc(stub, name):
    variant, number = _variant(name), DEALS[name]
    view = stub.Deal(pb.DealRequest(game=GAME, seed=number, variant=name), timeout=30)
    position = position_from_proto(view.position.beleaguered, variant)
    assert position == deal(number, variant)
    assert json.loads(view.position_json).get("variant", DEFAULT) == name
    assert set(view.legal_moves) == {str(move) for move in legal_moves(position)}
    any_line = stub.Solve(pb.SolveRequest(
        position=view.position, beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_ANY)),
        timeout=30)
    assert any_line.status == pb.STATUS_SOLVED
    assert replay(position, moves_from_proto(any_line.moves)).is_won
    assert any_line.lower_bound <= any_line.length


@pytest.mark.parametrize("name", list(DEALS))
def test_each_variant_is_solved_and_hinted_over_grpc(stub, name):
    position = deal(DEALS[name], _variant(name))
    source = _source(position)
    any_line = stub.Solve(pb.SolveRequest(
        position=source, beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_ANY)), timeout=30)
    assert any_line.status == pb.STATUS_SOLVED
    assert replay(position, moves_from_proto(any_line.moves)).is_won
    assert any_line.HasField("lower_bound") and any_line.lower_bound <= any_line.length

    best = stub.Solve(pb.SolveRequest(position=source), timeout=30)
    assert best.optimal and best.lower_bound == best.length <= any_line.length
    assert replay(position, moves_from_proto(best.moves)).is_won

    hint = stub.Hint(pb.HintRequest(
        position=source, beleaguered=pb.BeleagueredHintOptions(all_moves=True)), timeout=30)
    assert hint.cached  # the optimal solve above filled the cache
    assert hint.moves_left == best.length and not hint.HasField("optimal")
    after = apply(position, moves_from_proto([hint.move])[0])
    assert solve(after, Mode.OPTIMAL).length == best.length - 1
    graded = hint.all_moves
    assert {f"{g.move.card} {g.move.source} {g.move.target}" for g in graded} == {
        str(move) for move in legal_moves(position)}
    assert graded[0].outcome == pb.MOVE_OUTCOME_WINS and graded[0].moves_left == best.length


@pytest.mark.parametrize("name", ["bastion", "castle-one-cell"])
def test_moves_from_and_to_free_cells_convert_both_ways(stub, name):
    variant = _variant(name)
    position = deal(DEALS[name], variant)
    assert all(card is not None for card in position.cells[:variant.cells_dealt])
    solution = stub.Solve(pb.SolveRequest(
        position=_source(position), beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_ANY)),
        timeout=30)
    sources = {move.source.split(":")[0] for move in solution.moves}
    assert "cell" in sources  # the dealt cells' cards must leave them to win
    assert replay(position, moves_from_proto(solution.moves)).is_won


def test_a_json_position_naming_its_variant_is_served_as_the_typed_one(stub):
    position = deal(DEALS["citadel"], find_variant("citadel"))
    as_json = pb.PositionSource(json=str(position))
    typed = pb.PositionSource(beleaguered=position_to_proto(position))
    answers = [stub.Solve(pb.SolveRequest(position=source), timeout=30)
               for source in (as_json, typed)]
    assert answers[0].moves == answers[1].moves and answers[0].optimal
    assert replay(position, moves_from_proto(answers[0].moves)).is_won


def test_play_applies_moves_into_and_out_of_a_free_cell(stub):
    position = deal(DEALS["bastion"], find_variant("bastion"))
    # a free cell is emptied, then a tableau card goes into it
    out = next(move for move in legal_moves(position) if move.source.kind == "cell")
    into = next(move for move in legal_moves(apply(position, out))
                if move.target.kind == "cell" and move.card != out.card)
    played = stub.Play(pb.PlayRequest(position=_source(position),
                                      moves=[str(out), str(into)]), timeout=30)
    after = position_from_proto(played.position.beleaguered, find_variant("bastion"))
    assert after == apply(apply(position, out), into)
    assert str(into.target) == f"cell:{after.cells.index(into.card)}"
    assert json.loads(played.position_json)["cells"] == [
        None if card is None else str(card) for card in after.cells]


def test_a_hint_not_proven_optimal_says_so_with_its_lower_bound(stub):
    position = deal(5, find_variant("fortress"))  # 5,000 nodes: a line found, not proven
    hint = stub.Hint(pb.HintRequest(position=_source(position), budget=pb.Budget(nodes=5000)),
                     timeout=30)
    assert hint.status == pb.STATUS_SOLVED and not hint.cached
    assert hint.HasField("optimal") and not hint.optimal
    assert 0 < hint.at_least <= solve(position).length <= hint.moves_left


def test_the_hint_cache_tells_variants_with_the_same_cards_apart(stub):
    castle = deal(2, find_variant("beleaguered-castle"))
    citadel = replace(castle, variant=find_variant("citadel"))  # the same cards and shape
    assert castle.to_json() | {"variant": "citadel"} == citadel.to_json()
    cache: AnswerCache[Position, Hint] = AnswerCache(100, 64, "hint_cache", "Hint")
    cache.put(hints_along(castle, solve(castle)))
    assert cache.get(castle) is not None and cache.get(citadel) is None

    assert stub.Solve(pb.SolveRequest(position=_source(castle)), timeout=30).optimal
    assert stub.Hint(pb.HintRequest(position=_source(castle)), timeout=30).cached
    assert not stub.Hint(pb.HintRequest(position=_source(citadel)), timeout=30).cached


# ---------------------------------------------------------------- the HTTP face


@pytest.mark.parametrize("name", list(DEALS))
def test_each_variant_is_dealt_then_solved_over_http(server, name):
    variant, number = _variant(name), DEALS[name]
    status, view = _http(server, "Deal", {"game": GAME, "seed": number, "variant": name})
    assert status == 200, view
    position = read(json.loads(view["positionJson"]), variant)
    assert position == deal(number, variant)
    status, answer = _http(server, "Solve", {"position": view["position"],
                                             "beleaguered": {"mode": "MODE_ANY"}})
    assert status == 200, answer
    assert replay(position, _moves(answer["moves"])).is_won


@pytest.mark.parametrize("name", list(DEALS))
def test_each_variant_is_solved_and_hinted_over_http(server, name):
    position = deal(DEALS[name], _variant(name))
    typed = MessageToDict(_source(position))
    for source in ({"json": str(position)}, typed):
        status, answer = _http(server, "Solve", {"position": source,
                                                 "beleaguered": {"mode": "MODE_ANY"}})
        assert status == 200, answer
        assert replay(position, _moves(answer["moves"])).is_won
        assert answer["lowerBound"] <= answer["length"] == len(answer["moves"])
    status, hint = _http(server, "Hint", {"position": typed, "beleaguered": {"allMoves": True}})
    assert status == 200, hint
    assert hint["winnable"] and hint["allMoves"][0]["outcome"] == "MOVE_OUTCOME_WINS"
    after = apply(position, _moves([hint["move"]])[0])
    assert solve(after, Mode.OPTIMAL).length == hint["movesLeft"] - 1


def test_an_unknown_variant_over_http_is_a_400_in_one_line(server):
    position = {"json": json.dumps({"game": GAME, "variant": "castle-two", "tableau": []})}
    status, body = _http(server, "Solve", {"position": position})
    assert status == 400 and body["code"] == "invalid_argument"
    assert "unknown variant 'castle-two'" in body["message"] and "\n" not in body["message"]


def test_a_deal_of_an_unknown_variant_over_http_is_a_400_in_one_line(server):
    status, body = _http(server, "Deal", {"game": GAME, "seed": 1, "variant": "castle-two"})
    assert status == 400 and body["code"] == "invalid_argument"
    assert "unknown variant 'castle-two'" in body["message"] and "\n" not in body["message"]


# ---------------------------------------------------------------- streams


def test_a_batch_of_a_variants_deals_and_positions_of_their_own(stub):
    castle = find_variant("beleaguered-castle")
    own = deal(4, OWN)
    request = pb.SolveBatchRequest(
        game=GAME, variant="beleaguered-castle", deals=[pb.DealRange(first=1, last=4)],
        positions=[position_to_proto(deal(7, castle))], budget=pb.Budget(seconds=20))
    results = sorted(stub.SolveBatch(request, timeout=60), key=lambda r: r.index)
    assert [r.deal if r.HasField("deal") else None for r in results] == [1, 2, 3, 4, None]
    starts = [deal(n, castle) for n in (1, 2, 3, 4, 7)]
    for result, start in zip(results, starts, strict=True):
        if result.result.status == pb.STATUS_SOLVED:
            assert replay(start, moves_from_proto(result.result.moves)).is_won
    assert [r.result.status for r in results][:4] == [
        pb.STATUS_UNSOLVABLE, pb.STATUS_SOLVED, pb.STATUS_UNSOLVABLE, pb.STATUS_SOLVED]
    # without a variant, each position is solved by the rules it names
    mixed = pb.SolveBatchRequest(game=GAME, positions=[
        position_to_proto(own), position_to_proto(deal(3, find_variant("citadel")))])
    answers = sorted(stub.SolveBatch(mixed, timeout=60), key=lambda r: r.index)
    assert replay(own, moves_from_proto(answers[0].result.moves)).is_won
    assert answers[1].result.status == pb.STATUS_SOLVED


@pytest.mark.parametrize("name", ["fortress", "castle-one-cell"])
def test_generated_deals_of_a_variant_are_its_deals_with_optimal_lines(stub, name):
    variant = _variant(name)
    request = pb.GenerateDealsRequest(game=GAME, variant=name, count=2, first_deal=1,
                                      last_deal=40, budget=pb.Budget(nodes=200_000))
    found = list(stub.GenerateDeals(request, timeout=60))
    assert len(found) == 2
    for generated in found:
        position = position_from_proto(generated.position, variant)
        assert position == deal(generated.deal, variant)
        assert replay(position, moves_from_proto(generated.moves)).is_won
        assert generated.length == len(generated.moves) == solve(position).length


def test_a_generated_band_of_a_variant_holds_only_deals_of_that_length(stub):
    fortress = find_variant("fortress")
    request = pb.GenerateDealsRequest(game=GAME, variant="fortress", count=1, first_deal=1,
                                      last_deal=60, min_length=70, max_length=70,
                                      budget=pb.Budget(nodes=200_000))
    found = list(stub.GenerateDeals(request, timeout=60))
    assert [g.length for g in found] == [70]
    assert solve(deal(found[0].deal, fortress)).length == 70


# ---------------------------------------------------------------- refusals


def test_an_unknown_variant_is_refused_in_one_line_naming_those_known(stub):
    unknown = "castle-two"
    requests = [
        (stub.Solve, pb.SolveRequest(position=pb.PositionSource(
            beleaguered=pb.BeleagueredPosition(variant=unknown)))),
        (stub.Hint, pb.HintRequest(position=pb.PositionSource(
            json=json.dumps({"game": GAME, "variant": unknown, "tableau": []})))),
    ]
    for call, request in requests:
        _one_line(rpc_error(call, request), f"unknown variant {unknown!r}", "citadel",
                  "castle-one-cell")
    for request in (pb.SolveBatchRequest(game=GAME, variant=unknown,
                                         deals=[pb.DealRange(first=1, last=1)]),
                    pb.GenerateDealsRequest(game=GAME, variant=unknown, count=1)):
        call = stub.SolveBatch if isinstance(request, pb.SolveBatchRequest) \
            else stub.GenerateDeals
        with pytest.raises(grpc.RpcError) as caught:
            list(call(request, timeout=30))
        _one_line(caught.value, f"unknown variant {unknown!r}")


def test_a_deal_of_an_unknown_variant_is_refused_in_one_line_naming_those_known(stub):
    error = rpc_error(stub.Deal, pb.DealRequest(game=GAME, seed=1, variant="castle-two"))
    _one_line(error, "unknown variant 'castle-two'", "citadel", "castle-one-cell")


def test_a_position_of_another_variant_than_the_batchs_is_refused_in_one_line(stub):
    request = pb.SolveBatchRequest(
        game=GAME, variant="bastion", deals=[pb.DealRange(first=1, last=1)],
        positions=[position_to_proto(deal(3, find_variant("fortress")))])
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.SolveBatch(request, timeout=30))
    _one_line(caught.value, "positions[0]", "fortress", "bastion")


def test_a_position_not_of_its_variants_shape_is_refused_in_one_line(stub):
    bastion = position_to_proto(deal(3, find_variant("bastion")))
    bastion.variant = "citadel"  # ten piles and two cells: not a citadel position
    _one_line(rpc_error(stub.Solve, pb.SolveRequest(
        position=pb.PositionSource(beleaguered=bastion))), "tableau: has 10 items, at most 8")


# ---------------------------------------------------------------- serve --rules


@pytest.mark.parametrize(("text", "fault"), [  # (each fault of a file: the loader's tests)
    (CASTLE_ONE_CELL.replace('"castle-one-cell"', '"citadel"'), "is a shipped variant"),
    (None, "cannot read rules file"),
], ids=["shipped-name", "missing"])
def test_a_bad_rules_file_stops_the_start_in_one_line(tmp_path, text, fault):
    path = tmp_path / "rules.toml"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    done = subprocess.run([str(SCRIPT), "serve", "--port", "0", "--workers", "1",
                           "--rules", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and fault in lines[0] and "rules.toml" in lines[0], done.stderr



def test_the_server_lists_the_variants_it_plays_its_rules_files_last(stub):
    info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=30)
    family = next(game for game in info.games if game.name == GAME)
    names = [variant.name for variant in family.variants]
    assert names == [*SHIPPED, OWN.name]
    assert all(variant.title for variant in family.variants)
