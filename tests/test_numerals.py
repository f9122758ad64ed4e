"""Numbers are read from text in ASCII digits alone: int() also reads other scripts'
digits ("٥" is 5), so `deal ٥` was deal 5 and `tableau:٠` pile 0. Every place that reads
a number from text (a flag, a move's place, a key of a position) refuses them."""

from __future__ import annotations

import json

import pytest

from service.farbduell.messages import POSITIONS
from solver.beleaguered.rules import Location
from solver.errors import InvalidInput
from solver.farbduell.position import Position
from solver.ffkingdom.data import reveal_count
from solver.numerals import read_number
from tests.support.cli import assert_one_line_error, run
from tests.support.farbduell import TABLES


@pytest.mark.parametrize(("text", "kind", "number"), [
    ("5", int, 5), ("-3", int, -3), ("007", int, 7), ("2147483648", int, 2**31),
    ("1.5", float, 1.5), ("-2e3", float, -2000.0), (".5", float, 0.5), ("7", float, 7.0),
])
def test_a_number_in_ascii_digits_is_read(text, kind, number):
    assert read_number(text, kind) == number


@pytest.mark.parametrize("text", ["٥", "١٢", "²", "５", "1_000", " 5", "5\n", "+5", "", "0x5",
                                  "5.0", "abc"])
def test_an_integer_in_other_digits_or_signs_is_none(text):
    assert read_number(text) is None


@pytest.mark.parametrize("text", ["١.٥", "1e٣", "٠.5", "1_0.5", " 1.5", ""])
def test_a_float_in_other_digits_is_none(text):
    assert read_number(text, float) is None


def test_an_integer_past_what_int_reads_is_none():
    assert read_number("9" * 5000) is None  # int() refuses more than 4,300 digits


@pytest.mark.parametrize("argv", [
    ["deal", "٥"],
    ["solve", "--deal", "٢"],
    ["solve", "--deal", "2", "--seconds", "١"],
    ["hint", "--deal", "2", "--nodes", "١٠"],
    ["batch", "--deals", "١-٣"],
    ["serve", "--port", "٥٠٠٥١"],
    ["ffk", "deal", "--seed", "٧"],
    ["ask", "fortress-fight-kingdom", "hint", "--start", "٧"],
    ["ask", "fortress-fight-kingdom", "hint", "--start", "7", "--worlds", "٨"],
    ["show", "--deal", "٢"],
])
def test_a_flag_in_other_digits_is_refused_in_one_line(capsys, argv):
    assert_one_line_error(*run(capsys, *argv), "written in ASCII digits")


@pytest.mark.parametrize("move", ["AS reserve:٨ foundation",
                                  json.dumps({"card": "AS", "from": "reserve:٨",
                                              "to": "foundation"}, ensure_ascii=False)])
def test_a_move_whose_place_is_in_other_digits_is_refused(capsys, move):
    assert_one_line_error(*run(capsys, "apply", "--deal", "2", move),
                          "'reserve:٨' is not a location")
    code, out, _ = run(capsys, "apply", "--deal", "2", move.replace("٨", "8"))
    assert code == 0 and out


@pytest.mark.parametrize("text", ["tableau:٠", "reserve:١", "cell:٠"])
def test_a_place_in_other_digits_is_no_location(text):
    with pytest.raises(InvalidInput, match="is not a location"):
        Location.parse(text)


def test_a_farbduell_seat_in_other_digits_is_no_seat():
    data = {"hands": [["red-1"], ["blue-2", "blue-3"], ["green-4"]], "discard": ["red-9"]}
    Position.from_json(data | {"knows": [{"hands": {"1": ["blue-3"]}}, {}, {}]}, TABLES)
    with pytest.raises(InvalidInput, match="'١' must be the seat of an opponent"):
        Position.from_json(data | {"knows": [{"hands": {"١": ["blue-3"]}}, {}, {}]}, TABLES)


def test_a_farbduell_seat_in_other_digits_is_no_key_of_its_message():
    data = Position.from_json({"hands": [["red-1"], ["blue-2", "blue-3"], ["green-4"]],
                               "discard": ["red-9"]}, TABLES).to_json()
    data["knows"] = [{"hands": {"١": ["blue-3"]}}, {}, {}]
    with pytest.raises(InvalidInput, match="must be a whole number"):
        POSITIONS.message(data)


def test_a_reveal_counts_cards_in_ascii_digits_only():
    assert reveal_count("deck_top_3") == 3
    assert reveal_count("deck_top_٣") is None
    assert reveal_count("deck_top_0") is None
    assert reveal_count("opp_hand") == 0
