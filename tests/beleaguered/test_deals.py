"""Deal numbers: the Microsoft FreeCell shuffle laid out as 8 piles of 5 and a reserve of 12."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.beleaguered.deals import MAX_DEAL, deal, shuffled_deck
from solver.beleaguered.position import Position
from solver.cards import FULL_DECK, Card
from solver.errors import InvalidInput

# FreeCell deals dealt row by row over 8 columns (the well-known layouts).
FREECELL = {
    1: "JD 2D 9H JC 5D 7H 7C 5H / KD KC 9S 5S AD QC KH 3H / 2S KS 9D QD JS AS AH 3C / "
       "4C 5C TS QH 4H AC 4D 7S / 3S TD 4S TH 8H 2C JH 7D / 6D 8S 8D QS 6C 3D 8C TC / "
       "6S 9C 2H 6H",
    617: "7D AD 5C 3S 5S 8C 2D AH / TD 7S QD AC 6D 8H AS KH / TH QC 3H 9D 6S 8D 3D TC / "
         "KD 5H 9S 3C 8S 7H 4D JS / 4C QS 9C 9H 7C 6H 2C 2S / 4S TS 2H 5D JC 6C JH QH / "
         "JD KS KC 4H",
}


def rows(number: int) -> list[list[Card]]:
    return [[Card.parse(t) for t in row.split()] for row in FREECELL[number].split("/")]


def design_shuffle(number: int) -> list[Card]:
    """The usual description (docs/beleaguered-fortress.md, Deal numbers), written out
    independently: from the reversed deck, swap i with 51 - r mod (52 - i)."""
    seed = number
    cards = list(range(51, -1, -1))
    for i in range(52):
        seed = (seed * 214013 + 2531011) % 2**31
        j = 51 - (seed >> 16) % (52 - i)
        cards[i], cards[j] = cards[j], cards[i]
    return [FULL_DECK[c] for c in cards]  # FULL_DECK is in index order rank*4+suit


def check_fresh_deal(position: Position) -> None:
    assert len(position.tableau) == 8
    assert all(len(pile) == 5 for pile in position.tableau)
    assert len(position.reserve) == 12
    assert all(card is not None for card in position.reserve)
    assert position.foundations == (0, 0, 0, 0)
    dealt = [c for p in position.tableau for c in p] + list(position.reserve)
    assert len(dealt) == 52 and set(dealt) == set(FULL_DECK)


def test_deal_1_bottom_row():
    bottom = " ".join(str(pile[0]) for pile in deal(1).tableau)
    assert bottom == "JD 2D 9H JC 5D 7H 7C 5H"


@pytest.mark.parametrize("number", sorted(FREECELL))
def test_deal_matches_the_freecell_layout(number):
    layout = rows(number)
    assert [len(r) for r in layout] == [8, 8, 8, 8, 8, 8, 4]
    flat = [c for r in layout for c in r]
    assert shuffled_deck(number) == flat
    position = deal(number)
    for k in range(8):
        assert position.tableau[k] == tuple(layout[r][k] for r in range(5)), f"pile {k}"
    assert position.reserve == tuple(flat[40:])
    assert position.reserve == tuple(layout[5] + layout[6])


def test_deal_1_top_cards_and_reserve_ends():
    position = deal(1)
    assert " ".join(str(p[-1]) for p in position.tableau) == "3S TD 4S TH 8H 2C JH 7D"
    assert str(position.reserve[0]) == "6D" and str(position.reserve[11]) == "6H"


@pytest.mark.parametrize("number", [1, 2, 3, 617, 11982, 10**6, MAX_DEAL - 1, MAX_DEAL])
def test_every_deal_is_a_fresh_whole_deck(number):
    check_fresh_deal(deal(number))


@settings(max_examples=200)
@given(st.integers(1, MAX_DEAL))
def test_any_deal_is_a_fresh_whole_deck_and_follows_the_design(number):
    position = deal(number)
    check_fresh_deal(position)
    deck = shuffled_deck(number)
    assert deck == design_shuffle(number)
    assert [list(p) for p in position.tableau] == [deck[k:40:8] for k in range(8)]
    assert list(position.reserve) == deck[40:]


@pytest.mark.parametrize("number", [0, -1, 2**31, 2**40, "x", "1", True, False, 1.0, None])
def test_deal_numbers_out_of_range_are_refused_naming_the_number(number):
    with pytest.raises(InvalidInput, match=re.escape(repr(number))):
        deal(number)
    with pytest.raises(InvalidInput, match=re.escape(repr(number))):
        shuffled_deck(number)


def test_max_deal_is_just_below_two_to_the_31():
    assert MAX_DEAL == 2**31 - 1


def test_deals_are_deterministic_and_distinct():
    assert deal(1) == deal(1)
    assert str(deal(12345)) == str(deal(12345))
    assert shuffled_deck(99) == shuffled_deck(99)
    assert len({str(deal(n)) for n in range(1, 51)}) == 50


def test_deal_round_trips_through_json():
    position = deal(1)
    assert Position.parse(str(position)) == position
    assert Position.from_json(position.to_json()) == position
