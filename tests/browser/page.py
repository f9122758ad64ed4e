"""The playground page's parts as the browser tests find and use them: its status line,
a card, a deal of a variant, and a tab left without errors."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect


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


def assert_clean(tab: Any) -> None:
    """No error in the page's scripts nor in its console."""
    assert tab.page_errors == []
    assert tab.console_errors == []
