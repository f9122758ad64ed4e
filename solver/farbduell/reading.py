"""Reading a Farbduell position's JSON: the wire schema (types and ranges), then the
checks that need its table, every fault named at once.

The draw pile may be left out: it is then the cards placed nowhere else, in table order
(on a double-faced table the day faces left over paired in table order with the night
faces left over). A position the reader accepts can be played: every seat it names
exists, every card is the table's and no more often than its deck holds it, a waiting
stack is one the table answers, and a drawn card can be played; and what it says a
player knows is true: a known card is in the hand it is known in, a known top or bottom
of the draw pile is the pile's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from solver.errors import InvalidInput
from solver.farbduell.data import HUNT, SIDES, Card, Table, default_tables
from solver.farbduell.position import Clock, Fuse, Knows, Position
from solver.farbduell.rules import playable
from solver.farbduell.schema import KnowsSchema, PositionSchema
from solver.numerals import read_number
from solver.reading import check

_TWO_SIDED_FIELDS = ("side", "clock", "hunt_colour")   # double-faced tables only


def read(data: Any, tables: Mapping[str, Table] | None = None) -> Position:
    """The position of a JSON value, on one of `tables` (default: the shipped ones)."""
    wire = check(PositionSchema, data)
    tables = default_tables() if tables is None else tables
    table = tables.get(wire.table)
    if table is None:
        raise InvalidInput(f"no table is called {wire.table!r} (tables: {', '.join(tables)})")
    return _Reader(wire, table).state()


class _Reader:
    """One position's checks against its table; each fault is added to `problems`."""

    def __init__(self, wire: PositionSchema, table: Table) -> None:
        self.wire = wire
        self.table = table
        self.problems: list[str] = []

    def state(self) -> Position:
        wire, table, problems = self.wire, self.table, self.problems
        config = table.config
        if not table.double_faced:
            problems.extend(f"position has an unknown field {key!r} (the {table.name} table's "
                            "cards have one face)"
                            for key in _TWO_SIDED_FIELDS if key in wire.model_fields_set)
        seats = len(wire.hands)
        if not config.min_players <= seats <= config.max_players:
            raise InvalidInput([*problems, f"position needs \"hands\": a list of "
                                           f"{config.min_players} to {config.max_players} hands"])
        hands = [self.cards(hand, f"hands[{seat}]") for seat, hand in enumerate(wire.hands)]
        discard = self.cards(wire.discard, "discard")
        pile = None if wire.draw_pile is None else self.cards(wire.draw_pile, "draw_pile")
        drawn = None if wire.drawn is None else self.cards([wire.drawn], "drawn")
        placed = Counter(discard) + Counter(pile or [])
        for hand in hands:
            placed.update(hand)
        rest = _rest(table, placed, problems)
        if pile is not None and rest:
            problems.append(f"position misses {len(rest)} cards: "
                            f"{', '.join(map(str, rest[:5]))}...")
        colour = self.colour(discard)
        self.stack()
        self.seats(seats, hands, drawn)
        shields = (0,) * seats if wire.shields is None else tuple(wire.shields)
        knows = None if wire.knows is None else self.knows(wire.knows, hands,
                                                           rest if pile is None else pile)
        if problems:
            raise InvalidInput(problems)
        state = Position(
            hands=tuple(tuple(sorted(hand)) for hand in hands),
            draw_pile=tuple(rest if pile is None else pile), discard=tuple(discard),
            colour=colour, to_move=wire.to_move, direction=wire.direction,
            pending=wire.pending, pending_kind=wire.pending_kind,
            fuse=None if wire.fuse is None else Fuse(wire.fuse.size, wire.fuse.count,
                                                     wire.fuse.skip_next),
            shields=shields, drawn=drawn[0] if drawn else None, winner=wire.winner,
            seed=wire.seed, side=wire.side,
            clock=None if wire.clock is None else Clock(wire.clock.count, wire.clock.skip_next),
            hunt_colour=wire.hunt_colour, knows=knows, table=table)
        if state.drawn is not None and not (state.colour and playable(state, state.drawn)):
            raise InvalidInput(f"the drawn card {state.drawn} cannot be played now: only a "
                               "playable card drawn waits to be played or kept")
        return state

    def cards(self, texts: list[str], where: str) -> list[Card]:
        """The table's cards of `texts`; a text that is none is a problem."""
        found = []
        for k, text in enumerate(texts):
            try:
                found.append(self.table.card(text))
            except InvalidInput as error:
                self.problems.append(f"{where}[{k}]: {error}")
        return found

    def colour(self, discard: list[Card]) -> str:
        """The colour in force: the one named, else the top card's; "" (null) when the
        table turned over onto a wild and the player to move names it."""
        wire, table = self.wire, self.table
        colours = table.colours(wire.side)
        if not discard:   # the top card is bad: that is the fault to name
            return ""
        top = discard[-1].face(wire.side)
        colour = wire.colour if "colour" in wire.model_fields_set else top.colour
        if colour is None and top.wild and table.double_faced:
            return ""
        if colour not in colours:
            self.problems.append(f"colour must be one of {', '.join(colours)}"
                                 + (" (or null, to be named, on a wild)" if table.double_faced
                                    else ""))
            return ""
        return colour

    def stack(self) -> None:
        """A waiting stack: a kind the table answers, with its count; a hunt's colour."""
        wire, table, problems = self.wire, self.table, self.problems
        kind, pending = wire.pending_kind, wire.pending
        if kind is not None and kind not in table.answers:
            problems.append(f"pending_kind must be null or one of {', '.join(table.answers)}")
        if (pending > 0) != (kind is not None):
            problems.append("pending and pending_kind go together: a stack has both or neither")
        elif kind == HUNT and pending != 1:
            problems.append("a waiting hunt has pending 1")
        hunts = table.colours("day") + table.night_colours
        if (kind == HUNT) != (wire.hunt_colour is not None):
            problems.append("hunt_colour goes with pending_kind hunt: a hunt has both or neither")
        elif wire.hunt_colour is not None and wire.hunt_colour not in hunts:
            problems.append(f"hunt_colour must be one of {', '.join(hunts)}")

    def seats(self, seats: int, hands: list[list[Card]], drawn: list[Card] | None) -> None:
        """Every seat named is one of the position's; a drawn card is in the mover's hand."""
        wire, problems = self.wire, self.problems
        last = seats - 1
        if wire.to_move > last:
            problems.append(f"to_move must be a seat 0..{last}")
        if wire.winner is not None and wire.winner > last:
            problems.append(f"winner must be null or a seat 0..{last}")
        if wire.shields is not None and len(wire.shields) != seats:
            problems.append(f"shields must hold one count per seat ({seats}), not "
                            f"{len(wire.shields)}")
        most = self.table.config.standing_shield_max
        problems.extend(f"shields[{seat}]: a seat has at most {most} standing shields"
                        for seat, count in enumerate(wire.shields or ()) if count > most)
        if drawn and wire.to_move <= last and drawn[0] not in hands[wire.to_move]:
            problems.append(f"the drawn card {drawn[0]} is not in the hand of the player "
                            "to move")

    def knows(self, entries: list[KnowsSchema], hands: list[list[Card]],
              pile: list[Card]) -> tuple[Knows, ...] | None:
        """What each seat knows, one entry per seat; every known card is where it is
        known to be (a card the opponent does not hold is a fault)."""
        problems, seats = self.problems, len(hands)
        if len(entries) != seats:
            problems.append(f"knows must hold one entry per seat ({seats}), not {len(entries)}")
            return None
        found = []
        for seat, entry in enumerate(entries):
            where = f"knows[{seat}]"
            others = [other for other in range(seats) if other != seat]
            known: list[list[Card]] = [[] for _ in range(seats)]
            pooled = self.cards(entry.opponent_hand, f"{where}.opponent_hand")
            if seats == 2:
                known[others[0]], pooled = pooled, []
                if entry.hands:
                    problems.append(f"{where}.hands is for more than two players: the "
                                    "opponent's known cards are opponent_hand")
            elif pooled and self.table.double_faced:
                problems.append(f"{where}.opponent_hand: on {self.table.name} with more than "
                                "two players every opponent's card shows its other face, so "
                                "its holder is known: name it in hands")
            for key, texts in entry.hands.items():
                holder = read_number(key)
                if seats > 2 and holder not in others:
                    problems.append(f"{where}.hands: {key!r} must be the seat of an opponent "
                                    f"({', '.join(map(str, others))})")
                elif seats > 2 and holder is not None:
                    known[holder] = self.cards(texts, f"{where}.hands[{key!r}]")
            if "own_hand" in entry.model_fields_set and not self.table.double_faced:
                problems.append(f"{where}.own_hand is for double-faced cards (Tag & Nacht): "
                                f"on the {self.table.name} table one sees all of one's hand")
            elif self.table.double_faced:
                known[seat] = self.cards(entry.own_hand, f"{where}.own_hand")
            for other in range(seats):
                field = ("own_hand" if other == seat else "opponent_hand" if seats == 2
                         else f"hands[{str(other)!r}]")
                self.within(f"{where}.{field}", known[other], hands[other], f"seat {other}")
            rest = Counter[Card]()
            for other in others:
                rest.update(hands[other])
                rest.subtract(known[other])
            self.within(f"{where}.opponent_hand", pooled, list((+rest).elements()),
                        "the opponents (beside the cards known by seat)")
            top = self.cards(entry.deck_top, f"{where}.deck_top")
            bottom = self.cards(entry.deck_bottom, f"{where}.deck_bottom")
            if len(top) + len(bottom) > len(pile):
                problems.append(f"{where}: deck_top and deck_bottom name "
                                f"{len(top) + len(bottom)} cards, more than the draw pile's "
                                f"{len(pile)}")
            else:
                if top != pile[:len(top)]:
                    problems.append(f"{where}.deck_top must be the top of the draw pile: "
                                    f"{', '.join(map(str, pile[:len(top)]))}")
                if bottom != pile[len(pile) - len(bottom):]:
                    problems.append(f"{where}.deck_bottom must be the bottom of the draw pile: "
                                    f"{', '.join(map(str, pile[len(pile) - len(bottom):]))}")
            found.append(Knows(hands=tuple(tuple(sorted(cards)) for cards in known),
                               pooled=tuple(sorted(pooled)), deck_top=tuple(top),
                               deck_bottom=tuple(bottom)))
        return tuple(found)

    def within(self, where: str, cards: list[Card], place: list[Card], holder: str) -> None:
        """Known cards are in the hand they are known in, as often as they are there."""
        held = Counter(place)
        for card, count in sorted(Counter(cards).items()):
            if count > held[card]:
                one = holder.startswith("seat")
                holds = (f"hold{'s' if one else ''} it {_times(held[card])}" if held[card]
                         else f"do{'es' if one else ''} not hold it")
                self.problems.append(f"{where}: {card} is known {_times(count)}, but "
                                     f"{holder} {holds}")


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _rest(table: Table, placed: Counter[Card], problems: list[str]) -> list[Card]:
    """The cards of the table placed nowhere, in table order; a card placed more often
    than the deck holds it is a problem. A double-faced table counts each side's faces
    and pairs the faces left over in table order."""
    if not table.double_faced:
        full = Counter(table.deck)
        problems.extend(f"position holds {card} {placed[card]} times (the deck has {full[card]})"
                        for card in sorted(placed) if placed[card] > full[card])
        return sorted((full - placed).elements(), key=table.deck.index)
    left = {}
    for side in SIDES:
        faces = table.faces(side)
        full, held = Counter(faces), Counter[Card]()
        for card, count in placed.items():
            held[card.face(side)] += count
        problems.extend(f"position holds the {side} face {face} {held[face]} times (the deck "
                        f"has {full[face]})" for face in sorted(held) if held[face] > full[face])
        left[side] = sorted((full - held).elements(), key=faces.index)
    return [replace(day, night=night)
            for day, night in zip(left["day"], left["night"], strict=False)]
