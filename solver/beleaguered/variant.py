"""The rules of one patience of Beleaguered Fortress's family, read from its rules file.

A variant is data: each shipped one is a TOML file in `variants/`, and a user's own file
(`--rules FILE`) is read by the same loader against the same schema, so no code outside
this loader and the search's rule switches names a variant. The rules cover the deal
(piles, open reserve, free cells, aces first, the Citadel deal, which shuffle numbers
the deals) and the play (how the tableau builds, what fills an empty pile, whether
foundation cards may come back, whether a built run moves as one move).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from solver.errors import InvalidInput
from solver.operator_files import read_text, toml_of

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


class SequenceMoves(StrEnum):
    """Whether a built run on a pile's top moves to another pile as one move: never, or
    as FreeCell players move it, as many cards as the free cells and empty piles could
    carry one at a time (rules.capacity)."""

    NONE = "none"
    BY_FREE_CELLS = "by-free-cells"


class Numbering(StrEnum):
    """Which shuffle deal N is: the FreeCell shuffle (Beleaguered Fortress's own
    numbering) or PySolFC's game number N."""

    FREECELL = "freecell"
    PYSOL = "pysol"


@dataclass(frozen=True, kw_only=True)
class Variant:
    """One variant's rules, as its rules file says them (solver/beleaguered/rules_file.py
    is that file's schema, with what each field means). Cards are dealt row by row, one
    to each pile still short of its count, then the reserve slots, then `cells_dealt`
    free cells (`cells_dealt_to`: which ones, by default the first)."""

    name: str
    title: str
    source: str
    piles: tuple[int, ...]
    reserve: int = 0
    cells: int = 0
    cells_dealt: int = 0
    cells_dealt_to: tuple[int, ...] | None = None
    aces_first: bool = False
    citadel_deal: bool = False
    build: Build
    empty: Fill = Fill.ANY
    worrying_back: bool = False
    sequence_moves: SequenceMoves = SequenceMoves.NONE
    numbering: Numbering = Numbering.PYSOL
    # where `variants` lists a shipped variant, lower first: not a rule of play, so two
    # variants that differ in it alone are the same rules (and a user's file digests alike)
    listed: int | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return self.name

    @property
    def dealt_cells(self) -> tuple[int, ...]:
        """The free cells the deal fills, in dealing order."""
        return self.cells_dealt_to or tuple(range(self.cells_dealt))

    def in_words(self) -> str:
        """The rules for a person: "8 piles of 5, 12 reserve slots, no free cells; builds
        down-by-suit", and what play has beyond that ("; only kings fill an empty pile")."""
        piles = self.piles
        counts = f"of {piles[0]}" if len(set(piles)) == 1 else f"({' '.join(map(str, piles))})"
        reserve = f"{self.reserve} reserve slots" if self.reserve else "no reserve"
        cells = {0: "no free cells", 1: "1 free cell"}.get(self.cells, f"{self.cells} free cells")
        empty = {Fill.KINGS: "; only kings fill an empty pile",
                 Fill.NONE: "; an empty pile stays empty"}.get(self.empty, "")
        runs = "; a built run moves as one move" if self.sequence_moves != "none" else ""
        return (f"{len(piles)} piles {counts}, {reserve}, {cells}; builds {self.build}"
                f"{empty}{runs}")

    def to_json(self) -> dict[str, Any]:
        """The rules as a rules file holds them (its TOML read as JSON)."""
        return {field.name: _plain(getattr(self, field.name)) for field in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Variant:
        """The variant of rules already checked (the rules file's schema, or `to_json`)."""
        return cls(**{**data, "piles": tuple(data["piles"]), "build": Build(data["build"]),
                      **{key: kind(data[key]) for key, kind in (("empty", Fill),
                                                              ("numbering", Numbering),
                                                              ("sequence_moves", SequenceMoves))
                         if key in data},
                      **({"cells_dealt_to": tuple(data["cells_dealt_to"])}
                         if data.get("cells_dealt_to") is not None else {})})


def _plain(value: Any) -> Any:
    """A rule's value as JSON writes it."""
    if isinstance(value, StrEnum):
        return value.value
    return list(value) if isinstance(value, tuple) else value


def parse_variant_file(text: str, source: str = "rules file") -> Variant:
    """A variant from its TOML text, every fault named in one InvalidInput."""
    from solver.beleaguered.rules_file import checked  # pydantic only for a file to check

    return Variant.from_json(checked(_toml(text, source), source))


def _toml(text: str, source: str) -> dict[str, Any]:
    if len(text) > MAX_RULES_BYTES:
        raise InvalidInput(f"{source}: {len(text)} characters, at most {MAX_RULES_BYTES}")
    return toml_of(text, source)


def load_variant_file(path: str | Path) -> Variant:
    """Read a user's rules file and make its variant known by name for this process."""
    rules = parse_variant_file(read_text(path, MAX_RULES_BYTES, "rules file"), str(path))
    if rules.name in _shipped() and _shipped()[rules.name] != rules:
        raise InvalidInput(f"{path}: variant {rules.name!r} is a shipped variant: give "
                           "your rules a name of their own")
    _added[rules.name] = rules
    return rules


@cache
def _shipped() -> dict[str, Variant]:
    # beside this module (importlib.resources would import zipfile, some 20 ms); each file
    # meets the rules file's schema, which a test checks
    found = [Variant.from_json(_toml(entry.read_text(encoding="utf-8"), entry.name))
             for entry in (Path(__file__).parent / "variants").glob("*.toml")]
    return {rules.name: rules for rules in sorted(
        found, key=lambda rules: (rules.listed is None, rules.listed or 0, rules.name))}


_added: dict[str, Variant] = {}


def variants() -> tuple[Variant, ...]:
    """The shipped variants, then those read from rules files in this process."""
    return (*shipped_variants(), *(v for k, v in _added.items() if k not in _shipped()))


def shipped_variants() -> tuple[Variant, ...]:
    """The variants of the package's own rules files, in the order their `listed` gives."""
    return tuple(_shipped().values())


def is_shipped(variant: Variant) -> bool:
    """Whether these are the rules of the shipped variant of their name."""
    return _shipped().get(variant.name) == variant


def find_variant(name: str | None) -> Variant:
    """The variant of this name (None: the default); InvalidInput names those known."""
    if name is None:
        name = DEFAULT
    known = {**_shipped(), **_added}
    if not isinstance(name, str) or name not in known:
        raise InvalidInput(f"unknown variant {str(name)[:40]!r}: known are "
                           f"{', '.join(known)}", command_line=" (or give --rules FILE)")
    return known[name]


def beleaguered_fortress() -> Variant:
    return _shipped()[DEFAULT]


def rules_schema() -> dict[str, Any]:
    """The JSON schema of a rules file (TOML's tables read as JSON objects)."""
    from solver.beleaguered.rules_file import RulesFile

    return RulesFile.model_json_schema()
