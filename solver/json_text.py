"""A position's bytes as a JSON value, the first steps of reading it in every game: at
most MAX_BYTES, UTF-8 text, then JSON (or the game's kinder dialect) of finite numbers
alone; and JSON text written as strictly. Apart from the wire schemas
(solver/reading.py), so that a command that reads no file imports no pydantic."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from typing import Any

from solver.errors import InvalidInput

MAX_BYTES = 1_000_000  # a position is a few kilobytes; more is a mistake or an attack


def text_of(raw: bytes, source: str = "input") -> str:
    """The text of a position's bytes: at most MAX_BYTES, UTF-8, a byte-order mark allowed."""
    if len(raw) > MAX_BYTES:
        raise InvalidInput(f"{source} is {len(raw):,} bytes; a position is at most "
                           f"{MAX_BYTES:,}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InvalidInput(f"{source} is not UTF-8 text (byte {error.start} is "
                           f"0x{raw[error.start]:02x})") from None


def is_json_text(raw: bytes) -> bool:
    """Whether a position's bytes are for a JSON reader: they open as a JSON object, list
    or string does (after a byte-order mark and white space), or hold no more than those.
    Any other text is for a game that reads one of its own (`Game.from_text`)."""
    return _JSON_OPENING.match(raw) is not None


_JSON_OPENING = re.compile(rb'(?:\xef\xbb\xbf)?[ \t\r\n]*(?:[{\["]|\Z)')


def json_of(raw: bytes, source: str = "input",
            loads: Callable[[str], Any] = json.loads) -> Any:
    """The JSON value of a position's bytes (`loads` may read a kinder dialect), every
    number finite: Python's reader takes NaN, Infinity and 1e999, which JSON has not.
    Plain JSON refuses them as it reads them, then reads the text as Python does to say
    where they are (or what else makes it no JSON); a dialect's value is walked after."""
    text = text_of(raw, source)
    if loads is json.loads:
        try:
            return _read(_STRICT.decode, text, source)
        except _NotFinite:  # read again as Python does, to name where each such number is
            value = _read(json.loads, text, source)  # or what else makes it no JSON
    else:
        value = _read(loads, text, source)
        if _finite(value):
            return value
    faults = [f"{source}: {path} must be a finite number, not {word}" if path
              else f"{source} must be a finite number, not {word}"
              for path, word in _non_finite(value)]
    # none left to name: a later value of a duplicate key took the number's place
    raise InvalidInput(faults or f"{source} holds a number that is not finite")


def _read(loads: Callable[[str], Any], text: str, source: str) -> Any:
    """`loads(text)`, its faults as one line naming them (_NotFinite is let through)."""
    try:
        return loads(text)
    except RecursionError:
        raise InvalidInput(f"{source} nests too deeply to be read") from None
    except ValueError as error:  # json.JSONDecodeError, and the dialects' errors
        raise InvalidInput(f"{source} is not JSON: {error}") from None


class _NotFinite(Exception):
    """A number that is not finite, met while reading."""


def _finite_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):  # 1e999
        raise _NotFinite
    return value


def _no_constant(word: str) -> float:
    raise _NotFinite  # NaN, Infinity, -Infinity


_STRICT = json.JSONDecoder(parse_float=_finite_float, parse_constant=_no_constant)


def strict_dumps(value: Any) -> str:
    """A JSON value's text, strictly JSON: a number that is not finite is a ValueError
    (the fault of the code that made the value), never the text NaN that readers refuse."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _finite(value: Any) -> bool:
    """Whether every number of a JSON value is finite: a quick walk, without recursion."""
    below = [value]
    while below:
        item = below.pop()
        if isinstance(item, dict):
            below.extend(item.values())
        elif isinstance(item, list):
            below.extend(item)
        elif isinstance(item, float) and not math.isfinite(item):
            return False
    return True


def _non_finite(value: Any) -> Iterator[tuple[str, str]]:
    """The path (`players[0].wall`, empty for the whole value) and JSON's word of each
    number that is not finite, in the order of the text."""
    below: list[tuple[str, Any]] = [("", value)]
    while below:
        path, item = below.pop()
        if isinstance(item, dict):
            below.extend(reversed([(f"{path}.{key}" if path else key, inner)
                                   for key, inner in item.items()]))
        elif isinstance(item, list):
            below.extend(reversed([(f"{path}[{k}]", inner) for k, inner in enumerate(item)]))
        elif isinstance(item, float) and not math.isfinite(item):
            yield path, "NaN" if math.isnan(item) else "Infinity" if item > 0 else "-Infinity"
