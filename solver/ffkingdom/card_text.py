"""The card table for a person: each card's name as the rules spell it, its type, its
cost, what it does in words and its flags, and the producers' surcharge; what the
playground lists (GET /games/fortress-fight-kingdom/cards.json), so that it never keeps
a copy of the table, and an effect added to the game is described beside it."""

from __future__ import annotations

from typing import Any

from solver.ffkingdom.data import Card, CardTable, reveal_count


def table_json(rules: CardTable) -> dict[str, Any]:
    """The table as JSON: {"cards": {id: card}, "surcharge": {...}}."""
    config = rules.config
    return {"cards": {card.id: card_json(card, rules) for card in rules.cards.values()},
            "surcharge": {"step": config.producer_surcharge_step,
                          "scope": config.producer_surcharge_scope}}


def card_json(card: Card, rules: CardTable) -> dict[str, Any]:
    """One card for a person: its name, type and cost, what it does, and its flags."""
    effects = [effect_text(key, value, rules) for key, value in card.effect.items()]
    effects += {0: [], 1: ["play again"]}.get(card.extra_actions,
                                               [f"{card.extra_actions} more actions"])
    notes = [text for flag, text in ((card.unblockable, "a shield does not stop it"),
                                     (card.damage_card and not card.unblockable,
                                      "a shield blocks it"),
                                     (card.theft_card, "guards stop it"),
                                     (card.hidden_play, "played face down"))
             if flag]
    return {"name": card.name, "type": card.type, "cost": dict(card.cost),
            "producer": card.producer if card.surcharge else None,
            "effect": "; ".join(effects), "notes": notes}


def _stocks(amounts: dict[str, int]) -> str:
    return ", ".join(f"{amount} {stock}" for stock, amount in amounts.items())


def _signed(amount: int) -> str:
    return f"+{amount}" if amount >= 0 else f"−{-amount}"


def effect_text(key: str, value: Any, rules: CardTable) -> str:
    """One effect of cards.toml in words (the effect names of solver/ffkingdom/data.py)."""
    match key:
        case "wall" | "castle":
            return f"{key} {_signed(value)}"
        case "dmg":
            return f"damage {value}"
        case "direct":
            return f"damage {value} to the castle, ignoring the wall"
        case "shatter":
            return "breaks a shield" if value == 1 else f"breaks {value} shields"
        case "gain" | "steal":
            return f"{key} {_stocks(value)}"
        case "destroy":
            return f"the opponent loses {_stocks(value)}"
        case "producer" if value == "markets":
            return f"markets +1 (+{rules.config.market_gold_per_turn} G a turn)"
        case "producer":
            return f"{value} +1"
        case "shield" | "guard":
            return f"+{value} {key}"
        case "poison":
            return f"poison: the opponent's castle −{value['per']} for {value['ticks']} turns"
        case "heal":
            return f"heal: wall +{value['per']} for {value['ticks']} turns"
        case "double_next":
            return "your next card acts twice"
        case "dispel":
            return "removes the opponent's shields, guards, heals and doubler"
        case "lock_type":
            return "the opponent may not play a card type you choose in its next turn"
        case "opp_discard_random":
            return f"the opponent discards {value} cards at random"
        case "reveal" if reveal_count(value) == 0:
            return "see the opponent's hand"
        case "reveal":
            return f"see the top {reveal_count(value)} cards of the deck"
    return f"{key} {value}"
