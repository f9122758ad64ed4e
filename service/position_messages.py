"""A position message turned into the JSON its game's reader reads, and back.

The walker is driven by the message's descriptor and the game's wire schema together, so
that a position is described once, by its schema and its proto message, and no converter
keeps a list of fields. Its conventions, each derived where it applies:

- a field with presence (`optional`, or a message) is in the JSON when the message sets
  it; a field without presence when it is not its zero value, or the schema requires it;
- a JSON null is a field left out, but where the published schema gives a nullable field
  no default (null and left out mean different things, as for a colour not yet chosen), null is
  the proto field set to its zero value;
- where the schema has a list and the proto a message, the message holds that one
  repeated field: a list that can be absent, or a list as a map's value;
- where the schema has a tuple, the message's fields are its items, in order;
- maps are objects (a number key written as text), their entries in key order;
- the JSON key is the schema field's name (or alias), the proto field is named by its
  `serialization_alias` where the two differ (a JSON key `Z` for the field `bricks`);
- a schema field without a proto field (`game`) is not sent, and is only its default;
- every list and map is measured against the schema's max_length before any of it is
  converted, at every depth: the message's lists first, then what they hold.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sized
from dataclasses import dataclass
from functools import cache
from operator import attrgetter
from types import NoneType, UnionType
from typing import Annotated, Any, Generic, TypeVar, Union, get_args, get_origin

from annotated_types import MaxLen
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from service.api import fortress_solver_pb2 as pb
from service.messages import at_most
from solver.errors import InvalidInput
from solver.numerals import read_number
from solver.reading import MaxKeys, path_of

M = TypeVar("M", bound=Message)
P = TypeVar("P")  # a game's position value
# what protobuf raises for a value its field cannot hold (a bool of 2**64 overflows)
_UNFIT = (TypeError, ValueError, OverflowError)
Path = tuple[int | str, ...]


def message_to_json(message: Message, schema: type[BaseModel]) -> dict[str, Any]:
    """The JSON that `schema`'s reader reads of `message`: the fields it sets, each list
    and map refused by its length (`at_most`) before any of its items is converted."""
    data: dict[str, Any] = _message_shape(message.DESCRIPTOR, schema).to_json(message, ())
    return data


def json_to_message(data: Any, message_class: type[M], schema: type[BaseModel]) -> M:
    """The message of a position's JSON, field for field; InvalidInput for what no field
    holds as it is (a key `schema` lacks, a negative number, text for a number).

    The message is made in one call from nested fields, the quickest way; one refused is
    made again a message at a time, to say which."""
    shape = _message_shape(message_class.DESCRIPTOR, schema)
    try:
        return message_class(**shape.to_proto(data, (), False))
    except _UNFIT:
        message: M = shape.to_proto(data, (), True)
        return message


@dataclass(frozen=True)
class Positions(Generic[P, M]):
    """A game's typed position message both ways, through its JSON: the message becomes
    the JSON the command line reads, with exactly the fields it sets, and goes through the
    game's reader, so that the reader fills in the same defaults and bad input gets the
    same message on both; a position's JSON becomes its message field for field."""

    field: str                                  # the PositionSource field that holds it
    kind: type[M]                               # its message
    schema: type[BaseModel]                     # the game's wire schema
    reader: Callable[[dict[str, Any]], P]       # the game's reader of a position's JSON
    writer: Callable[[P], dict[str, Any]]       # a position's JSON

    def json(self, message: M) -> dict[str, Any]:
        """The JSON of a message, for the reader (InvalidInput for a list longer than it
        takes)."""
        return message_to_json(message, self.schema)

    def message(self, data: Mapping[str, Any]) -> M:
        """The message of a position's JSON that the reader accepts (InvalidInput for a
        value no field holds as it is)."""
        return json_to_message(data, self.kind, self.schema)

    def read(self, message: M) -> P:
        """The position a message holds; InvalidInput names every fault."""
        return self.reader(self.json(message))

    def write(self, position: P) -> M:
        """A position's message, every field its JSON has."""
        return self.message(self.writer(position))

    def source(self, position: P) -> pb.PositionSource:
        """What a client sends for the position."""
        held: dict[str, Any] = {self.field: self.write(position)}
        return pb.PositionSource(**held)


def _refuse(path: Path, fault: str) -> InvalidInput:
    where = path_of(path)
    return InvalidInput(f"position cannot be sent to a server: {where + ': ' if where else ''}"
                        f"{fault}")


class _Shape:
    """How one value travels: its JSON form and its proto form. A list or map has the most
    items it may hold, `limit` (None: no bound, or not a list), counted on `size(value)`."""

    limit: int | None = None
    plain = False   # the value is the same in both forms: no call needed
    size: Callable[[Any], Sized] = staticmethod(lambda value: value)

    def to_json(self, value: Any, path: Path) -> Any:
        return value

    def to_proto(self, value: Any, path: Path, built: bool) -> Any:
        """The value as a message's constructor takes it: a message as a dict of its
        fields, or, `built`, the message made (a refusal then names its path)."""
        return value


class _Scalar(_Shape):
    plain = True


_SCALAR = _Scalar()


def _measure(shape: _Shape, value: Any, path: Path) -> None:
    """A list or map over its limit refused, in the reader's words (`at_most`)."""
    if shape.limit is not None and len(shape.size(value)) > shape.limit:
        at_most(shape.size(value), shape.limit, *path)


class _List(_Shape):
    """A repeated field: a JSON list. Its items' own lists are all measured before any
    item is converted."""

    def __init__(self, item: _Shape, limit: int | None) -> None:
        self.item, self.limit = item, limit

    def to_json(self, value: Any, path: Path) -> Any:
        item = self.item
        if item.plain:
            return list(value)
        if item.limit is not None:
            for k, each in enumerate(value):
                _measure(item, each, (*path, k))
        return [item.to_json(each, (*path, k)) for k, each in enumerate(value)]

    def to_proto(self, value: Any, path: Path, built: bool) -> Any:
        if not isinstance(value, list | tuple):
            raise _refuse(path, "must be a list")
        if self.item.plain:
            return value
        return [self.item.to_proto(each, (*path, k), built) for k, each in enumerate(value)]


class _Map(_Shape):
    """A map: a JSON object, in key order; a number key is written as text."""

    def __init__(self, value: _Shape, limit: int | None, text_keys: bool) -> None:
        self.value, self.limit, self.text_keys = value, limit, text_keys

    def to_json(self, value: Any, path: Path) -> Any:
        shape = self.value
        entries = [(key if self.text_keys else str(key), value[key]) for key in sorted(value)]
        if shape.plain:
            return dict(entries)
        if shape.limit is not None:
            for name, each in entries:
                _measure(shape, each, (*path, name))
        return {name: shape.to_json(each, (*path, name)) for name, each in entries}

    def to_proto(self, value: Any, path: Path, built: bool) -> Any:
        if not isinstance(value, Mapping):
            raise _refuse(path, "must be an object")
        return {name if self.text_keys else _number(name, (*path, name)):
                self.value.to_proto(each, (*path, name), built) for name, each in value.items()}


def _number(name: Any, path: Path) -> int:
    number = read_number(name) if isinstance(name, str) else None
    if number is None or number < 0:
        raise _refuse(path, "must be a whole number")
    return number


class _Wrapper(_Shape):
    """A message holding one repeated field, where the schema has a list: a list that can
    be absent, or a list as a map's value."""

    def __init__(self, message_class: type[Message], field: str, items: _Shape) -> None:
        self.message_class, self.field, self.items = message_class, field, items
        self.limit, self.size = items.limit, attrgetter(field)

    def to_json(self, value: Any, path: Path) -> Any:
        return self.items.to_json(self.size(value), path)

    def to_proto(self, value: Any, path: Path, built: bool) -> Any:
        fields = {self.field: self.items.to_proto(value, path, built)}
        return _made(self.message_class, fields, path) if built else fields


class _Tuple(_Shape):
    """A message whose fields are, in order, the items of the schema's tuple."""

    def __init__(self, message_class: type[Message], fields: list[str]) -> None:
        self.message_class, self.fields = message_class, fields
        self.items = attrgetter(*fields)

    def to_json(self, value: Any, path: Path) -> Any:
        return list(self.items(value))

    def to_proto(self, value: Any, path: Path, built: bool) -> Any:
        if not isinstance(value, list | tuple) or len(value) != len(self.fields):
            raise _refuse(path, f"must be a list of {len(self.fields)} items")
        fields = dict(zip(self.fields, value, strict=True))
        return _made(self.message_class, fields, path) if built else fields


def _made(message_class: type[M], fields: dict[str, Any], path: Path) -> M:
    try:
        return message_class(**fields)
    except _UNFIT as error:
        raise _refuse(path, str(error)) from None


_LEFT_OUT = object()  # a field whose JSON null is the field left out


class _Field:
    """A schema field and its proto field; `null` is what a JSON null stands for."""

    def __init__(self, key: str, field: FieldDescriptor, shape: _Shape, null: Any) -> None:
        self.key, self.name, self.shape, self.null = key, field.name, shape, null


class _Message(_Shape):
    """A message whose schema is a model: a JSON object."""

    def __init__(self, message_class: type[Message], fields: list[_Field],
                 required: list[_Field], constants: dict[str, Any]) -> None:
        self.message_class, self.constants, self.required = message_class, constants, required
        descriptor = message_class.DESCRIPTOR
        # by proto field and by JSON key: the other's name, the shape (None: plain), null
        self.by_field = {descriptor.fields_by_name[f.name]:
                         (f.key, None if f.shape.plain else f.shape, f.null) for f in fields}
        self.by_key = {f.key: (f.name, None if f.shape.plain else f.shape, f.null)
                       for f in fields}
        self.keys = {f.name: f.key for f in fields}
        self.counted = any(f.shape.limit is not None for f in fields)

    def to_json(self, value: Any, path: Path) -> Any:
        listed = [(*self.by_field[descriptor], each) for descriptor, each in value.ListFields()]
        if self.counted:
            for key, shape, _, each in listed:
                if shape is not None:
                    _measure(shape, each, (*path, key))
        data = {}
        for key, shape, null, each in listed:
            if shape is None:
                data[key] = None if each == null else each
            else:
                data[key] = shape.to_json(each, (*path, key))
        for field in self.required:
            if field.key not in data:
                data[field.key] = field.shape.to_json(getattr(value, field.name),
                                                      (*path, field.key))
        return data

    def to_proto(self, value: Any, path: Path, built: bool) -> Any:
        if not isinstance(value, Mapping):
            raise _refuse(path, "must be an object")
        fields: dict[str, Any] = {}
        for key, each in value.items():
            found = self.by_key.get(key)
            if found is None:
                self._constant(key, each, path)
                continue
            name, shape, null = found
            if each is None:
                if null is not _LEFT_OUT:
                    fields[name] = null
            else:
                fields[name] = (each if shape is None
                                else shape.to_proto(each, (*path, key), built))
        if not built:
            return fields
        try:
            return self.message_class(**fields)
        except _UNFIT as error:
            raise self._refused(fields, path, error) from None

    def _refused(self, fields: dict[str, Any], path: Path, error: Exception) -> InvalidInput:
        """The refusal of the first field the message refuses on its own, by its key."""
        for name, value in fields.items():
            try:
                self.message_class(**{name: value})
            except _UNFIT as alone:
                return _refuse((*path, self.keys[name]), str(alone))
        return _refuse(path, str(error))

    def _constant(self, key: str, value: Any, path: Path) -> None:
        """A schema field no proto field holds is the schema's constant (the game's name);
        a key the schema lacks is no field at all."""
        if key not in self.constants:
            raise _refuse((*path, key), "is not a field of this position")
        if value != self.constants[key]:
            raise _refuse((*path, key), f"must be {json.dumps(self.constants[key])}, not "
                                        f"{json.dumps(value)}")


@cache
def _message_shape(descriptor: Descriptor, schema: type[BaseModel]) -> _Message:
    """The shape of a message and its schema model. A proto field the schema lacks, or one
    without presence whose schema default is not its zero value, is a mistake of the code,
    found on the first use."""
    published = schema.model_json_schema()["properties"]
    fields, required, constants = [], [], {}
    for name, info in schema.model_fields.items():
        key = info.alias or name
        proto = descriptor.fields_by_name.get(info.serialization_alias or name)
        if proto is None:
            constants[key] = info.default
            continue
        hint = Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
        nullable = _unwrapped(hint)[1]
        differ = nullable and not info.is_required() and "default" not in published[key]
        field = _Field(key, proto, _field_shape(hint, proto),
                       proto.default_value if differ else _LEFT_OUT)
        fields.append(field)
        if info.is_required() and not proto.has_presence:
            required.append(field)
        elif info.default and not proto.has_presence:
            raise TypeError(f"{schema.__name__}.{name} defaults to {info.default!r}, but "
                            f"a message without it is read as its zero value")
    missing = set(descriptor.fields_by_name) - {field.name for field in fields}
    if missing:
        raise TypeError(f"{descriptor.full_name} has fields {sorted(missing)} that "
                        f"{schema.__name__} lacks")
    return _Message(GetMessageClass(descriptor), fields, required, constants)


def _field_shape(hint: Any, field: FieldDescriptor) -> _Shape:
    core, _, limit = _unwrapped(hint)
    entry = field.message_type
    if entry is not None and entry.GetOptions().map_entry:
        _, value = get_args(core)
        keys = entry.fields_by_name["key"]
        return _Map(_value_shape(value, entry.fields_by_name["value"].message_type), limit,
                    keys.cpp_type == FieldDescriptor.CPPTYPE_STRING)
    if field.is_repeated:
        (item,) = get_args(core)
        return _List(_value_shape(item, field.message_type), limit)
    return _value_shape(hint, field.message_type)


def _value_shape(hint: Any, descriptor: Descriptor | None) -> _Shape:
    """The shape of one value (a field's, an item's, a map's): the schema's type says how
    a message travels."""
    core = _unwrapped(hint)[0]
    model = isinstance(core, type) and issubclass(core, BaseModel)
    if descriptor is None:
        if model or get_origin(core) in (list, dict, tuple):
            raise TypeError(f"a scalar proto field for the schema's {core}")
        return _SCALAR
    message_class = GetMessageClass(descriptor)
    if model:
        return _message_shape(descriptor, core)
    if get_origin(core) is tuple:
        return _Tuple(message_class, [field.name for field in descriptor.fields])
    (inner,) = descriptor.fields
    if get_origin(core) is not list or not inner.is_repeated:
        raise TypeError(f"{descriptor.full_name} is not a list as its schema's {core}")
    return _Wrapper(message_class, inner.name, _field_shape(hint, inner))


def _unwrapped(hint: Any) -> tuple[Any, bool, int | None]:
    """The type beneath Annotated and `| None`, whether it may be null, and the most
    items the annotations of that level allow."""
    nullable, limit = False, None
    while True:
        origin = get_origin(hint)
        if origin is Annotated:
            hint, *extras = get_args(hint)
            limit = next((most for most in map(_most, extras) if most is not None), limit)
        elif origin in (Union, UnionType):
            members = [member for member in get_args(hint) if member is not NoneType]
            nullable = nullable or len(members) < len(get_args(hint))
            (hint,) = members
        else:
            return hint, nullable, limit


def _most(extra: Any) -> int | None:
    if isinstance(extra, MaxLen):
        return extra.max_length
    if isinstance(extra, MaxKeys):
        return extra.most
    if isinstance(extra, FieldInfo):
        return next((most for most in map(_most, extra.metadata) if most is not None), None)
    return None


