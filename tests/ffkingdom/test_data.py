"""The card table and config loaded from cards.toml, and refusal of a broken table."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from solver.errors import InvalidInput
from solver.ffkingdom import load_cards
from tests.support.ffkingdom import RULES, act, position

SHIPPED = Path(__file__).resolve().parents[2] / "solver" / "ffkingdom" / "cards.toml"
PLAY_AGAIN = {"mauer", "flinker_bote", "sturmlaeufer", "heilkunde", "kundschafter", "spitzel"}


def test_table_has_72_cards():
    assert len(RULES.deck()) == 72
    assert RULES.config.deck_size == 72
    assert sum(card.copies for card in RULES.cards.values()) == 72


def test_copies_per_type():
    per_type = Counter()
    for card in RULES.cards.values():
        per_type[card.type] += card.copies
    assert per_type == {"bau": 21, "angriff": 24, "magie": 16, "gold": 11}


def test_seed_copies():
    copies = {card_id: card.copies for card_id, card in RULES.cards.items()}
    assert copies["mauer"] == 4
    assert copies["angriff"] == 6
    assert copies["belagerung"] == copies["drache"] == copies["festung"] == 1


def test_seed_card_values():
    cards = RULES.cards
    assert cards["katapult"].effect == {"dmg": 9}
    assert dict(cards["ballista"].cost) == {"Z": 4, "W": 4}
    assert dict(cards["hoellenmasch"].cost) == {"Z": 8, "K": 10}
    assert dict(cards["markt"].cost) == {"Z": 6}


def test_play_again_set_and_doppelzug():
    again = {card_id for card_id, card in RULES.cards.items() if card.extra_actions == 1}
    assert again == PLAY_AGAIN
    assert RULES.cards["doppelzug"].extra_actions == 2
    assert {c.id for c in RULES.cards.values() if c.extra_actions} == PLAY_AGAIN | {"doppelzug"}


def test_seed_flag_sets():
    cards = RULES.cards.values()
    assert {c.id for c in cards if c.theft_card} == {"pluendern", "saboteur", "pixie"}
    assert {c.id for c in cards if "direct" in c.effect} == {"drache", "hoellenmasch", "troja"}
    assert {c.id for c in cards if c.hidden_play} == {"schild"}
    assert {c.id for c in cards if c.unblockable} == {"spaehschlag"}


def test_start_and_leaders():
    assert dict(RULES.start) == {"castle": 60, "wall": 22, "Z": 6, "W": 6, "K": 6, "G": 5,
                                 "builders": 2, "soldiers": 2, "mages": 2, "markets": 0}
    assert {name: dict(values) for name, values in RULES.leaders.items()} == {
        "baumeister": {"builders": 1}, "kriegsherr": {"soldiers": 1},
        "erzmagier": {"mages": 1}, "festungsherr": {"castle": 15, "wall": 5},
        "haendler": {"Z": 6, "W": 6, "K": 6},
    }


def test_shipped_config_defaults():
    config = RULES.config
    assert (config.hand_size, config.discard_max, config.castle_win, config.resource_win) == (
        9, 3, 100, 100)
    assert (config.concussion_pct, config.rubble_pct, config.rounding) == (35, 50, "floor")
    assert config.win_check == "action_end_only"
    assert config.producer_surcharge_scope == "global"
    assert config.resource_win_enabled is True


def test_loading_the_path_explicitly_gives_the_same_rules():
    assert load_cards(SHIPPED) == RULES


# --- broken tables ----------------------------------------------------------------------------

def write_with(tmp_path: Path, *replacements: tuple[str, str]) -> Path:
    text = SHIPPED.read_text(encoding="utf-8")
    for old, new in replacements:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    return path


def broken(tmp_path: Path, old: str, new: str) -> list[str]:
    with pytest.raises(InvalidInput) as info:
        load_cards(write_with(tmp_path, (old, new)))
    return info.value.problems


@pytest.mark.parametrize(("old", "new", "fragments"), [
    ("copies = 4                        # seed\nextra_actions = 1",
     "copies = 5\nextra_actions = 1", ("add up to 73", "deck_size 72")),
    ("effect = { reveal = \"opp_hand\" }", "effect = { teleport = 1 }",
     ("kundschafter", "unknown effect", "teleport")),
    ("market_gold_per_turn = 2", "market_gold_per_turn = 2\nmarket_silver = 1",
     ("unknown setting", "market_silver")),
    ("rounding = \"floor\"", "rounding = \"ceiling\"", ("rounding", "ceiling")),
    ("cost = { G = 6 }", "cost = { X = 6 }", ("doppelzug", "cost", "'X'")),
    ("win_check = \"action_end_only\"", "win_check = \"sometimes\"", ("win_check", "sometimes")),
    ("castle = 60", "castle = -60", ("start castle", "-60")),
    ("effect = { reveal = \"deck_top_3\" }", "effect = { reveal = \"deck_top_0\" }",
     ("spitzel", "reveal", "deck_top_N")),
], ids=["copies total", "unknown effect", "unknown setting", "rounding", "cost resource",
        "win_check", "negative start", "reveal"])
def test_broken_table_is_refused_naming_the_problem(tmp_path, old, new, fragments):
    problems = broken(tmp_path, old, new)
    assert any(all(f in p for f in fragments) for p in problems), problems


def test_toml_syntax_error_names_the_file_and_line(tmp_path):
    problems = broken(tmp_path, "deck_size = 72", "deck_size = = 72")
    assert len(problems) == 1
    assert problems[0].startswith("cards.toml: ")
    assert "line 9" in problems[0]


TWO_BROKEN_CARDS = (("effect = { wall = 6 }", "effect = { moat = 6 }"),
                    ("cost = { G = 6 }", "cost = { X = 6 }"))


def test_several_table_problems_are_listed_at_once(tmp_path):
    with pytest.raises(InvalidInput) as info:
        load_cards(write_with(tmp_path, *TWO_BROKEN_CARDS))
    problems = info.value.problems
    assert "cards.toml: card 'wehrgang' has an unknown effect 'moat'" in problems
    assert "cards.toml: card 'doppelzug' cost has an unknown field 'X'" in problems


def test_broken_cards_do_not_add_a_false_copies_total(tmp_path):
    """The copies still add up to 72; only the two cards' own faults are problems."""
    with pytest.raises(InvalidInput) as info:
        load_cards(write_with(tmp_path, *TWO_BROKEN_CARDS))
    assert info.value.problems == ["cards.toml: card 'wehrgang' has an unknown effect 'moat'",
                                   "cards.toml: card 'doppelzug' cost has an unknown field 'X'"]


@pytest.mark.parametrize(("old", "new", "fragments"), [
    ("cost = { G = 6 }", "cost = 6", ("doppelzug", "cost")),
    ("effect = {}", "effect = 3", ("doppelzug", "effect")),
    ("copies = 1                        # seed\nextra_actions = 2",
     "copies = 1\nextra_actions = \"two\"", ("doppelzug", "extra_actions")),
], ids=["cost not a table", "effect not a table", "extra_actions not a number"])
def test_malformed_card_fields_are_refused_not_crashed_on(tmp_path, old, new, fragments):
    problems = broken(tmp_path, old, new)
    assert any(all(f in p for f in fragments) for p in problems), problems


def test_corrected_card_value_changes_play(tmp_path):
    rules = load_cards(write_with(tmp_path, ("effect = { dmg = 9 }", "effect = { dmg = 10 }")))
    assert rules.cards["katapult"].effect == {"dmg": 10}
    state = position({"W": 7, "hand": ["katapult", "mauer"]}, {}, rules=rules, actions_left=2)
    after = act(state, "play katapult")
    assert (after.players[1].wall, after.players[1].castle) == (12, 57)
    assert after.players[0].wall == 27
