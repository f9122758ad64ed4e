"""The rules' numbers as values, read from cards.toml and checked on load.

Every card value and setting the engine uses comes from here, so that correcting the
proposed card table is an edit of the data file, never of the code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib.resources import files
from pathlib import Path
from typing import Any

from solver.errors import InvalidInput
from solver.numerals import read_number
from solver.operator_files import read_text, toml_of

RESOURCES = ("Z", "W", "K", "G")
CORE = ("Z", "W", "K")
CARD_TYPES = ("bau", "angriff", "magie", "gold")
PRODUCERS = ("builders", "soldiers", "mages", "markets")
PRODUCED = {"builders": "Z", "soldiers": "W", "mages": "K", "markets": "G"}
# The same in the engine's indices: (producer, resource it makes, whether that is gold).
PRODUCTION = tuple((PRODUCERS.index(kind), RESOURCES.index(resource), resource == "G")
                   for kind, resource in PRODUCED.items())
START_FIELDS = ("castle", "wall", *RESOURCES, *PRODUCERS)
MAX_RULES_BYTES = 100_000  # a rules file (the shipped cards.toml is some 7 KB)

# effect name -> the kind of value it takes
_EFFECTS: dict[str, type] = {
    "wall": int, "castle": int, "dmg": int, "direct": int, "shatter": int,
    "gain": dict, "steal": dict, "destroy": dict, "producer": str,
    "shield": int, "guard": int, "poison": dict, "heal": dict,
    "double_next": bool, "dispel": bool, "lock_type": str,
    "opp_discard_random": int, "reveal": str,
}
_CARD_KEYS = {"name", "type", "cost", "effect", "copies", "extra_actions", "damage_card",
              "theft_card", "unblockable", "hidden_play", "surcharge"}
_CONFIG_CHOICES = {
    "rounding": ("floor", "round_half_up"),
    "producer_surcharge_scope": ("global", "per_type"),
    "win_check": ("action_end_only", "every_step"),
}


@dataclass(frozen=True)
class Card:
    """One card of the table: what it costs, what it does, how often it is in the deck."""

    id: str
    name: str
    type: str
    cost: Mapping[str, int]
    effect: Mapping[str, Any]
    copies: int
    extra_actions: int = 0
    damage_card: bool = False
    theft_card: bool = False
    unblockable: bool = False
    hidden_play: bool = False
    surcharge: bool = False

    @property
    def producer(self) -> str | None:
        return self.effect.get("producer")


@dataclass(frozen=True)
class Terms:
    """What playing a card takes, in the engine's indices: worked out once per card table
    (`CardTable.terms`), so that finding the legal plays reads no strings or tables."""

    type: str
    cost: tuple[tuple[int, int], ...]  # (index into RESOURCES, amount) per resource paid
    surcharge_kind: int | None         # a producer with a surcharge: its index in PRODUCERS
    choices: tuple[str | None, ...]    # the card types a Blockade locks, else (None,)

    @staticmethod
    def of(card: Card) -> Terms:
        return Terms(
            type=card.type,
            cost=tuple((RESOURCES.index(resource), amount)
                       for resource, amount in card.cost.items()),
            surcharge_kind=(PRODUCERS.index(card.producer)
                            if card.surcharge and card.producer is not None else None),
            choices=CARD_TYPES if "lock_type" in card.effect else (None,))


@dataclass(frozen=True)
class Config:
    deck_size: int
    hand_size: int
    discard_max: int
    castle_win: int
    resource_win: int
    resource_win_enabled: bool
    concussion_pct: int
    rubble_pct: int
    rounding: str
    producer_surcharge_step: int
    producer_surcharge_scope: str
    market_gold_per_turn: int
    war_chest_start_round: int
    war_chest_step_every_rounds: int
    war_chest_core_cap: int
    production_on_first_turn: bool
    win_check: str

    def percent(self, amount: int, pct: int) -> int:
        if self.rounding == "floor":
            return amount * pct // 100
        return (amount * pct + 50) // 100

    def war_chest(self, round_number: int) -> int:
        """The extra units every stock gets each turn in this round."""
        if round_number < self.war_chest_start_round:
            return 0
        return 1 + (round_number - self.war_chest_start_round) // self.war_chest_step_every_rounds


@dataclass(frozen=True)
class CardTable:
    config: Config
    start: Mapping[str, int]
    leaders: Mapping[str, Mapping[str, int]]
    cards: Mapping[str, Card]

    def card(self, card_id: str) -> Card:
        try:
            return self.cards[card_id]
        except KeyError:
            raise InvalidInput(f"no card is called {card_id!r}") from None

    def deck(self) -> tuple[str, ...]:
        """Every card of a full deck, in table order."""
        return tuple(card.id for card in self.cards.values() for _ in range(card.copies))

    @cached_property
    def terms(self) -> Mapping[str, Terms]:
        """Each card's terms (see Terms), by id; kept with this table once worked out."""
        return {card_id: Terms.of(card) for card_id, card in self.cards.items()}

    def __reduce__(self) -> str | tuple[Any, ...]:
        """The shipped card table travels to a search process by name, not as 4 KB of
        cards on every job: there it is the process's own copy, its terms worked out once."""
        if self is shipped_cards():
            return shipped_cards, ()
        return object.__reduce__(self)


@cache
def shipped_cards() -> CardTable:
    """The card table shipped with the package, read once: what positions default to."""
    return load_cards()


def load_cards(path: Path | None = None) -> CardTable:
    """Read and check a card table (default: the cards.toml shipped with the package)."""
    where = "cards.toml" if path is None else path.name
    text = (read_text(path, MAX_RULES_BYTES, "rules file") if path is not None
            else files("solver.ffkingdom").joinpath("cards.toml").read_text(encoding="utf-8"))
    data = toml_of(text, where)
    problems: list[str] = []
    config = _config(data.get("config", {}), problems)
    start = _numbers(data.get("start", {}), START_FIELDS, "start", problems, required=True)
    leaders = {name: _numbers(values, START_FIELDS, f"leader {name}", problems)
               for name, values in data.get("leaders", {}).items()}
    cards = {card_id: _card(card_id, values, problems)
             for card_id, values in data.get("cards", {}).items()}
    copies = [values.get("copies") for values in data.get("cards", {}).values()]
    total = sum(n for n in copies if type(n) is int)
    if config and total != config.deck_size:
        problems.append(f"the cards' copies add up to {total}, not deck_size {config.deck_size}")
    if problems or config is None:
        raise InvalidInput([f"{where}: {problem}" for problem in problems])
    return CardTable(config, start, leaders,
                 {card_id: card for card_id, card in cards.items() if card is not None})


def _config(values: dict[str, Any], problems: list[str]) -> Config | None:
    expected = Config.__dataclass_fields__
    for key in values.keys() - expected.keys():
        problems.append(f"config has an unknown setting {key!r}")
    for key in expected.keys() - values.keys():
        problems.append(f"config lacks the setting {key!r}")
    for key, choices in _CONFIG_CHOICES.items():
        if key in values and values[key] not in choices:
            problems.append(f"config {key} is {values[key]!r}, not one of {', '.join(choices)}")
    for key, field in expected.items():
        kind = bool if field.type == "bool" else int if field.type == "int" else str
        if key in values and type(values[key]) is not kind:
            problems.append(f"config {key} must be a {kind.__name__}")
    if problems:
        return None
    return Config(**values)


def _numbers(values: dict[str, Any], allowed: tuple[str, ...], what: str,
             problems: list[str], required: bool = False) -> dict[str, int]:
    for key, value in values.items():
        if key not in allowed:
            problems.append(f"{what} has an unknown field {key!r}")
        elif type(value) is not int or value < 0:
            problems.append(f"{what} {key} must be a whole number >= 0, got {value!r}")
    if required:
        problems.extend(f"{what} lacks {key!r}" for key in allowed if key not in values)
    return dict(values)


def _card(card_id: str, values: dict[str, Any], problems: list[str]) -> Card | None:
    before = len(problems)
    what = f"card {card_id!r}"
    for key in values.keys() - _CARD_KEYS:
        problems.append(f"{what} has an unknown field {key!r}")
    for key in ("name", "type", "cost", "effect", "copies"):
        if key not in values:
            problems.append(f"{what} lacks {key!r}")
    if values.get("type", "bau") not in CARD_TYPES:
        problems.append(f"{what} has type {values['type']!r}, not one of {', '.join(CARD_TYPES)}")
    cost, effect = values.get("cost", {}), values.get("effect", {})
    for name, table in (("cost", cost), ("effect", effect)):
        if not isinstance(table, dict):
            problems.append(f"{what} {name} must be a table")
            return None
    _numbers(cost, RESOURCES, f"{what} cost", problems)
    if type(values.get("copies", 1)) is not int or values.get("copies", 1) < 1:
        problems.append(f"{what} copies must be a whole number >= 1")
    extra = values.get("extra_actions", 0)
    if type(extra) is not int or not 0 <= extra <= 3:
        problems.append(f"{what} extra_actions must be a whole number 0..3")
    for flag in ("damage_card", "theft_card", "unblockable", "hidden_play", "surcharge"):
        if type(values.get(flag, False)) is not bool:
            problems.append(f"{what} {flag} must be true or false")
    for name, value in effect.items():
        kind = _EFFECTS.get(name)
        if kind is None:
            problems.append(f"{what} has an unknown effect {name!r}")
        elif type(value) is not kind:
            problems.append(f"{what} effect {name} must be a {kind.__name__}")
    for name in ("gain", "steal", "destroy"):
        if isinstance(effect.get(name), dict):
            _numbers(effect[name], RESOURCES, f"{what} {name}", problems)
    for name in ("poison", "heal"):
        if isinstance(effect.get(name), dict):
            _numbers(effect[name], ("per", "ticks"), f"{what} {name}", problems, required=True)
    if effect.get("producer", "builders") not in PRODUCERS:
        problems.append(f"{what} produces {effect['producer']!r}, "
                        f"not one of {', '.join(PRODUCERS)}")
    if effect.get("lock_type", "choose") != "choose":
        problems.append(f"{what} lock_type must be \"choose\"")
    if isinstance(effect.get("reveal"), str) and reveal_count(effect["reveal"]) is None:
        problems.append(f"{what} reveal must be \"opp_hand\" (the opponent's hand) or "
                        "\"deck_top_N\" (the deck's top N cards, N >= 1)")
    if values.get("surcharge") and "producer" not in effect:
        problems.append(f"{what} has a producer surcharge but produces nothing")
    if len(problems) > before:
        return None
    return Card(id=card_id, **values)


def reveal_count(reveal: str) -> int | None:
    """What a card's `reveal` shows the player: "opp_hand" the opponent's hand (0 deck
    cards), "deck_top_N" the deck's top N cards; None for anything else."""
    if reveal == "opp_hand":
        return 0
    count = read_number(reveal.removeprefix("deck_top_"))
    if reveal.startswith("deck_top_") and count is not None and count >= 1:
        return count
    return None
