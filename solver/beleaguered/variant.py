"""The rules of one patience of Beleaguered Fortress's family, read from its rules file.

A variant is data: each shipped one is a TOML file in `variants/`, and a user's own file
(`--rules FILE`) is read by the same loader against the same schema, so no code outside
this loader and the search's rule switches names a variant. The rules cover the deal
(piles, open reserve, free cells, aces first, the Citadel deal, which shuffle numbers
the deals) and the play (how the tableau builds, what fills an empty pile, whether
foundation cards may come back). Every move moves one card.
"""

from __future__ import annotations

import tomllib
from enum import StrEnum
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, ValidationError, model_validator

from solver.errors import InvalidInput
from solver.reading import Schema, faults

DEFAULT = "beleaguered-fortress"
MAX_PILES = 13  # the kernel's room for piles
MAX_RESERVE = 12
MAX_CELLS = 8
MAX_RULES_BYTES = 10_000  # a rules file is a few hundred bytes


class Build(StrEnum):
    """How a card goes onto a tableau pile's top card."""

    SAME_SUIT_UP_OR_DOWN = "same-suit-up-or-down"
    SAME_SUIT_DOWN = "same-suit-down"
    ANY_SUIT_DOWN = "any-suit-down"
    ALTERNATE_COLOURS_DOWN = "alternate-colours-down"


class Fill(StrEnum):
    """What may go onto an empty tableau pile."""

    ANY = "any"
    KINGS = "kings"
    NONE = "none"


class Numbering(StrEnum):
    """Which shuffle deal N is: the FreeCell shuffle (Beleaguered Fortress's own
    numbering) or PySolFC's game number N."""

    FREECELL = "freecell"
    PYSOL = "pysol"


Name = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$",
                            description="lower-case words joined by '-'")]


class Variant(Schema):
    """One variant's rules. Cards are dealt row by row, one to each pile still short of
    its count, then the reserve slots, then `cells_dealt` free cells."""

    name: Name
    title: Annotated[str, Field(min_length=1, max_length=60)]
    source: Annotated[str, Field(min_length=1, max_length=300,
                                 description="where the rules come from")]
    piles: Annotated[tuple[Annotated[int, Field(ge=0, le=52)], ...],
                     Field(min_length=1, max_length=MAX_PILES,
                           description="cards dealt to each tableau pile")]
    reserve: Annotated[int, Field(ge=0, le=MAX_RESERVE,
                                  description="open reserve slots: every card playable, "
                                              "nothing enters")] = 0
    cells: Annotated[int, Field(ge=0, le=MAX_CELLS,
                                description="free cells: one card each, any card enters")] = 0
    cells_dealt: Annotated[int, Field(ge=0, le=MAX_CELLS,
                                      description="cells that get the deal's last cards")] = 0
    aces_first: bool = Field(False, description="the aces go to the foundations before "
                                                "the deal")
    citadel_deal: bool = Field(False, description="a dealt card that fits its foundation "
                                                  "goes there instead")
    build: Build
    empty: Fill = Fill.ANY
    worrying_back: bool = Field(False, description="a foundation's top card may come back "
                                                   "to the tableau")
    numbering: Numbering = Numbering.PYSOL

    @model_validator(mode="after")
    def _whole_deck(self) -> Variant:
        if self.cells_dealt > self.cells:
            raise ValueError(f"cells_dealt is {self.cells_dealt}, but there are only "
                             f"{self.cells} cells")
        dealt = sum(self.piles) + self.reserve + self.cells_dealt + 4 * self.aces_first
        if dealt != 52:
            raise ValueError(f"the deal places {dealt} cards, not 52 (piles + reserve + "
                             "cells_dealt, and 4 aces when aces_first)")
        return self

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[Any, ...]:
        """Shipped to a worker process by value: a user's rules exist only where read."""
        return (_rebuilt, (self.model_dump(mode="json"),))


def _rebuilt(data: dict[str, Any]) -> Variant:
    return Variant.model_validate(data, strict=False)


def parse_rules(text: str, source: str = "rules file") -> Variant:
    """A variant from its TOML text, every fault named in one InvalidInput."""
    if len(text) > MAX_RULES_BYTES:
        raise InvalidInput(f"{source}: {len(text)} characters, at most {MAX_RULES_BYTES}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InvalidInput(f"{source}: not TOML: {err}") from None
    if isinstance(data.get("piles"), list):  # TOML has arrays, the schema tuples
        data["piles"] = tuple(data["piles"])
    for key in ("build", "empty", "numbering"):
        enum = {"build": Build, "empty": Fill, "numbering": Numbering}[key]
        if isinstance(data.get(key), str) and data[key] in set(enum):
            data[key] = enum(data[key])
    try:
        return Variant.model_validate(data)
    except ValidationError as error:
        named = [str(e["ctx"]["error"]) if e["type"] == "value_error"  # a check of ours
                 else text.replace("is not a field of this position", "is not a rules field")
                 for e, text in zip(error.errors(include_url=False), faults(error),
                                   strict=True)]
        raise InvalidInput(f"{source}: {'; '.join(named)}") from None


def load_rules(path: str | Path) -> Variant:
    """Read a user's rules file and make its variant known by name for this process."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InvalidInput(f"cannot read rules file {str(path)!r}: {err}") from None
    rules = parse_rules(text, str(path))
    if rules.name in _shipped() and _shipped()[rules.name] != rules:
        raise InvalidInput(f"{path}: variant {rules.name!r} is a shipped variant: give "
                           "your rules a name of their own")
    _added[rules.name] = rules
    return rules


@cache
def _shipped() -> dict[str, Variant]:
    folder = files("solver.beleaguered") / "variants"
    found = [parse_rules(entry.read_text(encoding="utf-8"), entry.name)
             for entry in folder.iterdir() if entry.name.endswith(".toml")]
    order = {name: k for k, name in enumerate(SHIPPED_ORDER)}
    return {rules.name: rules for rules in sorted(found, key=lambda r: order.get(r.name, 99))}


# the order `variants` lists them: the seed game, then its parents and their siblings
SHIPPED_ORDER = ("beleaguered-fortress", "fortress", "bastion", "beleaguered-castle",
                 "streets-and-alleys", "citadel")
_added: dict[str, Variant] = {}


def variants() -> tuple[Variant, ...]:
    """The shipped variants, then those read from rules files in this process."""
    return (*_shipped().values(), *(v for k, v in _added.items() if k not in _shipped()))


def find_variant(name: str | None) -> Variant:
    """The variant of this name (None: the default); InvalidInput names those known."""
    if name is None:
        name = DEFAULT
    known = {**_shipped(), **_added}
    if not isinstance(name, str) or name not in known:
        raise InvalidInput(f"unknown variant {str(name)[:40]!r}: known are "
                           f"{', '.join(known)} (or give --rules FILE)")
    return known[name]


def beleaguered_fortress() -> Variant:
    return _shipped()[DEFAULT]


def rules_schema() -> dict[str, Any]:
    """The JSON schema of a rules file (TOML's tables read as JSON objects)."""
    return Variant.model_json_schema()
