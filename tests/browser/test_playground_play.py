"""The playground as a FreeCell player expects it, in headless Chromium against a real
server, in a browser new to the page (auto-play on): a FreeCell deal opened from a link,
the safe cards going home on their own after a move by hand (the solver's own rule: the
server's `safe_moves`), the move undone with Ctrl+Z and made again with Ctrl+Y, the
address holding the moves, a reload bringing the position back, auto-play's switch
remembered; a bad move in the address refused in one line with the moves before it kept;
an almost-won deal opened from its address, finished, and kept as won; every variant's
Rules link opening its family's page at its section; a hinted run with its cards and
their number; the labels on the board at WCAG AA contrast, computed from the page's
styles.

The positions, moves and safe moves expected come from the library (solver.beleaguered).
Skipped, with the reason in the run's summary, without /usr/bin/chromium or playwright.
"""

from __future__ import annotations

import re
import urllib.parse
import urllib.request
from functools import cache

import pytest

from solver.beleaguered import Move, Position, apply, deal, hint, legal_moves, solve
from solver.beleaguered.problem import safe_moves
from solver.beleaguered.variant import SequenceMoves, find_variant, variants
from solver.budget import Budget
from tests.browser.server import ROOT, SKIP_REASON

if SKIP_REASON:
    pytest.skip(SKIP_REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from tests.browser.page import BOARD, assert_clean, card, click_card, paste, status  # noqa: E402

DEAL = 2  # FreeCell deal 2: AS goes home as dealt; 3H or 5S to a cell frees another ace
AA = 4.5  # WCAG 2 AA: the contrast ratio of normal text against its background


def token(move: Move, auto: bool = False) -> str:
    """A move as the address writes it: its card, then where it goes (a pile's number,
    c and a cell's number, f the foundations), or * for a move home by auto-play."""
    if auto:
        return f"{move.card}*"
    target = move.target
    where = {"foundation": "f", "cell": f"c{target.index}"}.get(target.kind, str(target.index))
    return f"{move.card}{where}"


def played(position: Position, moves: list[Move]) -> Position:
    for move in moves:
        position = apply(position, move)
    return position


def address_moves(page) -> str | None:
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query)
    return query["moves"][0] if "moves" in query else None


def board_of(position: Position) -> dict:
    data = position.to_json()
    return {key: data[key] for key in ("tableau", "cells", "foundations")}


def to_cell(position: Position) -> Move:
    """The first move of a pile's top card to a free cell after which a card is safe
    to send home."""
    return next(move for move in legal_moves(position)
                if move.target.kind == "cell" and move.source.kind == "tableau"
                and safe_moves(apply(position, move)))


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, answer.read()


def test_a_freecell_deal_from_a_link_plays_undoes_redoes_and_reloads(player, server_url):
    page = player.page
    dealt = deal(DEAL, find_variant("freecell"))
    opening = safe_moves(dealt)
    assert opening  # what auto-play sends home as the deal comes
    start = played(dealt, opening)
    first = to_cell(start)
    follow = safe_moves(apply(start, first))
    after = played(apply(start, first), follow)
    made = len(opening) + 1 + len(follow)
    automatic = len(opening) + len(follow)
    line = ".".join([*(token(m, True) for m in opening), token(first),
                     *(token(m, True) for m in follow)])

    page.goto(f"{server_url}?variant=freecell&deal={DEAL}")
    expect(page.get_by_test_id("autoplay")).to_be_checked()  # on in a new browser
    expect(status(page)).to_have_text(
        f"playing: {len(opening)} move made ({len(opening)} automatic)")
    click_card(page, str(first.card))
    page.locator(f'[data-target="{first.target}"]').click()
    expect(status(page)).to_have_text(f"playing: {made} moves made ({automatic} automatic)")
    for move in follow:
        expect(card(page, str(move.card))).to_have_attribute("data-place", "foundation")
    assert page.evaluate(BOARD) == board_of(after)
    assert address_moves(page) == line

    page.keyboard.press("Control+z")  # the move and the cards it sent home, back
    expect(status(page)).to_have_text(
        f"playing: {len(opening)} move made ({len(opening)} automatic)")
    assert page.evaluate(BOARD) == board_of(start)
    assert address_moves(page) == ".".join(token(m, True) for m in opening)
    page.keyboard.press("Control+y")
    expect(status(page)).to_have_text(f"playing: {made} moves made ({automatic} automatic)")
    assert page.evaluate(BOARD) == board_of(after)
    page.get_by_test_id("deal").focus()  # typing: the field's own undo, not a move's
    page.keyboard.press("Control+z")
    page.keyboard.press("Meta+z")
    expect(status(page)).to_have_text(f"playing: {made} moves made ({automatic} automatic)")

    page.reload()
    expect(status(page)).to_have_text(f"playing: {made} moves made ({automatic} automatic)")
    assert page.evaluate(BOARD) == board_of(after)
    assert address_moves(page) == line
    page.keyboard.press("Meta+z")  # a Mac's undo: back past the move after the reload too
    expect(status(page)).to_have_text(
        f"playing: {len(opening)} move made ({len(opening)} automatic)")
    page.keyboard.press("Meta+Shift+z")
    expect(status(page)).to_have_text(f"playing: {made} moves made ({automatic} automatic)")

    # switched off, and remembered: a move by hand leaves the safe cards where they are
    page.get_by_test_id("autoplay").uncheck()
    page.reload()
    expect(status(page)).to_have_text(f"playing: {made} moves made ({automatic} automatic)")
    expect(page.get_by_test_id("autoplay")).not_to_be_checked()
    second = to_cell(after)
    click_card(page, str(second.card))
    page.locator(f'[data-target="{second.target}"]').click()
    expect(status(page)).to_have_text(
        f"playing: {made + 1} moves made ({automatic} automatic)")
    waiting = safe_moves(apply(after, second))
    assert page.evaluate(BOARD) == board_of(apply(after, second))
    page.get_by_test_id("autoplay").check()  # switched on: they go at once
    expect(status(page)).to_have_text(
        f"playing: {made + 1 + len(waiting)} moves made ({automatic + len(waiting)} automatic)")
    assert page.evaluate(BOARD) == board_of(played(apply(after, second), waiting))

    # the Rules link: the FreeCell family's page, at FreeCell's section
    status_code, body = get(f"{server_url}docs/freecell-family.md")
    assert status_code == 200 and body == (ROOT / "docs" / "freecell-family.md").read_bytes()
    with page.expect_popup() as opened:
        page.get_by_test_id("rules").click()
    rules = opened.value
    expect(rules.locator("h1")).to_have_text("The FreeCell family")
    assert rules.url.endswith("rules.html?page=freecell-family.md#freecell")
    expect(rules.locator("#freecell")).to_have_text("FreeCell")
    assert_clean(player)


def test_a_bad_move_in_the_address_is_refused_and_the_moves_before_it_kept(player,
                                                                           server_url):
    page = player.page
    dealt = deal(DEAL, find_variant("freecell"))
    start = played(dealt, safe_moves(dealt))
    first = to_cell(start)
    kept = [*(token(m, True) for m in safe_moves(dealt)), token(first)]
    illegal = f"{start.tableau[3][-1]}0"  # no pile's top takes a card of its own pile
    page.goto(f"{server_url}?variant=freecell&deal={DEAL}&moves={'.'.join(kept)}.{illegal}.AHf")
    expect(page.get_by_test_id("error")).to_have_text(re.compile(
        rf'^the address\'s move {len(kept) + 1} of {len(kept) + 2}, "{illegal}", is refused: '))
    assert "\n" not in page.get_by_test_id("error").inner_text()
    expect(status(page)).to_have_text(re.compile(rf"^playing: {len(kept)} moves made"))
    assert page.evaluate(BOARD) == board_of(apply(start, first))
    assert address_moves(page) == ".".join(kept)  # the address holds what is on show

    page.goto(f"{server_url}?variant=freecell&deal={DEAL}&moves=AS*.3H")
    expect(page.get_by_test_id("error")).to_have_text(
        'the address\'s move 2 of 2, "3H", is not a move: write a card and where it goes, '
        "as 7H2 (a pile), QSc0 (a free cell), AHf (the foundations) or AH* (home by "
        "auto-play)")
    expect(status(page)).to_have_text("playing: 1 move made (1 automatic)")
    assert all("400" in message for message in player.console_errors)
    assert player.page_errors == []


@cache
def almost_won() -> tuple[list[Move], Move, list[Move]]:
    """FreeCell deal DEAL's optimal line up to its last move after which auto-play wins:
    the moves before it, that move, and the safe moves that then win."""
    position = deal(DEAL, find_variant("freecell"))
    line = solve(position, budget=Budget(seconds=30)).moves
    assert line is not None
    for k in range(len(line) - 1, -1, -1):
        before = played(position, line[:k])
        after = apply(before, line[k])
        if line[k].target.kind != "foundation" and played(after, safe_moves(after)).is_won:
            return line[:k], line[k], safe_moves(after)
    raise AssertionError("auto-play finishes no position of the line")


def test_an_almost_won_deal_from_its_address_is_finished_and_kept_as_won(player, server_url):
    page = player.page
    before, last, home = almost_won()
    assert len(home) >= 8
    moves = ".".join(token(move) for move in before)
    page.goto(f"{server_url}?variant=freecell&deal={DEAL}&moves={moves}")
    expect(status(page)).to_have_text(f"playing: {len(before)} moves made")
    expect(page.get_by_test_id("won")).to_be_hidden()
    click_card(page, str(last.card))
    page.locator(f'[data-target="{last.target}"]').click()
    total = len(before) + 1 + len(home)
    expect(status(page)).to_have_text(f"won in {total} moves ({len(home)} automatic)")
    expect(page.get_by_test_id("won")).to_have_text(f"won: deal {DEAL} (1)")

    # kept in the browser: another deal, and this variant's record still shows
    page.get_by_test_id("deal").fill("5")
    page.get_by_test_id("load").click()
    expect(status(page)).to_have_text(re.compile(r"^playing: "))
    expect(page.get_by_test_id("won")).to_have_text(f"won: deal {DEAL} (1)")
    page.get_by_test_id("variant").select_option("bakers-game")
    expect(page.get_by_test_id("variant")).to_have_value("bakers-game")
    expect(page.get_by_test_id("won")).to_be_hidden()  # none of Baker's Game yet
    page.goto(f"{server_url}?variant=freecell&deal=5")
    expect(page.get_by_test_id("won")).to_have_text(f"won: deal {DEAL} (1)")
    assert_clean(player)


def test_every_variants_rules_link_opens_its_familys_page_at_its_section(player, server_url):
    page = player.page
    page.goto(f"{server_url}?variant=beleaguered-fortress&deal=1")
    expect(status(page)).to_have_text(re.compile("^playing: "))
    served = page.get_by_test_id("variant").locator("option").evaluate_all(
        "options => options.map((option) => option.value)")
    assert len(served) >= 11
    for variant in (variant for variant in variants() if variant.name in served):
        page.get_by_test_id("variant").select_option(variant.name)
        expect(page).to_have_url(re.compile(rf"variant={variant.name}&"))
        href = page.get_by_test_id("rules").get_attribute("href") or ""
        family = ("beleaguered-fortress.md" if variant.name == "beleaguered-fortress"
                  else "freecell-family.md"
                  if variant.sequence_moves is not SequenceMoves.NONE else "castle-family.md")
        anchor = "" if variant.name == "beleaguered-fortress" else f"#{variant.name}"
        assert href == f"rules.html?page={family}{anchor}", variant.name
        status_code, body = get(f"{server_url}docs/{family}")
        assert status_code == 200
        if anchor:  # its section's heading, as rules.js anchors it
            titles = re.findall(r"^#+ (.*)$", body.decode(), re.MULTILINE)
            assert variant.title in titles, variant.name
    assert_clean(player)


def test_a_hinted_run_shows_its_cards_and_how_many(player, server_url):
    """The hint names the run it moves and how many cards, from the `cards` the server
    sends with the move."""
    page = player.page
    position = deal(DEAL, find_variant("freecell"))
    line = solve(position, budget=Budget(seconds=30)).moves
    assert line is not None
    for move in line:
        advice = hint(position, Budget(seconds=10))
        if advice.move is not None and run_of(position, advice.move) >= 3:
            break
        position = apply(position, move)
    else:
        raise AssertionError("no hint of a run of three along the line")
    page.goto(f"{server_url}?variant=freecell&deal={DEAL}")
    expect(status(page)).to_have_text(re.compile("^playing: "))
    paste(page, position)
    with page.expect_response(lambda r: r.url.endswith("/Hint")
                              and "allMoves" not in (r.request.post_data or "")) as hinted:
        page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("moves-left")).to_have_text(str(advice.moves_left))
    sent = hinted.value.json()["move"]
    move = Move.from_json(sent)
    run = run_of(position, move)
    assert run >= 2 and sent["cards"] == run  # a run, as the library's hint is, counted
    pile = [str(c) for c in position.tableau[move.source.index or 0]]
    expect(page.get_by_test_id("hint-move")).to_have_text(
        f"{move.card} {move.source} → {move.target} ({run} cards: {' '.join(pile[-run:])})")
    expect(page.locator(".card.hinted")).to_have_count(run)
    assert_clean(player)


def run_of(position: Position, move: Move) -> int:
    """How many cards a move carries: its card and those on it."""
    if move.source.kind != "tableau" or move.source.index is None:
        return 1
    pile = position.tableau[move.source.index]
    return len(pile) - pile.index(move.card)


# The text of each label on the board, its colour, its opacity and that of the elements
# around it, and the background of each element from it out to the page's root.
LABELS = """(selector) => [...document.querySelectorAll(selector)].map((node) => {
  const layers = [];
  let opacity = 1;
  for (let at = node; at; at = at.parentElement) {
    const style = getComputedStyle(at);
    opacity *= Number(style.opacity);
    layers.push({color: style.backgroundColor, image: style.backgroundImage});
  }
  return {text: node.textContent, color: getComputedStyle(node).color, opacity, layers};
})"""

LABELLED = [".tableau .pile > .label", ".cells .slot", ".reserve .slot", ".foundations .slot",
            ".tableau .slot", ".bf-top h3", ".legend"]


def rgba(css: str) -> tuple[float, float, float, float]:
    parts = [float(part) for part in re.findall(r"[\d.]+", css)]
    assert css.startswith("rgb") and len(parts) in (3, 4), css
    return (parts[0], parts[1], parts[2], parts[3] if len(parts) == 4 else 1.0)


def over(top: tuple[float, float, float, float], below: tuple[float, float, float]
         ) -> tuple[float, float, float]:
    alpha = top[3]
    return tuple(alpha * t + (1 - alpha) * b for t, b in zip(top[:3], below, strict=True))  # type: ignore[return-value]


def luminance(rgb: tuple[float, float, float]) -> float:
    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(label: dict) -> float:
    """WCAG 2's contrast ratio of a label's text against what is behind it: the
    backgrounds from the page (white under all) in, the text's colour over them."""
    behind = (255.0, 255.0, 255.0)
    for layer in reversed(label["layers"]):
        assert layer["image"] == "none", label  # a plain colour, which the ratio is of
        behind = over(rgba(layer["color"]), behind)
    colour = rgba(label["color"])
    text = over((*colour[:3], colour[3] * label["opacity"]), behind)
    lighter, darker = sorted((luminance(text), luminance(behind)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("variant", ["freecell", "beleaguered-fortress"])
def test_the_cell_and_pile_labels_are_readable_at_wcag_aa(player, server_url, variant):
    page = player.page
    page.goto(f"{server_url}?variant={variant}&deal={DEAL}")  # auto-play empties slots
    expect(status(page)).to_have_text(re.compile("^playing: [1-9]"))
    labels = [label for selector in LABELLED for label in page.evaluate(LABELS, selector)]
    shown = {label["text"] for label in labels}
    assert {str(i) for i in range(8)} <= shown  # the piles' numbers
    if variant == "freecell":
        assert {"cell 0", "cell 3", "♣", "♥"} <= shown
    else:
        assert {"8", "♣"} <= shown  # an emptied reserve slot, a foundation not started
    low = {label["text"]: round(contrast(label), 2) for label in labels
           if contrast(label) < AA}
    assert low == {}
