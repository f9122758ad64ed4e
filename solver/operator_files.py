"""An operator's file (a rules file, a card table, a token file, a certificate), read so
that no file can hang, exhaust or crash the process: only a regular file (a FIFO would
block, /dev/zero never ends), at most a given number of bytes, UTF-8; and a TOML file
nested a few levels deep at most (tomllib recurses once a level, so a deep file would
exhaust Python's stack). Every fault is one InvalidInput of one line."""

from __future__ import annotations

import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

from solver.errors import InvalidInput

MAX_DEPTH = 20  # tables and arrays within one another: the shipped files nest 5 deep

# What the bracket count skips (strings and comments), and the brackets it counts. A
# string left open runs to its line's or the text's end, so that no text costs more than
# one pass.
_TOKENS = re.compile(r'"""(?:\\.|[^\\])*?(?:"""|\\?\Z)'  # a multi-line basic string
                     r"|'''.*?(?:'''|\Z)"              # a multi-line literal string
                     r'|"(?:\\.|[^"\\\n])*+(?:"|\\?$)'  # a basic string
                     r"|'[^'\n]*+(?:'|$)"              # a literal string
                     r"|#[^\n]*+"                      # a comment
                     r"|(?P<open>[\[{])|(?P<close>[\]}])", re.S | re.M)


def read_text(path: str | Path, limit: int, what: str) -> str:
    """The UTF-8 text of the regular file at `path`, of at most `limit` bytes (`what`
    the file is, for the message when it cannot be opened)."""
    try:  # non-blocking: opening a FIFO with no writer returns at once
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise InvalidInput(f"cannot read {what} {str(path)!r}: {error.strerror}") from None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise InvalidInput(f"{path}: not a regular file")
        raw = b""
        while len(raw) <= limit and (chunk := os.read(descriptor, limit + 1 - len(raw))):
            raw += chunk
    except OSError as error:
        raise InvalidInput(f"cannot read {what} {str(path)!r}: {error.strerror}") from None
    finally:
        os.close(descriptor)
    if len(raw) > limit:
        raise InvalidInput(f"{path}: larger than {limit:,} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidInput(f"{path}: not UTF-8 text (byte {error.start} is "
                           f"0x{raw[error.start]:02x})") from None


def toml_of(text: str, source: str) -> dict[str, Any]:
    """The TOML of `text`, nested at most MAX_DEPTH levels: its brackets are counted
    before tomllib reads it, its dotted keys and table headers after."""
    if _bracket_depth(text) > MAX_DEPTH:
        raise _too_deep(source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidInput(f"{source}: not TOML: {error}") from None
    except RecursionError:  # a backstop: the count above keeps tomllib shallow
        raise _too_deep(source) from None
    if _depth(data) > MAX_DEPTH:
        raise _too_deep(source)
    return data


def _too_deep(source: str) -> InvalidInput:
    return InvalidInput(f"{source}: nested deeper than {MAX_DEPTH} levels")


def _bracket_depth(text: str) -> int:
    """The most brackets and braces open at once, outside strings and comments."""
    depth = deepest = 0
    for token in _TOKENS.finditer(text):
        if token.lastgroup == "open":
            depth += 1
            deepest = max(deepest, depth)
        elif token.lastgroup == "close":
            depth = max(depth - 1, 0)
    return deepest


def _depth(data: dict[str, Any]) -> int:
    """How many tables and arrays deep the values go, counted without recursion."""
    deepest = 0
    below: list[tuple[Any, int]] = [(data, 0)]
    while below:
        value, depth = below.pop()
        deepest = max(deepest, depth)
        if isinstance(value, dict):
            below.extend((inner, depth + 1) for inner in value.values())
        elif isinstance(value, list):
            below.extend((inner, depth + 1) for inner in value)
    return deepest
