"""Cards, ranks and suits: notation, parsing and the deal shuffle's index order."""

from __future__ import annotations

import pickle
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.beleaguered import Mode, deal, solve
from solver.cards import FULL_DECK, Card, Rank, Suit

RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "CDHS"
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
ALL_CARD_TEXTS = [r + s for r in RANK_LETTERS for s in SUIT_LETTERS]


# --- round trips ------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ALL_CARD_TEXTS)
def test_every_card_parses_and_prints_back(text):
    card = Card.parse(text)
    assert str(card) == text
    assert Card.parse(str(card)) == card
    assert card.rank == Rank(RANK_LETTERS.index(text[0]) + 1)
    assert card.suit == Suit(text[1])


def test_full_deck_is_the_52_distinct_cards():
    assert len(FULL_DECK) == 52
    assert len(set(FULL_DECK)) == 52
    assert sorted(str(card) for card in FULL_DECK) == sorted(ALL_CARD_TEXTS)


def test_rank_round_trip():
    assert [str(rank) for rank in Rank] == list(RANK_LETTERS)
    for rank in Rank:
        assert Rank.parse(str(rank)) is rank
        assert Rank.parse(str(rank).lower()) is rank
    assert int(Rank.ACE) == 1 and int(Rank.KING) == 13


def test_suit_round_trip_and_order():
    assert [str(suit) for suit in Suit] == list(SUIT_LETTERS)
    assert [suit.index for suit in Suit] == [0, 1, 2, 3]
    for suit in Suit:
        assert Suit.parse(str(suit)) is suit
        assert Suit.parse(str(suit).lower()) is suit
        assert Suit.parse(SYMBOLS[str(suit)]) is suit


# --- accepted spellings -----------------------------------------------------------------------

@pytest.mark.parametrize("text", ["TH", "10H", "th", "10h", "T♥", "10♥", "t♥"])
def test_ten_accepts_t_and_10(text):
    card = Card.parse(text)
    assert card == Card(Rank.TEN, Suit.HEARTS)
    assert str(card) == "TH"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("ah", "AH"), ("kS", "KS"), ("Qd", "QD"), ("jc", "JC"), ("7h", "7H")],
)
def test_lower_case_is_accepted(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("A♣", "AC"), ("7♦", "7D"), ("Q♥", "QH"), ("2♠", "2S"), ("k♠", "KS")],
)
def test_suit_symbols_are_accepted(text, expected):
    assert str(Card.parse(text)) == expected


# --- refusals ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "junk", ["1H", "KX", "", "AHH", 11, None, "H", "X", "0S", "11H", "1OH", "♥", "ZZ", "AH7"],
)
def test_junk_is_refused_naming_the_text(junk):
    with pytest.raises(ValueError, match=re.escape(repr(junk))):
        Card.parse(junk)


@pytest.mark.parametrize("junk", ["1", "0", "11", "X", "", "AA", "1O"])
def test_rank_parse_refuses_junk(junk):
    with pytest.raises(ValueError, match=re.escape(repr(junk))):
        Rank.parse(junk)


@pytest.mark.parametrize("junk", ["X", "", "CD", "1", "♪"])
def test_suit_parse_refuses_junk(junk):
    with pytest.raises(ValueError, match=re.escape(repr(junk))):
        Suit.parse(junk)


# --- index order ------------------------------------------------------------------------------

def test_index_is_rank_times_four_plus_suit_in_cdhs_order():
    for card in FULL_DECK:
        assert card.index == (int(card.rank) - 1) * 4 + SUIT_LETTERS.index(str(card.suit))
    assert [str(Card.from_index(i)) for i in range(8)] == [
        "AC", "AD", "AH", "AS", "2C", "2D", "2H", "2S",
    ]
    assert str(Card.from_index(51)) == "KS"
    assert Card.parse("TD").index == 9 * 4 + 1


def test_index_from_index_round_trip():
    assert sorted(card.index for card in FULL_DECK) == list(range(52))
    for i in range(52):
        assert Card.from_index(i).index == i
    for card in FULL_DECK:
        assert Card.from_index(card.index) == card


def test_cards_sort_by_index():
    shuffled = sorted(FULL_DECK, key=lambda c: (c.suit.index * 7919 + c.rank * 31) % 53)
    assert sorted(shuffled) == sorted(FULL_DECK, key=lambda c: c.index)
    assert Card.parse("AS") < Card.parse("2C")
    assert not Card.parse("2C") < Card.parse("AS")


@pytest.mark.parametrize("index", [-1, 52])
def test_from_index_refuses_out_of_range(index):
    with pytest.raises(ValueError, match="out of range"):
        Card.from_index(index)


def test_from_index_refuses_index_past_the_deck():
    with pytest.raises((ValueError, IndexError)):
        Card.from_index(52)


# --- property: any accepted spelling parses back to the card ----------------------------------

@st.composite
def spellings(draw):
    card = draw(st.sampled_from(FULL_DECK))
    rank = str(card.rank)
    rank_options = ["T", "t", "10"] if card.rank == Rank.TEN else [rank, rank.lower()]
    letter = str(card.suit)
    suit_options = [letter, letter.lower(), SYMBOLS[letter]]
    text = draw(st.sampled_from(rank_options)) + draw(st.sampled_from(suit_options))
    pad = draw(st.sampled_from(["", " ", "\t"]))
    return card, pad + text + draw(st.sampled_from(["", " "]))


@given(spellings())
def test_any_accepted_spelling_parses_to_the_card(pair):
    card, text = pair
    assert Card.parse(text) == card
    assert str(Card.parse(text)) == str(card)


def test_a_card_pickles_as_its_index_and_comes_back_as_the_same_card():
    """Positions and lines cross to worker processes by the thousand: a card travels as
    its index (a few bytes), not as its rank and suit."""
    assert all(pickle.loads(pickle.dumps(card)) is card for card in FULL_DECK)
    assert len(pickle.dumps(FULL_DECK)) < 52 * 8 + 100
    line = solve(deal(2), Mode.ANY)
    assert pickle.loads(pickle.dumps(line)) == line


def test_a_lines_places_are_shared_and_pickled_once():
    """A line's moves share their places (solver.beleaguered.rules.place): pickled on its
    way from a worker, each place is written once, and read back shared again."""
    line = solve(deal(2), Mode.ANY)
    places = {place for move in line.moves for place in (move.source, move.target)}
    assert len({id(place) for move in line.moves
                for place in (move.source, move.target)}) == len(places)
    back = pickle.loads(pickle.dumps(line))
    assert back == line
    assert len({id(place) for move in back.moves
                for place in (move.source, move.target)}) == len(places)
