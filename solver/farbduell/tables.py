"""Farbduell cards and tables: what each table's deck holds and which cards answer a
waiting penalty, read from tables.toml and checked on load."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from solver.errors import InvalidInput

NUMBERS = tuple(str(n) for n in range(10))
ACTIONS = ("skip", "reverse", "draw2", "bomb", "shield")
WILDS = ("joker", "draw4")
PENALTY = {"draw2": 2, "draw4": 4}   # cards that put a stack on the next player, and how much


@dataclass(frozen=True, order=True)
class Card:
    """A card: a coloured rank ("red-7", "blue-draw2") or a wild ("joker", "draw4"),
    whose colour is empty."""

    colour: str
    rank: str

    @property
    def wild(self) -> bool:
        return not self.colour

    def __str__(self) -> str:
        return f"{self.colour}-{self.rank}" if self.colour else self.rank

    @staticmethod
    def parse(text: str, colours: tuple[str, ...]) -> Card:
        colour, dash, rank = text.strip().lower().rpartition("-")
        if not dash and rank in WILDS:
            return Card("", rank)
        if colour in colours and rank in NUMBERS + ACTIONS:
            return Card(colour, rank)
        raise InvalidInput(f"{text!r} is not a card (COLOUR-RANK with a colour of "
                           f"{', '.join(colours)}, or {' or '.join(WILDS)})")


@dataclass(frozen=True)
class Config:
    hand_start: int
    min_players: int
    max_players: int
    colours: tuple[str, ...]
    action_points: int
    wild_points: int
    fuse_handovers: int
    fuse_base: int
    fuse_relight_add: int
    standing_shield_max: int


@dataclass(frozen=True)
class Table:
    name: str
    config: Config
    deck: tuple[Card, ...]                      # a full deck, in table order
    answers: Mapping[str, tuple[str, ...]]      # stack kind -> ranks that answer it

    def points(self, card: Card) -> int:
        if card.wild:
            return self.config.wild_points
        if card.rank in NUMBERS:
            return int(card.rank)
        return self.config.action_points

    def card(self, text: str) -> Card:
        card = Card.parse(text, self.config.colours)
        if card not in self.deck:
            raise InvalidInput(f"the {self.name} table has no card {card}")
        return card


def load_tables(path: Path | None = None) -> dict[str, Table]:
    """Every table of a tables file (default: the tables.toml shipped with the package)."""
    source = path or files("solver.farbduell").joinpath("tables.toml")
    where = getattr(source, "name", "tables.toml")
    try:
        data = tomllib.loads(source.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise InvalidInput(f"{where}: {error}") from None
    problems: list[str] = []
    config = _config(data.get("config", {}), problems)
    tables = {}
    for name, values in data.get("tables", {}).items():
        table = _table(name, values, config, problems)
        if table is not None:
            tables[name] = table
    if problems:
        raise InvalidInput([f"{where}: {problem}" for problem in problems])
    return tables


def _config(values: dict[str, Any], problems: list[str]) -> Config | None:
    expected = Config.__dataclass_fields__
    problems.extend(f"config has an unknown setting {key!r}"
                    for key in values.keys() - expected.keys())
    problems.extend(f"config lacks the setting {key!r}"
                    for key in expected.keys() - values.keys())
    if problems:
        return None
    return Config(**{**values, "colours": tuple(values["colours"])})


def _table(name: str, values: dict[str, Any], config: Config | None,
           problems: list[str]) -> Table | None:
    before = len(problems)
    what = f"table {name!r}"
    per_colour, wilds = values.get("per_colour", {}), values.get("wilds", {})
    answers = values.get("answers", {})
    for key in values.keys() - {"per_colour", "wilds", "answers"}:
        problems.append(f"{what} has an unknown field {key!r}")
    for rank, count in per_colour.items():
        if rank not in NUMBERS + ACTIONS:
            problems.append(f"{what} has an unknown rank {rank!r}")
        if type(count) is not int or count < 0:
            problems.append(f"{what} count of {rank} must be a whole number >= 0")
    for rank, count in wilds.items():
        if rank not in WILDS:
            problems.append(f"{what} has an unknown wild {rank!r}")
        if type(count) is not int or count < 0:
            problems.append(f"{what} count of {rank} must be a whole number >= 0")
    for kind, ranks in answers.items():
        if kind not in PENALTY:
            problems.append(f"{what} answers an unknown penalty {kind!r}")
        elif not isinstance(ranks, list) or any(r not in ACTIONS + WILDS for r in ranks):
            problems.append(f"{what} answers to {kind} must be a list of action or wild ranks")
    problems.extend(f"{what} lacks the answers to {kind}" for kind in PENALTY
                    if kind not in answers)
    if config is None or len(problems) > before:
        return None
    deck = tuple(Card(colour, rank) for colour in config.colours
                 for rank, count in per_colour.items() for _ in range(count))
    deck += tuple(Card("", rank) for rank, count in wilds.items() for _ in range(count))
    return Table(name, config, deck, {kind: tuple(ranks) for kind, ranks in answers.items()})
