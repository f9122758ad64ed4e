"""The service tests' shared fixtures: one server per test module, and a stub on it.
The helpers to start servers and talk to them are tests/support/servers.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.api import fortress_solver_pb2_grpc
from service.server import RunningServer
from tests.support.servers import connect, running_server


@pytest.fixture(scope="module")
def solver_server() -> Iterator[RunningServer]:
    """The shared server of a test module: 2 workers, room for 8 waiting calls."""
    with running_server(workers=2, queue=8, cache_entries=100_000) as server:
        yield server


@pytest.fixture(scope="module")
def stub(solver_server) -> Iterator[fortress_solver_pb2_grpc.SolverStub]:
    with connect(solver_server) as client:
        yield client
