"""The wire schema of a Farbduell position: the JSON's shape, types and ranges.

What depends on the table (its colours, its cards, how many seats it takes, which
stacks it answers) is checked afterwards against the table the position names
(solver/farbduell/reading.py); the ranges here hold for every table, with room.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field
from pydantic.config import JsonDict

from solver.farbduell.position import NAME
from solver.reading import MaxKeys, Schema, schema

MAX_SEATS = 12       # the tables seat 2 to 6
MAX_CARDS = 500      # in one hand or pile; a deck is 112 cards
MAX_PENDING = 500    # a stack of every penalty card of a deck is 40
MAX_TIMER = 100      # a fuse deals 4 to 10 cards after 3 handovers; a clock counts 3
MAX_SHIELDS = 10     # standing shields of one seat: the tables allow 1
MAX_NAME = 40        # a table's, a colour's or a card's name
FACE = r"([A-Za-z]+-[A-Za-z0-9]+|[A-Za-z0-9]+)"

CardText = Annotated[str, Field(
    max_length=MAX_NAME,
    description='a card of the table: COLOUR-RANK ("red-7", "blue-draw2") or a wild ("joker", '
                '"draw4"); on a double-faced table DAY/NIGHT ("red-7/teal-skipall")',
    json_schema_extra={"pattern": rf"^\s*{FACE}(/{FACE})?\s*$"})]
Cards = Annotated[list[CardText], Field(max_length=MAX_CARDS)]
Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS, description="a seat, from 0")]
Name = Annotated[str, Field(max_length=MAX_NAME)]
Count = Annotated[int, Field(ge=1, le=MAX_TIMER, description="turn handovers left")]


def _no_default(field: JsonDict) -> None:
    """Left out and null differ (the top card's colour, a colour to be named): no default
    stands for both. (A message, whose field is only set or not, sends such a null as the
    field set to its zero value, "".)"""
    field.pop("default", None)


class FuseSchema(Schema):
    """A burning Bomb fuse."""

    size: Annotated[int, Field(ge=1, le=MAX_TIMER, description="cards the BOOM deals")]
    count: Count
    skip_next: bool = Field(description="the handover ending the bomber's play does not count")


class ClockSchema(Schema):
    """A wound Mitternachtsuhr (Tag & Nacht): at 0 it turns the table over."""

    count: Count
    skip_next: bool = Field(description="the handover ending the winder's play does not count")


class KnowsSchema(Schema):
    """What one player knows of the cards hidden from them, seen or deduced: each a
    sub-multiset of the real cards. Left out: nothing known. The faces a player sees at a
    glance on Tag & Nacht (the other faces of the others' hands and of the draw pile's
    top card) are not listed: the rules show them."""

    opponent_hand: Cards = Field(
        [], description="cards known to be in the opponent's hand; with more than two "
                        "players, in some opponent's hand, the holder not known")
    deck_top: Cards = Field([], description="the known cards on top of the draw pile, top "
                                            "first")
    deck_bottom: Cards = Field([], description="the known cards at the bottom of the draw "
                                               "pile, in pile order (the last is the bottom "
                                               "card): those turned up before the start card")
    hands: Annotated[dict[Name, Cards], MaxKeys(MAX_SEATS), Field(
        description='more than two players: by seat ("2"), the cards known to be in that '
                    "opponent's hand")] = {}
    own_hand: Cards = Field([], description="Tag & Nacht: the player's own cards whose "
                                            "other face they have seen")


class PositionSchema(Schema):
    """A Farbduell position: every hand, the piles, and what waits for the player to move.
    A field left out takes the default shown; `side`, `clock` and `hunt_colour` belong
    to double-faced tables (Tag & Nacht) only, as does `own_hand` in `knows`."""

    game: Literal["farbduell"] = "farbduell"
    table: Name = Field("classic", description="a table of tables.toml: classic, belagerung "
                                               "or tag_nacht")
    hands: Annotated[list[Cards], Field(max_length=MAX_SEATS,
                                        description="one hand per seat, seat 0 first")]
    draw_pile: Cards | None = Field(None, description="top first; left out (or null): the "
                                                      "cards placed nowhere else, in table order")
    discard: Annotated[list[CardText], Field(min_length=1, max_length=MAX_CARDS,
                                             description="bottom first: the last is the top")]
    colour: Name | None = Field(None, description="the colour in force; left out: the top "
                                                  "card's; null: the player to move names it "
                                                  "(the table turned over onto a wild)",
                                json_schema_extra=_no_default)
    to_move: Seat = 0
    direction: Literal[1, -1] = 1
    pending: Annotated[int, Field(ge=0, le=MAX_PENDING,
                                  description="cards waiting for the player to move")] = 0
    pending_kind: Literal["draw2", "draw4", "draw1", "draw5", "hunt"] | None = Field(
        None, description="the waiting stack's kind (its level: draw2 or draw4 on Belagerung)")
    fuse: FuseSchema | None = None
    shields: Annotated[list[Annotated[int, Field(ge=0, le=MAX_SHIELDS)]],
                       Field(max_length=MAX_SEATS,
                             description="standing shields per seat (Belagerung); left out: "
                                         "none")] | None = None
    drawn: CardText | None = Field(None, description="a card just drawn by the player to "
                                                     "move, to play or keep")
    winner: Seat | None = None
    seed: Annotated[int, Field(ge=0, lt=2**64, description="drives reshuffles")] = 0
    side: Literal["day", "night"] = Field("day", description="the side in play")
    clock: ClockSchema | None = None
    hunt_colour: Name | None = Field(None, description="the colour a waiting hunt draws until")
    knows: Annotated[list[KnowsSchema], Field(
        max_length=MAX_SEATS,
        description="what each player knows of the cards hidden from them, one per seat, "
                    "seat 0 first; left out: not kept (nothing known)")] | None = None


def position_schema() -> dict[str, Any]:
    return schema(PositionSchema, NAME)
