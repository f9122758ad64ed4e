"""The playground page's parts as the browser tests find and use them: its status line,
a card, the board, a deal of a variant, a pasted position, and a tab left without
errors."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import expect

from solver.beleaguered.position import Position

# The board as the page draws it, in the position JSON's shape: each pile's cards from
# the bottom, each cell's card (null when empty), each foundation's height.
BOARD = """() => ({
  tableau: [...document.querySelectorAll('.tableau .pile')].map(
    (pile) => [...pile.querySelectorAll('[data-card]')].map((card) => card.dataset.card)),
  cells: [...document.querySelectorAll('.cells .cell')].map(
    (cell) => cell.querySelector('[data-card]')?.dataset.card ?? null),
  foundations: Object.fromEntries([...document.querySelectorAll('.home')].map((home) => {
    const top = home.querySelector('[data-card]');
    return [home.dataset.suit, top ? 'A23456789TJQK'.indexOf(top.dataset.card[0]) + 1 : 0];
  })),
})"""


def status(page: Any) -> Any:
    return page.get_by_test_id("status")


def card(page: Any, name: str) -> Any:
    return page.locator(f'[data-card="{name}"]')


def click_card(page: Any, name: str) -> None:
    """A card's corner: in a fanned pile only its top strip shows."""
    card(page, name).click(position={"x": 18, "y": 10})


def deal_variant(page: Any, variant: str, number: int) -> None:
    """Deal N of a variant: the number first, then the variant (choosing it deals)."""
    page.get_by_test_id("deal").fill(str(number))
    page.get_by_test_id("variant").select_option(variant)
    expect(page.get_by_test_id("variant")).to_have_value(variant)
    expect(status(page)).to_have_text("playing: 0 moves made")


def paste(page: Any, position: Position) -> None:
    """A position of the family pasted and loaded, as it is (auto-play waits for a move)."""
    page.locator("#paste summary").click()
    page.get_by_test_id("position").fill(json.dumps(position.to_json()))
    page.get_by_test_id("load-position").click()
    expect(page.get_by_test_id("variant")).to_have_value(position.variant.name)
    expect(status(page)).to_have_text("playing: 0 moves made")


def assert_clean(tab: Any) -> None:
    """No error in the page's scripts nor in its console."""
    assert tab.page_errors == []
    assert tab.console_errors == []
