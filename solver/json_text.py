"""A position's bytes as a JSON value, the first steps of reading it in every game: at
most MAX_BYTES, UTF-8 text, then JSON (or the game's kinder dialect). Apart from the
wire schemas (solver/reading.py), so that a command that reads no file imports no
pydantic."""

from __future__ import annotations

import json
from collections.abc import Callable
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


def json_of(raw: bytes, source: str = "input",
            loads: Callable[[str], Any] = json.loads) -> Any:
    """The JSON value of a position's bytes (`loads` may read a kinder dialect)."""
    text = text_of(raw, source)
    try:
        return loads(text)
    except RecursionError:
        raise InvalidInput(f"{source} nests too deeply to be a position") from None
    except ValueError as error:  # json.JSONDecodeError, and the dialects' errors
        raise InvalidInput(f"{source} is not JSON: {error}") from None
