"""The playground's board for the FreeCell family, in headless Chromium against a real
server: a FreeCell deal solved and stepped through to the win with the page's own
buttons, its sequence moves among the steps; a built run moved as one move by clicking
its base card and then a pile, or by dragging it there, the board after it the command
line's; the free cells of Eight Off, Seahaven Towers and Forecell with their dealt cards;
and the empty piles of Eight Off marked as taking only a king, where FreeCell's are not.

The positions and the expected layouts come from the library (solver.beleaguered), the
board after a move from `fortress-solver apply`.
Skipped, with the reason in the run's summary, without /usr/bin/chromium or playwright.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable

import pytest

from solver.beleaguered.deals import deal
from solver.beleaguered.position import Position
from solver.beleaguered.rules import Move, apply, legal_moves
from solver.beleaguered.solve import solve
from solver.beleaguered.variant import find_variant
from solver.budget import Budget
from solver.cards import Rank
from tests.browser.server import ROOT, SKIP_REASON, command

if SKIP_REASON:
    pytest.skip(SKIP_REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from tests.browser.page import (  # noqa: E402
    BOARD,
    assert_clean,
    card,
    click_card,
    deal_variant,
    paste,
    status,
)

FREECELL_DEAL = 2  # solved in 73 moves, three of them sequence moves
KINGS_DEAL = 2
KINGS_ONLY = "only a king may fill this pile"


def is_sequence_move(position: Position, move: Move) -> bool:
    """A move of a card below its pile's top, the run on it carried along."""
    return (move.source.kind == "tableau" and move.source.index is not None
            and position.tableau[move.source.index][-1] != move.card)


def run_length(position: Position, move: Move) -> int:
    assert move.source.index is not None
    pile = position.tableau[move.source.index]
    return len(pile) - pile.index(move.card)


def along_the_line(variant: str, number: int, stop: Callable[[Position], bool]) -> Position:
    """The first position on deal N's optimal line for which `stop` holds."""
    position = deal(number, find_variant(variant))
    line = solve(position, budget=Budget(seconds=30)).moves
    assert line is not None
    for move in line:
        if stop(position):
            return position
        position = apply(position, move)
    raise AssertionError(f"no such position on {variant} deal {number}'s line")


@pytest.fixture(scope="module")
def runs() -> tuple[Position, Move]:
    """A FreeCell position where a run of three cards or more may move as one, and that
    move."""
    def long_runs(position: Position) -> list[Move]:
        return [move for move in legal_moves(position)
                if is_sequence_move(position, move) and run_length(position, move) >= 3]

    position = along_the_line("freecell", FREECELL_DEAL, lambda p: bool(long_runs(p)))
    return position, long_runs(position)[0]


def applied(position: Position, move: Move) -> dict:
    """The command line's position after `move`."""
    done = subprocess.run([command(), "apply", "-", str(move), "--json"], cwd=ROOT,
                          input=json.dumps(position.to_json()), capture_output=True, text=True,
                          timeout=60, check=True)
    after: dict = json.loads(done.stdout)
    return after


def test_a_freecell_deal_is_solved_and_stepped_to_the_win(tab):
    page = tab.page
    position = deal(FREECELL_DEAL, find_variant("freecell"))
    deal_variant(page, "freecell", FREECELL_DEAL)
    page.get_by_test_id("solve").click()
    solution = page.get_by_test_id("solution")
    expect(solution).to_have_text(re.compile(r"^optimal solution: \d+ moves, 0 played$"))
    line = [Move.parse(text) for text in page.locator("#solution-moves li").all_inner_texts()]
    assert solution.inner_text().startswith(f"optimal solution: {len(line)} moves")
    # the line carries runs as single moves: Next plays them as the server applies them
    sequences = 0
    for move in line:
        sequences += is_sequence_move(position, move)
        position = apply(position, move)
    assert position.is_won and sequences > 0

    for _ in line:
        page.get_by_test_id("next").click()  # waits until the last move's answer enabled it
    expect(status(page)).to_have_text(f"won in {len(line)} moves")
    expect(solution).to_have_text(f"optimal solution: {len(line)} moves, {len(line)} played")
    expect(page.get_by_test_id("next")).to_be_disabled()
    expect(page.locator(".tableau [data-card], .cells [data-card]")).to_have_count(0)
    for suit in "CDHS":
        expect(card(page, f"K{suit}")).to_have_attribute("data-place", "foundation")
    assert_clean(tab)


@pytest.mark.parametrize("by", ["click", "drag"])
def test_a_run_moves_as_one_move_from_its_base_card(tab, runs, by):
    page = tab.page
    position, move = runs
    base, source, target = str(move.card), str(move.source), str(move.target)
    pile = [str(c) for c in position.tableau[move.source.index or 0]]
    run = pile[pile.index(base):]
    played: list[list[str]] = []
    page.on("request", lambda request: played.append(request.post_data_json["moves"])
            if request.url.endswith(".Solver/Play") and request.post_data_json["moves"]
            else None)
    paste(page, position)
    expect(card(page, base)).to_have_attribute("data-place", source)
    if by == "click":
        click_card(page, base)
        expect(card(page, base)).to_have_class(re.compile(r"\bselected\b"))
        expect(page.locator(".card.carried")).to_have_count(len(run) - 1)
        carried = page.locator(".card.carried").evaluate_all("ns => ns.map(n => n.dataset.card)")
        assert carried == run[1:]
        # the server grades the run's move as any other
        grade = page.locator(f'[data-testid="target-grade"][data-move="{move}"]')
        expect(grade).to_have_attribute("data-target", target)
        page.locator(f'[data-target="{target}"] .label').click()
    else:
        card(page, base).drag_to(page.locator(f'[data-target="{target}"]'),
                                 source_position={"x": 18, "y": 10})
    expect(status(page)).to_have_text("playing: 1 move made")
    assert played == [[str(move)]]  # one move, the run's
    for name in run:
        expect(card(page, name)).to_have_attribute("data-place", target)
    after = applied(position, move)
    assert page.evaluate(BOARD) == {key: after[key] for key in ("tableau", "cells", "foundations")}

    # a pile's top alone: the run is gone, the single card carries nothing
    click_card(page, run[-1])
    expect(card(page, run[-1])).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator(".card.carried")).to_have_count(0)
    assert_clean(tab)


@pytest.mark.parametrize("variant", ["eight-off", "seahaven-towers", "forecell"])
def test_the_dealt_free_cells_are_drawn(tab, variant):
    page = tab.page
    position = deal(KINGS_DEAL, find_variant(variant))
    deal_variant(page, variant, KINGS_DEAL)
    cells = page.get_by_test_id("cells")
    expect(cells.locator(".cell")).to_have_count(position.variant.cells)
    held = {f"cell:{k}": str(c) for k, c in enumerate(position.cells) if c is not None}
    assert held and len(held) == position.variant.cells_dealt
    expect(cells.locator("[data-card]")).to_have_count(len(held))
    for place, name in held.items():
        expect(card(page, name)).to_have_attribute("data-place", place)
    assert page.evaluate(BOARD) == {key: position.to_json()[key]
                                    for key in ("tableau", "cells", "foundations")}
    board = page.locator("#board").bounding_box()
    last = cells.locator(".cell").last.bounding_box()
    assert board is not None and last is not None
    assert last["x"] + last["width"] <= board["x"] + board["width"]
    expect(page.get_by_test_id("kings-only")).to_have_count(0)  # no pile is empty yet
    assert_clean(tab)


def test_an_empty_pile_that_takes_only_kings_is_marked(tab, runs):
    page = tab.page
    position = along_the_line("eight-off", KINGS_DEAL,
                              lambda p: any(not pile for pile in p.tableau))
    empty = [f"tableau:{i}" for i, pile in enumerate(position.tableau) if not pile]
    paste(page, position)
    marks = page.get_by_test_id("kings-only")
    expect(marks).to_have_count(len(empty))
    for place in empty:
        mark = page.locator(f'[data-target="{place}"] [data-testid="kings-only"]')
        expect(mark).to_have_text("K")
        expect(mark).to_have_attribute("title", KINGS_ONLY)
        expect(mark).to_have_attribute("aria-label", KINGS_ONLY)
    # a king may go there, and is shown so when picked
    king = next(move for move in legal_moves(position) if str(move.target) in empty)
    assert king.card.rank is Rank.KING
    click_card(page, str(king.card))
    expect(page.locator(f'[data-target="{king.target}"]')).to_have_class(
        re.compile(r"\blegal-target\b"))

    # FreeCell's empty piles take any card: no mark
    freecell = runs[0]
    assert any(not pile for pile in freecell.tableau)
    paste(page, freecell)
    expect(page.locator(".tableau .slot")).to_have_count(
        sum(not pile for pile in freecell.tableau))
    expect(page.locator(".tableau .slot").first).to_have_text("empty")
    expect(marks).to_have_count(0)
    assert_clean(tab)
