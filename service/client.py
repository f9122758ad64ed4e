"""The client side of the service, for the `fortress-solver client ...` commands: one
channel, and each RPC with a deadline of its request's budget and a little room. The
games' converters build the requests and read the answers."""

from __future__ import annotations

from collections.abc import Iterator

import grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc

_ROOM = 5.0  # seconds past the budget for the answer to arrive


class Client:
    def __init__(self, address: str) -> None:
        self._channel = grpc.insecure_channel(address)
        self._stub = pb_grpc.SolverStub(self._channel)  # type: ignore[no-untyped-call]

    def close(self) -> None:
        self._channel.close()

    def solve(self, request: pb.SolveRequest) -> pb.SolveResponse:
        response: pb.SolveResponse = self._stub.Solve(request, timeout=_timeout(request.budget))
        return response

    def hint(self, request: pb.HintRequest) -> pb.HintResponse:
        response: pb.HintResponse = self._stub.Hint(request, timeout=_timeout(request.budget))
        return response

    def solve_batch(self, request: pb.SolveBatchRequest) -> Iterator[pb.BatchResult]:
        yield from self._stub.SolveBatch(request)

    def generate_deals(self, request: pb.GenerateDealsRequest) -> Iterator[pb.GeneratedDeal]:
        yield from self._stub.GenerateDeals(request)


def _timeout(budget: pb.Budget) -> float | None:
    """The call's deadline: the budget and a little room to send the answer."""
    return budget.seconds + _ROOM if budget.seconds > 0 else None
