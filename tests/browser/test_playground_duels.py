"""The duels as a person plays them in the playground: Fortress Fight Kingdom's cards
with their names, costs and effects from the card table, hints as chances of winning
("wins this turn" when proven), Farbduell on the table and with the players chosen, the
rules one click away, positions pasted without a "game" key, and the page at 360 and
390 px wide with nothing wider than the screen.

Skipped, with the reason in the run's summary, without /usr/bin/chromium or playwright.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.browser.server import ROOT, SKIP_REASON, call

if SKIP_REASON:
    pytest.skip(SKIP_REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from tests.browser.page import assert_clean, status  # noqa: E402

# tests/ffkingdom/puzzles/04-runner-eats-the-shield.json: a Sturmläufer eats the
# shield, the Katapult finishes; pasted as people paste positions, without "game"
FFK_WIN = {"players": [{"Z": 0, "W": 9, "K": 0, "G": 0,
                        "hand": ["sturmlaeufer", "angriff", "katapult", "spaehschlag"]},
                       {"castle": 8, "wall": 0, "shields": 1}]}
# a Turm on a castle of 97: built to 100
FFK_CASTLE = {"players": [{"Z": 5, "castle": 97, "hand": ["turm", "festung"]}, {}]}
# red-skip, blue-skip, blue-7 on red-9: a go-out the chain proves
FARBDUELL_WIN = {"table": "classic", "hands": [["red-skip", "blue-skip", "blue-7"], ["green-1"]],
                 "discard": ["red-9"]}
CHANCE = re.compile(r"^(chance of winning \d{1,3} % \(estimated\)|wins this turn)$")


def card_table(url: str) -> dict:
    with urllib.request.urlopen(f"{url}games/fortress-fight-kingdom/cards.json") as answer:
        table: dict = json.loads(answer.read())
    return table


def start_duel(page, game: str, seed: str = "1") -> None:
    page.get_by_test_id("game").select_option(game)
    page.get_by_test_id("deal").fill(seed)
    page.get_by_test_id("load").click()
    expect(status(page)).to_have_text(re.compile(r"^your turn"))


def paste(page, game: str, position: dict) -> None:
    page.get_by_test_id("game").select_option(game)
    if page.locator("#paste").get_attribute("open") is None:
        page.locator("#paste summary").click()
    page.get_by_test_id("position").fill(json.dumps(position))
    page.get_by_test_id("load-position").click()


# ======================================================================= Fortress Fight Kingdom


def test_each_card_in_hand_shows_its_name_cost_and_effect_from_the_card_table(tab):
    page = tab.page
    start_duel(page, "ffk", "3")
    table = card_table(tab.url)["cards"]
    rules = (ROOT / "solver" / "ffkingdom" / "cards.toml").read_text()
    cards = page.get_by_test_id("hand").get_by_test_id("card")
    expect(cards).to_have_count(9)
    position = json.loads(call(tab.url, "Deal", {"game": "ffk", "seed": 3})["positionJson"])
    hand = position["players"][0]["hand"]
    assert cards.evaluate_all("cs => cs.map(c => c.dataset.card)") == hand
    for card_id, card in zip(hand, cards.all(), strict=True):
        shown = table[card_id]
        assert f'name = "{shown["name"]}"' in rules  # as the rules spell it
        expect(card.get_by_test_id("card-name")).to_have_text(shown["name"])
        expect(card.get_by_test_id("card-effect")).to_have_text(shown["effect"])
        cost = [f"{stock} {amount}" for stock, amount in shown["cost"].items()]
        assert card.get_by_test_id("card-cost").locator(".stock").all_text_contents() == cost
    # the actions name the cards as the rules do; a click on a card plays it
    buttons = page.get_by_test_id("action")
    first = buttons.first
    move = first.get_attribute("data-action")
    card_id = move.split(" ")[1]
    expect(first).to_have_text(f"play {table[card_id]['name']}")
    page.locator(f'[data-play="{move}"]').click()
    expect(page.get_by_test_id("log").locator("li.you")).to_have_text(
        f"you play {table[card_id]['name']}")
    assert_clean(tab)


def test_a_hint_is_a_chance_of_winning_never_a_raw_value(tab):
    page = tab.page
    start_duel(page, "ffk", "1")
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("chance")).to_have_text(CHANCE)
    runners = page.get_by_test_id("runners-up").locator("td.value").all_inner_texts()
    assert runners and all(re.fullmatch(r"\d{1,3} %|wins", text) for text in runners)
    panel = page.locator("#hint-panel").inner_text()
    assert "value" not in panel and "10000" not in panel and not re.search(r"[+-]\d+\.\d", panel)
    assert_clean(tab)


@pytest.mark.parametrize(("game", "position", "line"), [
    pytest.param("ffk", FFK_WIN, "the win: play Sturmläufer, play Katapult", id="ffk"),
    pytest.param("farbduell", FARBDUELL_WIN,
                 "the win: play red-skip, play blue-skip, play blue-7", id="farbduell"),
])
def test_a_proven_win_is_said_so_with_its_line(tab, game, position, line):
    page = tab.page
    paste(page, game, position)
    expect(status(page)).to_have_text(re.compile(r"^your turn"))
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("chance")).to_have_text("wins this turn")
    expect(page.get_by_test_id("plan")).to_have_text(line)
    assert_clean(tab)


def test_ffk_names_its_resources_and_says_why_a_game_was_won(tab):
    page = tab.page
    start_duel(page, "ffk", "3")
    expect(page.get_by_test_id("card").first).to_be_visible()
    # the letters as the rules name them: Z (bricks, *Ziegel*), W (weapons, *Waffen*), ...
    rules = (ROOT / "docs" / "fortress-fight-kingdom.md").read_text()
    names = dict(re.findall(r"([ZWKG]) \((bricks|weapons|crystals|gold)\b", rules))
    assert names == {"Z": "bricks", "W": "weapons", "K": "crystals", "G": "gold"}
    expect(page.get_by_test_id("stock-legend").locator(".stock")).to_have_text(
        [f"{letter} {name}" for letter, name in names.items()])
    # every letter on the page, a stock or a card's cost, has its name as its tooltip
    letters = page.locator(".stock").evaluate_all(
        "ns => ns.map(n => [n.querySelector('b').textContent, n.title])")
    assert len(letters) > 3 * len(names)
    for letter, title in letters:
        assert f"{letter}: {names[letter]}" in title, (letter, title)
    for position, actions, reason in [
            (FFK_WIN, ["play sturmlaeufer", "play katapult"], "the opponent's castle destroyed"),
            (FFK_CASTLE, ["play turm"], "castle built to 100")]:
        paste(page, "ffk", position)
        expect(status(page)).to_have_text(re.compile(r"^your turn"))
        for action in actions:
            page.locator(f'[data-action="{action}"]').click()
        expect(status(page)).to_have_text(f"won: you beat the greedy bot (round 1): {reason}")
        expect(page.locator(".badge.win")).to_have_attribute("title", reason)
    assert_clean(tab)


# The room left of the log's last item for its number ("101. "), in the list's font: the
# list scrolls, so a number wider than its left padding loses its first digits.
NUMBER_ROOM = """(list) => {
  const last = list.lastElementChild;
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = getComputedStyle(last).font;
  const number = pen.measureText(`${list.children.length}. `).width;
  return last.getBoundingClientRect().left - list.getBoundingClientRect().left - number;
}"""


def test_a_long_log_keeps_every_digit_and_names_each_bot_by_its_seat(tab):
    """Farbduell on Tag & Nacht with six seats, the person drawing (and keeping) each
    turn: a hundred entries come in some twenty turns."""
    page = tab.page
    page.get_by_test_id("game").select_option("farbduell")
    page.get_by_test_id("table").select_option("tag_nacht")
    page.get_by_test_id("players").select_option("6")
    entries = page.get_by_test_id("log").locator("li")
    for seed in range(1, 11):  # a guard: seed 1 has 100 entries before anyone goes out
        start_duel(page, "farbduell", str(seed))
        while entries.count() < 100 and not re.match(r"won|lost", status(page).inner_text()):
            made = entries.count()
            drawing = page.locator('[data-action="draw"], [data-action="keep"]')
            (drawing if drawing.count() else page.get_by_test_id("action")).first.click()
            expect(entries).not_to_have_count(made)
        if entries.count() >= 100:
            break
    assert entries.count() >= 100
    assert page.get_by_test_id("log").evaluate(NUMBER_ROOM) >= 0
    bots = page.locator("#log li.bot").evaluate_all(
        "ls => ls.map(l => [l.querySelector('b').textContent, l.title])")
    assert {name for name, _ in bots} <= {f"bot {seat}" for seat in range(1, 6)}
    assert len({name for name, _ in bots}) > 1
    assert all(title == f"seat {name.removeprefix('bot ')}" for name, title in bots)
    expect(page.get_by_test_id("replies")).to_have_text(re.compile(r"^bot [1-5] replied: "))
    assert_clean(tab)


# ============================================================================ Farbduell


@pytest.mark.parametrize(("table", "title", "players"), [("belagerung", "Belagerung", "3"),
                                                         ("tag_nacht", "Tag & Nacht", "6")])
def test_farbduell_is_played_on_the_table_and_with_the_players_chosen(tab, table, title,
                                                                       players):
    page = tab.page
    page.get_by_test_id("game").select_option("farbduell")
    expect(status(page)).to_have_text(re.compile(r"^your turn"))
    expect(page.get_by_test_id("table").locator("option")).to_have_text(
        ["Classic", "Belagerung", "Tag & Nacht"])
    page.get_by_test_id("table").select_option(table)
    page.get_by_test_id("players").select_option(players)
    expect(page.get_by_test_id("opponent-hand")).to_have_count(int(players) - 1)
    expect(page.locator(".fd-table")).to_contain_text(title)
    expect(status(page)).to_have_text("your turn")
    # draw, and keep what was drawn: the bots answer for every other seat until it is
    # this seat's turn again
    log = page.get_by_test_id("log")
    page.locator('[data-action="draw"]').click()
    expect(log.locator("li.you")).to_have_count(1)
    if log.locator("li.bot").count() == 0:
        page.locator('[data-action="keep"]').click()
        expect(log.locator("li.you")).to_have_count(2)
    expect(status(page)).to_have_text(re.compile(r"^(your turn|won|lost)"))
    assert (log.locator("li.bot").count() >= int(players) - 1
            or re.match(r"won|lost", status(page).inner_text()))
    assert_clean(tab)


# ============================================================================ the rules


def headings(markdown: str, level: str) -> list[str]:
    """The headings of a level ("##"), outside code blocks, as the page draws them."""
    found, fenced = [], False
    for line in markdown.splitlines():
        fenced ^= line.startswith("```")
        if not fenced and line.startswith(f"{level} "):
            found.append(re.sub(r"[`*]", "", line.removeprefix(f"{level} ")))
    return found


@pytest.mark.parametrize(("game", "page_name"), [
    ("patience", "beleaguered-fortress.md"), ("ffk", "fortress-fight-kingdom.md"),
    ("farbduell", "farbduell.md"), ("stronghold", "stronghold.md")])
def test_the_rules_of_the_game_on_show_are_one_click_away(tab, game, page_name):
    page = tab.page
    page.get_by_test_id("game").select_option(game)
    rules = page.get_by_test_id("rules")
    expect(rules).to_have_attribute("href", f"rules.html?page={page_name}")
    with page.context.expect_page() as opened:
        rules.click()
    shown = opened.value
    errors: list[str] = []
    shown.on("pageerror", lambda error: errors.append(str(error)))
    markdown = (ROOT / "docs" / page_name).read_text()
    text = shown.get_by_test_id("rules-text")
    expect(text.locator("h1")).to_have_text(headings(markdown, "#"))
    expect(text.locator("h2")).to_have_text(headings(markdown, "##"))
    assert text.locator("table").count() and text.locator("li").count()
    source = shown.get_by_test_id("source").get_attribute("href")
    assert source == f"/docs/{page_name}"
    assert shown.request.get(tab.url + source.lstrip("/")).text() == markdown
    assert errors == []
    assert_clean(tab)


def test_a_family_variant_links_the_familys_rules(tab):
    page = tab.page
    page.get_by_test_id("variant").select_option("bastion")
    expect(status(page)).to_have_text("playing: 0 moves made")
    expect(page.get_by_test_id("rules")).to_have_attribute(
        "href", "rules.html?page=castle-family.md#bastion")  # at its own section


# ============================================================================ pasting


def test_a_position_without_a_game_key_is_the_selected_games(tab):
    page = tab.page
    dealt = json.loads(call(tab.url, "Deal", {"game": "patience",
                                              "seed": 5})["positionJson"])
    dealt.pop("game", None)
    paste(page, "patience", dealt)
    expect(status(page)).to_have_text("playing: 0 moves made")
    expect(page.get_by_test_id("error")).to_be_hidden()
    top = dealt["tableau"][0][-1]
    expect(page.locator(f'[data-card="{top}"]')).to_be_visible()
    # a game's own dialect (Stronghold's: comments and trailing commas) without the key
    page.get_by_test_id("game").select_option("stronghold")
    expect(page.get_by_test_id("grid")).to_be_visible()
    example = page.get_by_test_id("position").input_value()
    assert example.startswith('{"game": "stronghold", ') and "//" in example
    page.get_by_test_id("position").fill("// no game key\n" + example.replace(
        '"game": "stronghold", ', "", 1).replace('"defender_score": 0}', '"defender_score": 0,}'))
    page.get_by_test_id("load-position").click()
    expect(status(page)).to_have_text("turn 2: A1 to move; defender score 0/6")
    expect(page.get_by_test_id("error")).to_be_hidden()
    # a game named in the text still wins over the selector
    paste(page, "patience", {"game": "farbduell", **FARBDUELL_WIN})
    expect(page.get_by_test_id("game")).to_have_value("farbduell")
    assert_clean(tab)


# ============================================================================ narrow screens


OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const clipped = (node) => {
    for (let up = node.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (["auto", "scroll", "hidden"].includes(style.overflowX)) return true;
    }
    return false;
  };
  const wide = [...document.querySelectorAll("body *")].filter((node) => {
    const box = node.getBoundingClientRect();
    return box.width > 0 && (box.right > width + 0.5 || box.left < -0.5) && !clipped(node);
  });
  return {scroll: document.documentElement.scrollWidth - width,
          wide: wide.slice(0, 5).map((node) => node.outerHTML.slice(0, 120))};
}"""


def fits(page) -> None:
    found = page.evaluate(OVERFLOWING)
    assert found == {"scroll": 0, "wide": []}


@pytest.mark.parametrize("width", [360, 390])
def test_every_game_fits_a_narrow_screen(tab, width):
    page = tab.page
    page.set_viewport_size({"width": width, "height": 800})
    fits(page)  # Beleaguered Fortress, deal 2
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-move")).not_to_be_empty()
    page.locator("[data-card].hinted").click()
    fits(page)
    start_duel(page, "ffk", "3")
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("chance")).to_be_visible()
    page.locator("details.more summary").click()
    fits(page)
    page.get_by_test_id("game").select_option("farbduell")
    page.get_by_test_id("table").select_option("tag_nacht")
    page.get_by_test_id("players").select_option("6")
    expect(page.get_by_test_id("opponent-hand")).to_have_count(5)
    fits(page)
    page.get_by_test_id("game").select_option("stronghold")
    expect(page.get_by_test_id("grid")).to_be_visible()
    fits(page)
    page.goto(f"{tab.url}rules.html?page=fortress-fight-kingdom.md")  # tables and code
    expect(page.get_by_test_id("rules-text").locator("table").first).to_be_visible()
    fits(page)
    assert_clean(tab)
