"""Hypothesis strategies of what the wire fuzz sends an RPC: real requests
(tests/support/rpc_requests.py) mutated field by field (tests/support/proto_mutation.py),
any message of the request's descriptor built from nothing, or bytes that need not be
the message at all.
"""

from __future__ import annotations

import random
from typing import Any

from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from hypothesis import strategies as st

from tests.support.proto_mutation import DOUBLES, INTS, RANGES, STRINGS, mutate
from tests.support.rpc_requests import SOLVER, VALID


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
