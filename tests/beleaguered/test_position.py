"""Positions: the JSON layout of DESIGN.md, str()/parse(), and refusal of anything that is not
one whole deck in a legal shape, with messages that name each fault."""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.beleaguered.position import Position
from solver.cards import FULL_DECK, Card, Suit
from solver.errors import InvalidInput

# The shape DESIGN.md shows: foundations D to 3 and S to A, an emptied reserve slot.
EXAMPLE_TEXT = """
{"game": "beleaguered-fortress",
 "tableau": [["9S", "2H", "KD", "4C", "TS"], ["TH", "6C", "7S", "9D", "9C"],
             ["QC", "5H", "KS", "TC", "9H"], ["8C", "5C", "5S", "JH", "2C"],
             ["KH", "QD", "7H", "AC", "KC"], ["8D", "2S", "JS", "4H"],
             ["5D", "6S", "6H", "4D"], ["JD", "8H", "JC", "7C", "6D"]],
 "reserve": ["QH", null, "QS", "AH", "3C", "3H", "4S", "TD", "8S", "3S", "7D", null],
 "foundations": {"C": 0, "D": 3, "H": 0, "S": 1}}
"""


def example() -> dict:
    return json.loads(EXAMPLE_TEXT)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def problems_of(data) -> list[str]:
    with pytest.raises(InvalidInput) as info:
        Position.from_json(data)
    assert info.value.problems, "InvalidInput must list at least one problem"
    assert str(info.value) == "; ".join(info.value.problems)
    return info.value.problems


def has(problems: list[str], *fragments: str) -> bool:
    """Some single problem mentions every fragment."""
    return any(all(f in p for f in fragments) for p in problems)


# --- JSON in and out --------------------------------------------------------------------------

def test_from_json_reads_the_design_layout():
    position = Position.from_json(example())
    assert position.tableau[0] == cards("9S 2H KD 4C TS")
    assert position.tableau[7] == cards("JD 8H JC 7C 6D")
    assert len(position.tableau) == 8
    assert position.reserve[0] == Card.parse("QH")
    assert position.reserve[1] is None and position.reserve[11] is None
    assert len(position.reserve) == 12
    assert position.foundations == (0, 3, 0, 1)
    assert position.foundation_top(Suit.DIAMONDS) == 3
    assert position.cards_left() == 48
    assert not position.is_won


def test_to_json_gives_back_exactly_the_design_layout():
    data = example()
    out = Position.from_json(data).to_json()
    assert out == data
    assert list(out) == ["game", "tableau", "reserve", "foundations"]
    assert list(out["foundations"]) == ["C", "D", "H", "S"]
    assert json.loads(json.dumps(out)) == data  # plain JSON values only


def test_str_is_one_canonical_json_line_and_parses_back():
    position = Position.from_json(example())
    text = str(position)
    assert "\n" not in text and ", " not in text and ": " not in text
    assert json.loads(text) == example()
    assert Position.parse(text) == position
    assert Position.parse(EXAMPLE_TEXT) == position  # any JSON spacing reads the same


def test_json_card_spellings_are_normalised():
    data = example()
    data["tableau"][0] = ["9s", "2♥", "kd", "4C", "10S"]
    position = Position.from_json(data)
    assert position == Position.from_json(example())
    assert position.to_json()["tableau"][0] == ["9S", "2H", "KD", "4C", "TS"]


def test_foundations_are_inferred_when_omitted():
    data = example()
    del data["foundations"]
    position = Position.from_json(data)
    assert position.foundations == (0, 3, 0, 1)
    assert position == Position.from_json(example())


def test_foundations_inferred_zero_when_every_card_is_in_play():
    data = example()
    del data["foundations"]
    data["reserve"][1] = "AD"
    data["reserve"][11] = "2D"
    data["tableau"][5].append("3D")
    data["tableau"][6].append("AS")
    assert Position.from_json(data).foundations == (0, 0, 0, 0)


def test_foundations_inferred_for_a_whole_suit_home():
    # all hearts home, nothing else: 39 cards in play
    in_play = [str(c) for c in FULL_DECK if c.suit != Suit.HEARTS]
    data = {"tableau": [in_play[i:i + 5] for i in range(0, 35, 5)],
            "reserve": in_play[35:39] + [None]}
    position = Position.from_json(data)
    assert position.foundations == (0, 0, 13, 0)


def test_foundations_inferred_only_from_a_prefix():
    # 2D missing but AD in play: not a prefix, so 2D is reported missing, not sent home
    data = example()
    del data["foundations"]
    data["reserve"][1] = "AD"
    data["tableau"][5].append("3D")
    data["tableau"][6].append("AS")
    problems = problems_of(data)
    assert has(problems, "lacks", "2D")


def test_partial_foundations_object_defaults_other_suits_to_zero():
    data = example()
    data["foundations"] = {"D": 3, "S": 1}
    assert Position.from_json(data).foundations == (0, 3, 0, 1)


def test_fewer_than_eight_piles_are_padded_with_empty_piles():
    data = example()
    moved = data["tableau"][5] + data["tableau"][6] + data["tableau"][7]
    data["tableau"] = data["tableau"][:4] + [data["tableau"][4] + moved]
    position = Position.from_json(data)
    assert len(position.tableau) == 8
    assert position.tableau[5:] == ((), (), ())
    assert position.tableau[4][-1] == Card.parse("6D")
    out = position.to_json()
    assert out["tableau"][5:] == [[], [], []]
    assert Position.from_json(out) == position


def test_short_reserve_is_kept_short():
    data = example()
    data["tableau"][0] += [c for c in data["reserve"] if c]
    data["reserve"] = [None, None]
    position = Position.from_json(data)
    assert position.reserve == (None, None)
    assert Position.from_json(position.to_json()) == position
    data["reserve"] = []
    assert Position.from_json(data).reserve == ()


def test_reserve_may_be_omitted():
    data = example()
    data["tableau"][1] += [c for c in data.pop("reserve") if c]
    assert Position.from_json(data).reserve == ()


def test_a_won_position():
    position = Position.from_json({"tableau": [], "foundations": {s: 13 for s in "CDHS"}})
    assert position.is_won
    assert position.cards_left() == 0
    assert position.tableau == ((),) * 8


# --- refusals: one per kind of fault ----------------------------------------------------------

def test_a_card_twice_is_named():
    data = example()
    data["tableau"][0][1] = "7H"  # 7H also sits in pile 4; 2H is now missing
    problems = problems_of(data)
    assert has(problems, "holds 7H twice")
    assert has(problems, "lacks", "2H")


def test_a_card_three_times_is_named():
    data = example()
    data["tableau"][0][1] = "7H"
    data["tableau"][0][2] = "7H"
    assert has(problems_of(data), "holds 7H 3 times")


def test_a_missing_card_is_named():
    data = example()
    data["tableau"][3].remove("5C")
    problems = problems_of(data)
    assert problems == ["position lacks 5C"]


def test_several_missing_cards_are_all_named():
    data = example()
    data["tableau"][3].remove("5C")
    data["reserve"][2] = None  # QS
    problems = problems_of(data)
    assert has(problems, "lacks", "5C", "QS")


@pytest.mark.parametrize(("where", "index"), [("tableau", 3), ("reserve", 5)])
def test_a_string_that_is_not_a_card_names_text_and_location(where, index):
    data = example()
    if where == "tableau":
        data["tableau"][3][2] = "ZZ"
    else:
        data["reserve"][5] = "ZZ"
    problems = problems_of(data)
    assert has(problems, f"{where}:{index}", "'ZZ'", "not a card")


def test_a_non_string_card_is_refused():
    data = example()
    data["tableau"][2][0] = 12
    assert has(problems_of(data), "tableau:2", "12", "not a card")


def test_more_than_eight_piles():
    data = example()
    data["tableau"].append([data["tableau"][7].pop()])
    assert has(problems_of(data), "9 piles", "at most 8")


def test_more_than_twelve_reserve_slots():
    data = example()
    data["reserve"].append(None)
    assert has(problems_of(data), "13 slots", "at most 12")


def test_a_pile_of_200000_cards_is_refused_before_any_card_is_read(monkeypatch):
    parsed: list[str] = []
    parse = Card.parse
    monkeypatch.setattr(Card, "parse",
                        staticmethod(lambda text: parsed.append(text) or parse(text)))
    data = {"tableau": [[], [], [], ["TS"] * 200_000]}
    assert problems_of(data) == ["tableau:3 holds 200000 cards, at most 52"]
    assert parsed == []


def test_more_cards_in_all_than_the_deck_are_refused_by_their_count():
    data = example()
    data["tableau"][0] += ["AC"] * 8  # 48 in play and 8 more, with the reserve's 10
    data["reserve"][1] = "2C"
    assert problems_of(data) == ["position holds 57 cards, at most 52"]


def test_a_refusal_by_size_lists_the_faults_found_before_it():
    data = example()
    data["colour"] = "red"
    data["tableau"][0] += ["AC"] * 60
    data["tableau"].append([])
    assert problems_of(data) == ["unknown field 'colour'", "tableau has 9 piles, at most 8 allowed",
                                 "tableau:0 holds 65 cards, at most 52"]


def test_a_text_longer_than_any_card_is_not_one_and_quoted_short():
    data = example()
    data["tableau"][3][2] = " " * 10 + "TS"
    data["reserve"][0] = "Q" * 1_000
    problems = problems_of(data)
    assert has(problems, "tableau:3: '          TS' is not a card")
    assert has(problems, f"reserve:0: '{'Q' * 36}... is not a card")


def test_an_object_of_thousands_of_keys_is_refused_by_its_count():
    data = example()
    data.update({f"k{k}": 0 for k in range(9)})
    assert problems_of(data) == ["position has 13 fields, at most 12"]
    data = example()
    data["foundations"].update({f"k{k}": 0 for k in range(20_000)})
    assert has(problems_of(data), "foundations has 20004 keys, at most 12")


def test_foundations_that_contradict_cards_in_play():
    data = example()
    data["foundations"]["H"] = 1  # AH is in the reserve
    problems = problems_of(data)
    assert has(problems, "AH", "H foundation")


def test_foundations_built_past_cards_in_play_name_each_card():
    data = example()
    data["foundations"]["C"] = 3  # AC, 2C, 3C are all in play
    problems = problems_of(data)
    for card in ("AC", "2C", "3C"):
        assert has(problems, card, "C foundation")


@pytest.mark.parametrize("value", [14, -1, "3", 2.0, None, True])
def test_foundation_value_out_of_range(value):
    data = example()
    data["foundations"]["H"] = value
    assert has(problems_of(data), "foundation H", repr(value), "0..13")


def test_foundation_key_that_is_not_a_suit():
    data = example()
    data["foundations"]["X"] = 0
    assert has(problems_of(data), "'X'", "not a suit")


def test_foundations_not_an_object():
    data = example()
    data["foundations"] = [0, 3, 0, 1]
    assert has(problems_of(data), "foundations must be an object")


def test_unknown_field():
    data = example()
    data["stock"] = []
    assert has(problems_of(data), "unknown field 'stock'")


def test_wrong_game():
    data = example()
    data["game"] = "freecell"
    assert has(problems_of(data), "'freecell'", "beleaguered-fortress")


def test_tableau_missing_or_malformed():
    data = example()
    del data["tableau"]
    assert has(problems_of(data), "tableau is missing")
    data["tableau"] = "9S 2H"
    assert has(problems_of(data), "tableau must be a list")
    data["tableau"] = [["9S"], "2H"]
    assert has(problems_of(data), "tableau must be a list")


def test_reserve_not_a_list():
    data = example()
    data["reserve"] = "QH"
    assert has(problems_of(data), "reserve must be a list")


def test_not_json():
    with pytest.raises(InvalidInput, match="not valid JSON"):
        Position.parse('{"tableau": [["9S"],')


@pytest.mark.parametrize("value", [[1, 2], "tableau", 7, None])
def test_not_an_object(value):
    with pytest.raises(InvalidInput, match="JSON object"):
        Position.from_json(value)
    with pytest.raises(InvalidInput, match="JSON object"):
        Position.parse(json.dumps(value))


def test_constructor_validates_too():
    good = Position.from_json(example())
    with pytest.raises(InvalidInput, match="7 piles, expected 8"):
        Position(good.tableau[:7], good.reserve, good.foundations)
    with pytest.raises(InvalidInput, match=re.escape("holds 9S twice")):
        Position(good.tableau, good.reserve[:-1] + (Card.parse("9S"),), good.foundations)
    with pytest.raises(InvalidInput, match="13 slots"):
        Position(good.tableau, good.reserve + (None,), good.foundations)


# --- several faults at once -------------------------------------------------------------------

def test_several_reading_faults_are_all_listed():
    data = example()
    data["game"] = "freecell"
    data["colour"] = "red"
    data["tableau"][3][2] = "ZZ"
    data["reserve"][4] = "1H"
    data["reserve"] += [None]
    data["foundations"]["S"] = 99
    problems = problems_of(data)
    assert has(problems, "unknown field 'colour'")
    assert has(problems, "'freecell'")
    assert has(problems, "tableau:3", "'ZZ'")
    assert has(problems, "reserve:4", "'1H'")
    assert has(problems, "13 slots")
    assert has(problems, "foundation S", "99")


def test_several_deck_faults_are_all_listed():
    data = example()
    data["tableau"][0][1] = "7H"      # 7H twice, 2H missing
    data["tableau"][3].remove("5C")   # 5C missing
    data["foundations"]["H"] = 1      # AH in play
    problems = problems_of(data)
    assert has(problems, "holds 7H twice")
    assert has(problems, "lacks", "2H", "5C")
    assert has(problems, "AH", "H foundation")


def test_reading_and_deck_faults_are_listed_together():
    data = example()
    data["colour"] = "red"
    data["tableau"][0][1] = "7H"
    data["tableau"][2][0] = "ZZ"      # QC unreadable, so QC is also lacking
    data["foundations"]["H"] = 1
    problems = problems_of(data)
    assert has(problems, "unknown field 'colour'")
    assert has(problems, "tableau:2", "'ZZ'")
    assert has(problems, "holds 7H twice")
    assert has(problems, "lacks", "2H", "QC")
    assert has(problems, "AH", "H foundation")


def test_refusal_leaves_input_untouched():
    data = example()
    data["tableau"][0][1] = "7H"
    before = copy.deepcopy(data)
    problems_of(data)
    assert data == before


# --- property: random legal positions round-trip ----------------------------------------------

@st.composite
def legal_positions(draw) -> Position:
    heights = draw(st.lists(st.integers(0, 13), min_size=4, max_size=4))
    in_play = [c for c in FULL_DECK if c.rank > heights[c.suit.index]]
    in_play = draw(st.permutations(in_play))
    n_reserve = draw(st.integers(0, min(12, len(in_play))))
    n_slots = draw(st.integers(n_reserve, 12))
    slots = draw(st.permutations(range(n_slots)))[:n_reserve]
    reserve: list[Card | None] = [None] * n_slots
    for slot, card in zip(slots, in_play[:n_reserve], strict=True):
        reserve[slot] = card
    rest = in_play[n_reserve:]
    where = draw(st.lists(st.integers(0, 7), min_size=len(rest), max_size=len(rest)))
    piles: list[list[Card]] = [[] for _ in range(8)]
    for card, pile in zip(rest, where, strict=True):
        piles[pile].append(card)
    return Position(tuple(map(tuple, piles)), tuple(reserve), tuple(heights))


@settings(max_examples=150)
@given(legal_positions())
def test_random_legal_positions_round_trip(position):
    data = position.to_json()
    again = Position.from_json(json.loads(json.dumps(data)))
    assert again == position
    assert again.to_json() == data
    assert Position.parse(str(position)) == position
    # foundations are implied by the cards in play
    del data["foundations"]
    assert Position.from_json(data) == position
    in_play = [c for p in position.tableau for c in p] + [c for c in position.reserve if c]
    assert len(in_play) == position.cards_left() == len(set(in_play))
