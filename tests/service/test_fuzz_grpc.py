"""Mutated requests of every game against a real server: an answer, or INVALID_ARGUMENT
(OUT_OF_RANGE, UNIMPLEMENTED) naming the fault; never INTERNAL or UNKNOWN.

Requests start from real positions (each game's own `source`) and are mutated through
their descriptors, field by field: any value a field's type can carry, items added,
dropped or spoiled, sub-messages cleared, options of another game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.fuzz_positions import seeds
from service.api import fortress_solver_pb2 as pb
from service.games import GAMES
from solver.budget import Budget
from tests.service.conftest import connect, running_server

ANSWERS = (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.OUT_OF_RANGE,
           grpc.StatusCode.UNIMPLEMENTED)
_STRINGS = ["", "7H", "XX", "red-7", "joker", "play katapult", "A1", "D", "O1", "base",
            "S3", "attackers", "1v2", "9" * 30, "\u00fc\u00df", "tag-nacht", "cards", "race",
            "greedy", "search", "-1", "none", "day", "night"]
_INTS = {FieldDescriptor.TYPE_UINT32: [0, 1, 2, 3, 9, 100, 2**32 - 1],
         FieldDescriptor.TYPE_UINT64: [0, 1, 7, 2**40, 2**64 - 1],
         FieldDescriptor.TYPE_INT32: [0, 1, -1, 5, 2**31 - 1, -2**31],
         FieldDescriptor.TYPE_INT64: [0, 1, -1, 52, 2**31, 2**63 - 1, -2**63]}


@pytest.fixture(scope="module")
def stub() -> Iterator[Any]:
    limits = Budget(seconds=0.3, nodes=20_000, table_entries=100_000)
    with running_server(workers=1, queue=4, limits=limits) as running, \
            connect(running) as connected:
        yield connected


def _sources() -> list[tuple[str, pb.PositionSource]]:
    found = []
    dealt = seeds()
    for entry in GAMES:
        if entry.wire is None:
            continue
        for data in dealt[entry.game.name]:
            found.append((entry.game.name, entry.wire.source(entry.game.from_json(data))))
    return found


SOURCES = _sources()


def _value(field: FieldDescriptor, rng: random.Random) -> Any:
    if field.type == FieldDescriptor.TYPE_STRING:
        return rng.choice(_STRINGS)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if field.type == FieldDescriptor.TYPE_DOUBLE:
        return rng.choice([0.0, -1.0, 0.5, 1e300, float("inf"), float("nan")])
    if field.type == FieldDescriptor.TYPE_ENUM:
        return rng.choice([v.number for v in field.enum_type.values] + [99])
    return rng.choice(_INTS[field.type])


def mutate(message: Message, rng: random.Random) -> None:
    """One change somewhere in `message`, in place."""
    fields = message.DESCRIPTOR.fields
    field = rng.choice(fields)
    is_message = field.type == FieldDescriptor.TYPE_MESSAGE
    is_map = is_message and field.message_type.GetOptions().map_entry
    container = getattr(message, field.name)
    if is_map:
        key_field = field.message_type.fields_by_name["key"]
        value_field = field.message_type.fields_by_name["value"]
        if container and rng.random() < 0.4:
            del container[rng.choice(list(container))]
        elif value_field.type == FieldDescriptor.TYPE_MESSAGE:
            mutate(container[_value(key_field, rng)], rng)
        else:
            container[_value(key_field, rng)] = _value(value_field, rng)
    elif field.is_repeated:
        action = rng.random()
        if container and action < 0.3:
            del container[rng.randrange(len(container))]
        elif is_message and container and action < 0.8:
            mutate(container[rng.randrange(len(container))], rng)
        elif is_message:
            if container and rng.random() < 0.5:
                container.add().CopyFrom(container[rng.randrange(len(container))])
            else:
                mutate(container.add(), rng)
        elif container and action < 0.7:
            container[rng.randrange(len(container))] = _value(field, rng)
        else:
            container.append(_value(field, rng))
    elif is_message:
        if rng.random() < 0.2:
            message.ClearField(field.name)
        else:
            mutate(container, rng)
    else:
        setattr(message, field.name, _value(field, rng))


def _request(rng: random.Random, source: pb.PositionSource) -> pb.SolveRequest | pb.HintRequest:
    request: pb.SolveRequest | pb.HintRequest
    request = pb.SolveRequest() if rng.random() < 0.5 else pb.HintRequest()
    request.position.CopyFrom(source)
    for _ in range(rng.choice([1, 1, 2, 3, 5])):
        mutate(request.position if rng.random() < 0.8 else request, rng)
    return request


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 10**6))
def test_no_mutated_request_gets_internal_or_unknown(stub, seed, pick):
    rng = random.Random(seed)
    game, source = SOURCES[pick % len(SOURCES)]
    request = _request(rng, source)
    call = stub.Solve if isinstance(request, pb.SolveRequest) else stub.Hint
    try:
        call(request, timeout=30)
    except grpc.RpcError as error:
        assert error.code() in ANSWERS, (game, request, error.code(), error.details())
        assert error.details() and "\n" not in error.details()


def test_every_game_has_a_source_to_start_from():
    games = {game for game, _ in SOURCES}
    assert games == {entry.game.name for entry in GAMES if entry.wire is not None}


def test_the_server_still_answers_after_the_fuzzing(stub):
    info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=10)
    assert {game.name for game in info.games} == {game for game, _ in SOURCES}
