"""Freecell Solver's board text both ways (solver/beleaguered/board_text.py): the boards
of make-microsoft-freecell-board (recorded here, and run when it is installed) read as
our Microsoft deals; what PySolFC exports and `fc-solve -p -t` prints read as the
positions they are; every position of the five FreeCell variants and the reserve-free
castle ones reads back from its text; each fault is one line naming its place; and the
commands take a board where they take a position file."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.beleaguered.board_text import DEFAULT_VARIANT, board_text, read_board
from solver.beleaguered.deals import deal
from solver.beleaguered.drawing import picture
from solver.beleaguered.game import GAME
from solver.beleaguered.position import Position
from solver.beleaguered.rules import CELL, FOUNDATION, Move, apply, legal_moves, replay
from solver.beleaguered.variant import Variant, find_variant
from solver.cards import Card, Rank, Suit
from solver.errors import InvalidInput
from solver.json_text import MAX_BYTES, is_json_text
from tests.support.cli import assert_one_line_error, run

FREECELL = find_variant("freecell")
VARIANTS = ["freecell", "bakers-game", "eight-off", "seahaven-towers", "forecell",
            "beleaguered-castle", "streets-and-alleys", "citadel"]
BOARD_MAKER = "make-microsoft-freecell-board"
needs_board_maker = pytest.mark.skipif(shutil.which(BOARD_MAKER) is None,
                                       reason=f"{BOARD_MAKER} not installed")
needs_fc_solve = pytest.mark.skipif(shutil.which("fc-solve") is None,
                                    reason="fc-solve not installed")

# make-microsoft-freecell-board's output, as recorded: with -t (T for ten) and without
# (10 for ten), up to Microsoft's last deal
MICROSOFT = {
    ("-t", 617): """\
7D TD TH KD 4C 4S JD
AD 7S QC 5H QS TS KS
5C QD 3H 9S 9C 2H KC
3S AC 9D 3C 9H 5D 4H
5S 6D 6S 8S 7C JC
8C 8H 8D 7H 6H 6C
2D AS 3D 4D 2C JH
AH KH TC JS 2S QH
""",
    ("-t", 11982): """\
AH 3D KD JC 6C JD KC
AS 3H 6H 5D 2C 7D 8D
4H QS 5S 5C TH 8H 2S
AC QC 4D 8C QH 9C 3S
2D 8S 9H 9D 6D 2H
6S 7H JH TD TC QD
TS AD 9S KH 4S 4C
JS KS 3C 7C 7S 5H
""",
    ("", 5): """\
AH 5C 3S 10D 5S 2H 9S
8S AS 5D 7S QH 10C AD
2D 9C KC JD 8C 10H 7C
QS KH 3H 7H 9D 6D 10S
4C 4D KD 8H KS 6H
9H 2C 5H JH QD 6C
2S 3C 6S JC 4H QC
3D 4S 8D 7D AC JS
""",
    ("", 2**31 - 1): """\
9S JH 7S 5S 5D 5C 7D
2H 10C 6C AD QH JD 9C
7C 10D 3H 10H 8C AS 7H
5H QS 8S 3C 6H QC 8H
4C 3S KD 2C 6S AC
6D KH 10S AH QD KC
3D 8D 9D 2D 4H 2S
4S JC 4D 9H JS KS
""",
}

# a state `fc-solve -p -t -sam` printed solving Microsoft's deal 5: its empty cells and
# piles as blanks, its foundations in the order H C D S
FC_SOLVE_STATE = "".join(line + "\n" for line in (
    "Foundations: H-T C-3 D-3 S-8 ",
    "Freecells:      9C      KD",
    ": ",
    ": ",
    ": KC QH JC TD 9S 8D 7C 6D 5C",
    ": QS KH QC JD TC",
    ": 4C 4D",
    ": ",
    ": KS QD JS",
    ": JH TS 9D 8C 7D 6C 5D"))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def played(position: Position, steps: int) -> Position:
    """`position` after `steps` moves, each home if one goes, else to a cell if one
    can, else the first legal one: cells held and foundations begun."""
    for _ in range(steps):
        moves = legal_moves(position)
        if not moves:
            break
        home = [move for move in moves if move.target.kind == FOUNDATION]
        cell = [move for move in moves if move.target.kind == CELL]
        position = apply(position, (home or cell or moves)[0])
    return position


def pysolfc_export(position: Position) -> str:
    """The text PySolFC's "Export current layout" writes (its solver hint's
    calcBoardString): a `Founds:` line of the foundations begun alone, an `FC:` line when
    the game has cells, then a line a pile without a colon, an empty pile a blank line."""
    begun = [f"{suit}-{Rank(top)}" for suit, top in zip(Suit, position.foundations, strict=True)
             if top]
    lines = [f"Founds: {' '.join(begun)}"] if begun else []
    if position.cells:
        lines.append("FC: " + " ".join("-" if c is None else str(c) for c in position.cells))
    lines += [" ".join(map(str, pile)) for pile in position.tableau]
    return "".join(line + "\n" for line in lines)


# ---------------------------------------------------------------- other tools' boards


@pytest.mark.parametrize(("flag", "number"), MICROSOFT)
def test_make_microsoft_freecell_boards_read_as_our_deals(flag, number):
    text = MICROSOFT[flag, number]
    assert read_board(text) == deal(number, FREECELL)  # FreeCell by default
    assert read_board(text, FREECELL) == deal(number, FREECELL)


@needs_board_maker
@pytest.mark.parametrize("flag", ["-t", ""])
def test_the_board_maker_writes_what_is_recorded_and_each_board_reads(flag):
    def made(number: int) -> str:
        return subprocess.run([BOARD_MAKER, *filter(None, [flag]), str(number)],
                              capture_output=True, text=True, check=True).stdout

    for recorded, number in MICROSOFT:
        if recorded == flag:
            assert made(number) == MICROSOFT[flag, number]
    for number in (1, 2, 1000, 31999, 32000, 1_000_000, 2**31 - 2):
        assert read_board(made(number)) == deal(number, FREECELL), number


def test_a_state_fc_solve_prints_reads_with_its_cells_moved_up():
    position = read_board(FC_SOLVE_STATE)
    assert position.foundations == (3, 3, 10, 8)  # C D H S
    assert position.cells == (*cards("9C KD"), None, None)
    assert position.tableau[2] == cards("KC QH JC TD 9S 8D 7C 6D 5C")
    assert [len(pile) for pile in position.tableau] == [0, 0, 9, 5, 2, 0, 3, 7]


@needs_fc_solve
def test_every_state_fc_solve_prints_on_its_way_to_a_win_reads():
    """fc-solve's -p -t states from one of our deals: each a position, the last won."""
    position = played(deal(3, FREECELL), 12)
    out = subprocess.run(["fc-solve", "-p", "-t", "-sam", "-"], input=board_text(position),
                         capture_output=True, text=True, check=True, timeout=60,
                         env={**os.environ, "FREECELL_SOLVER_QUIET": "1"}).stdout
    states = [block for block in out.split("\n\n") if block.startswith("Foundations:")]
    assert len(states) > 10
    read = [read_board(state) for state in states]
    assert read[0].tableau == position.tableau and read[0].foundations == position.foundations
    assert read[-1].is_won


@pytest.mark.parametrize("name", VARIANTS)
def test_pysolfcs_export_reads_as_the_position(name):
    rules = find_variant(name)
    for number in (1, 3):
        position = played(deal(number, rules), 12)
        assert read_board(pysolfc_export(position), rules) == position


def test_a_pysolfc_export_as_written():
    """Eight Off deal 3 after twelve moves as PySolFC exports it: its first pile empty."""
    text = ("Founds: H-5\n"
            "FC: 8C 9S 4S 6C 5S KC 5C 7D\n"
            "\n"
            "2D JH QH AS TD 2C\n"
            "QC 9D TS JD\n"
            "7H JS 5D 8D 3C 4C\n"
            "6S QS 6H AC 9H\n"
            "8H 8S KS 6D KD\n"
            "TH 9C 7C 3D 7S JC TC\n"
            "4D QD AD KH 3S 2S\n")
    rules = find_variant("eight-off")
    assert text == pysolfc_export(played(deal(3, rules), 12))
    position = read_board(text, rules)
    assert position == played(deal(3, rules), 12)
    assert position.foundations == (0, 0, 5, 0)
    assert position.cells == cards("8C 9S 4S 6C 5S KC 5C 7D")
    assert position.tableau[0] == () and position.tableau[1] == cards("2D JH QH AS TD 2C")


# ---------------------------------------------------------------- both ways


def test_board_text_lists_foundations_in_its_suit_order_and_piles_bottom_to_top():
    castle = find_variant("beleaguered-castle")
    piles = (cards("KC"), cards("KD QH JH"), cards("KH TH")) + ((),) * 5
    position = Position(piles, (), (12, 12, 9, 13), variant=castle)
    text = board_text(position)
    assert text == "Foundations: H-9 C-Q D-Q S-K\n: KC\n: KD QH JH\n: KH TH\n:\n:\n:\n:\n:\n"
    assert read_board(text, castle) == position


def test_cells_keep_their_places_empty_ones_written_as_dashes():
    """Eight Off deals to every other cell, Seahaven Towers to the middle two."""
    eight_off = deal(1, find_variant("eight-off"))
    assert board_text(eight_off).splitlines()[1] == "Freecells: 6S - 9C - 2H - 6H -"
    seahaven = board_text(deal(1, find_variant("seahaven-towers"))).splitlines()
    assert seahaven[1] == "Freecells: - 2H 6H -" and len(seahaven) == 12


@pytest.mark.parametrize("name", [*VARIANTS, "fortress", "bastion"])
def test_a_position_reads_back_from_its_board_text(name):
    """Deals and positions played into: cells held, foundations begun, piles emptied."""
    rules = find_variant(name)
    seen = []
    for number in (1, 2, 3):
        for steps in (0, 4, 5, 12, 30):
            position = played(deal(number, rules), steps)
            assert read_board(board_text(position), rules) == position
            seen.append(position)
    assert any(0 < sum(position.foundations) < 52 for position in seen)
    if rules.cells:
        assert any(any(position.cells) for position in seen)
        assert any(None in position.cells and any(position.cells) for position in seen)


def test_every_spelling_fc_solve_reads():
    """Prefixes in any case and their other names, no colon before a pile, 10 for T,
    lower case, `*` for an empty cell, spaces and tabs, Windows line ends."""
    position = played(deal(2, FREECELL), 4)
    assert position.cells.count(None) == 2 and sum(position.foundations) == 2
    lines = board_text(position).replace("T", "10").lower().splitlines()
    lines[0] = lines[0].replace("foundations:", "FOUND:")
    lines[1] = lines[1].replace("freecells: ", "fc:\t").replace("-", "*")
    lines[2] = lines[2].removeprefix(": ")
    assert lines[:3] == ["FOUND: h-a c-0 d-0 s-a", "fc:\t3h 7s * *", "qd 4d 10d"]
    assert read_board("\r\n".join(lines) + "\r\n") == position


# ---------------------------------------------------------------- refusals


def _board(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


FULL = MICROSOFT["-t", 617].splitlines()
REFUSED = {
    "a word that is no card": (_board(*FULL[:2], "5C QD 3H 9S XX 2H KC", *FULL[3:]),
                               "line 3: 'XX' is not a card"),
    "a comment": (_board("# deal 617", *FULL), "line 1: '#' is not a card"),
    "a face-down card": (_board("<7D> TD", *FULL[1:]), "line 1: '<7D>' is not a card"),
    "a foundation of no suit": (_board("Foundations: H-0 X-4", *FULL),
                                "line 1: 'X-4' is not a foundation such as H-5"),
    "a foundation of no rank": (_board("Foundations: H-Z", *FULL),
                                "line 1: 'H-Z' is not a foundation"),
    "a suit's foundation twice": (_board("Founds: H-A H-2", *FULL),
                                  "line 1: the H foundation given twice"),
    "two foundations lines": (_board("Founds: H-0", "Foundations: S-0", *FULL),
                              "line 2: a second foundations line"),
    "two cells lines": (_board("FC: -", *FULL[:3], "Freecells: - -", *FULL[3:]),
                        "line 5: a second free cells line"),
    "more cells than FreeCell's": (
        _board("Freecells: 6S - 9C - 2H - 6H -"),
        "line 1: freecell has 4 free cells, not 7; a board is read as freecell unless "
        "--variant names another variant"),
    "a pile past the piles": (_board(*FULL, "KS"),
                              "line 9: a pile past the 8 of freecell (a blank line is an "
                              "empty pile); a board is read as freecell"),
    "a blank line before the piles": (_board("", *FULL), "line 9: a pile past the 8"),
    "a card twice and one missing": (_board(FULL[0].replace("TD", "TH"), *FULL[1:]),
                                     "position holds TH twice; position lacks TD; a board "
                                     "is read as freecell"),
    "a card both home and in play": (_board("Founds: S-2", *FULL),
                                     "AS is in play but the S foundation is built to 2"),
    "more cards than a deck": (_board(*FULL, "Freecells: AH"),
                               "line 9: more than the 52 cards of a deck"),
    "an empty board": (" \n\n", "the board is empty"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_board_that_does_not_read_is_one_fault_naming_its_line(case):
    text, fault = REFUSED[case]
    with pytest.raises(InvalidInput) as refused:
        read_board(text)
    assert fault in str(refused.value) and "\n" not in str(refused.value)


_BOARDISH = st.sampled_from([*MICROSOFT["-t", 617].split(), "Founds:", "FC:", ":", "-", "*",
                             "H-5", "S-0", "10H", "\n", "\n", " ", "\t", "\r", "#"])


@given(st.lists(_BOARDISH | st.text(max_size=3), max_size=80).map("".join))
def test_any_text_is_a_position_or_one_line_of_fault(text):
    try:
        read_board(text)
    except InvalidInput as fault:
        assert str(fault) and "\n" not in str(fault) and "\r" not in str(fault)


def test_the_variant_named_is_not_said_again_and_a_reserve_is_refused():
    with pytest.raises(InvalidInput, match=r"^line 1: freecell has 4 free cells, not 5$"):
        read_board("FC: AH 2H 3H 4H 5H\n", FREECELL)
    castle = find_variant("beleaguered-castle")
    with pytest.raises(InvalidInput, match=r"^line 1: beleaguered-castle has 0 free cells, "):
        read_board("Freecells: AH\n", castle)
    assert read_board("Freecells: - -\n" + board_text(deal(2, castle)), castle) == deal(2, castle)
    reserve = "has a reserve, which Freecell Solver's board text cannot hold"
    with pytest.raises(InvalidInput, match=reserve):
        read_board(MICROSOFT["-t", 617], find_variant("beleaguered-fortress"))
    with pytest.raises(InvalidInput, match=reserve):
        board_text(deal(1))


def test_a_file_is_board_text_unless_it_opens_as_json_and_stays_bounded():
    assert DEFAULT_VARIANT == "freecell"
    assert all(map(is_json_text, [b'\xef\xbb\xbf \n {"tableau": []}', b"[1]", b'"deal"', b" \n"]))
    assert not any(map(is_json_text, [MICROSOFT["-t", 617].encode(), b"5", b"Founds: H-0"]))
    assert GAME.read(MICROSOFT["-t", 617].encode()) == deal(617, FREECELL)
    assert GAME.read(json.dumps(deal(2).to_json()).encode()) == deal(2)
    with pytest.raises(InvalidInput, match="is not JSON"):
        GAME.read(b'{"tableau": [')
    with pytest.raises(InvalidInput, match="a position is at most"):
        GAME.read(b"AH " * (MAX_BYTES // 3 + 1))
    with pytest.raises(InvalidInput, match="^line 1: more than the 52 cards of a deck$"):
        GAME.read(b"AH " * (MAX_BYTES // 3 - 1))


# ---------------------------------------------------------------- the commands


def _stdin(monkeypatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def test_solve_reads_a_board_from_standard_input_and_its_line_replays(capsys, monkeypatch):
    _stdin(monkeypatch, MICROSOFT["", 5])
    code, out, err = run(capsys, "solve", "--variant", "freecell", "-", "--mode", "any",
                         "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["status"] == "solved"
    assert replay(deal(5, FREECELL), [Move.from_json(m) for m in answer["moves"]]).is_won


def test_show_and_hint_read_a_board_file_and_name_its_fault(capsys, tmp_path):
    path = tmp_path / "board.txt"
    position = played(deal(3, find_variant("eight-off")), 12)
    path.write_text(board_text(position))
    assert run(capsys, "show", str(path), "--variant", "eight-off") == (
        0, picture(position) + "\n", "")
    assert_one_line_error(*run(capsys, "hint", str(path)), "line 2: freecell has 4 free "
                          "cells, not 8; a board is read as freecell unless --variant")
    assert_one_line_error(*run(capsys, "show", str(path), "--variant", "beleaguered-fortress"),
                          "beleaguered-fortress has a reserve")


def test_a_variant_read_from_board_text_is_the_one_named(capsys, tmp_path):
    path = tmp_path / "board.txt"
    rules: Variant = find_variant("bakers-game")
    path.write_text(board_text(deal(4, rules)))
    code, out, err = run(capsys, "apply", str(path), str(legal_moves(deal(4, rules))[0]),
                         "--variant", "bakers-game", "--json")
    assert code == 0, err
    assert json.loads(out)["variant"] == "bakers-game"
