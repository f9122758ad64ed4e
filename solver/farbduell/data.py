"""Farbduell cards and tables: what each table's deck holds and which cards answer a
waiting penalty, read from tables.toml and checked on load.

A Tag & Nacht card has two faces: the card's own colour and rank are its day face and
`night` holds its night face. A table of such cards lists the faces of each side; which
day face is printed on the back of which night face is drawn per game (rules.new_game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache, cached_property
from importlib.resources import files
from pathlib import Path
from typing import Any

from solver.errors import InvalidInput
from solver.operator_files import read_text, toml_of

NUMBERS = tuple(str(n) for n in range(10))
ACTIONS = ("skip", "reverse", "draw2", "bomb", "shield",
           "draw1", "draw5", "skipall", "flip", "clock")
WILDS = ("joker", "draw4", "hunt")
PENALTY = {"draw2": 2, "draw4": 4, "draw1": 1, "draw5": 5}   # stack on the next player, how much
HUNT = "hunt"               # a wild that puts a colour hunt on the next player
SIDES = ("day", "night")
TWO_SIDED = ("flip", "clock")   # ranks that turn the table over: double-faced tables only
MAX_TABLES_BYTES = 100_000  # a tables file (the shipped tables.toml is some 3 KB)


@dataclass(frozen=True, order=True)
class Card:
    """A card: a coloured rank ("red-7", "blue-draw2") or a wild ("joker", "draw4"),
    whose colour is empty. A double-faced card's colour and rank are its day face and
    `night` is its night face: "red-7/teal-skipall", "joker/pink-3"."""

    colour: str
    rank: str
    night: Card | None = None

    @property
    def wild(self) -> bool:
        """Whether the day face (the only face of a one-sided card) is a wild."""
        return not self.colour

    @property
    def day(self) -> Card:
        """The day face alone."""
        return self if self.night is None else Card(self.colour, self.rank)

    def face(self, side: str) -> Card:
        """The face shown on a side; a one-sided card shows itself on both."""
        return self.night if side == "night" and self.night is not None else self.day

    def __str__(self) -> str:
        day = f"{self.colour}-{self.rank}" if self.colour else self.rank
        return day if self.night is None else f"{day}/{self.night}"

    @staticmethod
    def parse(text: str, colours: tuple[str, ...],
              night_colours: tuple[str, ...] = ()) -> Card:
        """COLOUR-RANK or a wild; DAY/NIGHT for a double-faced card, the night face
        with a colour of `night_colours`."""
        day, slash, night = text.strip().lower().partition("/")
        day_face = _face(day, colours)
        night_face = _face(night, night_colours) if slash else None
        if day_face is None or (slash and night_face is None):
            raise InvalidInput(f"{text!r} is not a card (COLOUR-RANK with a colour of "
                               f"{', '.join(colours)}, or {' or '.join(WILDS)}"
                               + (f"; the night face with a colour of {', '.join(night_colours)}"
                                  if slash else "") + ")")
        return day_face if night_face is None else Card(day_face.colour, day_face.rank,
                                                        night_face)


def _face(text: str, colours: tuple[str, ...]) -> Card | None:
    colour, dash, rank = text.rpartition("-")
    if not dash and rank in WILDS:
        return Card("", rank)
    if colour in colours and rank in NUMBERS + ACTIONS:
        return Card(colour, rank)
    return None


def other_side(side: str) -> str:
    return "night" if side == "day" else "day"


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
    clock_handovers: int


@dataclass(frozen=True)
class Table:
    """A table's deck and its penalty answers. For a double-faced table `config.colours`
    are the day colours, `night_colours` the night ones, and `deck` pairs the k-th day
    face with the k-th night face of the table order: a reference pairing only, since
    every game pairs the faces at random (the game's cards are the ones in its state)."""

    name: str
    config: Config
    deck: tuple[Card, ...]                      # a full deck, in table order
    answers: Mapping[str, tuple[str, ...]]      # stack kind -> ranks that answer it
    night_colours: tuple[str, ...] = ()         # double-faced tables only

    @property
    def double_faced(self) -> bool:
        return bool(self.night_colours)

    def colours(self, side: str = "day") -> tuple[str, ...]:
        return self.night_colours if side == "night" and self.double_faced else self.config.colours

    def faces(self, side: str = "day") -> tuple[Card, ...]:
        """The faces of one side, in table order."""
        return self._faces[side]

    def __reduce__(self) -> str | tuple[Any, ...]:
        """A shipped table travels to a search process by name, not as its whole deck on
        every job: there it is the process's own copy."""
        if default_tables().get(self.name) is self:
            return _shipped_table, (self.name,)
        return object.__reduce__(self)

    @cached_property
    def _faces(self) -> dict[str, tuple[Card, ...]]:
        return {side: tuple(card.face(side) for card in self.deck) for side in SIDES}

    @cached_property
    def _known(self) -> dict[str, frozenset[Card]]:
        return {side: frozenset(faces) for side, faces in self._faces.items()}

    def points(self, card: Card, side: str = "day") -> int:
        """What the card scores by the face shown on `side`."""
        face = card.face(side)
        if face.wild:
            return self.config.wild_points
        if face.rank in NUMBERS:
            return int(face.rank)
        return self.config.action_points

    def card(self, text: str) -> Card:
        card = Card.parse(text, self.config.colours, self.night_colours)
        if self.double_faced != (card.night is not None):
            raise InvalidInput(
                f"the {self.name} table's cards have two faces, DAY/NIGHT (e.g. "
                f"{self.deck[0]}), not {card}" if self.double_faced
                else f"the {self.name} table's cards have one face, not {card}")
        for side in SIDES if self.double_faced else ("day",):
            if card.face(side) not in self._known[side]:
                face = f"{side} face " if self.double_faced else "card "
                raise InvalidInput(f"the {self.name} table has no {face}{card.face(side)}")
        return card


@cache
def default_tables() -> Mapping[str, Table]:
    """The shipped tables, read once: what a position names when none are given."""
    return load_tables()


def _shipped_table(name: str) -> Table:
    return default_tables()[name]


def load_tables(path: Path | None = None) -> dict[str, Table]:
    """The tables of a tables file (default: the tables.toml shipped with the package)."""
    where = "tables.toml" if path is None else path.name
    text = (read_text(path, MAX_TABLES_BYTES, "tables file") if path is not None
            else files("solver.farbduell").joinpath("tables.toml").read_text(encoding="utf-8"))
    data = toml_of(text, where)
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


def _counts(what: str, per_colour: Any, wilds: Any, problems: list[str]) -> None:
    for field, counts, ranks in (("per_colour", per_colour, NUMBERS + ACTIONS),
                                 ("wilds", wilds, WILDS)):
        if not isinstance(counts, dict):
            problems.append(f"{what} {field} must be a table of counts")
            continue
        for rank, count in counts.items():
            if rank not in ranks:
                problems.append(f"{what} has an unknown {'wild' if field == 'wilds' else 'rank'} "
                                f"{rank!r}")
            if type(count) is not int or count < 0:
                problems.append(f"{what} count of {rank} must be a whole number >= 0")


def _side(what: str, values: Any, problems: list[str]) -> tuple[tuple[str, ...], tuple[Card, ...]]:
    """One side of a double-faced table: its colours and its faces in table order."""
    if not isinstance(values, dict):
        problems.append(f"{what} must be a table with colours, per_colour and wilds")
        return (), ()
    for key in values.keys() - {"colours", "per_colour", "wilds"}:
        problems.append(f"{what} has an unknown field {key!r}")
    colours = values.get("colours")
    if (not isinstance(colours, list) or not colours
            or not all(isinstance(c, str) and c.isalpha() for c in colours)
            or len(set(colours)) != len(colours)):
        problems.append(f"{what} colours must be a list of distinct names")
        colours = []
    per_colour, wilds = values.get("per_colour", {}), values.get("wilds", {})
    before = len(problems)
    _counts(what, per_colour, wilds, problems)
    if len(problems) > before:
        return tuple(colours), ()
    return tuple(colours), _deck(tuple(colours), per_colour, wilds)


def _deck(colours: tuple[str, ...], per_colour: dict[str, int],
          wilds: dict[str, int]) -> tuple[Card, ...]:
    deck = tuple(Card(colour, rank) for colour in colours
                 for rank, count in per_colour.items() for _ in range(count))
    return deck + tuple(Card("", rank) for rank, count in wilds.items() for _ in range(count))


def _table(name: str, values: dict[str, Any], config: Config | None,
           problems: list[str]) -> Table | None:
    before = len(problems)
    what = f"table {name!r}"
    two_sided = "day" in values or "night" in values
    fields = {"answers", "day", "night"} if two_sided else {"answers", "per_colour", "wilds"}
    for key in values.keys() - fields:
        problems.append(f"{what} has an unknown field {key!r}")
    night_colours: tuple[str, ...] = ()
    if two_sided:
        day_colours, days = _side(f"{what} day side", values.get("day"), problems)
        night_colours, nights = _side(f"{what} night side", values.get("night"), problems)
        if set(day_colours) & set(night_colours):
            problems.append(f"{what} day and night colours must differ")
        if len(days) != len(nights):
            problems.append(f"{what} has {len(days)} day faces but {len(nights)} night faces")
        deck = tuple(Card(day.colour, day.rank, night)
                     for day, night in zip(days, nights, strict=False))
        faces = days + nights
        if config is not None:
            config = replace(config, colours=day_colours)
    else:
        per_colour, wilds = values.get("per_colour", {}), values.get("wilds", {})
        _counts(what, per_colour, wilds, problems)
        deck = faces = () if config is None or len(problems) > before else _deck(
            config.colours, per_colour, wilds)
        problems.extend(f"{what} has a {rank} card: it turns the table over, which needs "
                        "cards with two faces" for rank in TWO_SIDED
                        if rank in values.get("per_colour", {}))
    answers = values.get("answers", {})
    kinds = (*PENALTY, HUNT)
    for kind, ranks in answers.items():
        if kind not in kinds:
            problems.append(f"{what} answers an unknown penalty {kind!r}")
        elif not isinstance(ranks, list) or any(r not in ACTIONS + WILDS for r in ranks):
            problems.append(f"{what} answers to {kind} must be a list of action or wild ranks")
    problems.extend(f"{what} lacks the answers to {kind}" for kind in kinds
                    if kind not in answers and any(face.rank == kind for face in faces))
    if config is None or len(problems) > before:
        return None
    return Table(name, config, deck, {kind: tuple(ranks) for kind, ranks in answers.items()},
                 night_colours)
