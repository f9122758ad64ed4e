"""The wire schema of a position of Beleaguered Fortress's family: the JSON's shape, types
and sizes, published for clients that validate before they send (`fortress-solver
schema`), and the first step of the reader (solver/beleaguered/reading.py).

Each list is bounded by its length before its items are read: a pile holds at most the
deck's 52 cards, the tableau 13 piles, the reserve 12 slots, the cells 8, a card's or a
suit's text 8 characters. Which texts are cards and suits the schema publishes as
patterns but leaves to the reader, which reads every spelling `Card.parse` does and names
a text that is none in the game's words and place ("tableau:3: 'XX' is not a card"). What
a schema cannot say (the variant's shape, one whole deck, foundations that agree with
the cards) is the reader's.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from solver.beleaguered.position import NAME as NAME  # the wire's name of the game
from solver.beleaguered.rules_file import Name
from solver.beleaguered.variant import MAX_CELLS, MAX_PILES, MAX_RESERVE
from solver.reading import MAX_UNKNOWN_KEYS, MaxKeys, Schema, schema

PILES = 8  # Beleaguered Fortress's
RESERVE_SLOTS = 12
MAX_CARDS = 52  # in one pile, and in the whole position: the deck's
MAX_TEXT = 8  # a card or a suit as text: "10♠" is 3 characters, with room for spaces
MAX_SUIT_KEYS = 4 + MAX_UNKNOWN_KEYS  # of the foundations: the suits, and room to name strays
CARD_PATTERN = r"^\s*([Aa2-9TtJjQqKk]|10)[CDHScdhs♣♦♥♠♧♢♡♤]\s*$"
SUIT_PATTERN = r"^\s*[CDHScdhs♣♦♥♠♧♢♡♤]\s*$"

CardText = Annotated[str, Field(
    max_length=MAX_TEXT, json_schema_extra={"pattern": CARD_PATTERN},
    description='a card: rank A 2-9 T J Q K (or 10), suit C D H S (or ♣ ♦ ♥ ♠), e.g. "TS"')]
SuitText = Annotated[str, Field(max_length=MAX_TEXT, json_schema_extra={"pattern": SUIT_PATTERN})]
Top = Annotated[int, Field(ge=0, le=13, description="cards home in that suit, 0 to 13")]


class PositionSchema(Schema):
    """The variant (omitted: beleaguered-fortress), its tableau piles (bottom to top;
    fewer are padded with empty ones), reserve slots and free cells (null: empty) and the
    foundations (omitted: inferred from the cards left)."""

    game: Literal["patience", "beleaguered-fortress"] = "patience"  # its former name read too
    variant: Name | None = None
    tableau: Annotated[list[Annotated[list[CardText], Field(max_length=MAX_CARDS)]],
                       Field(max_length=MAX_PILES)]
    reserve: Annotated[list[CardText | None], Field(max_length=MAX_RESERVE)] = []
    cells: Annotated[list[CardText | None], Field(max_length=MAX_CELLS)] = []
    foundations: Annotated[dict[SuitText, Top], MaxKeys(MAX_SUIT_KEYS)] | None = None


def position_schema() -> dict[str, Any]:
    return schema(PositionSchema, NAME)
