"""The schema of a patience rules file (`--rules FILE`, `schema --rules`): each rule's
type, range and meaning, and that the deal places one whole deck. A shipped variant's
file meets it as a user's must (a test checks them); pydantic is imported only to check
a file, so that dealing a shipped variant does without it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import ConfigDict, Field, ValidationError, model_validator

from solver.beleaguered.variant import (
    MAX_CELLS,
    MAX_PILES,
    MAX_RESERVE,
    Build,
    Fill,
    Numbering,
    SequenceMoves,
)
from solver.errors import InvalidInput
from solver.reading import Schema, faults, shown

Name = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$",
                            description="lower-case words joined by '-'")]


class RulesFile(Schema):
    """One variant's rules. Cards are dealt row by row, one to each pile still short of
    its count, then the reserve slots, then `cells_dealt` free cells (those of
    `cells_dealt_to`, by default the first)."""

    model_config = ConfigDict(title="Variant")

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
    cells_dealt_to: Annotated[tuple[Annotated[int, Field(ge=0, lt=MAX_CELLS)], ...] | None,
                              Field(max_length=MAX_CELLS,
                                    description="the cells (0-based) the deal fills, in "
                                                "order; omitted: the first cells_dealt")] = None
    aces_first: bool = Field(False, description="the aces go to the foundations before "
                                                "the deal")
    citadel_deal: bool = Field(False, description="a dealt card that fits its foundation "
                                                  "goes there instead")
    build: Build
    empty: Fill = Fill.ANY
    worrying_back: bool = Field(False, description="a foundation's top card may come back "
                                                   "to the tableau")
    sequence_moves: SequenceMoves = Field(
        SequenceMoves.NONE, description="none: every move moves one card; by-free-cells: a "
        "built run moves to another pile as one move, as many cards as the free cells and "
        "empty piles could carry one at a time ((empty cells + 1) x 2^(empty piles), the "
        "target aside; empty cells + 1 where empty piles take kings only)")
    numbering: Numbering = Numbering.PYSOL
    listed: int | None = Field(
        None, ge=1, le=999, description="where the list of variants shows a shipped "
        "variant, lower first (the seed game, then its parents and their siblings); not a "
        "rule of play. A user's variants come after the shipped ones")

    @model_validator(mode="after")
    def _whole_deck(self) -> RulesFile:
        if self.cells_dealt > self.cells:
            raise ValueError(f"cells_dealt is {self.cells_dealt}, but there are only "
                             f"{self.cells} cells")
        if self.cells_dealt_to is not None and (
                len(self.cells_dealt_to) != self.cells_dealt
                or len(set(self.cells_dealt_to)) != len(self.cells_dealt_to)
                or any(cell >= self.cells for cell in self.cells_dealt_to)):
            raise ValueError(f"cells_dealt_to must name {self.cells_dealt} different cells "
                             f"of 0..{self.cells - 1}")
        dealt = sum(self.piles) + self.reserve + self.cells_dealt + 4 * self.aces_first
        if dealt != 52:
            raise ValueError(f"the deal places {dealt} cards, not 52 (piles + reserve + "
                             "cells_dealt, and 4 aces when aces_first)")
        return self


def checked(data: dict[str, Any], source: str) -> dict[str, Any]:
    """The rules of a rules file's TOML `data`, every omitted one filled in, or
    InvalidInput naming every fault in one line."""
    for key in ("piles", "cells_dealt_to"):  # TOML has arrays, the schema tuples
        if isinstance(data.get(key), list):
            data[key] = tuple(data[key])
    for key, enum in _CHOICES.items():
        if isinstance(data.get(key), str) and data[key] in set(enum):
            data[key] = enum(data[key])
    try:
        return RulesFile.model_validate(data).model_dump()
    except ValidationError as error:
        named = [_fault(e, fault) for e, fault in zip(error.errors(include_url=False),
                                                      faults(error), strict=True)]
        raise InvalidInput(f"{source}: {'; '.join(named)}") from None


# the fields of a choice, each of its enum's values (read from TOML's strings before the
# schema, which takes the enum's members alone)
_CHOICES: dict[str, type[StrEnum]] = {"build": Build, "empty": Fill, "numbering": Numbering,
                                      "sequence_moves": SequenceMoves}


def _fault(error: Any, fault: str) -> str:
    """One fault of a rules file: a choice's names the values it takes, a check of ours
    is in its own words, any other in the schema's (a field is a rules field)."""
    field = error["loc"][0] if len(error["loc"]) == 1 else None
    if field in _CHOICES and error["type"] == "is_instance_of":
        value = error["input"]
        said = repr(value) if isinstance(value, str) else shown(value)
        said = said if len(said) <= 40 else said[:37] + "..."
        return f"{field}: {said} is not one of {', '.join(_CHOICES[field])}"
    if error["type"] == "value_error":
        return str(error["ctx"]["error"])
    return fault.replace("is not a field of this position", "is not a rules field")
