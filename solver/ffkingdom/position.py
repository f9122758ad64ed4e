"""A Fortress Fight Kingdom position as an immutable value, with its JSON form.

A state always sits where the player to move chooses an action (or the game is over).
Cards are named by their id in cards.toml; hands are kept sorted (order carries no
meaning), the deck top first, the discard pile oldest first. Face-down shields are
counted per player: each is a Schild card, out of the deck until it is used up.

Each player also carries what it knows of the cards it cannot see (`Knowledge`: cards
known to be in the opponent's hand, the deck's known top cards; how it is kept:
solver/ffkingdom/knowledge.py). A position read from JSON may leave the opponent's
hand or the deck order out (a player's view of a real game): the unseen cards are then
filled in a fixed order around what the players know (known cards where they are known
to be) and `Position` says which parts were known. Reading: solver/ffkingdom/reading.py.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from solver.errors import InvalidInput
from solver.ffkingdom.data import PRODUCERS, RESOURCES, CardTable

NAME = "fortress-fight-kingdom"
SHIELD_CARD = "schild"


@dataclass(frozen=True)
class Knowledge:
    """What one player knows of the cards it cannot see: cards it knows to be in the
    opponent's hand (a sorted multiset, always part of that hand) and the deck's top cards
    it knows, in order (always the deck's first cards). Empty: nothing beyond what all
    see. How it is gained and lost: solver/ffkingdom/knowledge.py."""

    opponent_hand: tuple[str, ...] = ()
    deck_top: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.opponent_hand or self.deck_top)

    def to_json(self) -> dict[str, list[str]]:
        return {"opponent_hand": list(self.opponent_hand), "deck_top": list(self.deck_top)}


NOTHING = Knowledge()


@dataclass(frozen=True)
class Player:
    castle: int
    wall: int
    stocks: tuple[int, int, int, int]        # Z W K G
    producers: tuple[int, int, int, int]     # builders soldiers mages markets
    producers_played: tuple[int, int, int, int] = (0, 0, 0, 0)  # producer cards played, per kind
    shields: int = 0
    guards: int = 0
    double_next: bool = False
    poison: tuple[tuple[int, int], ...] = ()  # (per tick, ticks left) on this player
    heal: tuple[tuple[int, int], ...] = ()    # (wall per tick, ticks left) for this player
    locked: str | None = None                 # card type this player may not play this turn
    hand: tuple[str, ...] = ()
    knows: Knowledge = NOTHING                # what this player knows of the hidden cards

    def stock(self, resource: str) -> int:
        return self.stocks[RESOURCES.index(resource)]

    def to_json(self) -> dict[str, Any]:
        return {
            "castle": self.castle, "wall": self.wall,
            **dict(zip(RESOURCES, self.stocks, strict=True)),
            **dict(zip(PRODUCERS, self.producers, strict=True)),
            "producers_played": dict(zip(PRODUCERS, self.producers_played, strict=True)),
            "shields": self.shields, "guards": self.guards, "double_next": self.double_next,
            "poison": [{"per": per, "ticks": ticks} for per, ticks in self.poison],
            "heal": [{"per": per, "ticks": ticks} for per, ticks in self.heal],
            "locked": self.locked, "hand": list(self.hand), "knows": self.knows.to_json(),
        }


@dataclass(frozen=True)
class State:
    NAME: ClassVar[str] = NAME

    players: tuple[Player, Player]
    deck: tuple[str, ...]                 # top first
    discard: tuple[str, ...] = ()         # oldest first
    to_move: int = 0
    first_player: int = 0
    round: int = 1
    actions_left: int = 1
    resource_win: bool = True
    winner: int | None = None
    seed: int = 0                         # drives reshuffles and random discards
    # The rules are not part of the position's identity.
    rules: CardTable = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    @property
    def mover(self) -> Player:
        return self.players[self.to_move]

    @property
    def opponent(self) -> Player:
        return self.players[1 - self.to_move]

    def with_player(self, index: int, player: Player) -> State:
        players = (player, self.players[1]) if index == 0 else (self.players[0], player)
        return replace(self, players=players)

    def cards(self) -> Counter[str]:
        """Every card of the game wherever it is: deck, hands, discard pile, shields."""
        counts = Counter(self.deck) + Counter(self.discard)
        for player in self.players:
            counts.update(player.hand)
            counts[SHIELD_CARD] += player.shields
        return counts

    @classmethod
    def from_json(cls, data: Any, rules: CardTable | None = None) -> State:
        """A position whose every card is placed (the opponent's hand and the deck too)."""
        from solver.ffkingdom.reading import load  # the reader builds these values

        loaded = load(data, rules)
        if not loaded.complete:
            raise InvalidInput("position leaves the opponent's hand or the deck unknown")
        return loaded.state

    def to_json(self) -> dict[str, Any]:
        return {
            "game": NAME, "round": self.round, "to_move": self.to_move,
            "first_player": self.first_player, "actions_left": self.actions_left,
            "resource_win": self.resource_win, "winner": self.winner, "seed": self.seed,
            "players": [player.to_json() for player in self.players],
            "deck": list(self.deck), "discard": list(self.discard),
        }

    def __str__(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Position:
    """The game's position: a state (the whole table, what each player knows among it),
    and whether its hidden parts were given or filled in when it was read."""

    NAME: ClassVar[str] = NAME

    state: State
    opponent_hand_known: bool
    deck_known: bool

    @property
    def complete(self) -> bool:
        return self.opponent_hand_known and self.deck_known

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """A position as the shipped card table reads it."""
        from solver.ffkingdom.reading import load  # the reader builds these values

        return load(data)

    def to_json(self) -> dict[str, Any]:
        """The state's JSON with what was not known left out again (the sizes said
        instead), so that it reads back to the same position."""
        data = self.state.to_json()
        if not self.deck_known:
            data["deck_size"] = len(data.pop("deck"))
        if not self.opponent_hand_known:
            opponent = data["players"][1 - self.state.to_move]
            opponent["hand_size"] = len(opponent.pop("hand"))
        return data
