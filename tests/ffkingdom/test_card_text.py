"""The card table in words: every effect of every shipped card has words of its own,
none falls back to its name and raw value."""

from __future__ import annotations

from solver.ffkingdom.card_text import effect_text, table_json
from solver.ffkingdom.data import shipped_cards


def test_every_shipped_effect_is_said_in_words():
    rules = shipped_cards()
    said = [(key, value, effect_text(key, value, rules))
            for card in rules.cards.values() for key, value in card.effect.items()]
    assert said
    assert [(key, value) for key, value, text in said if text == f"{key} {value}"] == []


def test_the_table_lists_every_card_with_its_cost():
    rules = shipped_cards()
    table = table_json(rules)
    assert list(table["cards"]) == list(rules.cards)
    assert all(table["cards"][card.id]["cost"] == dict(card.cost) for card in rules.cards.values())
