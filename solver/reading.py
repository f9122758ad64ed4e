"""Reading a position from bytes, the same way for every game: the bytes, then the JSON,
then the game's wire schema (every type, range and length, each length before the items
it counts), then the game's own checks.

Every fault becomes one InvalidInput naming all that is wrong, each with the path of
its field (`players[0].wall: ...`); no other exception escapes a reader.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticKnownError, core_schema

from solver.errors import InvalidInput, OtherGame
from solver.json_text import MAX_BYTES, json_of, text_of

# Keys an object may hold beyond its fields, each then named as a fault: room for a few
# misspelt ones. More is junk, refused by its count before any key is read.
MAX_UNKNOWN_KEYS = 8

M = TypeVar("M", bound=BaseModel)

__all__ = ["MAX_BYTES", "MAX_UNKNOWN_KEYS", "MaxKeys", "OtherGame", "Schema", "check", "faults",
           "json_of", "path_of", "schema", "shown", "text_of"]


class Schema(BaseModel):
    """The base of every wire schema: strict types (no "3" for 3, no 1 for true), no
    unknown fields, and values that cannot change once read."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _few_keys(cls, data: Any) -> Any:
        """An object of thousands of unknown keys is refused by its count: named one by
        one, they would cost a fault each."""
        most = len(cls.model_fields) + MAX_UNKNOWN_KEYS
        if isinstance(data, dict) and len(data) > most:
            raise _too_long("Object", len(data), most)
        return data


@dataclass(frozen=True)
class MaxKeys:
    """A dict's `max_length` (published as maxProperties), checked before any entry is
    read: pydantic checks a list's length first, but a dict's only after reading every
    entry, and a megabyte of bad entries is a hundred thousand faults."""

    most: int

    def __get_pydantic_core_schema__(self, source: Any,
                                     handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_before_validator_function(self._check, handler(source))

    def __get_pydantic_json_schema__(self, schema: CoreSchema,
                                     handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return {**handler(schema), "maxProperties": self.most}

    def _check(self, value: Any) -> Any:
        if isinstance(value, dict) and len(value) > self.most:
            raise _too_long("Dictionary", len(value), self.most)
        return value


def _too_long(kind: str, length: int, most: int) -> PydanticKnownError:
    """pydantic's own fault for a collection over its max_length, worded as every other."""
    return PydanticKnownError("too_long", {"field_type": kind, "max_length": most,
                                           "actual_length": length})


def check(model: type[M], data: Any, most: Mapping[str, int] | None = None) -> M:
    """`data` read by the wire schema `model`, or InvalidInput naming every fault (or
    OtherGame, for a position whose "game" names another game). `most`: the bound a
    fault of a list too long says, by its path, where the position's own is below the
    schema's (a variant's piles, where the schema bounds any variant's)."""
    _refuse_other_game(model, data)
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise InvalidInput(faults(error, most)) from None
    except RecursionError:
        raise InvalidInput("the position nests too deeply") from None


def _refuse_other_game(model: type[BaseModel], data: Any) -> None:
    """OtherGame when `data` names a game other than the one of `model`'s "game" field
    (whose default is its game's name), by its name or an alias."""
    field = model.model_fields.get("game")
    named = data.get("game") if isinstance(data, dict) else None
    if field is None or not isinstance(named, str) or named == field.default:
        return
    from solver.games import find_game  # only here: finding it may load every game

    try:
        game, asked = find_game(named), find_game(str(field.default))
    except InvalidInput:  # no game of that name: a fault of the "game" field, as any other
        return
    if game is not asked:
        raise OtherGame(game, asked)


def faults(error: ValidationError, most: Mapping[str, int] | None = None) -> list[str]:
    """Each fault pydantic found, in the words of a JSON position, with its path; a list
    too long says the bound `most` gives its path, if any (see `check`)."""
    return [_fault(e, most or {}) for e in error.errors(include_url=False)]


def schema(model: type[BaseModel], game: str) -> dict[str, Any]:
    """The JSON Schema of a game's positions, for client authors to validate against."""
    document = model.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://fortress-solver.invalid/schema/{game}.json", **document}


_PLAIN = {  # pydantic's wording for a type fault, in the words of a JSON position
    "string_type": "must be a string", "int_type": "must be a whole number",
    "int_from_float": "must be a whole number", "bool_type": "must be true or false",
    "float_type": "must be a number", "list_type": "must be a list",
    "dict_type": "must be an object", "model_type": "must be an object",
    "model_attributes_type": "must be an object", "none_required": "must be null",
    "missing": "is missing", "extra_forbidden": "is not a field of this position",
}


def _fault(error: Any, most: Mapping[str, int]) -> str:
    path = path_of(error["loc"])
    kind, context = error["type"], error.get("ctx") or {}
    if kind in _PLAIN:
        message = _PLAIN[kind]
    elif kind == "too_long":
        allowed = most.get(path, context["max_length"])
        message = f"has {context['actual_length']} items, at most {allowed}"
    elif kind == "too_short":
        message = f"has {context['actual_length']} items, at least {context['min_length']}"
    elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = {"greater_than_equal": "at least", "less_than_equal": "at most",
                 "greater_than": "more than", "less_than": "less than"}[kind]
        limit = next(iter(context.values()))
        message = f"must be {bound} {limit}"
    else:
        message = str(error["msg"])[0].lower() + str(error["msg"])[1:]
    if kind not in ("missing", "extra_forbidden", "too_long", "too_short"):
        message += f", not {shown(error.get('input'))}"
    if path:
        return f"{path}: {message}"
    return "a position must be a JSON object" if kind == "model_type" else f"a position {message}"


def shown(value: Any) -> str:
    """A value as JSON writes it, cut short: faults quote what they refuse."""
    try:
        text = _printable(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _printable(text: str) -> str:
    """`text` with what JSON leaves raw but a terminal would not print as one line
    (U+0085, U+2028, other unprintables) escaped: a fault is one line."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


def path_of(loc: tuple[int | str, ...]) -> str:
    """`players[0].wall` from pydantic's ("players", 0, "wall"), as the proto converters
    name a field too; the branches a union tried (`list[str]`, `function-after[...]`) are
    left out."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif "[" in part or part.startswith(("function-", "json-or-python")):
            continue
        else:
            name = part if part.isidentifier() else _printable(json.dumps(part,
                                                                          ensure_ascii=False))
            text += f".{name}" if text else name
    return text
