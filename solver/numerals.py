r"""Numbers read from text in ASCII digits alone. int() and float() read more: other
scripts' digits ("٥" is 5, "٠" is 0), "_" between digits, spaces around them, so that
`deal ٥` would be deal 5. Every number read from text (a flag, a key of a position) is
read here; a pattern that finds one in text (a move's place, `tableau:3`) says [0-9],
not \d, which matches every script's digits too."""

from __future__ import annotations

import re
from typing import TypeVar

N = TypeVar("N", int, float)

_WRITTEN = {
    int: re.compile(r"-?[0-9]+"),
    # float() also reads "inf" and "nan": read here, to be refused as no finite number
    float: re.compile(r"-?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|nan)",
                      re.IGNORECASE),
}


def read_number(text: str, kind: type[N] = int) -> N | None:
    """The number of `kind` (int or float) `text` writes in ASCII digits (after an
    optional "-"), None when it writes none."""
    if _WRITTEN[kind].fullmatch(text) is None:
        return None
    try:
        return kind(text)
    except ValueError:  # an integer of more digits than int() reads (4,300)
        return None
