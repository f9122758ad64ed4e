"""The wire schema of a Fortress Fight Kingdom position: the JSON's shape, every type and
every range, published for clients that validate before they send (`fortress-solver
schema ffk`).

The ranges are what a real game reaches, with room: the bots call a game a draw after
300 rounds, and the largest values random play has reached are noted below (with the
resource win switched off: then stocks only grow, gold by the war chest at about
round²/4). Every number fits its message field (uint32, the seed uint64), so the command
line and a server refuse the same files.

What depends on the card table (the card ids, how often each is in the deck, the
castle that wins, a full hand) the reader checks after the schema, against the rules
it is given: solver/ffkingdom/position.py.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from solver.ffkingdom.data import shipped_cards
from solver.reading import Schema, schema

PLAYERS = 2                 # a duel
MAX_ROUND = 1_000           # seen: 50 with the resource win on
MAX_CASTLE = 1_000          # the castle that wins is the rules' (100): checked after
MAX_WALL = 10_000           # seen: 237
MAX_CORE_STOCK = 100_000    # Z, W, K: about 10 a round at most
MAX_GOLD = 1_000_000        # round 1,000's war chest has given about 250,000
MAX_PRODUCERS = 100         # seen: 16; each producer card costs 3 more than the last
MAX_GUARDS = 100            # seen: 3
MAX_SHIELDS = 100           # each is a Schild card: the table's copies are checked after
MAX_EFFECTS = 100           # poison or heal entries on one player; seen: 2
MAX_TICK = 100              # per turn and turns left of one entry; seen: 4 and 3
MAX_ACTIONS = 20            # actions left in a turn; seen: 2
MAX_CARDS = 200             # in one list of cards; the table has 72
MAX_CARD_ID = 40            # characters of a card id
MAX_SEED = 2**64 - 1

_RULES = shipped_cards()
_START = _RULES.start

CardId = Annotated[str, Field(
    max_length=MAX_CARD_ID, json_schema_extra={"enum": list(_RULES.cards)},
    description="a card's id in the card table (solver/ffkingdom/cards.toml)")]
Cards = Annotated[list[CardId], Field(max_length=MAX_CARDS)]
Producers = Annotated[int, Field(ge=0, le=MAX_PRODUCERS)]
CardType = Literal["bau", "angriff", "magie", "gold"]


def _count(default: int, high: int, description: str, proto: str | None = None) -> Any:
    """A number of a player; `proto` names its FfkPlayer field where the JSON's key differs
    (a serialization alias: the JSON read and the schema published are the key's)."""
    return Field(default, ge=0, le=high, description=description, serialization_alias=proto)


class TicksSchema(Schema):
    """An effect over several turns: `per` each turn, for `ticks` more turns."""

    per: Annotated[int, Field(ge=1, le=MAX_TICK)]
    ticks: Annotated[int, Field(ge=1, le=MAX_TICK)]


class ProducersPlayedSchema(Schema):
    """Producer cards played so far, per kind: each makes the next one dearer."""

    builders: Producers = 0
    soldiers: Producers = 0
    mages: Producers = 0
    markets: Producers = 0


class KnowsSchema(Schema):
    """What the player knows of the cards it cannot see, beyond what both players see
    (shown or deduced: solver/ffkingdom/knowledge.py); left out: nothing."""

    opponent_hand: Annotated[list[CardId], Field(
        max_length=MAX_CARDS, description="cards known to be in the opponent's hand (seen "
                                          "or deduced), in any order")] = []
    deck_top: Annotated[list[CardId], Field(
        max_length=MAX_CARDS, description="the deck's top cards it knows, top first")] = []


class PlayerSchema(Schema):
    """One player; a number left out takes the rules' starting value."""

    castle: int = _count(_START["castle"], MAX_CASTLE,
                         f"at most the castle that wins ({_RULES.config.castle_win})")
    wall: int = _count(_START["wall"], MAX_WALL, "takes damage before the castle")
    Z: int = _count(_START["Z"], MAX_CORE_STOCK, "bricks", "bricks")
    W: int = _count(_START["W"], MAX_CORE_STOCK, "weapons", "weapons")
    K: int = _count(_START["K"], MAX_CORE_STOCK, "crystals", "crystals")
    G: int = _count(_START["G"], MAX_GOLD, "gold", "gold")
    builders: int = _count(_START["builders"], MAX_PRODUCERS, "each adds a brick a turn")
    soldiers: int = _count(_START["soldiers"], MAX_PRODUCERS, "each adds a weapon a turn")
    mages: int = _count(_START["mages"], MAX_PRODUCERS, "each adds a crystal a turn")
    markets: int = _count(_START["markets"], MAX_PRODUCERS,
                          f"each adds {_RULES.config.market_gold_per_turn} gold a turn")
    producers_played: ProducersPlayedSchema = ProducersPlayedSchema()
    shields: int = _count(0, MAX_SHIELDS, "face-down Schild cards, each blocks a damage card")
    guards: int = _count(0, MAX_GUARDS, "each blocks one theft")
    double_next: bool = False
    poison: Annotated[list[TicksSchema], Field(max_length=MAX_EFFECTS,
                                             description="castle damage each own turn")] = []
    heal: Annotated[list[TicksSchema], Field(max_length=MAX_EFFECTS,
                                           description="wall added each own turn")] = []
    locked: CardType | None = Field(None, description="the card type not playable this turn")
    hand: Cards | None = Field(None, description="null or left out: unknown (not the "
                                                 "mover's); the unseen cards fill it")
    hand_size: int | None = Field(None, ge=0, le=MAX_CARDS,
                                  description="with the hand unknown; default a full hand")
    knows: KnowsSchema = KnowsSchema()


class PositionSchema(Schema):
    """A position: two players, the deck (top first; left out: unknown) and the discard
    pile (oldest first)."""

    game: Literal["fortress-fight-kingdom"] = "fortress-fight-kingdom"
    round: int = Field(1, ge=1, le=MAX_ROUND)
    to_move: int = Field(0, ge=0, le=1)
    first_player: int = Field(0, ge=0, le=1)
    actions_left: int = Field(1, ge=0, le=MAX_ACTIONS)
    resource_win: bool = Field(_RULES.config.resource_win_enabled,
                               description="100 bricks, weapons or crystals win; default: "
                                           "the rules' setting")
    winner: int | None = Field(None, ge=0, le=1, description="null: the game goes on")
    seed: int = Field(0, ge=0, le=MAX_SEED, description="drives reshuffles and random discards")
    players: Annotated[list[PlayerSchema], Field(min_length=PLAYERS, max_length=PLAYERS)]
    deck: Cards | None = Field(None, description="null or left out: unknown; the unseen "
                                                 "cards fill it in table order")
    deck_size: int | None = Field(None, ge=0, le=MAX_CARDS,
                                  description="how many cards the deck holds")
    discard: Cards = []


def position_schema() -> dict[str, Any]:
    return schema(PositionSchema, "fortress-fight-kingdom")
