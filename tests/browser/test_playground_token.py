"""The playground against a server that wants a token (--token-file): the page says so
and asks for one, a wrong token is refused with the server's reason, and the right one
loads the game and is kept for the tab.

Skipped, with the reason in the run's summary, without /usr/bin/chromium or playwright.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.conftest import AUTOPLAY_OFF, VIEWPORT
from tests.browser.server import SKIP_REASON, running_server

if SKIP_REASON:
    pytest.skip(SKIP_REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

TOKEN = "playground-token-1"


@pytest.fixture(scope="module")
def token_server(tmp_path_factory) -> Iterator[str]:
    tokens = tmp_path_factory.mktemp("tokens") / "tokens.txt"
    tokens.write_text(f"# the playground's test token\n{TOKEN}\n")
    with running_server(workers=1, options=("--token-file", str(tokens))) as url:
        yield url


def test_the_page_asks_for_the_token_and_plays_with_it(browser, token_server):
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(AUTOPLAY_OFF)  # deal 2 as dealt
    page = context.new_page()
    page.set_default_timeout(15_000)
    page_errors: list[str] = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    try:
        page.goto(token_server)
        error = page.get_by_test_id("error")
        expect(error).to_have_text("this server needs a token: enter it above")
        token = page.get_by_test_id("token")
        expect(token).to_be_visible()
        expect(page.locator(".tableau [data-card]")).to_have_count(0)

        token.fill("not-the-token")
        page.get_by_test_id("use-token").click()
        expect(error).to_have_text(
            "the token is not one this server accepts: enter this server's token above")

        token.fill(TOKEN)
        page.get_by_test_id("use-token").click()
        expect(page.get_by_test_id("status")).to_have_text("playing: 0 moves made")
        expect(error).to_be_hidden()
        expect(page.locator(".tableau [data-card]")).to_have_count(40)
        page.get_by_test_id("hint").click()
        expect(page.get_by_test_id("hint-move")).not_to_be_empty()

        page.reload()  # kept for the tab: the game loads at once
        expect(page.get_by_test_id("status")).to_have_text("playing: 0 moves made")
        assert page_errors == []
    finally:
        context.close()
