"""The playground page (service/playground/) in headless Chromium against a real server:
it loads cleanly, its game selector lists the server's games, its hints are the command
line's, a selected card's targets are coloured by the command line's grading of their
moves, Solve / Next / Previous / Play walk deal 2's optimal line to the win, a refused
move shows the server's reason, the duels answer through it, and Stronghold positions
are drawn and checked by the server on load.

Skipped, with the reason in the run's summary, without /usr/bin/chromium or playwright.
"""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.browser.server import ROOT, SKIP_REASON, call, command

if SKIP_REASON:
    pytest.skip(SKIP_REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from tests.browser.page import assert_clean, card, click_card, status  # noqa: E402

DEAL_2_LENGTH = 66  # the optimal solution's moves (docs, `fortress-solver solve --deal 2`)
# the games the page has boards of its own for, under these names in the selector
LABELS = {"patience": "Patience",
          "fortress-fight-kingdom": "Fortress Fight Kingdom", "farbduell": "Farbduell",
          "stronghold": "Stronghold"}


def run_cli(*args: str, stdin: str | None = None,
            check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([command(), *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=120, check=check)


def cli(*args: str, stdin: str | None = None) -> dict:
    return json.loads(run_cli(*args, stdin=stdin).stdout)


@pytest.fixture(scope="module")
def cli_hint() -> dict:
    return cli("hint", "--deal", "2", "--json")


def click_pile(page, index: int) -> None:
    page.locator(f'[data-target="tableau:{index}"] .label').click()


# ============================================================================ loading


def test_page_loads_without_console_errors(tab):
    page = tab.page
    expect(page).to_have_title("fortress-solver playground")
    expect(status(page)).to_have_text("playing: 0 moves made")
    expect(page.locator(".tableau [data-card]")).to_have_count(40)
    expect(page.locator(".reserve [data-card]")).to_have_count(12)
    expect(card(page, "AH")).to_contain_text("A♥")
    expect(card(page, "AH")).to_have_class(re.compile(r"\bred\b"))
    expect(card(page, "TC")).to_contain_text("10♣")
    expect(card(page, "TC")).to_have_class(re.compile(r"\bblack\b"))
    expect(page.get_by_test_id("error")).to_be_hidden()
    page.wait_for_timeout(300)  # anything the page does after loading
    assert_clean(tab)


def test_the_selector_lists_every_game_the_server_serves(tab, server_url):
    """The page asks GetServerInfo for the games: each one it returns, in its order."""
    games = [game["name"] for game in call(server_url, "GetServerInfo", {})["games"]]
    assert set(LABELS) <= set(games)
    options = tab.page.get_by_test_id("game").locator("option")
    expect(options).to_have_count(len(games))
    values = [{"fortress-fight-kingdom": "ffk"}.get(name, name) for name in games]
    assert options.evaluate_all("os => os.map(o => o.value)") == values  # "ffk" as it was
    assert options.all_inner_texts() == [LABELS.get(name, name) for name in games]
    expect(tab.page.get_by_test_id("game")).to_have_value(games[0])
    assert_clean(tab)


# ============================================================================ Beleaguered Fortress


def test_hint_for_deal_2_is_the_command_lines(tab, cli_hint):
    page = tab.page
    page.get_by_test_id("hint").click()
    move, moves_left = cli_hint["move"], cli_hint["moves_left"]
    expect(page.get_by_test_id("moves-left")).to_have_text(str(moves_left))
    shown = page.get_by_test_id("hint-move").inner_text()
    assert shown.split()[0] == move["card"]
    assert move["from"] in shown and move["to"] in shown
    expect(page.get_by_test_id("winnable")).to_have_text("winnable")
    expect(card(page, move["card"])).to_have_class(re.compile(r"\bhinted\b"))
    if move["to"] == "foundation":
        target = page.locator(f'.home[data-suit="{move["card"][1]}"]')
    else:
        target = page.locator(f'[data-target="{move["to"]}"]')
    expect(target).to_have_class(re.compile(r"\bhint-target\b"))
    assert_clean(tab)


def test_a_move_made_while_a_hint_is_on_its_way_is_played_once_it_has_come(tab, cli_hint):
    """The page asks one thing at a time: a move made while a call runs waits for it and
    is then played, not dropped. The Hint is held back here until the move is made (the
    grading of the card's moves, a Hint too, goes through)."""
    page = tab.page
    held = []

    def hold(route) -> None:
        if "allMoves" in (route.request.post_data or ""):
            route.continue_()
        else:
            held.append(route)

    page.route("**/fortress.solver.v1.Solver/Hint", hold)
    expect(page.get_by_test_id("hint")).to_be_enabled()
    page.get_by_test_id("hint").click()
    expect(page.locator("body")).to_have_class(re.compile(r"\bbusy\b"))
    move = cli_hint["move"]
    assert move["to"] == "foundation"
    click_card(page, move["card"])
    page.locator('[data-target="foundation"]').click()
    page.wait_for_timeout(300)  # time enough for a move that was not waiting to be played
    expect(status(page)).to_have_text("playing: 0 moves made")
    assert len(held) == 1
    held[0].continue_()
    expect(status(page)).to_have_text("playing: 1 move made")
    expect(card(page, move["card"])).to_have_attribute("data-place", "foundation")
    assert_clean(tab)


def test_solve_then_next_to_the_win_previous_and_play(tab, cli_hint):
    page = tab.page
    assert cli_hint["moves_left"] == DEAL_2_LENGTH
    expect(page.get_by_test_id("next")).to_be_disabled()
    page.get_by_test_id("solve").click()
    expect(page.get_by_test_id("solution")).to_contain_text(f"{DEAL_2_LENGTH} moves")
    for made in range(1, DEAL_2_LENGTH + 1):
        page.get_by_test_id("next").click()  # waits until the last move's answer enabled it
        if made in (1, DEAL_2_LENGTH - 1):
            expect(status(page)).to_have_text(f"playing: {made} move{'s' * (made > 1)} made")
    expect(status(page)).to_have_text(f"won in {DEAL_2_LENGTH} moves")
    expect(page.get_by_test_id("next")).to_be_disabled()
    expect(page.locator(".foundations [data-card]")).to_have_count(4)
    for suit in "CDHS":
        expect(card(page, f"K{suit}")).to_have_attribute("data-place", "foundation")

    for _ in range(3):
        page.get_by_test_id("prev").click()
    expect(status(page)).to_have_text(f"playing: {DEAL_2_LENGTH - 3} moves made")
    expect(page.get_by_test_id("next")).to_be_enabled()
    page.get_by_test_id("play").click()  # three steps, ~0.4 s apart
    expect(page.get_by_test_id("play")).to_have_text("Pause")
    expect(status(page)).to_have_text(f"won in {DEAL_2_LENGTH} moves", timeout=10_000)
    expect(page.get_by_test_id("play")).to_have_text("Play")
    assert_clean(tab)


def test_a_card_then_a_target_plays_the_move(tab):
    page = tab.page
    click_card(page, "AS")
    expect(card(page, "AS")).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator('.home[data-suit="S"]')).to_have_class(re.compile(r"\blegal-target\b"))
    page.locator('.home[data-suit="S"]').click()
    expect(status(page)).to_have_text("playing: 1 move made")
    expect(card(page, "AS")).to_have_attribute("data-place", "foundation")
    click_card(page, "9S")
    click_pile(page, 5)  # 9S onto TS
    expect(status(page)).to_have_text("playing: 2 moves made")
    expect(card(page, "9S")).to_have_attribute("data-place", "tableau:5")
    assert_clean(tab)


def test_a_refused_move_shows_the_servers_reason(tab):
    page = tab.page
    error = page.get_by_test_id("error")
    click_card(page, "QD")  # the bottom card of tableau:0
    click_pile(page, 1)
    expect(error).to_be_visible()
    expect(error).to_have_text("QD tableau:0 tableau:1: QD is not the top of tableau:0")
    click_card(page, "AH")  # the top of tableau:0, but 9S is on top of tableau:1
    click_pile(page, 1)
    expect(error).to_have_text("AH tableau:0 tableau:1: tableau:1 does not accept AH")
    expect(status(page)).to_have_text("playing: 0 moves made")
    click_card(page, "AH")
    page.locator('.home[data-suit="H"]').click()
    expect(status(page)).to_have_text("playing: 1 move made")
    expect(error).to_be_hidden()
    assert tab.page_errors == []
    # the browser logs each refusal's HTTP 400, nothing else
    assert all("400" in message for message in tab.console_errors)


# deal 2 after this move: some moves still win (in different numbers of moves), some lose
GRADED_AFTER = "TS tableau:5 tableau:1"
GRADED_CARDS = [("3H", "reserve:0"), ("AH", "tableau:0"), ("5H", "reserve:4"),
                ("TH", "reserve:10")]


def grading_requests(page) -> list[dict]:
    """The bodies of the page's Hint calls that grade every move, as they are sent."""
    sent: list[dict] = []

    def on_request(request) -> None:
        if request.url.endswith(".Solver/Hint") and "allMoves" in (request.post_data or ""):
            sent.append(request.post_data_json)

    page.on("request", on_request)
    return sent


def shown_grades(page) -> dict[str, tuple[str, str | None]]:
    shown = page.get_by_test_id("target-grade").evaluate_all(
        "ns => ns.map(n => [n.dataset.move, n.dataset.outcome, n.dataset.movesLeft ?? null])")
    return {move: (outcome, moves_left) for move, outcome, moves_left in shown}


def test_targets_are_coloured_by_the_servers_grading(tab):
    page = tab.page
    sent = grading_requests(page)
    position = run_cli("apply", "--deal", "2", GRADED_AFTER, "--json").stdout
    expected = {f'{g["move"]["card"]} {g["move"]["from"]} {g["move"]["to"]}':
                (g["outcome"], None if g.get("moves_left") is None else str(g["moves_left"]))
                for g in cli("hint", "-", "--all-moves", "--seconds", "10", "--json",
                             stdin=position)["all_moves"]}
    played, _, target = GRADED_AFTER.split()
    click_card(page, played)
    click_pile(page, int(target.split(":")[1]))
    expect(status(page)).to_have_text("playing: 1 move made")
    expect(page.get_by_test_id("legend")).to_contain_text("wins in N moves")

    outcomes = set()
    for name, place in GRADED_CARDS:
        page.keyboard.press("Escape")
        click_card(page, name)
        wanted = {move: grade for move, grade in expected.items()
                  if move.startswith(f"{name} {place} ")}
        expect(page.get_by_test_id("target-grade")).to_have_count(len(wanted))
        assert shown_grades(page) == wanted, name
        outcomes |= {outcome for outcome, _ in wanted.values()}
        for move, (outcome, moves_left) in wanted.items():
            node = page.locator(f'[data-move="{move}"]')
            expect(node).to_have_attribute(
                "title", f"{move}: {f'wins in {moves_left}' if moves_left else outcome}")
            expect(node.locator(".grade-badge")).to_have_text(moves_left or "✕")
    assert outcomes == {"wins", "loses"}
    assert len({moves_left for _, moves_left in expected.values()} - {None}) > 1
    expect(page.get_by_test_id("grading")).to_have_count(0)  # nothing pending or failed
    # asked once per position: deal 2's (on the first selection), then the one after the move
    assert len(sent) == 2 and sent[0]["position"] != sent[1]["position"]
    assert all(body["beleaguered"] == {"allMoves": True} for body in sent)
    assert_clean(tab)


# ============================================================================ the duels


@pytest.mark.parametrize("game, seed", [pytest.param("ffk", "1", id="ffk-1"),
                                        ("farbduell", "1")])
def test_duel_hint_is_a_legal_action_and_the_bot_replies(tab, game, seed):
    page = tab.page
    page.get_by_test_id("game").select_option(game)
    page.get_by_test_id("deal").fill(seed)
    page.get_by_test_id("load").click()
    expect(status(page)).to_have_text(re.compile(r"^your turn"))
    expect(page.get_by_test_id("opponent-hand")).to_have_text(re.compile(r"^hand: \d+ cards$"))
    expect(page.get_by_test_id("solve")).to_be_hidden()

    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("runners-up")).to_be_visible()
    legal = page.get_by_test_id("action").evaluate_all("bs => bs.map(b => b.dataset.action)")
    hinted = page.get_by_test_id("hint-move").get_attribute("data-move")
    assert hinted in legal
    runners = page.get_by_test_id("runners-up").locator("td.mono").evaluate_all(
        "tds => tds.map(td => td.dataset.move)")
    assert runners and set(runners) <= set(legal) and hinted not in runners
    expect(page.locator(f'[data-action="{hinted}"]')).to_have_class(re.compile(r"\bhinted\b"))

    # the hinted action, then discards or draws until the turn passes to the bot
    log = page.get_by_test_id("log")
    action = page.locator(f'[data-action="{hinted}"]')
    for played in range(1, 13):
        action.click()
        expect(log.locator("li.you")).to_have_count(played)
        if log.locator("li.bot").count() or re.match(r"won|lost", status(page).inner_text()):
            break
        action = page.locator('[data-action^="discard "], [data-action="draw"]').first
    expect(log.locator("li.bot").first).to_be_visible()
    expect(page.get_by_test_id("replies")).to_contain_text("bot replied: ")
    expect(status(page)).to_have_text(re.compile(r"^(your turn|won|lost)"))
    assert_clean(tab)


# ============================================================================ Stronghold


def test_stronghold_example_plan_is_the_command_lines(tab, tmp_path):
    page = tab.page
    page.get_by_test_id("game").select_option("stronghold")
    expect(status(page)).to_have_text("turn 2: A1 to move; defender score 0/6")
    expect(page.get_by_test_id("grid").locator("td")).to_have_count(9)
    example = tmp_path / "example.json"
    example.write_text(page.get_by_test_id("position").input_value())
    plan = cli("stronghold", "plan", str(example), "--json")
    picture = page.get_by_test_id("picture")
    expect(picture).to_be_visible()
    assert picture.inner_text() == run_cli("show", str(example)).stdout.rstrip("\n")
    page.get_by_test_id("hint").click()
    moves = ", ".join(f"{unit} → {to}" for unit, to in plan["moves"].items())
    expect(page.get_by_test_id("hint-move")).to_have_text(f"A1 moves: {moves}")
    assert_clean(tab)


def test_a_bad_stronghold_position_shows_the_servers_faults_on_load(tab, tmp_path):
    page = tab.page
    calls: list[str] = []
    page.on("request", lambda request: calls.append(request.url.rsplit("/", 1)[1]))
    page.get_by_test_id("game").select_option("stronghold")
    expect(page.get_by_test_id("picture")).to_be_visible()
    example = page.get_by_test_id("position").input_value()
    bad = (example.replace('"might": 4', '"might": -4')
           .replace('"defender_score": 0', '"defender_score": -1'))
    assert bad.count("-") == 2
    path = tmp_path / "bad.json"
    path.write_text(bad)
    refused = run_cli("show", str(path), check=False)
    assert refused.returncode != 0
    faults = refused.stderr.strip().removeprefix("fortress-solver: ")
    assert "units[0].might" in faults and "defender_score" in faults

    error = page.get_by_test_id("error")
    page.get_by_test_id("position").fill(bad)
    page.get_by_test_id("load-position").click()
    expect(error).to_have_text(faults)
    # back to the example, then to another game and here again with the bad one pasted:
    # nothing is drawn, and there is nothing to hint
    page.get_by_test_id("load-example").click()
    expect(error).to_be_hidden()
    page.get_by_test_id("position").fill(bad)
    page.get_by_test_id("game").select_option("patience")
    expect(status(page)).to_have_text("playing: 0 moves made")
    page.get_by_test_id("game").select_option("stronghold")
    expect(error).to_have_text(faults)
    expect(status(page)).to_have_text("no game loaded")
    expect(page.get_by_test_id("grid")).to_have_count(0)
    expect(page.get_by_test_id("hint")).to_be_disabled()
    assert "Hint" not in calls and "Solve" not in calls
    assert tab.page_errors == []
    assert all("400" in message for message in tab.console_errors)
