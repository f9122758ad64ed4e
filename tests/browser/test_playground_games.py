"""The playground against a server with two more games, plug-ins the page has never heard
of (tests/browser/plugin_games.py): they appear in its game selector from GetServerInfo,
and its generic view deals, draws, plays and asks one of them its questions, and says
what the server says of the other, which deals nothing, until a position is pasted.

Skipped, with the reason in the run's summary, without /usr/bin/chromium or playwright.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

from solver.budget import Budget
from tests.browser.plugin_games import COINS, PEBBLES, Heap, plugin_path
from tests.browser.server import ROOT, SKIP_REASON, call, running_server

if SKIP_REASON:
    pytest.skip(SKIP_REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from tests.browser.page import assert_clean  # noqa: E402


@pytest.fixture(scope="module")
def server_url(tmp_path_factory) -> Iterator[str]:
    """This module's server (conftest's `tab` opens it): the plug-ins on its path."""
    folder = plugin_path(tmp_path_factory.mktemp("plugins"))
    path = os.pathsep.join([str(folder), str(ROOT), os.environ.get("PYTHONPATH", "")])
    with running_server(workers=1, env={"PYTHONPATH": path.rstrip(os.pathsep)}) as url:
        yield url


def answer(game: Any, heap: Heap, question: str) -> dict:
    return game.question(question).ask(heap, None, Budget(seconds=10)).to_json()


def position(page) -> dict:
    return json.loads(page.get_by_test_id("position").input_value())


def actions(page) -> list[str]:
    return page.get_by_test_id("action").evaluate_all("bs => bs.map(b => b.dataset.action)")


def test_the_plugged_in_games_are_in_the_selector(tab, server_url):
    page = tab.page
    info = call(server_url, "GetServerInfo", {})
    games = [game["name"] for game in info["games"]]
    assert games[-2:] == ["coins", "pebbles"]
    options = page.get_by_test_id("game").locator("option")
    expect(options).to_have_count(len(games))
    assert options.evaluate_all("os => os.map(o => o.value)")[-2:] == ["coins", "pebbles"]
    assert options.all_inner_texts()[-2:] == ["coins", "pebbles"]
    assert_clean(tab)


def test_a_plugged_in_game_deals_plays_and_answers_its_questions(tab, server_url):
    page = tab.page
    asked = next([question["name"] for question in game["questions"]]
                 for game in call(server_url, "GetServerInfo", {})["games"]
                 if game["name"] == "coins")
    status, picture = page.get_by_test_id("status"), page.get_by_test_id("picture")
    page.get_by_test_id("game").select_option("coins")
    expect(status).to_have_text("playing: 0 moves made, seat 0 to move")
    page.get_by_test_id("deal").fill("2")
    page.get_by_test_id("load").click()
    expect(picture).to_have_text(COINS.picture(COINS.deal(2)))
    dealt = COINS.deal(2)
    assert position(page) == COINS.to_json(dealt)
    expect(page.locator("#paste")).to_have_attribute("open", "")
    for hidden in ("hint", "solve", "prev", "next", "play"):
        expect(page.get_by_test_id(hidden)).to_be_hidden()
    questions = page.get_by_test_id("question")
    assert questions.all_inner_texts() == asked == ["solve", "hint"]
    assert actions(page) == list(COINS.moves(dealt))

    for question in asked:  # asked through Solve, answered as JSON
        questions.filter(has_text=question).click()
        expect(page.get_by_test_id("answer-question")).to_have_text(f"{question}: solved")
        assert json.loads(page.get_by_test_id("answer").inner_text()) == answer(
            COINS, dealt, question)
    assert "\n  " in page.get_by_test_id("answer").inner_text()  # pretty-printed

    page.locator('[data-action="take 1"]').click()
    expect(status).to_have_text("playing: 1 move made, seat 1 to move")
    after = COINS.play(dealt, "take 1")
    expect(picture).to_have_text(COINS.picture(after))
    expect(page.get_by_test_id("answer-question")).to_be_hidden()  # it was another position's
    assert position(page) == COINS.to_json(after)

    # the paste box holds the position: edited and loaded, it is the game's
    page.get_by_test_id("position").fill(json.dumps({"game": "coins", "coins": 2, "to_move": 1}))
    page.get_by_test_id("load-position").click()
    expect(status).to_have_text("playing: 0 moves made, seat 1 to move")
    page.locator('[data-action="take 2"]').click()
    expect(status).to_have_text("over: seat 1 won")
    expect(page.get_by_test_id("action")).to_have_count(0)
    expect(picture).to_have_text(COINS.picture(Heap(0, 0)))
    assert_clean(tab)


def test_a_game_that_deals_nothing_shows_the_servers_reason_then_a_pasted_position(
        tab, server_url):
    page = tab.page
    refusal = call(server_url, "Deal", {"game": "pebbles", "seed": "1"})
    assert refusal["code"] == "invalid_argument"
    error = page.get_by_test_id("error")
    page.get_by_test_id("game").select_option("pebbles")
    expect(error).to_have_text(refusal["message"])
    expect(page.get_by_test_id("status")).to_have_text("no game loaded")
    expect(page.locator("#paste")).to_have_attribute("open", "")
    assert position(page) == {"game": "pebbles"}  # a start, for the reader to name what's missing

    faults = call(server_url, "Play", {"position": {"json": '{"game": "pebbles"}'}})
    page.get_by_test_id("load-position").click()
    expect(error).to_have_text(faults["message"])

    heap = Heap(7)
    page.get_by_test_id("position").fill(json.dumps(PEBBLES.to_json(heap)))
    page.get_by_test_id("load-position").click()
    expect(error).to_be_hidden()
    expect(page.get_by_test_id("picture")).to_have_text(PEBBLES.picture(heap))
    expect(page.get_by_test_id("action")).to_have_count(0)  # it takes no moves
    page.get_by_test_id("question").filter(has_text="count").click()
    expect(page.get_by_test_id("answer-question")).to_have_text("count: solved")
    assert json.loads(page.get_by_test_id("answer").inner_text()) == answer(PEBBLES, heap,
                                                                            "count")
    assert tab.page_errors == []
    assert all("400" in message for message in tab.console_errors)  # the refusals, nothing else
