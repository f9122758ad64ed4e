"""One change to a protobuf message, through its descriptor: a scalar set to a value its
type can carry (the odd ones often), an item or a map entry added, dropped or changed, a
sub-message cleared or changed. The wire fuzz of every RPC and the Stronghold server's
fuzz both mutate their requests with `mutate`; each may choose the values it sets.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

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

Values = Callable[[FieldDescriptor, random.Random], Any]


def any_value(field: FieldDescriptor, rng: random.Random) -> Any:
    """Any value a scalar field's type can carry, the odd ones often (an enum's unknown
    numbers too)."""
    if field.type == FieldDescriptor.TYPE_STRING:
        return rng.choice(STRINGS)
    if field.type == FieldDescriptor.TYPE_BYTES:
        return rng.choice([b"", b"\x00", b"\xff" * 9, b"7H"])
    if field.type == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if field.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return rng.choice(DOUBLES)
    if field.type == FieldDescriptor.TYPE_ENUM:
        return rng.choice([v.number for v in field.enum_type.values] + [99, -1])
    return rng.choice(INTS[field.cpp_type])


def mutate(message: Message, rng: random.Random, value: Values = any_value) -> None:
    """One change somewhere in `message`, in place (none in a message without fields);
    `value` gives the scalars it sets."""
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
            mutate(container[value(key_field, rng)], rng, value)
        else:
            container[value(key_field, rng)] = value(value_field, rng)
    elif field.is_repeated:
        action = rng.random()
        if container and action < 0.3:
            del container[rng.randrange(len(container))]
        elif is_message and container and action < 0.8:
            mutate(container[rng.randrange(len(container))], rng, value)
        elif is_message:
            if container and rng.random() < 0.5:
                container.add().CopyFrom(container[rng.randrange(len(container))])
            else:
                mutate(container.add(), rng, value)
        elif container and action < 0.7:
            container[rng.randrange(len(container))] = value(field, rng)
        else:
            container.append(value(field, rng))
    elif is_message:
        if rng.random() < 0.2:
            message.ClearField(field.name)
        else:
            container.SetInParent()  # an empty sub-message is set too
            mutate(container, rng, value)
    else:
        setattr(message, field.name, value(field, rng))
