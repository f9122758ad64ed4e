"""bench/fcsolve.py, the bridge to Freecell Solver that `make bench-family` and `make
bench-freecell` compare against: its output read as a verdict and a line replayed by our
rules (as printed and in single-card moves), and our deals the same cards as pysol-cards'
boards read back (the board text itself, both ways, is
tests/beleaguered/test_board_text.py's). The tests marked so run fc-solve itself: on a
Beleaguered Castle position won in six moves, a FreeCell endgame whose first move carries
two cards, an Eight Off deal under the wrong preset, and a Seahaven Towers deal whose
line under -l lg our rules refuse.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from bench import fcsolve
from solver.beleaguered.board_text import board_text
from solver.beleaguered.deals import deal
from solver.beleaguered.position import Position
from solver.beleaguered.rules import TABLEAU, replay
from solver.beleaguered.sequences import supermove
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


ALL_GAMES = {**fcsolve.GAMES, **fcsolve.FREECELL_GAMES}
needs_fc_solve = pytest.mark.skipif(shutil.which(fcsolve.EXECUTABLE) is None,
                                    reason="fc-solve not installed")


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
def test_our_deals_are_pysol_cards_deals(name):
    pytest.importorskip("pysol_cards")
    rules = find_variant(name)
    for number in (1, 2, 617, 31999):
        assert fcsolve.same_cards(deal(number, rules), ALL_GAMES[name], number)
    assert fcsolve.same_cards(deal(32000, rules), ALL_GAMES[name], 32000) is None


def test_supermoves_count_the_single_card_moves_of_the_recursion():
    """fc-solve's runs are written out by solver.beleaguered.sequences, these counts."""
    assert supermove(1, 0, 0) == 1
    assert supermove(2, 0, 1) == 3    # park, move, unpark
    assert supermove(3, 0, 2) == 5    # two parked on two empty piles
    assert supermove(4, 0, 2) == 9    # 2 parked via the other pile, twice over
    assert supermove(3, 2, 0) == 5    # through two cells
    with pytest.raises(ValueError):
        supermove(3, 0, 1)


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
    status, line = fcsolve.parse_output(SOLVED, clubs_to_come())
    assert status is Status.SOLVED and line is not None
    # as printed, the run is named by its bottom card
    assert [str(m) for m in line.printed[:2]] == ["JC tableau:0 tableau:1",
                                                  "TC tableau:1 foundation"]
    assert len(line.printed) == 5
    # the two cards go one at a time, the top one parked on the first empty pile
    moves = line.single_cards
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


@needs_fc_solve
def test_fc_solve_wins_the_endgame_in_six_moves():
    result = fcsolve.run(endgame(), "beleaguered_castle", timeout=30)
    assert (result.status, result.timed_out) == (Status.SOLVED, False)
    assert result.moves is not None and len(result.moves) == 6


def freecell_endgame() -> Position:
    """FreeCell late in deal 49 as fc-solve plays it: the cells full, one pile empty, so
    that TH 9C can go onto JC as one move of two cards (9C parked on the empty pile)."""
    piles = [cards("KC"), cards("KD QC JH TC 9H 8C"), cards("QH AC QS TH 9C"),
             cards("KS QD JC"), cards("3C"), (), cards("7C"), cards("4C")]
    return Position(tuple(piles), (), (0, 11, 8, 11), cells=cards("6C 5C KH 2C"),
                    variant=find_variant("freecell"))


def test_board_text_of_a_freecell_position_lists_its_cells():
    assert board_text(freecell_endgame()).splitlines()[:2] == [
        "Foundations: H-8 C-0 D-J S-J", "Freecells: 6C 5C KH 2C"]


@needs_fc_solve
def test_fc_solve_runs_replay_as_sequence_moves_and_as_single_cards():
    start = freecell_endgame()
    result = fcsolve.run(start, "freecell", timeout=30)
    assert (result.status, result.timed_out) == (Status.SOLVED, False)
    line = result.line
    assert line is not None and line.single_cards == result.moves
    assert str(line.printed[0]) == "TH tableau:2 tableau:3"  # "Move 2 cards"
    assert [str(m) for m in line.single_cards[:3]] == [
        "9C tableau:2 tableau:5", "TH tableau:2 tableau:3", "9C tableau:5 tableau:3"]
    assert len(line.single_cards) > len(line.printed)
    assert replay(start, line.printed).is_won  # our sequence moves, one each
    position = start
    for move in line.single_cards:  # each a top card
        if move.source.kind == TABLEAU:
            assert position.tableau[move.source.index][-1] == move.card
        position = replay(position, [move])
    assert position.is_won


@needs_fc_solve
def test_a_line_by_another_games_rules_is_refused():
    """Eight Off under fc-solve's FreeCell preset: it builds by colour and fills empty
    piles with any card, which our Eight Off refuses; its own preset is why `command`
    names the game."""
    position = deal(2, find_variant("eight-off"))
    wrong = subprocess.run(fcsolve.command("freecell", 8, 8), input=board_text(position),
                           capture_output=True, text=True, check=True).stdout
    with pytest.raises(IllegalMove):
        fcsolve.parse_output(wrong, position)
    assert fcsolve.run(position, "eight_off", timeout=30).status is Status.SOLVED


def test_a_preset_is_asked_for_after_the_game_and_default_asks_for_none():
    """-l after --game, which it would otherwise not override; `default` adds nothing."""
    with_preset = fcsolve.command("freecell", 8, 4, "fc-solve", preset="lg")
    assert with_preset[with_preset.index("-l") + 1] == "lg"
    assert with_preset.index("-l") > with_preset.index("--freecells-num")
    assert "-l" not in fcsolve.command("freecell", 8, 4, "fc-solve", preset="default")


@needs_fc_solve
def test_fc_solve_knows_its_presets_and_no_other():
    assert fcsolve.preset_exists("lg") and fcsolve.preset_exists("default")
    assert not fcsolve.preset_exists("no-such-preset")


@needs_fc_solve
def test_a_preset_line_our_rules_refuse_is_kept_with_its_reason():
    """fc-solve's -l lg (written for FreeCell) on Seahaven Towers deal 1 moves 8C to an
    empty pile, which only a king may fill there: the run says so rather than raise, and
    its default search's line replays."""
    position = deal(1, find_variant("seahaven-towers"))
    run = fcsolve.run(position, "seahaven_towers", timeout=30, preset="lg")
    assert (run.status, run.line) == (Status.SOLVED, None)
    assert run.refused is not None and "does not accept 8C" in run.refused
    default = fcsolve.run(position, "seahaven_towers", timeout=30)
    assert default.refused is None and default.line is not None
