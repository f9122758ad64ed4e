"""Remake the playground's screenshots in docs/screenshots/ (PNG), against a server of
its own:

    .venv/bin/python -m tests.browser.screenshots [--url http://127.0.0.1:8080/]

(--url: a server already running, with --http-port, instead of one of its own)

- beleaguered-mid-solution.png: deal 2 after Solve and 30 Next clicks, with a hint shown
  and the hinted card selected, its targets coloured by the server's grading;
- duel-hint.png: a Fortress Fight Kingdom game (seed 3) after one hinted action and the
  bot's reply, with the next hint and its runners-up;
- ffk-1280.png, ffk-390.png: a Fortress Fight Kingdom game (seed 3) with its hint, the
  hand's cards with their names, costs and effects, at 1280 and 390 px wide;
- farbduell-1280.png: Farbduell on the Tag & Nacht table with four players, with a hint;
- farbduell-390.png: the go-out of docs/farbduell.md pasted, its hint a proven win;
- beleaguered-390.png: deal 2 at 390 px wide, with a hint and the hinted card selected.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from pathlib import Path

from tests.browser.conftest import AUTOPLAY_OFF
from tests.browser.server import ROOT, SKIP_REASON, launch_chromium, running_server

OUT = ROOT / "docs" / "screenshots"
WIDE = {"width": 1280, "height": 860}
NARROW = {"width": 390, "height": 844}
FFK_SEED = "3"


def beleaguered(page, url: str) -> Path:
    page.goto(url)
    page.get_by_test_id("status").filter(has_text="playing: 0 moves made").wait_for()
    page.get_by_test_id("solve").click()
    page.get_by_test_id("solution").filter(has_text="66 moves").wait_for()
    for _ in range(30):
        page.get_by_test_id("next").click()
    page.get_by_test_id("status").filter(has_text="playing: 30 moves made").wait_for()
    page.get_by_test_id("hint").click()
    page.get_by_test_id("moves-left").filter(has_text="36").wait_for()
    page.locator("[data-card].hinted").click()
    page.locator('[data-testid="target-grade"][data-outcome="wins"]').first.wait_for()
    return shoot(page, "beleaguered-mid-solution.png")


def duel(page, url: str) -> Path:
    open_duel(page, url, "ffk", FFK_SEED)
    page.get_by_test_id("hint").click()  # play the hint once: the bot replies
    page.get_by_test_id("runners-up").wait_for()
    page.locator("[data-action].hinted").click()
    page.get_by_test_id("log").locator("li.bot").first.wait_for()
    page.get_by_test_id("hint").click()
    page.get_by_test_id("runners-up").wait_for()
    return shoot(page, "duel-hint.png")


def ffk(page, url: str) -> Path:
    open_duel(page, url, "ffk", FFK_SEED)
    hint(page)
    return shoot(page, f"ffk-{page.viewport_size['width']}.png")


def farbduell(page, url: str) -> Path:
    page.goto(url)
    page.get_by_test_id("status").filter(has_text="playing").wait_for()
    page.get_by_test_id("game").select_option("farbduell")
    page.get_by_test_id("status").filter(has_text="your turn").wait_for()
    page.get_by_test_id("table").select_option("tag_nacht")
    page.get_by_test_id("players").select_option("4")
    page.get_by_test_id("opponent-hand").nth(2).wait_for()
    page.get_by_test_id("status").filter(has_text="your turn").wait_for()
    hint(page)
    return shoot(page, "farbduell-1280.png")


def farbduell_win(page, url: str) -> Path:
    page.goto(url)
    page.get_by_test_id("status").filter(has_text="playing").wait_for()
    page.get_by_test_id("game").select_option("farbduell")
    page.get_by_test_id("status").filter(has_text="your turn").wait_for()
    page.locator("#paste summary").click()
    page.get_by_test_id("position").fill(
        '{"table": "classic", "hands": [["red-skip", "blue-skip", "blue-7"], ["green-1"]],\n'
        ' "discard": ["red-9"]}')
    page.get_by_test_id("load-position").click()
    page.get_by_test_id("hand").locator(".fd-card").nth(2).wait_for()
    page.get_by_test_id("hint").click()
    page.get_by_test_id("chance").filter(has_text="wins this turn").wait_for()
    return shoot(page, "farbduell-390.png")


def beleaguered_narrow(page, url: str) -> Path:
    page.goto(url)
    page.get_by_test_id("status").filter(has_text="playing: 0 moves made").wait_for()
    page.get_by_test_id("hint").click()
    page.get_by_test_id("moves-left").filter(has_text="66").wait_for()
    page.locator("[data-card].hinted").click()
    page.locator('[data-testid="target-grade"]').first.wait_for()
    return shoot(page, "beleaguered-390.png")


def open_duel(page, url: str, game: str, seed: str) -> None:
    page.goto(url)
    page.get_by_test_id("status").filter(has_text="playing").wait_for()
    page.get_by_test_id("game").select_option(game)
    page.get_by_test_id("deal").fill(seed)
    page.get_by_test_id("load").click()
    page.get_by_test_id("status").filter(has_text="your turn").wait_for()
    if game == "ffk":  # the cards with their names, once the card table has come
        page.get_by_test_id("card").first.wait_for()


def hint(page) -> None:
    page.get_by_test_id("hint").click()
    page.get_by_test_id("chance").wait_for()


def shoot(page, name: str) -> Path:
    path = OUT / name
    page.wait_for_timeout(200)  # the hint's highlight drawn
    page.screenshot(path=str(path), full_page=True)
    return path


SHOTS = ((beleaguered, WIDE), (duel, WIDE), (ffk, WIDE), (ffk, NARROW), (farbduell, WIDE),
         (farbduell_win, NARROW), (beleaguered_narrow, NARROW))


def main() -> int:
    parser = argparse.ArgumentParser(description="Remake docs/screenshots/*.png.")
    parser.add_argument("--url", help="a running server's page (default: start one)")
    args = parser.parse_args()
    if SKIP_REASON:
        print(SKIP_REASON.replace("browser tests skipped", "no screenshots"), file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    server = nullcontext(args.url) if args.url else running_server()
    with server as url, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            for shot, viewport in SHOTS:
                page = browser.new_page(viewport=viewport, device_scale_factor=1)
                page.add_init_script(AUTOPLAY_OFF)  # deal 2 as dealt, then Solve's line
                page.set_default_timeout(20_000)
                print(shot(page, url).relative_to(ROOT))
                page.close()
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
