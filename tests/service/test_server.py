"""The gRPC service against real servers on 127.0.0.1: every RPC's happy path, bad input,
deadlines, cancellation, overload, health, reflection, a streamed batch and the hint cache.

Most tests share one module-scoped server (2 workers); cancellation, overload, a fresh
hint cache and a dead worker get small servers of their own (1 worker) so that their
limits and state are exact. Measured figures are printed with a "[figure]" prefix (run
with -s to see them). The tests of timing limits (0.3 s deadline, 0.25 s after a cancel)
are marked `timing`: `make test-timing` runs them, on a machine not otherwise busy.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from service.api import fortress_solver_pb2 as pb
from service.beleaguered.messages import position_from_proto, position_to_proto
from service.messages import budget_from_proto
from service.server import SERVICE_NAME
from solver.beleaguered import MAX_DEAL, Mode, Position, apply, deal, legal_moves, replay, solve
from solver.beleaguered.deals import LARGEST_DEAL
from solver.beleaguered.variant import find_variant
from solver.budget import Budget, Status
from solver.errors import InvalidInput
from tests.support.servers import (
    address,
    connect,
    deal_source,
    moves_from_proto,
    position_source,
    running_server,
    timed,
)

OPTIMAL_LENGTH_DEAL_2 = 66
HARD_DEAL = 126  # the most nodes of deals 1..1000, still only some 0.1 s of A*
SLOW_DEAL = 114599  # among the most searched of deals 1..1,000,000: some 3 s of A*
# A search long enough to cut short: IDA* through a 256-entry table on the hard deal runs
# for tens of seconds (re-searching what the table cannot hold).
CRAMPED = pb.Budget(table_entries=256)
STATUS = {pb.STATUS_SOLVED: Status.SOLVED, pb.STATUS_UNSOLVABLE: Status.UNSOLVABLE,
          pb.STATUS_UNKNOWN: Status.UNKNOWN}


def solve_request(number_or_source, mode=pb.MODE_OPTIMAL, algorithm=pb.ALGORITHM_ASTAR,
                  budget: pb.Budget | None = None) -> pb.SolveRequest:
    source = (deal_source(number_or_source) if isinstance(number_or_source, int)
              else number_or_source)
    options = pb.BeleagueredSolveOptions(mode=mode, algorithm=algorithm)
    return pb.SolveRequest(position=source, beleaguered=options, budget=budget)


def assert_wins(position: Position, moves) -> None:
    assert replay(position, moves_from_proto(moves)).is_won


def assert_still_answers(stub) -> None:
    """The server survived: an info call and a quick solve both answer."""
    assert stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=5).games
    response = stub.Solve(solve_request(1), timeout=5)
    assert response.status == pb.STATUS_UNSOLVABLE


def rpc_error(call, *args, **kwargs) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        result = call(*args, **kwargs)
        if not hasattr(result, "ListFields"):  # a stream: the error comes while reading it
            list(result)
    return caught.value


# ============================================================================ happy paths


@pytest.fixture(scope="module")
def local_optimal_2():
    return solve(deal(2))


def test_solve_deal_2_optimal(stub, local_optimal_2):
    response = stub.Solve(solve_request(2), timeout=30)
    assert response.status == pb.STATUS_SOLVED
    assert response.optimal
    assert response.HasField("length")
    assert response.length == OPTIMAL_LENGTH_DEAL_2 == len(response.moves)
    assert_wins(deal(2), response.moves)
    assert response.stats.nodes > 0
    assert local_optimal_2.length == OPTIMAL_LENGTH_DEAL_2


def test_solve_mode_unspecified_is_optimal(stub):
    response = stub.Solve(solve_request(2, mode=pb.MODE_UNSPECIFIED,
                                        algorithm=pb.ALGORITHM_UNSPECIFIED), timeout=30)
    assert response.status == pb.STATUS_SOLVED
    assert response.optimal
    assert response.length == OPTIMAL_LENGTH_DEAL_2


def test_solve_mode_any(stub):
    response = stub.Solve(solve_request(2, mode=pb.MODE_ANY), timeout=30)
    assert response.status == pb.STATUS_SOLVED
    assert response.length == len(response.moves) >= OPTIMAL_LENGTH_DEAL_2
    assert_wins(deal(2), response.moves)
    local = solve(deal(2), Mode.ANY)
    assert response.optimal == local.optimal
    assert response.length == local.length


def test_solve_idastar_same_length(stub):
    response = stub.Solve(solve_request(2, algorithm=pb.ALGORITHM_IDASTAR), timeout=30)
    assert response.status == pb.STATUS_SOLVED
    assert response.optimal
    assert response.length == OPTIMAL_LENGTH_DEAL_2
    assert_wins(deal(2), response.moves)


def test_solve_unsolvable_deal(stub):
    response = stub.Solve(solve_request(1), timeout=30)
    assert response.status == pb.STATUS_UNSOLVABLE
    assert not response.optimal
    assert not response.HasField("length")
    assert list(response.moves) == []


def test_solve_explicit_position(stub):
    position = deal(13)
    response = stub.Solve(solve_request(position_source(position)), timeout=30)
    local = solve(position)
    assert response.status == pb.STATUS_SOLVED
    assert response.optimal
    assert response.length == local.length
    assert_wins(position, response.moves)


def test_hint_deal_2(stub, local_optimal_2):
    response = stub.Hint(pb.HintRequest(position=deal_source(2)), timeout=30)
    assert response.status == pb.STATUS_SOLVED
    assert response.HasField("move")
    assert moves_from_proto([response.move]) == [local_optimal_2.moves[0]]
    assert response.HasField("moves_left")
    assert response.moves_left == OPTIMAL_LENGTH_DEAL_2
    assert response.HasField("winnable") and response.winnable


def test_hint_unsolvable_deal(stub):
    response = stub.Hint(pb.HintRequest(position=deal_source(1)), timeout=30)
    assert response.status == pb.STATUS_UNSOLVABLE
    assert not response.HasField("move")
    assert not response.HasField("moves_left")
    assert response.HasField("winnable") and not response.winnable


def test_solve_batch(stub):
    good = position_to_proto(deal(2))
    request = pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=3),
                                          pb.DealRange(first=13, last=13)],
                                   positions=[good], mode=pb.MODE_OPTIMAL)
    results = list(stub.SolveBatch(request, timeout=30))
    assert sorted(r.index for r in results) == [0, 1, 2, 3, 4]
    by_index = {r.index: r for r in results}
    expected_deals = {0: 1, 1: 2, 2: 3, 3: 13}
    for index, number in expected_deals.items():
        assert by_index[index].HasField("deal")
        assert by_index[index].deal == number
        local = solve(deal(number))
        assert STATUS[by_index[index].result.status] is local.status
        assert by_index[index].result.length == (local.length or 0)
    assert not by_index[4].HasField("deal")
    assert by_index[4].result.status == pb.STATUS_SOLVED
    assert by_index[4].result.length == OPTIMAL_LENGTH_DEAL_2
    assert_wins(deal(2), by_index[4].result.moves)


def test_a_batch_without_moves_keeps_every_verdict_and_length(stub):
    ranges = [pb.DealRange(first=1, last=12)]
    full, bare = ({r.deal: r.result for r in stub.SolveBatch(pb.SolveBatchRequest(
        game="patience", deals=ranges, mode=pb.MODE_OPTIMAL,
        without_moves=without), timeout=60)} for without in (False, True))
    assert full.keys() == bare.keys() == set(range(1, 13))
    assert any(answer.moves for answer in full.values())
    for number, answer in bare.items():
        assert not answer.moves
        assert (answer.status, answer.optimal, answer.length) == (
            full[number].status, full[number].optimal, full[number].length)


def test_a_stream_naming_a_game_that_deals_nothing_is_refused(stub):
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.SolveBatch(pb.SolveBatchRequest(game="stronghold"), timeout=30))
    assert caught.value.code() is grpc.StatusCode.UNIMPLEMENTED
    assert "stronghold numbers no deals to stream" in caught.value.details()


def test_generate_deals(stub):
    request = pb.GenerateDealsRequest(count=3, min_length=75)
    generated = list(stub.GenerateDeals(request, timeout=30))
    assert len(generated) == 3
    assert len({g.deal for g in generated}) == 3
    for found in generated:
        assert found.length >= 75
        assert len(found.moves) == found.length
        position = position_from_proto(found.position)
        assert position == deal(found.deal)
        assert_wins(position, found.moves)
        local = solve(deal(found.deal))
        assert local.status is Status.SOLVED and local.optimal
        assert found.length == local.length


def test_generate_deals_band(stub):
    request = pb.GenerateDealsRequest(count=2, min_length=60, max_length=70, first_deal=1,
                                      last_deal=20)
    generated = sorted(stub.GenerateDeals(request, timeout=30), key=lambda g: g.deal)
    assert [(g.deal, g.length) for g in generated] == [(2, 66), (13, 69)]


def test_get_server_info(stub, solver_server):
    info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=5)
    assert info.version
    assert [game.name for game in info.games] == ["patience",
                                                  "fortress-fight-kingdom", "farbduell",
                                                  "stronghold"]
    game = info.games[0]
    assert list(game.modes) == ["optimal", "any", "verdict"]
    assert list(game.algorithms) == ["astar", "idastar"]
    assert game.max_deal == LARGEST_DEAL == 2**63 - 1  # PySolFC's numbering, as int64 goes
    largest = {variant.name: variant.max_deal for variant in game.variants}
    assert largest["beleaguered-fortress"] == 2**31 - 1  # its shuffle keeps 31 bits
    assert largest["streets-and-alleys"] == 2**63 - 1  # PySolFC's game numbers
    assert info.limits.workers == 2
    assert info.limits.queue == solver_server.config.queue == 8
    assert info.limits.max_seconds == 60.0
    assert info.limits.max_nodes == 0
    assert info.limits.max_table_entries == 0  # none: the memory caps the tables
    assert info.limits.memory_per_worker_mib == 512
    assert info.limits.cache_entries == 100_000
    assert (info.limits.cache_mib, info.limits.memory_mib) == (64, 0)  # no total given
    assert info.limits.max_calls_per_address == 2 + 8  # the workers and the queue
    assert info.limits.max_workers_per_client == 1  # all but one


# ============================================================================ bad input


def _deal_2_with_7h_twice() -> dict:
    data = deal(2).to_json()
    pile = 0 if "7H" not in data["tableau"][0] else 1
    data["tableau"][pile][0] = "7H"
    return data


def _proto_of_json(data: dict) -> pb.BeleagueredPosition:
    """The same position as the JSON, field for field (no checks on the way)."""
    tops = data["foundations"]
    return pb.BeleagueredPosition(
        tableau=[pb.Pile(cards=pile) for pile in data["tableau"]],
        reserve=[pb.ReserveSlot(card=card or "") for card in data["reserve"]],
        foundations=pb.Foundations(clubs=tops["C"], diamonds=tops["D"], hearts=tops["H"],
                                   spades=tops["S"]),
    )


def _cli_message(data: dict) -> str:
    with pytest.raises(InvalidInput) as caught:
        Position.from_json(data)
    return str(caught.value)


def test_duplicate_card_is_invalid_argument_with_cli_message(stub):
    data = _deal_2_with_7h_twice()
    expected = _cli_message(data)
    assert "holds 7H twice" in expected
    source = pb.PositionSource(beleaguered=_proto_of_json(data))
    for call, request in ((stub.Solve, pb.SolveRequest(position=source)),
                          (stub.Hint, pb.HintRequest(position=source))):
        error = rpc_error(call, request, timeout=10)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error.details() == expected
    assert_still_answers(stub)


def test_empty_position_source_is_unimplemented(stub):
    for call, request in ((stub.Solve, pb.SolveRequest()), (stub.Hint, pb.HintRequest())):
        error = rpc_error(call, request, timeout=10)
        assert error.code() == grpc.StatusCode.UNIMPLEMENTED
        assert "beleaguered" in error.details()
    assert_still_answers(stub)


def test_options_of_another_game_are_refused(stub):
    for call, request in (
            (stub.Solve, pb.SolveRequest(position=deal_source(2),
                                         farbduell=pb.FarbduellSolveOptions(turns=2))),
            (stub.Hint, pb.HintRequest(position=deal_source(2),
                                       ffkingdom=pb.FfkHintOptions(worlds=2)))):
        error = rpc_error(call, request, timeout=10)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error.details().startswith("options are for ")
        assert error.details().endswith(", but the position is patience")


@pytest.mark.parametrize("number", [0, -1, 2**31, 2**63 - 1])
def test_deal_out_of_range(stub, number):
    for call, request in ((stub.Solve, pb.SolveRequest(position=deal_source(number))),
                          (stub.Hint, pb.HintRequest(position=deal_source(number)))):
        error = rpc_error(call, request, timeout=10)
        assert error.code() == grpc.StatusCode.OUT_OF_RANGE
        assert str(number) in error.details()
    assert_still_answers(stub)


def test_largest_deal_is_accepted(stub):
    response = stub.Solve(solve_request(MAX_DEAL, mode=pb.MODE_ANY), timeout=30)
    assert STATUS[response.status] is solve(deal(MAX_DEAL), Mode.ANY).status


def test_pysolfcs_game_numbers_are_dealt_up_to_the_largest_int64(stub):
    castle = find_variant("beleaguered-castle")
    for number in (2**31, 10**12, LARGEST_DEAL):
        view = stub.Deal(pb.DealRequest(game="beleaguered-fortress", seed=number,
                                        variant=castle.name), timeout=30)
        assert json.loads(view.position_json) == deal(number, castle).to_json()
    last = pb.DealRange(first=LARGEST_DEAL - 1, last=LARGEST_DEAL)
    batch = pb.SolveBatchRequest(deals=[last], variant=castle.name, mode=pb.MODE_ANY,
                                 budget=pb.Budget(nodes=1000), without_moves=True)
    assert sorted(r.deal for r in stub.SolveBatch(batch, timeout=60)) == [LARGEST_DEAL - 1,
                                                                          LARGEST_DEAL]
    error = rpc_error(stub.Deal, pb.DealRequest(game="beleaguered-fortress", seed=2**31),
                      timeout=10)
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error.details() == ("deal 2147483648 is out of range: Beleaguered Fortress deals "
                               "are numbered 1 to 2147483647 (2^31 - 1)")


def test_batch_with_bad_position_names_it(stub):
    data = _deal_2_with_7h_twice()
    request = pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=2)],
                                   positions=[position_to_proto(deal(2)), _proto_of_json(data)])
    error = rpc_error(stub.SolveBatch, request, timeout=10)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "positions[1]" in error.details()
    assert error.details() == f"positions[1]: {_cli_message(data)}"
    assert_still_answers(stub)


@pytest.mark.parametrize(("first", "last"), [(5, 4), (0, 3), (1, 2**31)])
def test_batch_deal_range_out_of_range(stub, first, last):
    request = pb.SolveBatchRequest(deals=[pb.DealRange(first=first, last=last)])
    error = rpc_error(stub.SolveBatch, request, timeout=10)
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert_still_answers(stub)


@pytest.mark.parametrize(("first", "last"), [(10, 5), (0, 5), (1, 2**31)])
def test_generate_deals_bad_range_is_out_of_range(stub, first, last):
    request = pb.GenerateDealsRequest(count=1, first_deal=first, last_deal=last)
    error = rpc_error(stub.GenerateDeals, request, timeout=10)
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert f"{first}-{last}" in error.details()
    assert_still_answers(stub)


NOT_SECONDS = [(float("nan"), "nan"), (float("inf"), "inf"), (-1.0, "-1")]


def refusal(shown: str) -> str:
    return (f"budget seconds {shown} is not a number of seconds: send a positive number, "
            "or 0 for the server's limit")


@pytest.mark.parametrize(("seconds", "shown"), NOT_SECONDS)
def test_budget_seconds_that_are_no_time_are_invalid_argument_before_any_work(stub, seconds,
                                                                               shown):
    """On every RPC that takes a budget, the Hint of deal 1 too: the census answers it
    without a search, and the budget is refused all the same."""
    budget = pb.Budget(seconds=seconds)
    errors = [rpc_error(stub.Solve, pb.SolveRequest(position=deal_source(2), budget=budget),
                        timeout=10),
              rpc_error(stub.Hint, pb.HintRequest(position=deal_source(1), budget=budget),
                        timeout=10)]
    for stream in (stub.SolveBatch(pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=3)],
                                                        budget=budget), timeout=10),
                   stub.GenerateDeals(pb.GenerateDealsRequest(count=1, budget=budget),
                                      timeout=10)):
        received, error = read_to_the_end(stream)
        assert received == []
        errors.append(error)
    assert [(error.code(), error.details()) for error in errors] == \
        [(grpc.StatusCode.INVALID_ARGUMENT, refusal(shown))] * 4
    assert_still_answers(stub)


@pytest.mark.parametrize(("rpc", "streamed"), [("Solve", False), ("SolveBatch", True)])
def test_bytes_that_are_not_the_request_are_invalid_argument(solver_server, stub, rpc, streamed):
    """gRPC itself answers a request it cannot decode with INTERNAL, as if the server
    had failed."""
    with grpc.insecure_channel(address(solver_server)) as channel:
        make = channel.unary_stream if streamed else channel.unary_unary
        call = make(f"/{SERVICE_NAME}/{rpc}", request_serializer=None,
                    response_deserializer=None)
        error = rpc_error(call, b"\xff\xff\xff", timeout=10)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("cannot read the request: ")  # protobuf's words next
    assert f"fortress.solver.v1.{rpc}Request" in error.details()
    assert_still_answers(stub)


def read_to_the_end(stream) -> tuple[list, grpc.RpcError]:
    """The messages of a stream that must end with an error, and that error."""
    received = []
    with pytest.raises(grpc.RpcError) as caught:
        for message in stream:
            received.append(message)
    return received, caught.value


def test_generate_deals_ends_out_of_range_after_the_deals_when_the_range_is_spent(stub):
    request = pb.GenerateDealsRequest(count=3, min_length=60, max_length=70, first_deal=1,
                                      last_deal=20)
    generated, error = read_to_the_end(stub.GenerateDeals(request, timeout=30))
    assert sorted((g.deal, g.length) for g in generated) == [(2, 66), (13, 69)]
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error.details() == "deals 1-20 spent: 2 of 3 deals found within 60-70 moves"


def test_generate_deals_spent_says_how_many_deals_ran_out_of_budget(stub):
    """Past the census every deal is solved: 100 nodes settle none of them, so the range
    is spent without a proof that it holds no such deal."""
    request = pb.GenerateDealsRequest(count=1, first_deal=1_000_010, last_deal=1_000_012,
                                      budget=pb.Budget(nodes=100))
    generated, error = read_to_the_end(stub.GenerateDeals(request, timeout=30))
    assert generated == []
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error.details() == ("deals 1000010-1000012 spent: 0 of 1 deals found; 3 deals "
                               "unknown (the budget ran out: a larger one may find more)")


def test_generate_deals_with_an_empty_band_is_out_of_range_at_once(stub):
    request = pb.GenerateDealsRequest(count=1, min_length=80, max_length=70)
    error = rpc_error(stub.GenerateDeals, request, timeout=10)
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error.details() == ("the band 80-70 is empty (min_length above max_length): no "
                               "deal can meet it")


@pytest.fixture(scope="module")
def capped_stub():
    """A server that takes at most 5 items a batch and 5 deals a GenerateDeals."""
    with running_server(workers=2, queue=4, max_batch=5) as server, connect(server) as client:
        yield client


def test_max_batch_is_in_the_server_info(stub, capped_stub):
    assert stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=5).limits.max_batch == 100_000
    assert capped_stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=5).limits.max_batch == 5


def test_a_batch_at_max_batch_is_solved_and_one_over_it_refused(capped_stub):
    positions = [position_to_proto(deal(2)), position_to_proto(deal(3))]
    at_cap = pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=2),
                                         pb.DealRange(first=9, last=9)],
                                  positions=positions, mode=pb.MODE_ANY)
    assert sorted(r.index for r in capped_stub.SolveBatch(at_cap, timeout=30)) == [0, 1, 2, 3, 4]
    over = pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=3),
                                       pb.DealRange(first=9, last=9)], positions=positions)
    error = rpc_error(capped_stub.SolveBatch, over, timeout=10)
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error.details() == ("the batch holds 6 items, more than this server's limit of 5 "
                               "a call: send it in parts")
    huge = pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=MAX_DEAL)])
    error = rpc_error(capped_stub.SolveBatch, huge, timeout=10)
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE  # not solved for 10 s first
    assert f"holds {MAX_DEAL} items" in error.details()


def test_a_generate_deals_count_over_max_batch_is_refused(capped_stub):
    at_cap = pb.GenerateDealsRequest(count=5, min_length=60, max_length=70, first_deal=1,
                                     last_deal=20)
    generated, error = read_to_the_end(capped_stub.GenerateDeals(at_cap, timeout=30))
    assert len(generated) == 2 and "spent: 2 of 5 deals" in error.details()
    over = pb.GenerateDealsRequest(count=6, first_deal=1, last_deal=20)
    error = rpc_error(capped_stub.GenerateDeals, over, timeout=10)
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error.details() == "count 6 is more than this server's limit of 5 deals a call"


def test_generate_deals_past_the_census_ends_after_max_batch_tries(capped_stub):
    """A band no deal meets, with no last_deal: past the census every deal is searched,
    and the stream once walked on towards deal 2^31."""
    request = pb.GenerateDealsRequest(count=3, min_length=200, max_length=300,
                                      first_deal=1_000_001)
    generated, error = read_to_the_end(capped_stub.GenerateDeals(request, timeout=30))
    assert generated == []
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error.details() == ("deals 1000001-1000005 tried (the most one call may try, "
                               "this server's max_batch 5): 0 of 3 deals found within 200-300 "
                               "moves")


def test_generate_deals_counts_no_deal_the_census_rules_out_as_a_try(capped_stub):
    """Deals 999991-1000000 are in the census, none of them 200-300 moves long: skipped
    without a search, so the 5 tries are the 5 deals after it."""
    request = pb.GenerateDealsRequest(count=3, min_length=200, max_length=300,
                                      first_deal=999_991)
    generated, error = read_to_the_end(capped_stub.GenerateDeals(request, timeout=30))
    assert generated == []
    assert error.details() == ("deals 999991-1000005 tried (the most one call may try, "
                               "this server's max_batch 5): 0 of 3 deals found within 200-300 "
                               "moves")


def test_generate_deals_spent_at_its_last_try_says_spent(capped_stub):
    request = pb.GenerateDealsRequest(count=3, min_length=200, max_length=300,
                                      first_deal=1_000_001, last_deal=1_000_005)
    generated, error = read_to_the_end(capped_stub.GenerateDeals(request, timeout=30))
    assert generated == []
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error.details() == ("deals 1000001-1000005 spent: 0 of 3 deals found within "
                               "200-300 moves")


# ============================================================================ deadlines


def long_request(budget: pb.Budget = CRAMPED) -> pb.SolveRequest:
    return solve_request(HARD_DEAL, algorithm=pb.ALGORITHM_IDASTAR, budget=budget)


@pytest.mark.timing
@pytest.mark.parametrize("request_, timeout", [
    (long_request(), 0.3),
    (long_request(pb.Budget()), 0.3),  # IDA* with room enough, still longer than 0.3 s
    (solve_request(SLOW_DEAL), 0.1),  # the deadline leaves A* 60 ms
], ids=["idastar-cramped", "idastar", "astar"])
def test_short_deadline_answers_unknown_in_time(stub, request_, timeout):
    started = time.perf_counter()
    response = stub.Solve(request_, timeout=timeout)  # no DEADLINE_EXCEEDED
    elapsed = time.perf_counter() - started
    print(f"\n[figure] Solve deal {request_.position.beleaguered_deal} with timeout={timeout}: "
          f"{pb.Status.Name(response.status)} after {elapsed * 1000:.0f} ms "
          f"({response.stats.seconds * 1000:.0f} ms searching)")
    assert not response.optimal  # never claimed without the proof
    if response.status == pb.STATUS_SOLVED:  # the best line the budget's last quarter found
        assert response.lower_bound <= response.length == len(response.moves)
    else:
        assert response.status == pb.STATUS_UNKNOWN
        assert not response.HasField("length")
        assert list(response.moves) == []
    assert elapsed < timeout


@pytest.mark.timing
def test_short_deadline_hint_makes_no_claim(stub):
    response = stub.Hint(pb.HintRequest(position=deal_source(SLOW_DEAL)), timeout=0.1)
    assert response.status == pb.STATUS_UNKNOWN
    assert not response.HasField("move")
    assert not response.HasField("moves_left")
    assert not response.HasField("winnable")
    assert not response.cached


def test_request_budget_answers_unknown(stub):
    budget = pb.Budget(nodes=500)
    response = stub.Solve(solve_request(HARD_DEAL, budget=budget), timeout=30)
    assert response.status == pb.STATUS_UNKNOWN
    assert response.stats.nodes <= 500


@pytest.mark.parametrize("seconds", [0.0, 1e300])
def test_a_budget_of_any_seconds_stays_within_the_limit(seconds):
    limits = Budget(seconds=0.3, nodes=None, table_entries=1_000)
    assert budget_from_proto(pb.Budget(seconds=seconds), limits).seconds == 0.3


@pytest.mark.parametrize(("seconds", "shown"), NOT_SECONDS)
def test_a_budget_of_no_seconds_is_refused_not_replaced_by_the_limit(seconds, shown):
    """NaN seconds once went to the search as they were (no clock is ever past a NaN
    deadline), then were silently replaced by the limit, hiding the client's mistake."""
    limits = Budget(seconds=0.3, nodes=None, table_entries=1_000)
    with pytest.raises(InvalidInput) as caught:
        budget_from_proto(pb.Budget(seconds=seconds), limits)
    assert str(caught.value) == refusal(shown)


# ============================================================================ cancellation


@pytest.fixture()
def one_worker_server():
    with running_server(workers=1, queue=2) as server:
        yield server


@pytest.mark.timing
def test_cancelled_call_frees_its_worker(one_worker_server):
    with connect(one_worker_server) as client:
        hard = client.Solve.future(long_request())  # no deadline
        time.sleep(0.3)
        assert not hard.done(), "the hard deal should still be searching"
        _assert_worker_free_after(client, hard.cancel, f"deal {HARD_DEAL}")
        with pytest.raises(grpc.FutureCancelledError):
            hard.result()


@pytest.mark.timing
@pytest.mark.parametrize("stream", ["SolveBatch", "GenerateDeals"])
def test_cancelled_stream_frees_its_worker(one_worker_server, stream):
    requests = {
        "SolveBatch": pb.SolveBatchRequest(deals=[pb.DealRange(first=HARD_DEAL, last=HARD_DEAL),
                                                  pb.DealRange(first=29, last=29)],
                                           mode=pb.MODE_OPTIMAL, algorithm=pb.ALGORITHM_IDASTAR,
                                           budget=CRAMPED),
        "GenerateDeals": pb.GenerateDealsRequest(count=1, min_length=200,
                                                 first_deal=HARD_DEAL),
    }
    with connect(one_worker_server) as client:
        results = getattr(client, stream)(requests[stream])  # no deadline
        time.sleep(0.3)
        _assert_worker_free_after(client, results.cancel, f"a {stream} stream")


def _assert_worker_free_after(client, cancel, what: str) -> None:
    """Cancel, then an instant Solve on the one worker must answer within 250 ms."""
    cancelled_at = time.perf_counter()
    assert cancel()
    response = client.Solve(solve_request(1), timeout=5)
    elapsed = time.perf_counter() - cancelled_at
    print(f"\n[figure] after cancelling {what}, Solve deal 1 answered in "
          f"{elapsed * 1000:.1f} ms on a 1-worker server")
    assert response.status == pb.STATUS_UNSOLVABLE
    assert elapsed < 0.25


def _new_children(before: set[int]) -> list[multiprocessing.Process]:
    return [p for p in multiprocessing.active_children() if p.pid not in before]


def test_server_recovers_from_a_dead_worker():
    before = {p.pid for p in multiprocessing.active_children()}
    with running_server(workers=1, queue=1) as server, connect(server) as client:
        (worker,) = _new_children(before)  # the one search process this test started
        os.kill(worker.pid, signal.SIGKILL)  # as the OOM killer or a crash would
        worker.join(timeout=5)
        assert not worker.is_alive()
        outcomes = []
        for _ in range(3):
            try:
                outcomes.append(pb.Status.Name(client.Solve(solve_request(2), timeout=10).status))
            except grpc.RpcError as error:
                outcomes.append(f"{error.code().name}: {error.details()}")
            time.sleep(0.1)
        assert outcomes == ["STATUS_SOLVED"] * 3, outcomes


# ============================================================================ overload


def test_overload_is_resource_exhausted():
    calls = 5
    with running_server(workers=1, queue=1) as server, connect(server) as client:
        # they end on their own, UNKNOWN; long enough that all five have arrived while
        # the first still runs, however busy the machine keeps the client's sends apart
        budget = pb.Budget(seconds=2, table_entries=256)
        finished: dict[int, float] = {}
        lock = threading.Lock()
        started = time.perf_counter()
        futures = []
        for k in range(calls):
            future = client.Solve.future(long_request(budget), timeout=10)

            def done(_, k=k):
                with lock:
                    finished[k] = time.perf_counter() - started
            future.add_done_callback(done)
            futures.append(future)
        deadline = time.monotonic() + 60  # they end in some 4 s: a guard only
        while time.monotonic() < deadline and not all(f.done() for f in futures):
            time.sleep(0.01)
        for future in futures:  # free the server quickly if anything is left
            future.cancel()
        refused, answered = [], []
        for k, future in enumerate(futures):
            try:
                answered.append((k, future.result()))
            except grpc.RpcError as error:
                assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
                refused.append(k)
        print(f"\n[figure] overload: {len(refused)} of {calls} refused after "
              f"{', '.join(f'{finished[k] * 1000:.0f}' for k in refused)} ms; "
              f"{len(answered)} answered")
        assert refused, "no call was refused"
        assert len(answered) <= 2  # one running, one waiting
        assert len(refused) == calls - len(answered)
        for _, response in answered:
            assert response.status in (pb.STATUS_UNKNOWN, pb.STATUS_SOLVED)
        assert_still_answers(client)


# ============================================================================ health, reflection


def test_health_serving(solver_server):
    with grpc.insecure_channel(f"127.0.0.1:{solver_server.port}") as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "fortress.solver.v1.Solver"):
            response = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=5)
            assert response.status == health_pb2.HealthCheckResponse.SERVING
    assert SERVICE_NAME == "fortress.solver.v1.Solver"


def test_reflection_lists_services(solver_server):
    with grpc.insecure_channel(f"127.0.0.1:{solver_server.port}") as channel:
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        responses = list(reflection.ServerReflectionInfo(iter([request]), timeout=5))
    assert len(responses) == 1
    names = {service.name for service in responses[0].list_services_response.service}
    assert {"fortress.solver.v1.Solver", "grpc.health.v1.Health"} <= names


def test_reflection_describes_the_solver(solver_server):
    with grpc.insecure_channel(f"127.0.0.1:{solver_server.port}") as channel:
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(
            file_containing_symbol="fortress.solver.v1.Solver")
        (response,) = reflection.ServerReflectionInfo(iter([request]), timeout=5)
    assert response.HasField("file_descriptor_response")
    assert pb.DESCRIPTOR.serialized_pb in response.file_descriptor_response.file_descriptor_proto


# ============================================================================ streamed batch


def test_streamed_batch_of_200_deals(stub):
    request = pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=200)], mode=pb.MODE_ANY)
    started = time.perf_counter()
    results = list(stub.SolveBatch(request, timeout=60))
    served = time.perf_counter() - started
    assert len(results) == 200
    assert sorted(r.index for r in results) == list(range(200))
    for result in results:
        assert result.HasField("deal")
        assert result.deal == result.index + 1
    remote = {r.deal: STATUS[r.result.status] for r in results}
    started = time.perf_counter()
    local = {n: solve(deal(n), Mode.ANY).status for n in range(1, 201)}
    print(f"\n[figure] batch 1..200 any: {served:.2f} s served (2 workers), "
          f"{time.perf_counter() - started:.2f} s locally")
    assert remote == local
    assert Status.UNKNOWN not in remote.values()
    for result in results:
        if result.result.status == pb.STATUS_SOLVED:
            assert_wins(deal(result.deal), result.result.moves)


def test_a_batch_asked_for_several_results_a_message_sends_each_result_once(stub):
    """results_per_message: a message's first result carries the others that had finished,
    each with its index and deal; every deal comes once, as it comes one a message."""
    ranges = [pb.DealRange(first=1, last=300)]
    single = {r.deal: (r.result.status, r.result.length) for r in stub.SolveBatch(
        pb.SolveBatchRequest(deals=ranges, without_moves=True), timeout=60)}
    messages = list(stub.SolveBatch(pb.SolveBatchRequest(
        deals=ranges, without_moves=True, results_per_message=50), timeout=60))
    results = [result for message in messages for result in (message, *message.more)]
    assert sorted(r.index for r in results) == list(range(300))
    assert {r.deal: (r.result.status, r.result.length) for r in results} == single
    assert all(r.deal == r.index + 1 and not r.more for m in messages for r in m.more)
    assert len(messages) < 300 and max(len(m.more) for m in messages) < 50


# ============================================================================ hint cache


def test_hints_along_a_served_solution_are_cached(stub):
    response = stub.Solve(solve_request(2), timeout=30)
    assert response.status == pb.STATUS_SOLVED and response.optimal
    moves = moves_from_proto(response.moves)
    position = deal(2)
    latencies = []
    for k, move in enumerate(moves):
        hint, seconds = timed(stub.Hint, pb.HintRequest(position=position_source(position)),
                              timeout=5)
        latencies.append(seconds)
        assert hint.cached, k
        assert hint.status == pb.STATUS_SOLVED
        assert hint.moves_left == OPTIMAL_LENGTH_DEAL_2 - k
        assert hint.winnable
        assert moves_from_proto([hint.move]) == [move]
        position = apply(position, move)
    assert position.is_won
    won = stub.Hint(pb.HintRequest(position=position_source(position)), timeout=5)
    assert won.cached
    assert won.status == pb.STATUS_SOLVED
    assert won.HasField("moves_left") and won.moves_left == 0
    assert won.winnable
    assert not won.HasField("move")
    print(f"\n[figure] {len(latencies)} cached hints along deal 2: "
          f"mean {sum(latencies) / len(latencies) * 1000:.2f} ms, "
          f"max {max(latencies) * 1000:.2f} ms")


def test_second_hint_is_cached(one_worker_server):
    """On a fresh server (nothing cached): the first Hint searches, the second does not."""
    request = pb.HintRequest(position=deal_source(13))
    with connect(one_worker_server) as client:
        first, first_seconds = timed(client.Hint, request, timeout=30)
        second, second_seconds = timed(client.Hint, request, timeout=30)
    print(f"\n[figure] Hint deal 13: first {first_seconds * 1000:.1f} ms "
          f"(cached={first.cached}), second {second_seconds * 1000:.2f} ms "
          f"(cached={second.cached})")
    assert not first.cached
    assert second.cached
    assert second.status == pb.STATUS_SOLVED
    assert second.moves_left == first.moves_left == solve(deal(13)).length
    assert second.move == first.move


def test_unsolvable_verdict_is_cached(stub):
    stub.Hint(pb.HintRequest(position=deal_source(3)), timeout=30)
    again = stub.Hint(pb.HintRequest(position=deal_source(3)), timeout=30)
    assert again.cached
    assert again.status == pb.STATUS_UNSOLVABLE
    assert again.HasField("winnable") and not again.winnable


def test_any_mode_and_unknown_answers_are_not_cached(stub):
    stub.Solve(solve_request(15, mode=pb.MODE_ANY), timeout=30)
    stub.Solve(solve_request(HARD_DEAL, budget=pb.Budget(nodes=300)), timeout=30)
    for number in (15, HARD_DEAL):
        hint = stub.Hint(pb.HintRequest(position=deal_source(number),
                                        budget=pb.Budget(nodes=300)), timeout=30)
        assert not hint.cached, number


def test_a_position_with_thousands_of_faults_is_one_invalid_argument():
    """Every fault fits a status message up to gRPC's header limit; the rest are counted."""
    from service.servicer import MAX_DETAILS, details
    from solver.errors import InvalidInput

    many = InvalidInput([f"tableau:{k}: 'ü{k}' is not a card" for k in range(5000)])
    text = details(many)
    assert text.startswith("tableau:0: 'ü0' is not a card; tableau:1:")
    assert text.endswith(" more faults") and len(text) < MAX_DETAILS < len(str(many))
    # a whole deck of texts that are not cards, each quoted 40 characters long and every
    # "ü" of it six bytes as sent
    bad = pb.BeleagueredPosition(tableau=[pb.Pile(cards=[f"X{k}" + "ü" * 40
                                                         for k in range(52)])])
    with running_server(workers=1) as server, connect(server) as client:
        with pytest.raises(grpc.RpcError) as caught:
            client.Solve(pb.SolveRequest(position=pb.PositionSource(beleaguered=bad)),
                         timeout=30)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert 'tableau[0][0]: string should have at most 8 characters, not "X0üü' in \
        caught.value.details()
    assert caught.value.details().endswith("more faults")


def test_hint_all_moves_over_grpc_and_the_client_print_what_the_command_line_prints(capsys):
    """BeleagueredHintOptions.all_moves: every legal move graded, as `hint --all-moves`."""
    from tests.support.cli import run, timeless

    with running_server(workers=1) as server, connect(server) as client:
        options = pb.BeleagueredHintOptions(all_moves=True)
        response = client.Hint(pb.HintRequest(position=deal_source(2), beleaguered=options),
                               timeout=60)
        plain = client.Hint(pb.HintRequest(position=deal_source(2)), timeout=60)
        local = run(capsys, "hint", "--deal", "2", "--all-moves", "--json")
        remote = run(capsys, "client", "hint", "--deal", "2", "--all-moves", "--json",
                     "--server", f"127.0.0.1:{server.port}")
    assert not plain.all_moves
    assert response.all_moves[0].outcome == pb.MOVE_OUTCOME_WINS
    assert response.all_moves[0].moves_left == response.moves_left
    assert {(m.move.card, m.move.source, m.move.target) for m in response.all_moves} == \
        {(str(m.card), str(m.source), str(m.target)) for m in legal_moves(deal(2))}
    assert local[0] == remote[0] == 0 and timeless(local[1]) == timeless(remote[1])


def test_a_hints_winning_move_is_graded_a_win_whatever_the_grading_had_left(stub):
    """Deal 2's optimal line is in the hint cache once solved; a grading of one node a
    move proves nothing, yet the hint's move wins, in the hint's moves left."""
    stub.Solve(solve_request(2), timeout=60)
    response = stub.Hint(pb.HintRequest(
        position=deal_source(2), budget=pb.Budget(nodes=1),
        beleaguered=pb.BeleagueredHintOptions(all_moves=True)), timeout=60)
    assert response.cached and response.moves_left == 66
    first, *others = response.all_moves
    assert first.move == response.move
    assert first.outcome == pb.MOVE_OUTCOME_WINS and first.moves_left == 66
    assert {g.outcome for g in others} == {pb.MOVE_OUTCOME_UNKNOWN}
