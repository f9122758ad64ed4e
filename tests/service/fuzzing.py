"""Requests for the wire fuzz tests (test_fuzz_grpc.py): real requests of every RPC to
mutate, a mutation through a message's descriptor, and hypothesis strategies that build
any message of a descriptor from nothing or spoil the bytes of one.
"""

from __future__ import annotations

import json
import random
from typing import Any

from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from hypothesis import strategies as st

from bench.fuzz_positions import seeds
from service.api import fortress_solver_pb2 as pb
from service.games import GAMES

STRINGS = ["", "7H", "XX", "red-7", "joker", "play katapult", "A1", "D", "O1", "base",
           "S3", "attackers", "1v2", "9" * 30, "\u00fc\u00df", "tag-nacht", "cards", "race",
           "greedy", "search", "-1", "none", "day", "night", "{}", "[]", "null",
           '{"game": "stronghold"}', "tableau:0", "foundation", "reserve:11", "draw"]
INTS = {FieldDescriptor.CPPTYPE_UINT32: [0, 1, 2, 3, 9, 100, 2**31, 2**32 - 1],
        FieldDescriptor.CPPTYPE_UINT64: [0, 1, 7, 2**31, 2**40, 2**63, 2**64 - 1],
        FieldDescriptor.CPPTYPE_INT32: [0, 1, -1, 5, 2**31 - 1, -2**31],
        FieldDescriptor.CPPTYPE_INT64: [0, 1, -1, 52, 2**31 - 1, 2**31, 2**63 - 1, -2**63]}
RANGES = {FieldDescriptor.CPPTYPE_UINT32: (0, 2**32 - 1),
          FieldDescriptor.CPPTYPE_UINT64: (0, 2**64 - 1),
          FieldDescriptor.CPPTYPE_INT32: (-2**31, 2**31 - 1),
          FieldDescriptor.CPPTYPE_INT64: (-2**63, 2**63 - 1)}
DOUBLES = [0.0, -0.0, -1.0, 0.5, 5e-324, 1e300, -1e300, float("inf"), float("-inf"),
           float("nan")]

SOLVER = pb.DESCRIPTOR.services_by_name["Solver"]


def _sources() -> list[tuple[str, pb.PositionSource]]:
    """Real positions of every served game, as their messages and as JSON."""
    found = []
    dealt = seeds()
    for entry in GAMES:
        if entry.wire is None:
            continue
        for data in dealt[entry.game.name]:
            position = entry.game.from_json(data)
            found.append((entry.game.name, entry.wire.source(position)))
            text = json.dumps({"game": entry.game.name, **entry.game.to_json(position)})
            found.append((entry.game.name, pb.PositionSource(json=text)))
    return found


SOURCES = _sources()


def _plays() -> list[pb.PlayRequest]:
    """A legal first move (when the game has moves) from each typed source, with and
    without the bots' replies."""
    requests = []
    for k, (name, source) in enumerate(SOURCES):
        entry = next(e for e in GAMES if e.game.name == name)
        if source.WhichOneof("source") == "json" or entry.wire is None:
            continue
        moves = entry.game.moves(entry.wire.position(source)) if entry.game.moves else ()
        requests.append(pb.PlayRequest(position=source, moves=moves[:1], replies=k % 2 == 0))
    return requests


def _valid() -> dict[str, list[Message]]:
    """Requests each RPC answers, to start mutations from."""
    beleaguered = [s.beleaguered for _, s in SOURCES if s.WhichOneof("source") == "beleaguered"]
    games = [entry.game.name for entry in GAMES if entry.wire is not None]
    return {
        "Solve": [pb.SolveRequest(position=source) for _, source in SOURCES],
        "Hint": [pb.HintRequest(position=source) for _, source in SOURCES],
        "SolveBatch": [pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=3)],
                                            positions=beleaguered[:1], mode=pb.MODE_ANY),
                       pb.SolveBatchRequest(deals=[pb.DealRange(first=2, last=2),
                                                   pb.DealRange(first=9, last=12)])],
        "GenerateDeals": [pb.GenerateDealsRequest(count=2, min_length=60, max_length=70,
                                                  first_deal=1, last_deal=20),
                          pb.GenerateDealsRequest(count=1, first_deal=1, last_deal=5)],
        "GetServerInfo": [pb.GetServerInfoRequest()],
        "Deal": [pb.DealRequest(game=game, seed=seed) for game in games for seed in (1, 2)],
        "Play": _plays(),
    }


VALID = _valid()


def value(field: FieldDescriptor, rng: random.Random) -> Any:
    """Any value a scalar field's type can carry, the odd ones often."""
    if field.type == FieldDescriptor.TYPE_STRING:
        return rng.choice(STRINGS)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if field.type == FieldDescriptor.TYPE_DOUBLE:
        return rng.choice(DOUBLES)
    if field.type == FieldDescriptor.TYPE_ENUM:
        return rng.choice([v.number for v in field.enum_type.values] + [99, -1])
    return rng.choice(INTS[field.cpp_type])


def mutate(message: Message, rng: random.Random) -> None:
    """One change somewhere in `message`, in place (none in a message without fields)."""
    fields = message.DESCRIPTOR.fields
    if not fields:
        return
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
            mutate(container[value(key_field, rng)], rng)
        else:
            container[value(key_field, rng)] = value(value_field, rng)
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
            container[rng.randrange(len(container))] = value(field, rng)
        else:
            container.append(value(field, rng))
    elif is_message:
        if rng.random() < 0.2:
            message.ClearField(field.name)
        else:
            container.SetInParent()  # an empty sub-message is set too
            mutate(container, rng)
    else:
        setattr(message, field.name, value(field, rng))


@st.composite
def mutated(draw: st.DrawFn, rpc: str) -> Message:
    """A real request of `rpc` with one to five changes, mostly in its position."""
    request = type(VALID[rpc][0])()
    request.CopyFrom(draw(st.sampled_from(VALID[rpc])))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    has_position = "position" in request.DESCRIPTOR.fields_by_name
    for _ in range(draw(st.sampled_from([1, 1, 2, 3, 5]))):
        mutate(request.position if has_position and rng.random() < 0.7
               else request, rng)
    return request


# ------------------------------------------------------------ from nothing, by descriptor

_LONG = st.builds(lambda text, n: text * n, st.sampled_from(["x", "7H ", "\u00fc", "{[", "\x00"]),
                  st.integers(1_000, 200_000))


def _scalar(field: FieldDescriptor, small: bool) -> st.SearchStrategy[Any]:
    kind = field.cpp_type
    if kind == FieldDescriptor.CPPTYPE_STRING:
        if field.type == FieldDescriptor.TYPE_BYTES:
            return st.binary(max_size=64)
        texts = st.one_of(st.sampled_from(STRINGS), st.text(max_size=20))
        return texts if small else st.one_of(texts, texts, texts, _LONG)
    if kind == FieldDescriptor.CPPTYPE_BOOL:
        return st.booleans()
    if kind in (FieldDescriptor.CPPTYPE_DOUBLE, FieldDescriptor.CPPTYPE_FLOAT):
        return st.one_of(st.sampled_from(DOUBLES), st.floats())
    if kind == FieldDescriptor.CPPTYPE_ENUM:
        known = [v.number for v in field.enum_type.values]
        return st.one_of(st.sampled_from(known), st.integers(-2**31, 2**31 - 1))
    low, high = RANGES[kind]
    return st.one_of(st.sampled_from(INTS[kind]), st.integers(0, 200), st.integers(low, high))


def _fill(draw: st.DrawFn, message: Message, depth: int, small: bool) -> None:
    """Set some fields of `message`: at most one member of each oneof (any member, fit or
    not), sub-messages to `depth`, and now and then a repeated field of thousands of
    items (their items then small, so that a message stays within a few MB)."""
    descriptor: Descriptor = message.DESCRIPTOR
    chosen = {draw(st.sampled_from([None, *oneof.fields])) for oneof in descriptor.oneofs}
    for field in descriptor.fields:
        if field.containing_oneof is not None:
            if field not in chosen:
                continue
        elif not draw(st.booleans()):
            continue
        _set(draw, message, field, depth, small)


def _set(draw: st.DrawFn, message: Message, field: FieldDescriptor, depth: int,
         small: bool) -> None:
    is_message = field.type == FieldDescriptor.TYPE_MESSAGE
    container = getattr(message, field.name)
    if is_message and field.message_type.GetOptions().map_entry:
        key = _scalar(field.message_type.fields_by_name["key"], True)
        value_field = field.message_type.fields_by_name["value"]
        for k in draw(st.lists(key, max_size=4, unique=True)):
            if value_field.type == FieldDescriptor.TYPE_MESSAGE:
                _fill(draw, container[k], depth - 1, small)
            else:
                container[k] = draw(_scalar(value_field, small))
        return
    if field.is_repeated:
        huge = not small and draw(st.integers(0, 11)) == 0
        if is_message:
            item = message_factory.GetMessageClass(field.message_type)()
            if depth > 0:
                _fill(draw, item, depth - 1, small or huge)
            count = draw(st.integers(1_000, 5_000) if huge else st.integers(0, 4))
            container.extend([item] * count)
        elif huge:
            container.extend([draw(_scalar(field, True))] * draw(st.integers(1_000, 20_000)))
        else:
            container.extend(draw(st.lists(_scalar(field, small), max_size=4)))
        return
    if is_message:
        container.SetInParent()
        if depth > 0:
            _fill(draw, container, depth - 1, small)
        return
    setattr(message, field.name, draw(_scalar(field, small)))


@st.composite
def built(draw: st.DrawFn, descriptor: Descriptor) -> Message:
    """Any message of `descriptor`, from nothing: the empty one too."""
    message = message_factory.GetMessageClass(descriptor)()
    _fill(draw, message, 5, False)
    return message


@st.composite
def spoiled(draw: st.DrawFn, rpc: str) -> bytes:
    """Bytes that may not be the request at all: random ones, or a real request's with
    bytes flipped, cut off or put in."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=200))
    raw = bytearray(draw(mutated(rpc)).SerializeToString())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(raw)))
        action = draw(st.sampled_from(["flip", "cut", "put"]))
        if action == "flip" and at < len(raw):
            raw[at] ^= draw(st.integers(1, 255))
        elif action == "cut":
            del raw[at:]
        else:
            raw[at:at] = draw(st.binary(min_size=1, max_size=8))
    return bytes(raw)


def requests(rpc: str) -> st.SearchStrategy[Message | bytes]:
    """What the fuzz sends to `rpc`: built from nothing, real ones mutated, or bytes."""
    descriptor = SOLVER.methods_by_name[rpc].input_type
    return st.one_of(built(descriptor), mutated(rpc), mutated(rpc), spoiled(rpc))
