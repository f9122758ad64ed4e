"""bench/fcsolve.py, the bridge to Freecell Solver that `make bench-family` compares
against: our positions as its board text, its output read as a verdict and a length in
single-card moves, and our deals the same cards as pysol-cards'. Everything but the last
test runs without fc-solve installed; that one runs it on a position won in six moves.
"""

from __future__ import annotations

import shutil

import pytest

from bench import fcsolve
from solver.beleaguered.deals import deal
from solver.beleaguered.position import Position
from solver.beleaguered.variant import find_variant
from solver.budget import Status
from solver.cards import Card
from solver.errors import IllegalMove


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def endgame() -> Position:
    """Beleaguered Castle with C and D to the queen, H to the nine, S done."""
    piles = [cards("KC"), cards("KD QH JH"), cards("KH TH")] + [()] * 5
    return Position(tuple(piles), (), (12, 12, 9, 13),
                    variant=find_variant("beleaguered-castle"))


def test_board_text_lists_foundations_in_its_suit_order_and_piles_bottom_to_top():
    assert fcsolve.board_text(endgame()) == (
        "Foundations: H-9 C-Q D-Q S-K\n"
        ": KC\n: KD QH JH\n: KH TH\n:\n:\n:\n:\n:\n")


def test_free_cells_get_their_line_with_dashes_for_empty_ones():
    rules = find_variant("bastion")
    piles = [cards("KC"), cards("KD"), cards("KH")] + [()] * (len(rules.piles) - 3)
    position = Position(tuple(piles), (), (12, 12, 12, 12), cells=(Card.parse("KS"), None),
                        variant=rules)
    assert fcsolve.board_text(position).splitlines()[1] == "Freecells: KS -"


def test_a_reserve_has_no_board_text():
    with pytest.raises(ValueError, match="reserve"):
        fcsolve.board_text(deal(1))


def test_board_text_reads_back_as_the_same_layout():
    position = deal(7, find_variant("citadel"))
    foundations, columns, cells = fcsolve.parse_board(fcsolve.board_text(position))
    assert foundations == position.foundations
    assert columns == tuple(tuple(str(c) for c in pile) for pile in position.tableau)
    assert cells == ()


@pytest.mark.parametrize("name", sorted(fcsolve.GAMES))
def test_our_deals_are_pysol_cards_deals(name):
    pytest.importorskip("pysol_cards")
    rules = find_variant(name)
    for number in (1, 2, 617, 31999):
        assert fcsolve.same_cards(deal(number, rules), fcsolve.GAMES[name], number)
    assert fcsolve.same_cards(deal(32000, rules), fcsolve.GAMES[name], 32000) is None


def test_supermoves_count_the_single_card_moves_of_the_recursion():
    assert fcsolve.supermove(1, 0, 0) == 1
    assert fcsolve.supermove(2, 0, 1) == 3    # park, move, unpark
    assert fcsolve.supermove(3, 0, 2) == 5    # two parked on two empty piles
    assert fcsolve.supermove(4, 0, 2) == 9    # 2 parked via the other pile, twice over
    assert fcsolve.supermove(3, 2, 0) == 5    # through two cells
    with pytest.raises(ValueError):
        fcsolve.supermove(3, 0, 1)


def clubs_to_come() -> Position:
    """Beleaguered Castle with clubs to the nine, KC JC TC on one pile and QC on another."""
    piles = [cards("KC JC TC"), cards("QC")] + [()] * 6
    return Position(tuple(piles), (), (9, 13, 13, 13), variant=find_variant("beleaguered-castle"))


# fc-solve's -m output for a line from clubs_to_come() that moves JC TC onto QC in one go
SOLVED = """-=-=-=-=-=-=-=-=-=-=-=-

Move 2 cards from stack 0 to stack 1

====================

Move a card from stack 1 to the foundations

====================

Move a card from stack 1 to the foundations

====================

Move a card from stack 1 to the foundations

====================

Move a card from stack 0 to the foundations

====================

This game is solveable.
Total number of states checked is 5.
This scan generated 5 states.
"""


def test_output_reads_as_a_verdict_and_single_card_moves_that_win():
    status, moves = fcsolve.parse_output(SOLVED, clubs_to_come())
    assert status is Status.SOLVED
    # the two cards go one at a time, the top one parked on the first empty pile
    assert [str(m) for m in moves[:3]] == ["TC tableau:0 tableau:2", "JC tableau:0 tableau:1",
                                           "TC tableau:2 tableau:1"]
    assert len(moves) == 7
    assert fcsolve.parse_output("I could not solve this game.\n", clubs_to_come()) == (
        Status.UNSOLVABLE, None)
    assert fcsolve.parse_output("Iterations count exceeded.\n", clubs_to_come()) == (
        Status.UNKNOWN, None)
    assert fcsolve.parse_output("", clubs_to_come()) == (None, None)


def test_a_solution_that_breaks_our_rules_is_refused():
    with pytest.raises(IllegalMove):
        fcsolve.parse_output(SOLVED.replace("stack 0 to stack 1", "stack 1 to stack 0", 1),
                             clubs_to_come())


@pytest.mark.skipif(shutil.which(fcsolve.EXECUTABLE) is None, reason="fc-solve not installed")
def test_fc_solve_wins_the_endgame_in_six_moves():
    result = fcsolve.run(endgame(), "beleaguered_castle", timeout=30)
    assert (result.status, result.timed_out) == (Status.SOLVED, False)
    assert result.moves is not None and len(result.moves) == 6
