"""Standard notation (solver/beleaguered/notation.py) against Freecell Solver's own: its
-m -snx lines of Microsoft FreeCell deals 1-20, and of an Eight Off and a Seahaven Towers
deal, recorded in tests/data/, replay through `apply` (the function, and the command)
and are what we write move for move; every legal move of many positions of every variant
that has standard notation reads back as itself; the lines `solve` prints paste back into
`apply` in either notation; bad moves and variants without it are refused saying why;
and every move of an answer's JSON carries the cards it moves and its standard notation.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from itertools import accumulate
from pathlib import Path

import pytest

from solver.beleaguered import Mode, Move, Position, apply, deal, legal_moves, replay, solve
from solver.beleaguered.game import play
from solver.beleaguered.notation import Notation, read, refusal, run_size, write
from solver.beleaguered.rules import CELL, Location
from solver.beleaguered.variant import find_variant, shipped_variants
from solver.budget import Budget
from solver.cards import FULL_DECK, Card
from solver.errors import IllegalMove, InvalidInput
from tests.support.cli import assert_one_line_error, run, run_json

DATA = Path(__file__).resolve().parent.parent / "data"
FREECELL = find_variant("freecell")
# every shipped variant standard notation writes: the FreeCell family and the castle
# variants without a reserve or worrying back
STANDARD = [variant for variant in shipped_variants() if refusal(variant) is None]
HEADINGS = {"deal", *(variant.name for variant in shipped_variants())}  # never a move


def recorded(name: str) -> dict[str, tuple[list[str], list[str]]]:
    """A fixture's deals by their heading line: (the board's lines, fc-solve's moves)."""
    found: dict[str, tuple[list[str], list[str]]] = {}
    lines: list[str] = []
    for line in (DATA / name).read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        if line.split()[0] in HEADINGS and len(line.split()) == 2:
            lines = []
            found[line] = (lines, [])
        elif line.startswith(("Foundations:", "Freecells:", ":")) or len(lines) < 8 \
                and all(len(token) == 2 and token[1] in "CDHS" for token in line.split()):
            lines.append(line)
        else:
            found[next(reversed(found))][1].extend(line.split())
    return found


MICROSOFT = recorded("fcsolve-freecell-1-20.txt")
FAMILY = recorded("fcsolve-family-3.txt")


def test_the_fixture_holds_twenty_deals_with_runs_to_empty_piles():
    assert list(MICROSOFT) == [f"deal {n}" for n in range(1, 21)]
    moves = [move for _, line in MICROSOFT.values() for move in line]
    assert any("v" in move for move in moves) and len(moves) > 2000


@pytest.mark.parametrize("heading", list(MICROSOFT))
def test_fc_solve_lines_replay_through_apply_and_are_what_we_write(heading):
    number = int(heading.split()[1])
    board, line = MICROSOFT[heading]
    position = deal(number, FREECELL)
    assert [" ".join(map(str, pile)) for pile in position.tableau] == board
    for text in line:
        move = read(position, text)
        assert write(position, move) == text
        position = play(position, text)  # what `apply` and the Play RPC play
    assert position.is_won


@pytest.mark.parametrize("heading", list(FAMILY))
def test_fc_solve_lines_of_eight_off_and_seahaven_towers_replay(heading):
    """Eight Off's eighth cell is k (h is home), Seahaven Towers' tenth pile 10."""
    name, number = heading.split()
    board, line = FAMILY[heading]
    position = deal(int(number), find_variant(name))
    assert board[1] == "Freecells: " + " ".join("-" if card is None else str(card)
                                                for card in position.cells)
    assert any(("k" if name == "eight-off" else "10") in text for text in line)
    for text in line:
        assert write(position, read(position, text)) == text
        position = play(position, text)
    assert position.is_won


def test_a_fc_solve_line_replays_through_the_command():
    """Deal 4's line moves runs of 2 and 5 cards onto empty piles (`24v2`, `18v5`)."""
    line = MICROSOFT["deal 4"][1]
    assert {"24v2", "18v5"} <= set(line)
    done = subprocess.run([sys.executable, "-m", "service.cli", "apply", "--deal", "4",
                           "--variant", "freecell", "--notation", "standard", *line, "--json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["foundations"] == {"C": 13, "D": 13, "H": 13, "S": 13}


def every_move(position: Position) -> list[Move]:
    """The legal moves, a card into each empty cell too (cells are places)."""
    moves = legal_moves(position)
    empty = [Location(CELL, k) for k, card in enumerate(position.cells) if card is None]
    return moves + [replace(move, target=cell) for move in moves if move.target.kind == CELL
                    for cell in empty[1:]]


@pytest.mark.parametrize("variant", STANDARD, ids=[variant.name for variant in STANDARD])
def test_every_legal_move_reads_back_from_its_standard_notation(variant):
    """Along lines that win three deals (their piles empty, runs go onto the empty ones),
    each legal move of each position, written and read back, is itself."""
    written = []
    for number in range(1, 4):
        start = deal(number, variant)
        line = solve(start, Mode.VERDICT, budget=Budget(seconds=10)).moves
        for position in accumulate(line, apply, initial=start):
            for move in every_move(position):
                text = write(position, move)
                assert read(position, text) == move, (text, move)
                assert read(position, text, Notation.STANDARD) == move
                written.append(text)
    if variant.sequence_moves != "none":
        assert any("v" in text for text in written)  # runs went onto empty piles


def test_a_run_of_ten_onto_an_empty_pile_counts_in_hexadecimal():
    run = [Card.parse(text) for text in "KS QH JS TH 9S 8H 7S 6H 5S 4H".split()]
    rest = [card for card in FULL_DECK if card not in run]
    piles = (tuple(run), *(tuple(rest[k::5]) for k in range(5)), (), ())
    position = Position(piles, (), (0, 0, 0, 0), (None,) * 4, FREECELL)
    move = Move(run[0], Location("tableau", 0), Location("tableau", 6))
    assert (write(position, move), run_size(position, move)) == ("17va", 10)
    assert read(position, "17va") == move
    assert apply(position, move).tableau[6] == tuple(run)


def test_the_count_onto_a_pile_is_implied_and_onto_an_empty_one_is_one_card():
    position = endgame()  # pile 1: TH KS QH JS, pile 2: TS KH QS JH; piles 3-8 empty
    assert read(position, "13") == Move(Card.parse("JS"), Location("tableau", 0),
                                        Location("tableau", 2))
    assert read(position, "13v3").card == Card.parse("KS")
    after = apply(position, read(position, "13v2"))  # QH JS onto pile 3
    with pytest.raises(InvalidInput, match="no card of the built run on top of pile 2 goes "
                                           "onto JS, the top of pile 3"):
        read(after, "23")
    after = play(after, "14")  # KS alone onto pile 4
    moved = read(after, "34")  # QH, and JS on it, onto KS
    assert (moved.card, run_size(after, moved)) == (Card.parse("QH"), 2)
    assert write(after, moved) == "34"


def endgame() -> Position:
    """FreeCell, clubs and diamonds home, hearts and spades to the nine: TH and TS each
    under a built run of three, so the fewest moves start by moving a run onto an empty
    pile (10 moves; 16 in single cards)."""
    return Position.from_json({
        "game": "patience", "variant": "freecell",
        "tableau": [["TH", "KS", "QH", "JS"], ["TS", "KH", "QS", "JH"], [], [], [], [], [], []],
        "cells": [None] * 4, "foundations": {"C": 13, "D": 13, "H": 9, "S": 9}})


@pytest.fixture
def endgame_file(tmp_path: Path) -> str:
    path = tmp_path / "endgame.json"
    path.write_text(json.dumps(endgame().to_json()))
    return str(path)


@pytest.mark.parametrize("notation", ["ours", "standard"])
def test_the_lines_solve_prints_paste_back_into_apply(capsys, endgame_file, notation):
    code, out, err = run(capsys, "solve", endgame_file, "--notation", notation)
    assert code == 0, err
    lines = out.splitlines()[1:]
    assert lines[0] == ("   1. KS tableau:0 -> tableau:2 (3 cards)" if notation == "ours"
                        else "   1. 13v3 (3 cards)")
    after = run_json(capsys, "apply", endgame_file, *lines, "--json")
    assert after["foundations"] == {"C": 13, "D": 13, "H": 13, "S": 13}
    strict = run_json(capsys, "apply", "--notation", notation, endgame_file, *lines, "--json")
    assert strict == after


def test_a_count_that_is_not_the_runs_is_refused(capsys, endgame_file):
    for line in ("1. KS tableau:0 -> tableau:2 (2 cards)", "13v3 (2 cards)",
                 '{"card": "KS", "from": "tableau:0", "to": "tableau:2", "cards": 4}'):
        assert_one_line_error(*run(capsys, "apply", endgame_file, line), "move 1", "says")


@pytest.mark.parametrize(("text", "reason"), [
    ("9a", "freecell has piles 1-8, no pile 9"),
    ("1e", "freecell has cells a-d, no cell e"),
    ("a1", "cell a is empty"),
    ("31", "pile 3 is empty"),
    ("h1", "h, the foundations, is where cards go"),
    ("1hv2", "a run of 2 cards moves only onto a pile"),
    ("13v5", "pile 1 holds 4 cards, not 5"),
    ("13v3 (2 cards)", "says v3 (3 cards) and 2 cards"),
    ("xyz", "is not a move"),
])
def test_a_standard_move_that_cannot_be_is_refused_saying_why(text, reason):
    with pytest.raises(InvalidInput, match=reason.replace("(", r"\(").replace(")", r"\)")):
        read(endgame(), text)


def test_an_illegal_move_read_is_the_rules_to_refuse():
    with pytest.raises(IllegalMove, match="the 4 cards from TH up are not a built run"):
        play(endgame(), "13v4")


def test_a_pile_number_pair_that_names_two_moves_is_refused():
    thirteen = replace(FREECELL, name="thirteen", piles=(4,) * 13)
    with pytest.raises(InvalidInput, match="may be pile 1 to 11 or 11 to 1"):
        read(deal(1, thirteen), "111")
    with pytest.raises(InvalidInput, match="pile 2 goes onto .., the top of pile 13"):
        read(deal(1, thirteen), "213")  # the one split: pile 21 is none


def test_one_notation_alone_refuses_the_other(capsys):
    assert_one_line_error(*run(capsys, "apply", "--deal", "1", "--variant", "freecell",
                               "--notation", "standard", "6C tableau:4 cell:0"),
                          "not a move in standard notation")
    assert_one_line_error(*run(capsys, "apply", "--deal", "1", "--variant", "freecell",
                               "--notation", "ours", "5a"), "is not a move")
    assert_one_line_error(*run(capsys, "apply", "--deal", "1", "--variant", "freecell",
                               "--notation", "fancy", "5a"), "ours or standard")


@pytest.mark.parametrize(("command", "name", "reason"), [
    ("solve", "beleaguered-fortress", "beleaguered-fortress has a reserve"),
    ("hint", "fortress", "in fortress a card may come back from its foundation"),
    ("grade", "bastion", "in bastion a card may come back from its foundation"),
    ("apply", "beleaguered-fortress", "beleaguered-fortress has a reserve"),
])
def test_standard_notation_of_a_variant_without_it_is_refused(capsys, command, name, reason):
    moves = ["1h"] if command == "apply" else []
    assert_one_line_error(*run(capsys, command, "--deal", "3", "--variant", name,
                               "--notation", "standard", *moves), "notation standard", reason)


def test_solve_hint_and_grade_json_carry_the_cards_and_standard_notation(capsys, endgame_file):
    position = endgame()
    line = run_json(capsys, "solve", endgame_file, "--json")["moves"]
    assert [move["cards"] for move in line] == [3, 1, 1, 2, 1, 1, 1, 1, 1, 1]
    for shown in line:
        move = Move.from_json(shown)
        assert (shown["cards"], shown["standard"]) == (run_size(position, move),
                                                       write(position, move))
        position = apply(position, move)
    hinted = run_json(capsys, "hint", endgame_file, "--all-moves", "--json")
    assert (hinted["move"]["cards"], hinted["move"]["standard"]) == (3, "13v3")
    graded = run_json(capsys, "grade", endgame_file)["all_moves"]
    for each in (*hinted["all_moves"], *graded):
        move = Move.from_json(each["move"])
        assert each["move"]["cards"] == run_size(endgame(), move)
        assert each["move"]["standard"] == write(endgame(), move)
    assert {each["move"]["cards"] for each in graded} == {1, 2, 3}
    beleaguered = run_json(capsys, "hint", "--deal", "2", "--json")["move"]
    assert beleaguered["cards"] == 1 and "standard" not in beleaguered  # it has a reserve


def test_hints_print_the_run_and_one_move_left_in_the_singular(capsys, endgame_file):
    code, out, err = run(capsys, "hint", endgame_file, "--notation", "standard")
    assert (code, out) == (0, f"{endgame_file}: 13v3 (3 cards; 10 moves left, winnable)\n")
    last = Position.from_json({
        "game": "patience", "variant": "freecell", "tableau": [["KS"]] + [[]] * 7,
        "cells": [None] * 4, "foundations": {"C": 13, "D": 13, "H": 13, "S": 12}})
    path = Path(endgame_file).with_name("last.json")
    path.write_text(json.dumps(last.to_json()))
    code, out, err = run(capsys, "hint", str(path))
    assert out == f"{path}: KS tableau:0 -> foundation (1 move left, winnable)\n", err
    code, out, err = run(capsys, "solve", str(path))
    assert out.startswith(f"{path}: solved, optimal, 1 move (")
    assert replay(last, [read(last, "1h")]).is_won
