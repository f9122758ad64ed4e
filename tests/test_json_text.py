"""A position's bytes as JSON: numbers JSON has not are refused by path, whether plain
JSON reads them (refused as they are read) or a game's dialect does (walked after); text
that is no JSON besides holding them is refused in one line as no JSON."""

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


# The probe's input: NaN, then the text cut short.
NAN_CUT_SHORT = '{"game": "patience", "tableau": NaN, "reserve": [NaN, "4C'


@pytest.mark.parametrize("loads", [json.loads, _dialect, commented])
@pytest.mark.parametrize(("text", "fault"), [
    pytest.param(NAN_CUT_SHORT, r"^position is not JSON: Unterminated string starting at: "
                                r"line 1 column 55 \(char 54\)$", id="nan-cut-short"),
    pytest.param('{"a": Infinity, "b": [1e999, ', r"^position is not JSON: Expecting value",
                 id="infinity-cut-short"),
    pytest.param("[-Infinity, 1] 2", r"^position is not JSON: Extra data", id="extra-data"),
    pytest.param('{"a": NaN "b": 1}', r"^position is not JSON: Expecting ',' delimiter",
                 id="no-comma"),
    pytest.param("[NaN, " + "[" * 100_000, r"^position nests too deeply to be read$",
                 id="nan-nested-deep"),
])
def test_a_number_json_has_not_in_what_is_no_json_besides_is_refused_as_no_json(
        loads, text, fault):
    with pytest.raises(InvalidInput, match=fault) as refused:
        json_of(text.encode(), "position", loads)
    assert len(refused.value.problems) == 1


def test_infinity_in_a_dialects_own_text_is_refused_naming_where():
    text = '{"a": [1, Infinity,], // a comment\n "b": /* NaN */ 2}'
    with pytest.raises(InvalidInput) as refused:
        json_of(text.encode(), "position", commented)
    assert refused.value.problems == ["position: a[1] must be a finite number, not Infinity"]
    with pytest.raises(InvalidInput, match=r"^position is not JSON: unterminated comment"):
        json_of(b'{"a": NaN /* cut short', "position", commented)


def test_a_number_a_duplicate_key_hides_is_refused_all_the_same():
    """Python keeps a key's last value: the NaN plain JSON refused is not there to name."""
    with pytest.raises(InvalidInput) as refused:
        json_of(b'{"a": NaN, "a": 1}', "position")
    assert refused.value.problems == ["position holds a number that is not finite"]
