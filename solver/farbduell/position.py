"""A Farbduell position as an immutable value, and its JSON form.

The state is the full truth: every hand, the draw pile's order, the table's side, and
what each player knows of the cards hidden from them (`knows`, kept current by the
rules; what the player to move may use is solver/farbduell/knowledge.py's business).
All randomness (reshuffles) comes from the state's seed, so a game is a function of its
seed and its actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.farbduell.data import Card, Table

NAME = "farbduell"


@dataclass(frozen=True)
class Fuse:
    size: int            # cards the BOOM deals
    count: int           # handovers left
    skip_next: bool      # the handover ending the bomber's play does not count


@dataclass(frozen=True)
class Clock:
    """A wound Mitternachtsuhr (Tag & Nacht): at 0 it flips the table."""

    count: int           # handovers left
    skip_next: bool      # the handover ending the winder's play does not count


@dataclass(frozen=True)
class Knows:
    """What one player knows of the cards hidden from them, seen or deduced, beyond what
    the rules show them at a glance (the other faces of the others' hands on Tag & Nacht):
    each a sub-multiset of the real cards, sorted (solver/farbduell/knowledge.py).

    `hands[seat]`: cards known to be in that seat's hand. The player's own seat holds, on
    a double-faced table, their own cards whose other face they have seen (on a one-faced
    table one simply sees one's hand, and it stays empty). `pooled`: cards known to be in
    some opponent's hand, the holder unknown (three or more players, after the draw pile
    ran out). `deck_top`: the known cards on top of the draw pile, top first;
    `deck_bottom`: the known cards at its bottom, in pile order (the last is the bottom).
    """

    hands: tuple[tuple[Card, ...], ...]
    pooled: tuple[Card, ...] = ()
    deck_top: tuple[Card, ...] = ()
    deck_bottom: tuple[Card, ...] = ()

    @classmethod
    def nothing(cls, players: int, deck_bottom: tuple[Card, ...] = ()) -> Knows:
        return cls(hands=((),) * players, deck_bottom=deck_bottom)

    def to_json(self, seat: int, double_faced: bool) -> dict[str, Any]:
        """The JSON of the player at `seat`: `opponent_hand` (with more than two players,
        the cards whose holder is unknown) and `deck_top`; `deck_bottom`, `hands` (more
        than two players: by seat) and `own_hand` (double-faced tables) when not empty."""
        players = len(self.hands)
        others = [other for other in range(players) if other != seat]
        opponent = self.hands[others[0]] if players == 2 else self.pooled
        data: dict[str, Any] = {"opponent_hand": _texts(opponent),
                                "deck_top": _texts(self.deck_top)}
        if self.deck_bottom:
            data["deck_bottom"] = _texts(self.deck_bottom)
        if players > 2 and any(self.hands[other] for other in others):
            data["hands"] = {str(other): _texts(self.hands[other]) for other in others
                             if self.hands[other]}
        if double_faced and self.hands[seat]:
            data["own_hand"] = _texts(self.hands[seat])
        return data


def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


@dataclass(frozen=True)
class Position:
    hands: tuple[tuple[Card, ...], ...]   # sorted, one per seat
    draw_pile: tuple[Card, ...]           # top first
    discard: tuple[Card, ...]             # bottom first: the last card is the top
    colour: str                           # the colour in force (a wild's chosen colour);
                                          # "" while the player to move must name one
    to_move: int = 0
    direction: int = 1
    pending: int = 0                      # cards waiting for the player to move (a hunt: 1)
    pending_kind: str | None = None       # "draw2" or "draw4" (the stack's level), "draw1",
                                          # "draw5", or "hunt"
    fuse: Fuse | None = None
    shields: tuple[int, ...] = ()         # standing shields per seat (Belagerung)
    drawn: Card | None = None             # a playable card just drawn: play it or keep it
    winner: int | None = None
    seed: int = 0
    side: str = "day"                     # the side in play (Tag & Nacht)
    clock: Clock | None = None            # a wound Mitternachtsuhr (Tag & Nacht)
    hunt_colour: str | None = None        # the colour a waiting hunt draws until
    knows: tuple[Knows, ...] | None = None   # per seat; None: not kept (a position read
                                             # without it: nothing known, hints as before)
    table: Table = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def top(self) -> Card:
        return self.discard[-1]

    def face(self, card: Card) -> Card:
        """The card's face on the side in play (a one-sided card is its own face)."""
        return card.face(self.side)

    @classmethod
    def from_json(cls, data: Any, tables: Mapping[str, Table] | None = None) -> Position:
        """A position from its JSON value, on one of `tables` (default: the shipped
        tables.toml); InvalidInput names every fault (solver/farbduell/reading.py)."""
        from solver.farbduell.reading import read  # it builds States: import it late

        return read(data, tables)

    def to_json(self) -> dict[str, Any]:
        """The position as a JSON value; a double-faced card as DAY/NIGHT
        ("red-7/teal-skipall")."""
        fuse = self.fuse
        data: dict[str, Any] = {
            "game": NAME, "table": self.table.name,
            "hands": [[str(card) for card in hand] for hand in self.hands],
            "draw_pile": [str(card) for card in self.draw_pile],
            "discard": [str(card) for card in self.discard],
            "colour": self.colour or None, "to_move": self.to_move,
            "direction": self.direction, "pending": self.pending,
            "pending_kind": self.pending_kind,
            "fuse": None if fuse is None else {"size": fuse.size, "count": fuse.count,
                                               "skip_next": fuse.skip_next},
            "shields": list(self.shields),
            "drawn": None if self.drawn is None else str(self.drawn),
            "winner": self.winner, "seed": self.seed,
        }
        if self.table.double_faced:
            clock = self.clock
            data |= {"side": self.side, "hunt_colour": self.hunt_colour,
                     "clock": None if clock is None else {"count": clock.count,
                                                          "skip_next": clock.skip_next}}
        if self.knows is not None:
            data["knows"] = [known.to_json(seat, self.table.double_faced)
                             for seat, known in enumerate(self.knows)]
        return data
