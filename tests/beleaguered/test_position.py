"""Positions: the JSON layout of docs/beleaguered-fortress.md (Position format),
str()/parse(), and refusal of anything that is not one whole deck in a legal shape, with
messages that name each fault: a fault of shape, type or length with its path, as every
game's reader names it (`tableau[3]: has 60 items, at most 52`), a fault of the game in
its words (`tableau:3: 'XX' is not a card`)."""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from solver.beleaguered.game import GAME
from solver.beleaguered.position import Position
from solver.beleaguered.schema import position_schema
from solver.cards import FULL_DECK, Card, Suit
from solver.errors import InvalidInput

# The shape docs/beleaguered-fortress.md shows: foundations D to 3 and S to A, two
# emptied reserve slots.
EXAMPLE_TEXT = """
{"game": "patience",
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


def test_a_non_string_card_is_refused_by_its_path():
    data = example()
    data["tableau"][2][0] = 12
    assert problems_of(data) == ["tableau[2][0]: must be a string, not 12"]
    data = example()
    data["reserve"][2] = 5
    assert problems_of(data) == ["reserve[2]: must be a string, not 5"]


def test_more_than_eight_piles():
    data = example()
    data["tableau"].append([data["tableau"][7].pop()])
    assert problems_of(data) == ["tableau: has 9 items, at most 8"]


def test_more_than_twelve_reserve_slots():
    data = example()
    data["reserve"].append(None)
    assert problems_of(data) == ["reserve: has 13 items, at most 12"]


def _spied(monkeypatch) -> list[str]:
    """The texts Card.parse is given from now on."""
    parsed: list[str] = []
    parse = Card.parse
    monkeypatch.setattr(Card, "parse",
                        staticmethod(lambda text: parsed.append(text) or parse(text)))
    return parsed


# In lower case, so that a card read would be parsed, not looked up as written.
@pytest.mark.parametrize(("data", "fault"), [
    ({"tableau": [[], [], [], ["ts"] * 200_000]}, "tableau[3]: has 200000 items, at most 52"),
    ({"tableau": [], "reserve": ["ts"] * 200_000}, "reserve: has 200000 items, at most 12"),
    ({"tableau": [["ts"] * 30, ["ts"] * 30]}, "position holds 60 cards, at most 52"),
], ids=["pile", "reserve", "position"])
def test_more_cards_than_the_deck_are_refused_before_any_card_is_read(monkeypatch, data, fault):
    parsed = _spied(monkeypatch)
    assert problems_of(data) == [fault]
    assert parsed == []


def test_more_cards_in_all_than_the_deck_are_refused_by_their_count():
    data = example()
    data["tableau"][0] += ["AC"] * 8  # 48 in play and 8 more, with the reserve's 10
    data["reserve"][1] = "2C"
    assert problems_of(data) == ["position holds 57 cards, at most 52"]


def test_every_fault_of_shape_is_named_at_once_with_its_path():
    data = example()
    data["colour"] = "red"
    data["game"] = "freecell"
    data["tableau"][0] += ["AC"] * 60
    data["tableau"][2][0] = 12
    data["reserve"].append(None)
    data["foundations"]["S"] = 99
    assert problems_of(data) == [
        "game: input should be 'patience' or 'beleaguered-fortress', not \"freecell\"",
        "tableau[0]: has 65 items, at most 52",
        "tableau[2][0]: must be a string, not 12",
        "reserve: has 13 items, at most 12",
        "foundations.S: must be at most 13, not 99",
        "colour: is not a field of this position",
    ]


def test_a_fault_of_shape_comes_before_the_games_checks():
    """The cards are not read, nor the deck checked, until the shape is right."""
    data = example()
    data["tableau"][0][1] = "7H"   # 7H twice
    data["tableau"][3][2] = "ZZ"
    data["reserve"][2] = 5
    assert problems_of(data) == ["reserve[2]: must be a string, not 5"]


def test_a_text_longer_than_any_card_is_refused_by_its_length():
    data = example()
    data["tableau"][3][2] = " " * 10 + "TS"
    data["reserve"][0] = "Q" * 1_000
    assert problems_of(data) == [
        'tableau[3][2]: string should have at most 8 characters, not "          TS"',
        f'reserve[0]: string should have at most 8 characters, not "{"Q" * 36}...',
    ]


def test_a_text_that_is_not_a_card_is_quoted_short():
    data = example()
    data["reserve"][0] = "\u200b" * 8  # each shown as 6 characters
    assert has(problems_of(data), "reserve:0: '" + "\\u200b" * 6 + "... is not a card")


def test_an_object_of_thousands_of_keys_is_refused_by_its_count():
    data = example()
    data.update({f"k{k}": 0 for k in range(11)})
    assert problems_of(data) == ["a position has 15 items, at most 14"]
    data = example()
    data["foundations"].update({f"k{k}": 0 for k in range(20_000)})
    assert problems_of(data) == ["foundations: has 20004 items, at most 12"]


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


@pytest.mark.parametrize(("value", "fault"), [
    (14, "must be at most 13, not 14"), (-1, "must be at least 0, not -1"),
    ("3", 'must be a whole number, not "3"'), (2.0, "must be a whole number, not 2.0"),
    (None, "must be a whole number, not null"), (True, "must be a whole number, not true"),
])
def test_foundation_value_out_of_range(value, fault):
    data = example()
    data["foundations"]["H"] = value
    assert problems_of(data) == [f"foundations.H: {fault}"]


def test_foundation_key_that_is_not_a_suit():
    data = example()
    data["foundations"]["X"] = 0
    assert problems_of(data) == ["foundations: 'X' is not a suit"]


def test_foundations_not_an_object():
    data = example()
    data["foundations"] = [0, 3, 0, 1]
    assert problems_of(data) == ["foundations: must be an object, not [0, 3, 0, 1]"]


def test_unknown_field():
    data = example()
    data["stock"] = []
    assert problems_of(data) == ["stock: is not a field of this position"]


def test_wrong_game():
    data = example()
    data["game"] = "freecell"
    assert problems_of(data) == [
        "game: input should be 'patience' or 'beleaguered-fortress', not \"freecell\""]


def test_a_position_written_under_the_games_former_name_reads_as_it_did():
    data = example()
    data["game"] = "beleaguered-fortress"
    assert Position.from_json(data) == Position.from_json(example())
    assert Position.from_json(data).to_json()["game"] == "patience"


def test_tableau_missing_or_malformed():
    data = example()
    del data["tableau"]
    assert problems_of(data) == ["tableau: is missing"]
    data["tableau"] = "9S 2H"
    assert problems_of(data) == ['tableau: must be a list, not "9S 2H"']
    data["tableau"] = [["9S"], "2H"]
    assert problems_of(data) == ['tableau[1]: must be a list, not "2H"']


def test_reserve_not_a_list():
    data = example()
    data["reserve"] = "QH"
    assert problems_of(data) == ['reserve: must be a list, not "QH"']
    data["reserve"] = None
    assert problems_of(data) == ["reserve: must be a list, not null"]


def test_not_json():
    with pytest.raises(InvalidInput, match="^position is not JSON: "):
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
    data["tableau"][3][2] = "ZZ"      # 5S
    data["reserve"][4] = "1H"         # 3C
    data["reserve"][5] = "3h"         # a spelling of 3H: read
    data["foundations"]["X"] = 0
    assert problems_of(data) == ["tableau:3: 'ZZ' is not a card", "reserve:4: '1H' is not a card",
                                 "foundations: 'X' is not a suit", "position lacks 3C 5S"]


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
    data["tableau"][0][1] = "7H"
    data["tableau"][2][0] = "ZZ"      # QC unreadable, so QC is also lacking
    data["foundations"]["H"] = 1
    problems = problems_of(data)
    assert has(problems, "tableau:2", "'ZZ'")
    assert has(problems, "holds 7H twice")
    assert has(problems, "lacks", "2H", "QC")
    assert has(problems, "AH", "H foundation")


def _twice(data: dict) -> None:
    data["tableau"][0][1] = "7H"  # 7H also sits in pile 4; 2H is now missing


def _home(data: dict) -> None:
    data["foundations"]["H"] = 1  # AH is in the reserve


def _unread(data: dict) -> None:
    data["tableau"][3][2] = "ZZ"
    data["reserve"][4] = ""


def _foundations_past(data: dict) -> None:
    data["foundations"]["C"] = 2  # AC and 2C are in play
    data["foundations"]["h"] = 1  # AH too


@pytest.mark.parametrize(("change", "faults"), [
    (_twice, ["position holds 7H twice", "position lacks 2H"]),
    (_home, ["AH is in play but the H foundation is built to A"]),
    (_unread, ["tableau:3: 'ZZ' is not a card", "reserve:4: '' is not a card",
               "position lacks 3C 5S"]),
    (_foundations_past, ["AC is in play but the C foundation is built to 2",
                         "AH is in play but the H foundation is built to A",
                         "2C is in play but the C foundation is built to 2"]),
], ids=["twice", "home", "unread", "foundations"])
def test_the_games_faults_keep_their_words(change, faults):
    data = example()
    change(data)
    assert problems_of(data) == faults


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


# --- the published schema and the reader agree ------------------------------------------------

_SCHEMA = Draft202012Validator(position_schema())
_ODD = [None, True, 0, -1, 13, 14, 2.0, "", "ZZ", "1H", "7h", "10♠", " ts ", "Q" * 9, "H", "♥",
        "X", [], ["7H"], [["7H"]], {}, {"H": 1}]


def _places(value, places: list) -> list:
    """Every (container, key) of a JSON value, depth first."""
    keys = list(value) if isinstance(value, dict) else range(len(value))
    for key in keys:
        places.append((value, key))
        if isinstance(value[key], (dict, list)):
            _places(value[key], places)
    return places


_SPELLINGS = {"T": ["T", "t", "10"], "C": ["c", "♣", "♧"], "D": ["d", "♦", "♢"],
              "H": ["h", "♥", "♡"], "S": ["s", "♠", "♤"]}


def _respelt(text: str, draw) -> str:
    """Another spelling of a card, as a person might type it."""
    rank, suit = text[:-1], text[-1]
    rank = draw(st.sampled_from(_SPELLINGS.get(rank, [rank, rank.lower()])))
    suit = draw(st.sampled_from(_SPELLINGS.get(suit, [suit])))
    return draw(st.sampled_from(["", " ", "\t"])) + rank + suit + draw(st.sampled_from(["", " "]))


@st.composite
def mutated_positions(draw) -> dict:
    """A legal position's JSON with a few cards respelt, values replaced, dropped or added."""
    data = draw(legal_positions()).to_json()
    for _ in range(draw(st.integers(1, 3))):
        container, key = draw(st.sampled_from(_places(data, [])))
        action = draw(st.sampled_from(["respell", "replace", "drop", "add"]))
        if action == "respell" and isinstance(container[key], str) and len(container[key]) == 2:
            container[key] = _respelt(container[key], draw)
        elif action in ("respell", "replace"):
            container[key] = copy.deepcopy(draw(st.sampled_from(_ODD)))  # _ODD stays as it is
        elif action == "drop":
            del container[key]
        elif isinstance(container, list):
            container.insert(key, copy.deepcopy(container[key]))
        else:
            container[draw(st.sampled_from(["extra", "h", "X", "game"]))] = \
                copy.deepcopy(draw(st.sampled_from(_ODD)))
    return data


@settings(max_examples=150)  # new examples every run (the seed is the run's)
@given(mutated_positions())
def test_what_the_published_schema_refuses_the_reader_refuses(data):
    """A client that validates by `fortress-solver schema` never has a position refused
    that the server would read; the reader refuses more (one whole deck)."""
    try:
        GAME.from_json(copy.deepcopy(data))
    except InvalidInput:
        return
    assert not [error.message for error in _SCHEMA.iter_errors(data)]


def test_the_descriptor_reads_as_position_does():
    assert GAME.from_json(example()) == Position.from_json(example())
    with pytest.raises(InvalidInput, match=re.escape("tableau[1]: must be a list")):
        GAME.from_json({"tableau": [[], 7]})
