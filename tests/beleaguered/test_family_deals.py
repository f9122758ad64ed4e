"""Deals of Beleaguered Fortress's family by PySolFC's game numbers (docs/family-deals.md).

Beleaguered Castle, Streets and Alleys and Citadel are checked card by card against the
boards the pysol-cards package builds. pysol-cards has no Fortress or Bastion, so those
are checked against PySolFC's `startGame` of each, written out below from PySolFC's
pysollib/games/beleagueredcastle.py, and against deals printed by running PySolFC's own
`pysollib.game.Game.shuffle` and `startGame`.
"""

from __future__ import annotations

import re

import pytest
from pysol_cards.cards import Card as PysolCard
from pysol_cards.cards import createCards, ms_rearrange
from pysol_cards.deal_game import Game
from pysol_cards.random import LCRandom31, MTRandom
from pysol_cards.random_base import RandomBase

from solver.beleaguered.deals import MAX_DEAL, MAX_DEALS, check_deals, deal, shuffled_deck
from solver.beleaguered.variant import (
    Numbering,
    Variant,
    find_variant,
    parse_variant_file,
    shipped_variants,
)
from solver.cards import FULL_DECK, Card
from solver.errors import OutOfRange

BIG = [32001, 100_000, 10**6, 123_456_789, MAX_DEAL]  # the Mersenne Twister's numbers
# PySolFC's numbers past 31 bits, up to the largest the wire's int64 carries
HUGE = [2**31, 10**12, MAX_DEALS[Numbering.PYSOL]]


def ours(card: PysolCard) -> Card:
    return Card.from_index((card.rank - 1) * 4 + "CDHS".index(card.suit_s()))


def pysol_cards_board(game_id: str, number: int):
    """pysol-cards' layout of PySolFC's game `number`: tableau and foundation tops C D H S."""
    game = Game(game_id, number, RandomBase.DEALS_PYSOLFC)
    game.deal()
    getattr(game, game.game_class)()
    board = game.board
    tableau = tuple(tuple(ours(c) for c in column) for column in board.columns.cols)
    tops = tuple(board.foundations["CSHD".index(suit)].rank for suit in "CDHS")
    return tableau, tops


@pytest.mark.parametrize("name", ["beleaguered-castle", "streets-and-alleys", "citadel"])
def test_deals_are_pysol_cards_boards(name):
    variant = find_variant(name)
    for number in [*range(1, 1001), *BIG, *HUGE]:
        position = deal(number, variant)
        tableau, tops = pysol_cards_board(name.replace("-", "_"), number)
        assert position.tableau == tableau, f"{name} deal {number}"
        assert position.foundations == tops, f"{name} deal {number}"
        assert position.reserve == () and position.cells == ()


# PySolFC's own deal, written out from its source ------------------------------------

def pysolfc_talon(number: int) -> list[PysolCard]:
    """`pysollib.game.Game.shuffle` (pysollib/game/__init__.py) with the generator
    `construct_random` picks (pysollib/pysolrandom.py): the FreeCell LCG on the rank-major
    deck below 32000, the Mersenne Twister on the suit-major deck from 32000. The list's
    end is the talon's top, the card dealt first."""
    cards = createCards(1)
    if number < 32000:
        rng: RandomBase = LCRandom31(number)
        cards = ms_rearrange(cards)
    else:
        rng = MTRandom(number)
    rng.reset()
    return rng.shuffle(cards)


def deal_row(talon: list[PysolCard], stacks: list[list[Card]], avail: bool = False) -> None:
    """`dealRow` / `dealRowAvail` (pysollib/stack.py): the talon's top card to each stack
    in order; dealRowAvail stops at the stacks the talon still covers."""
    for stack in stacks[:len(talon)] if avail else stacks:
        stack.append(ours(talon.pop()))


def fortress_start_game(number: int) -> list[list[Card]]:
    talon, rows = pysolfc_talon(number), [[] for _ in range(10)]  # createGame: rows=10
    for _ in range(3):  # self._startDealNumRows(3)
        deal_row(talon, rows)
    for _ in range(3):  # self.s.talon.dealRowAvail() three times
        deal_row(talon, rows, avail=True)
    assert not talon
    return rows


def bastion_start_game(number: int) -> tuple[list[list[Card]], list[list[Card]]]:
    talon = pysolfc_talon(number)
    rows, reserves = [[] for _ in range(10)], [[], []]  # createGame: rows=10, reserves=2
    for _ in range(3):  # self._startDealNumRows(3)
        deal_row(talon, rows)
    for _ in range(2):  # self.s.talon.dealRow() twice
        deal_row(talon, rows)
    deal_row(talon, reserves)  # self.s.talon.dealRow(rows=self.s.reserves)
    assert not talon
    return rows, reserves


def whole_deck(position) -> list[Card]:
    cards = [c for pile in position.tableau for c in pile]
    return cards + [c for c in (*position.reserve, *position.cells) if c is not None]


NUMBERS = [*range(1, 301), 31999, 32000, *BIG, *HUGE]


def test_fortress_deals_are_pysolfcs():
    fortress = find_variant("fortress")
    for number in NUMBERS:
        position = deal(number, fortress)
        assert [list(p) for p in position.tableau] == fortress_start_game(number), number
        assert [len(p) for p in position.tableau] == [6, 6, 5, 5, 5, 5, 5, 5, 5, 5]
        assert position.reserve == () and position.cells == ()
        assert position.foundations == (0, 0, 0, 0)
        assert sorted(whole_deck(position)) == list(FULL_DECK)


def test_bastion_deals_are_pysolfcs():
    bastion = find_variant("bastion")
    for number in NUMBERS:
        position = deal(number, bastion)
        rows, reserves = bastion_start_game(number)
        assert [list(p) for p in position.tableau] == rows, number
        assert [[c] for c in position.cells] == reserves, number
        assert [len(p) for p in position.tableau] == [5] * 10
        assert position.reserve == () and position.foundations == (0, 0, 0, 0)
        assert sorted(whole_deck(position)) == list(FULL_DECK)


# Printed by PySolFC's own Game.shuffle and Fortress.startGame / Bastion.startGame, run
# with its stacks as plain lists (docs/family-deals.md, "How this was checked").
KNOWN = {
    ("fortress", 1): "JD 9S JS 4D 6D 2H / 2D 5S AS 7S 8S 6H / 9H AD AH 3S 8D / "
                     "JC QC 3C TD QS / 5D KH 4C 4S 6C / 7H 3H 5C TH 3D / 7C 2S TS 8H 8C / "
                     "5H KS QH 2C TC / KD 9D 4H JH 6S / KC QD AC 7D 9C",
    ("fortress", 100000): "5C 6S 2C AD 3S 3D / 2D 4D 5D KC 9D AC / 9H JS 4C QC 7D / "
                          "6D 9S 8C AH KS / TH QD 7H 9C AS / 4S TS 8S 7S 6C / "
                          "TD JD 7C KH QH / 4H 8H JH JC KD / 5S 5H 6H TC 3H / 2H QS 2S 8D 3C",
    ("bastion", 1): "JD 9S JS 4D 6D / 2D 5S AS 7S 8S / 9H AD AH 3S 8D / JC QC 3C TD QS / "
                    "5D KH 4C 4S 6C / 7H 3H 5C TH 3D / 7C 2S TS 8H 8C / 5H KS QH 2C TC / "
                    "KD 9D 4H JH 6S / KC QD AC 7D 9C | 2H 6H",
    ("bastion", 100000): "5C 6S 2C AD 3S / 2D 4D 5D KC 9D / 9H JS 4C QC 7D / 6D 9S 8C AH KS / "
                         "TH QD 7H 9C AS / 4S TS 8S 7S 6C / TD JD 7C KH QH / "
                         "4H 8H JH JC KD / 5S 5H 6H TC 3H / 2H QS 2S 8D 3C | 3D AC",
}


@pytest.mark.parametrize(("name", "number"), sorted(KNOWN))
def test_known_pysolfc_deals(name, number):
    position = deal(number, find_variant(name))
    tableau, _, cells = KNOWN[name, number].partition(" | ")
    assert " / ".join(" ".join(map(str, p)) for p in position.tableau) == tableau
    assert " ".join(map(str, position.cells)) == cells


def test_32000_is_pysolfcs_twister_deal_not_the_lcg():
    """PySolFC's construct_random takes the LCG only below 32000; pysol-cards' shuffle
    also for 32000 itself."""
    twister = [ours(c) for c in reversed(pysolfc_talon(32000))]
    assert shuffled_deck(32000, Numbering.PYSOL) == twister
    assert shuffled_deck(32000, Numbering.PYSOL) != shuffled_deck(32000)
    assert shuffled_deck(31999, Numbering.PYSOL) == shuffled_deck(31999)


def test_pysolfcs_numbers_run_to_int64_and_the_freecell_shuffles_to_31_bits():
    assert MAX_DEALS == {Numbering.PYSOL: 2**63 - 1, Numbering.FREECELL: 2**31 - 1}
    castle = find_variant("beleaguered-castle")
    check_deals(1, 2**63 - 1, castle)
    for number, variant in [(2**63, castle), (2**31, None)]:
        with pytest.raises(OutOfRange, match=f"deal {number} is out of range"):
            deal(number, variant)
        with pytest.raises(OutOfRange, match=f"deal range 1-{number} is out of range"):
            check_deals(1, number, variant)


@pytest.mark.parametrize("variant", shipped_variants(), ids=str)
def test_a_deal_out_of_range_is_refused_naming_its_variants_range(variant: Variant) -> None:
    """Deal 0, and the one past the variant's last, are refused in words that say the
    variant's own range: 2^31 - 1 deals where the FreeCell shuffle numbers them (31 bits
    of seed), 2^63 - 1 where PySolFC's game numbers do (int64 on the wire)."""
    last = MAX_DEALS[variant.numbering]
    words = {Numbering.FREECELL: "1 to 2147483647 (2^31 - 1)",
             Numbering.PYSOL: "1 to 2^63 - 1"}[variant.numbering]
    said = f"{variant.title} deals are numbered {words}"
    assert deal(last, variant).variant == variant
    for number in (0, -1, last + 1):
        with pytest.raises(OutOfRange) as refused:
            deal(number, variant)
        assert str(refused.value) == f"deal {number} is out of range: {said}"
    with pytest.raises(OutOfRange, match=f"deal range 0-5 is out of range: {re.escape(said)}$"):
        check_deals(0, 5, variant)
    with pytest.raises(OutOfRange, match="deal range 5-3 runs backwards"):
        check_deals(5, 3, variant)


# Beleaguered Fortress and the rules-driven layout -----------------------------------

def test_beleaguered_fortress_deals_are_unchanged():
    assert " ".join(str(p[0]) for p in deal(1).tableau) == "JD 2D 9H JC 5D 7H 7C 5H"
    default = find_variant("beleaguered-fortress")
    for number in [1, 2, 617, 31999, 32000, *BIG]:
        cards = shuffled_deck(number)
        position = deal(number)
        assert position == deal(number, default) and position == deal(number, None)
        assert [list(p) for p in position.tableau] == [cards[k:40:8] for k in range(8)]
        assert list(position.reserve) == cards[40:]
        assert position.cells == () and position.foundations == (0, 0, 0, 0)


def test_a_users_rules_lay_out_cells_left_empty():
    rules = parse_variant_file('name = "ten-by-two"\ntitle = "Ten by Two"\nsource = "a test"\n'
                        'piles = [5, 5, 5, 5, 5, 5, 5, 5, 5, 5]\ncells = 4\ncells_dealt = 2\n'
                        'build = "same-suit-up-or-down"\n')
    position = deal(1, rules)
    bastion = deal(1, find_variant("bastion"))
    assert position.tableau == bastion.tableau
    assert position.cells == (*bastion.cells, None, None)
