"""An answer's JSON written into a typed message, so that an answer is described once,
by its `to_json`, and each typed response is a view of it (as position_messages.py makes
a position's message of its JSON).

Each key goes into the field of its name (or of the name `renamed` gives it, at every
depth), a JSON object into a message or a map, a list into a repeated field; a null, and
a key no field has, are left out. A text in an enum field is the value named for it
after the enum's prefix (`"wins"` is `MOVE_OUTCOME_WINS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from google.protobuf.descriptor import EnumDescriptor
from google.protobuf.message import Message


def fill(message: Message, data: Mapping[str, Any], renamed: Mapping[str, str]) -> None:
    """Writes `data`, an answer's JSON object, into `message`, key by key."""
    fields = message.DESCRIPTOR.fields_by_name
    for key, value in data.items():
        field = fields.get(renamed.get(key, key))
        if field is None or value is None:
            continue
        name, kind = field.name, field.message_type
        if kind is None:
            if field.is_repeated:
                getattr(message, name).extend(_scalar(field, each) for each in value)
            else:
                setattr(message, name, _scalar(field, value))
        elif kind.GetOptions().map_entry:
            getattr(message, name).update(value)
        elif field.is_repeated:
            items = getattr(message, name)
            for each in value:
                fill(items.add(), each, renamed)
        else:
            part = getattr(message, name)
            part.SetInParent()
            fill(part, value, renamed)


def _scalar(field: Any, value: Any) -> Any:  # a FieldDescriptor
    if field.enum_type is not None and isinstance(value, str):
        return _enum_value(field.enum_type, value)
    return value


@cache
def _enum_value(enum: EnumDescriptor, text: str) -> int:
    """The number of the enum's value named for `text` after its prefix."""
    suffix = "_" + text.upper().replace("-", "_")
    (number,) = {value.number for value in enum.values if value.name.endswith(suffix)}
    return number
