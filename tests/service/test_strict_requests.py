"""What a request's fields cannot hold is refused, never read as something else: an
enum's number that names no value, a count past its documented most. Over gRPC and over
the HTTP face's JSON alike, INVALID_ARGUMENT (HTTP 400) naming the field and the number,
on a real server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.server import RunningServer
from tests.support.http import post
from tests.support.servers import connect, deal_source, rpc_error, running_server

DEAL = deal_source(2)
QUICK = pb.Budget(seconds=5)


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=2, queue=4, http_port=0) as running:
        yield running


@pytest.fixture(scope="module")
def stub(server):
    with connect(server) as client:
        yield client


UNKNOWN_ENUMS = [
    ("Solve", pb.SolveRequest(position=DEAL, budget=QUICK, mode=99), "SolveRequest.mode", 99),
    ("Solve", pb.SolveRequest(position=DEAL, budget=QUICK, algorithm=-5),
     "SolveRequest.algorithm", -5),
    ("Solve", pb.SolveRequest(position=DEAL, budget=QUICK,
                              beleaguered=pb.BeleagueredSolveOptions(mode=99)),
     "BeleagueredSolveOptions.mode", 99),
    ("Solve", pb.SolveRequest(position=DEAL, budget=QUICK,
                              beleaguered=pb.BeleagueredSolveOptions(metric=42)),
     "BeleagueredSolveOptions.metric", 42),
    ("Solve", pb.SolveRequest(position=DEAL, budget=QUICK,
                              beleaguered=pb.BeleagueredSolveOptions(algorithm=-5)),
     "BeleagueredSolveOptions.algorithm", -5),
    ("Hint", pb.HintRequest(position=DEAL, budget=QUICK,
                            beleaguered=pb.BeleagueredHintOptions(metric=42)),
     "BeleagueredHintOptions.metric", 42),
]


@pytest.mark.parametrize(("method", "request_", "field", "number"), UNKNOWN_ENUMS,
                         ids=[f"{field} {number}" for _, _, field, number in UNKNOWN_ENUMS])
def test_an_enum_number_that_names_no_value_is_refused_over_grpc(stub, method, request_,
                                                                  field, number):
    error = rpc_error(getattr(stub, method), request_)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert f"{field}: {number} is no " in error.details()


@pytest.mark.parametrize(("field", "number"), [("mode", 99), ("algorithm", -5),
                                               ("metric", 42)])
def test_an_enum_number_that_names_no_value_is_refused_in_a_batch(stub, field, number):
    request = pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=2)], budget=QUICK,
                                   **{field: number})
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.SolveBatch(request, timeout=30))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert f"SolveBatchRequest.{field}: {number} is no " in caught.value.details()


@pytest.mark.parametrize(("method", "options", "field", "number"), [
    ("Solve", {"mode": 99}, "SolveRequest.mode", 99),
    ("Solve", {"beleaguered": {"metric": 42}}, "BeleagueredSolveOptions.metric", 42),
    ("Solve", {"beleaguered": {"algorithm": -5}}, "BeleagueredSolveOptions.algorithm", -5),
    ("Hint", {"beleaguered": {"metric": 42}}, "BeleagueredHintOptions.metric", 42),
])
def test_an_enum_number_in_json_that_names_no_value_is_a_400(server, method, options, field,
                                                             number):
    status, body = post(server, method, {"position": {"beleaguered_deal": 2},
                                         "budget": {"seconds": 5}, **options})
    assert (status, body["code"]) == (400, "invalid_argument")
    assert f"{field}: {number} is no " in body["message"]


def test_an_enum_number_that_names_a_value_is_read_as_it(server):
    status, body = post(server, "Solve", {"position": {"beleaguered_deal": 2},
                                          "budget": {"seconds": 30},
                                          "beleaguered": {"mode": 2, "metric": 1}})
    assert status == 200 and body["status"] == "STATUS_SOLVED"
    assert body.get("optimal", False) is False  # MODE_ANY: any win, its length not proven


def test_more_results_a_message_than_the_documented_256_is_refused(stub):
    deals = [pb.DealRange(first=1, last=3)]
    request = pb.SolveBatchRequest(deals=deals, budget=QUICK, results_per_message=257)
    with pytest.raises(grpc.RpcError) as caught:
        list(stub.SolveBatch(request, timeout=30))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details() == ("results_per_message 257 is more than 256, the most "
                                      "one message carries")
    most = pb.SolveBatchRequest(deals=deals, budget=QUICK, results_per_message=256)
    results = list(stub.SolveBatch(most, timeout=30))
    assert sorted(r.deal for m in results for r in (m, *m.more)) == [1, 2, 3]


@pytest.mark.parametrize(("options", "fault"), [
    ('{"single_cards": "yes"}', 'options.single_cards: must be true or false, not "yes"'),
    ('{"moves": 1}', "options.moves: must be true or false, not 1"),
])
def test_question_options_of_another_type_are_refused_not_coerced(stub, server, options,
                                                                   fault):
    asked = pb.QuestionOptions(question="solve", options=options)
    error = rpc_error(stub.Solve, pb.SolveRequest(position=DEAL, budget=QUICK,
                                                  question_options=asked))
    assert (error.code(), error.details()) == (grpc.StatusCode.INVALID_ARGUMENT, fault)
    status, body = post(server, "Solve", {"position": {"beleaguered_deal": 2},
                                          "question_options": {"question": "solve",
                                                               "options": options}})
    assert (status, body["code"], body["message"]) == (400, "invalid_argument", fault)
