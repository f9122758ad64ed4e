"""Fixtures of the playground's browser tests: one real server per module (its HTTP face
serves the page) and headless Chromium; when Chromium or playwright is missing the tests
skip, and the run's summary says so in one line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.browser.server import SKIP_REASON, launch_chromium, running_server

VIEWPORT = {"width": 1280, "height": 900}
# The tabs of the tests that make every move themselves have auto-play off, as a person
# switches it off (tests/browser/test_playground_play.py plays with it on, as a browser
# new to the page has it).
# (A page with no origin of its own, a new tab's about:blank, has no storage to set.)
AUTOPLAY_OFF = """try {
  localStorage.setItem("fortress-solver-autoplay", "off");
} catch {}"""


@dataclass
class Tab:
    """A page of the playground and what went wrong in it."""

    page: Any
    url: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def open(self) -> None:
        self.page.goto(self.url)
        self.page.get_by_test_id("status").filter(has_text="playing: 0 moves made").wait_for()


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with running_server(workers=2) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import expect, sync_playwright

    # an expectation waits as long as a page's own actions do (15 s, not Playwright's
    # 5 s): on a busy machine a page's call to the server may take more than 5 s
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


@contextmanager
def _tab(browser: Any, server_url: str, autoplay: bool) -> Iterator[Tab]:
    """A page in a browser context of its own (its storage empty), its errors noted."""
    context = browser.new_context(viewport=VIEWPORT)
    if not autoplay:
        context.add_init_script(AUTOPLAY_OFF)
    page = context.new_page()
    page.set_default_timeout(15_000)
    opened = Tab(page, server_url)

    def on_console(message: Any) -> None:
        if message.type == "error":
            opened.console_errors.append(message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda error: opened.page_errors.append(str(error)))
    try:
        yield opened
    finally:
        context.close()


@pytest.fixture
def tab(browser, server_url) -> Iterator[Tab]:
    """A fresh page on the playground, deal 2 loaded, auto-play off."""
    with _tab(browser, server_url, autoplay=False) as opened:
        opened.open()
        yield opened


@pytest.fixture
def player(browser, server_url) -> Iterator[Tab]:
    """A fresh page as a browser new to the playground has it (auto-play on), not yet
    opened: the test opens the address it needs."""
    with _tab(browser, server_url, autoplay=True) as opened:
        yield opened


def pytest_terminal_summary(terminalreporter) -> None:
    if SKIP_REASON and any(SKIP_REASON in str(report.longrepr)
                           for report in terminalreporter.stats.get("skipped", [])):
        terminalreporter.write_line(SKIP_REASON, yellow=True, bold=True)
