"""A position's bytes as JSON: numbers JSON has not are refused by path, whether plain
JSON reads them (refused as they are read) or a game's dialect does (walked after)."""

from __future__ import annotations

import json

import pytest

from solver.errors import InvalidInput
from solver.json_text import json_of
from solver.stronghold.schema import loads as commented


def _dialect(text: str) -> object:
    """A reader that is not json.loads itself: its value is walked."""
    return json.loads(text)


@pytest.mark.parametrize("loads", [json.loads, _dialect, commented])
@pytest.mark.parametrize(("text", "faults"), [
    ('{"a": [1, NaN]}', ["position: a[1] must be a finite number, not NaN"]),
    ('{"a": {"b": 1e999, "c": -Infinity}}',
     ["position: a.b must be a finite number, not Infinity",
      "position: a.c must be a finite number, not -Infinity"]),
    ("-1e999", ["position must be a finite number, not -Infinity"]),
])
def test_a_number_json_has_not_is_refused_naming_where(loads, text, faults):
    with pytest.raises(InvalidInput) as refused:
        json_of(text.encode(), "position", loads)
    assert refused.value.problems == faults


@pytest.mark.parametrize("loads", [json.loads, _dialect])
def test_finite_numbers_and_the_rest_of_json_are_read_as_they_are(loads):
    text = ('{"n": 3, "x": -1.5e3, "big": 123456789012345678901234567890, "s": "NaN", '
            '"l": [null, true]}')
    assert json_of(text.encode(), "position", loads) == json.loads(text)


def test_what_is_not_json_says_so_in_one_line():
    with pytest.raises(InvalidInput, match=r"^position is not JSON: Expecting"):
        json_of(b'{"a": 1', "position")
    with pytest.raises(InvalidInput, match="nests too deeply"):
        json_of(b"[" * 100_000, "position")
