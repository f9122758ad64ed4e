"""The playground's Beleaguered Fortress board for the family's variants, in headless
Chromium against a real server: the variant selector lists the server's variants and
deals one, whose board has as many piles as it has (ten fit, and eight cells at 360 px),
its free cells with their cards and no reserve where it has none; a hint is played to
and from the cells by clicks; a pasted position with a "variant" key is drawn as that
variant; an answer not proven optimal reads "wins in at most N (at least M)"; and hints
are asked with no budget, a longer search offered for a hint not proven.

The expected layouts and hints come from the library (solver.beleaguered).
Skipped, with the reason in the run's summary, without /usr/bin/chromium or playwright.
"""

from __future__ import annotations

import json
import re

import pytest

from solver.beleaguered.deals import deal
from solver.beleaguered.game import moves, play
from solver.beleaguered.solve import hint
from solver.beleaguered.variant import find_variant, variants
from solver.budget import Budget
from tests.browser.server import SKIP_REASON, call

if SKIP_REASON:
    pytest.skip(SKIP_REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from tests.browser.page import assert_clean, card, click_card, deal_variant, status  # noqa: E402

BASTION_DEAL = 4  # its hint plays a card from a free cell to the foundations
CASTLE_DEAL = 2


def test_the_variant_selector_lists_the_family(tab, server_url):
    """The server's variants (GetServerInfo), in its order: the library's, FreeCell's
    family among them."""
    page = tab.page
    expect(page.get_by_test_id("variant")).to_be_visible()
    expect(page.get_by_test_id("variant")).to_have_value("beleaguered-fortress")
    games = call(server_url, "GetServerInfo", {})["games"]
    served = next(game for game in games if game["name"] == "patience")["variants"]
    options = page.get_by_test_id("variant").locator("option")
    names = options.evaluate_all("os => os.map(o => o.value)")
    assert names == [variant["name"] for variant in served]
    assert options.all_inner_texts() == [variant["title"] for variant in served]
    assert names == [variant.name for variant in variants()]
    assert {"freecell", "bakers-game", "eight-off", "seahaven-towers", "forecell"} <= set(names)
    # Beleaguered Fortress's own board: eight piles, the reserve, no free cells
    expect(page.locator(".tableau .pile")).to_have_count(8)
    expect(page.locator(".tableau")).to_have_class("tableau")
    expect(page.locator(".reserve [data-card]")).to_have_count(12)
    expect(page.get_by_test_id("cells")).to_have_count(0)
    page.get_by_test_id("game").select_option("stronghold")
    expect(page.get_by_test_id("variant")).to_be_hidden()
    assert_clean(tab)


def test_a_bastion_deal_shows_its_cells_and_plays_its_hint(tab):
    page = tab.page
    position = deal(BASTION_DEAL, find_variant("bastion"))
    expected = hint(position, Budget(seconds=10))
    assert expected.move is not None and expected.move.source.kind == "cell"
    deal_variant(page, "bastion", BASTION_DEAL)

    board = page.locator("#board")
    piles = page.locator(".tableau .pile")
    expect(piles).to_have_count(10)
    expect(page.locator(".tableau [data-card]")).to_have_count(50)
    expect(page.locator(".reserve")).to_have_count(0)
    cells = page.get_by_test_id("cells")
    expect(cells).to_be_visible()
    expect(cells.locator(".cell")).to_have_count(2)
    expect(cells.locator("[data-card]")).to_have_count(2)
    for k, held in enumerate(position.cells):
        expect(card(page, str(held))).to_have_attribute("data-place", f"cell:{k}")
    for i, pile in enumerate(position.tableau):
        expect(card(page, str(pile[-1]))).to_have_attribute("data-place", f"tableau:{i}")
    # ten piles fit on the board, beside the side panel
    right = board.bounding_box()
    last = piles.nth(9).bounding_box()
    assert right is not None and last is not None
    assert last["x"] + last["width"] <= right["x"] + right["width"]

    page.get_by_test_id("hint").click()
    move = expected.move
    shown = f"{move.card} {move.source} → {move.target}"
    expect(page.get_by_test_id("hint-move")).to_have_text(shown)
    expect(page.get_by_test_id("moves-left")).to_have_text(str(expected.moves_left))
    expect(page.get_by_test_id("bound")).to_be_hidden()
    expect(card(page, str(move.card))).to_have_class(re.compile(r"\bhinted\b"))
    target = page.locator(".hint-target")
    expect(target).to_have_count(1)
    click_card(page, str(move.card))
    target.click()
    expect(status(page)).to_have_text("playing: 1 move made")
    expect(card(page, str(move.card))).to_have_attribute("data-place", str(move.target))
    expect(cells.locator("[data-card]")).to_have_count(1)

    # a tableau card into the empty cell, by clicks: the cell is its target
    after = play(position, str(move))
    into = next(text for text in moves(after)
                if text.split()[1].startswith("tableau:") and text.endswith(str(move.source)))
    name, _, cell = into.split()
    click_card(page, name)
    expect(page.locator(f'[data-target="{cell}"]')).to_have_class(
        re.compile(r"\blegal-target\b"))
    page.locator(f'[data-target="{cell}"]').click()
    expect(status(page)).to_have_text("playing: 2 moves made")
    expect(card(page, name)).to_have_attribute("data-place", cell)
    expect(cells.locator("[data-card]")).to_have_count(2)
    assert_clean(tab)


def test_a_beleaguered_castle_deal_has_eight_piles_aces_home_and_no_reserve(tab):
    page = tab.page
    position = deal(CASTLE_DEAL, find_variant("beleaguered-castle"))
    deal_variant(page, "beleaguered-castle", CASTLE_DEAL)
    expect(page.locator(".tableau .pile")).to_have_count(8)
    expect(page.locator(".tableau [data-card]")).to_have_count(48)
    expect(page.locator(".foundations [data-card]")).to_have_count(4)
    for suit in "CDHS":
        expect(card(page, f"A{suit}")).to_have_attribute("data-place", "foundation")
    expect(page.locator(".reserve")).to_have_count(0)
    expect(page.get_by_test_id("cells")).to_have_count(0)
    for i, pile in enumerate(position.tableau):
        expect(card(page, str(pile[0]))).to_have_attribute("data-place", f"tableau:{i}")
    # back to Beleaguered Fortress: its own deal, reserve and all
    page.get_by_test_id("variant").select_option("beleaguered-fortress")
    expect(page.locator(".reserve [data-card]")).to_have_count(12)
    expect(page.locator(".foundations [data-card]")).to_have_count(0)
    assert_clean(tab)


def test_a_pasted_position_is_drawn_as_its_variant(tab):
    page = tab.page
    position = deal(3, find_variant("fortress")).to_json()
    page.locator("#paste summary").click()
    page.get_by_test_id("position").fill(json.dumps(position))
    page.get_by_test_id("load-position").click()
    expect(page.get_by_test_id("variant")).to_have_value("fortress")
    expect(page.locator(".tableau .pile")).to_have_count(10)
    expect(page.locator(".tableau [data-card]")).to_have_count(52)
    expect(page.locator(".reserve")).to_have_count(0)
    expect(page.get_by_test_id("cells")).to_have_count(0)
    expect(card(page, position["tableau"][9][-1])).to_have_attribute("data-place", "tableau:9")
    assert_clean(tab)


def unproven(route) -> None:
    """The server's answer, told as if the budget had run out before the proof."""
    response = route.fetch()
    body = response.json()
    if "movesLeft" in body:
        body |= {"optimal": False, "atLeast": body["movesLeft"] - 6}
    if "length" in body:
        body |= {"optimal": False, "lowerBound": body["length"] - 6}
    route.fulfill(response=response, json=body)


def test_an_answer_not_proven_optimal_reads_wins_in_at_most(tab):
    """The server's answers for deal 2, told as if the budget had run out before the
    proof: the page says what they then say, "wins in at most N (at least M)"."""
    page = tab.page
    page.route(re.compile(r"\.Solver/(Hint|Solve)$"), unproven)
    page.get_by_test_id("hint").click()
    bound = page.get_by_test_id("bound")
    expect(bound).to_have_text(re.compile(r"^wins in at most \d+ moves \(at least \d+\)$"))
    most, least = map(int, re.findall(r"\d+", bound.inner_text()))
    assert most - least == 6
    expect(page.get_by_test_id("moves-left")).to_be_hidden()
    page.get_by_test_id("solve").click()
    expect(page.get_by_test_id("solution")).to_have_text(
        f"a solution: wins in at most {most} moves (at least {least}), 0 played")
    assert_clean(tab)


def test_hints_ask_no_budget_and_search_longer_asks_for_the_proof(tab):
    """The hint and the grading of the targets are asked with no budget (the server's
    default second); a hint not proven shortest offers to search longer, which asks again
    with the page's budget: deal 2's then proven, the offer gone."""
    page = tab.page
    sent: list[dict] = []
    page.on("request", lambda request: sent.append(request.post_data_json)
            if request.url.endswith(".Solver/Hint") else None)
    page.route(re.compile(r"\.Solver/Hint$"), unproven)
    page.get_by_test_id("hint").click()
    longer = page.get_by_test_id("hint-longer")
    expect(longer).to_have_text("Search 10 s")
    expect(page.get_by_test_id("bound")).to_be_visible()
    click_card(page, "AS")  # its targets graded
    expect(page.get_by_test_id("target-grade").first).to_be_visible()
    assert len(sent) >= 2 and any("beleaguered" in body for body in sent)
    assert all("budget" not in body for body in sent)

    page.unroute(re.compile(r"\.Solver/Hint$"))
    page.keyboard.press("Escape")
    longer.click()
    expect(page.get_by_test_id("moves-left")).to_have_text(str(hint(deal(CASTLE_DEAL)).moves_left))
    expect(page.get_by_test_id("bound")).to_be_hidden()
    expect(longer).to_have_count(0)
    asked = [body for body in sent if "budget" in body]
    assert asked == [{"position": asked[0]["position"], "budget": {"seconds": 10}}]
    assert_clean(tab)


# Whether the page is as wide as the screen, and the nodes of `selector` that reach past
# its edges: the board scrolls sideways, so a node cut off there widens no page.
OUTSIDE = """(selector) => {
  const width = document.documentElement.clientWidth;
  const out = [...document.querySelectorAll(selector)].filter((node) => {
    const box = node.getBoundingClientRect();
    return box.left < 0 || box.right > width;
  });
  return {scroll: document.documentElement.scrollWidth - width,
          out: out.slice(0, 3).map((node) => node.outerHTML.slice(0, 80))};
}"""


def test_ten_piles_eight_cells_and_the_stronghold_grid_fit_360_px(tab):
    page = tab.page
    page.set_viewport_size({"width": 360, "height": 800})
    ten = [variant.name for variant in variants() if len(variant.piles) == 10]
    assert ten == ["fortress", "bastion", "seahaven-towers"]
    most_cells = max(variants(), key=lambda variant: variant.cells)
    assert (most_cells.name, most_cells.cells) == ("eight-off", 8)
    for name in [*ten, most_cells.name]:
        deal_variant(page, name, 3)
        expect(page.locator(".tableau .pile")).to_have_count(len(find_variant(name).piles))
        assert page.evaluate(OUTSIDE, ".tableau .pile, .tableau [data-card], .cells .cell") == {
            "scroll": 0, "out": []}, name
    page.get_by_test_id("game").select_option("stronghold")
    expect(page.get_by_test_id("grid").locator("td")).to_have_count(9)
    assert page.evaluate(OUTSIDE, "[data-testid=grid], [data-testid=grid] td") == {
        "scroll": 0, "out": []}
    assert_clean(tab)
