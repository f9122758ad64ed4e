"""An answer's JSON as the fields of a typed message, so that an answer is described once,
by its `to_json`, and each typed response is a view of it (as position_messages.py makes
a position's message of its JSON).

Each key goes into the field of its name (or of the name `renamed` gives it, at every
depth), a JSON object into a message or a map, a list into a repeated field; a null, and
a key no field has, are left out. A text in an enum field is the value named for it
after the enum's prefix (`"wins"` is `MOVE_OUTCOME_WINS`). The fields come as a message's
constructor takes them, nested, so that the message is made in one call: the quickest
way, some microseconds for a hint.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from google.protobuf.descriptor import Descriptor, EnumDescriptor

Renamed = tuple[tuple[str, str], ...]
# by JSON key: its field's name, and how its value becomes what the constructor takes
# (None: as it is)
_Plan = dict[str, tuple[str, Callable[[Any], Any] | None]]


def message_fields(descriptor: Descriptor, data: Mapping[str, Any],
                   renamed: Mapping[str, str]) -> dict[str, Any]:
    """The fields of a `descriptor` message that `data`, an answer's JSON object, gives."""
    return _fields(_plan(descriptor, tuple(renamed.items())), data)


def _fields(plan: _Plan, data: Mapping[str, Any]) -> dict[str, Any]:
    fields = {}
    for key, value in data.items():
        step = plan.get(key)
        if step is None or value is None:
            continue
        name, convert = step
        fields[name] = value if convert is None else convert(value)
    return fields


@cache
def _plan(descriptor: Descriptor, renamed: Renamed) -> _Plan:
    """How each JSON key of a `descriptor` message's answer becomes its field."""
    names = dict(renamed)
    plan: _Plan = {}
    for field in descriptor.fields:
        convert: Callable[[Any], Any] | None = None
        kind, enum = field.message_type, field.enum_type
        if kind is not None and not kind.GetOptions().map_entry:
            convert = _message(_plan(kind, renamed))
            convert = _each(convert) if field.is_repeated else convert
        elif enum is not None:
            convert = _each(_named(enum)) if field.is_repeated else _named(enum)
        keys = [key for key, name in names.items() if name == field.name] or [field.name]
        plan |= {key: (field.name, convert) for key in keys}
    return plan


def _message(plan: _Plan) -> Callable[[Any], Any]:
    return lambda value: _fields(plan, value)


def _each(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda values: [convert(value) for value in values]


def enum_text(enum: Any, number: int) -> str:
    """An enum value's name after the enum's prefix, in lower case: `MODE_ANY` is "any"
    (the reverse of what an answer's text becomes)."""
    return str(enum.values_by_number[number].name.removeprefix(_prefix(enum)).lower())


def _prefix(enum: Any) -> str:
    """What every value's name of the enum begins with: its zero's, `MODE_UNSPECIFIED`,
    less UNSPECIFIED."""
    return str(enum.values_by_number[0].name.removesuffix("UNSPECIFIED"))


def _named(enum: EnumDescriptor) -> Callable[[Any], Any]:
    """A text as the number of the enum's value named for it after its prefix (a number
    as it is)."""
    numbers = {value.name.removeprefix(_prefix(enum)): value.number for value in enum.values}
    return lambda text: numbers[text.upper()] if isinstance(text, str) else text
