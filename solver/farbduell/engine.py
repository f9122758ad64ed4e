"""The Farbduell rules for the Classic, Belagerung and Tag & Nacht tables: a state value,
the legal actions, and applying one.

Turn handovers drive the Bomb's fuse and the Mitternachtsuhr: the handover that ends the
bomber's (winder's) own play does not count, a Skip's jump counts one, and a two-player
Skip or Reverse or an Alle passen (play again) is a handover to oneself that counts one.
All randomness (shuffles, the pairing of day and night faces) comes from the state's
seed, so a game is a function of its seed and its actions.

Tag & Nacht: the side in play (day or night) is global; a card is matched, played and
scored by its face on that side. A flip turns the table over: the top card's other face
becomes the card to match and its action is not executed; when that face is a wild, the
Tischwende's player names the colour with the play, and after a clock flip the player
receiving the turn names it first (`Choose`). The state is the full truth: who may see
which face is not the engine's business.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from solver.errors import IllegalMove, InvalidInput
from solver.farbduell.tables import HUNT, NUMBERS, PENALTY, SIDES, Card, Table, other_side


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


Timer = TypeVar("Timer", Fuse, Clock)


@dataclass(frozen=True)
class State:
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


@dataclass(frozen=True)
class Play:
    card: Card
    colour: str | None = None   # the colour a wild names (or a Tischwende turning over a wild)

    def __str__(self) -> str:
        return f"play {self.card}" + (f" {self.colour}" if self.colour else "")


@dataclass(frozen=True)
class Draw:
    """Draw one card, or collect the waiting stack, or draw out a waiting hunt."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Keep:
    """Keep the card just drawn; the turn ends."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True)
class Choose:
    """Name the colour in force (Tag & Nacht): after the midnight clock turns the table
    over onto a wild face, the player receiving the turn does so before acting."""

    colour: str

    def __str__(self) -> str:
        return f"choose {self.colour}"


Action = Play | Draw | Keep | Choose


def new_game(table: Table, players: int, seed: int, first: int | None = None) -> State:
    """Pair the faces (double-faced tables), shuffle, deal seven each, turn up a number
    card (by its day face) to start on."""
    config = table.config
    if not config.min_players <= players <= config.max_players:
        raise IllegalMove(f"a table seats {config.min_players} to {config.max_players} "
                          f"players, not {players}")
    rng = random.Random(seed)
    deck = list(table.deck)
    if table.double_faced:   # a random bijection between the day and the night faces
        nights = list(table.faces("night"))
        rng.shuffle(nights)
        deck = [replace(card, night=night) for card, night in zip(deck, nights, strict=True)]
    rng.shuffle(deck)
    hands = [sorted(deck[k * config.hand_start:(k + 1) * config.hand_start])
             for k in range(players)]
    pile = deck[players * config.hand_start:]
    while pile[0].rank not in NUMBERS:   # the first card is always a number card
        pile.append(pile.pop(0))
    start = pile.pop(0)
    return State(hands=tuple(tuple(h) for h in hands), draw_pile=tuple(pile),
                 discard=(start,), colour=start.colour,
                 to_move=rng.randrange(players) if first is None else first,
                 shields=(0,) * players, seed=rng.getrandbits(62), table=table)


def playable(state: State, card: Card) -> bool:
    """Whether the card may go on the pile now (not counting a just-drawn card's limit)."""
    face = state.face(card)
    if state.pending:
        return face.rank in state.table.answers[state.pending_kind]
    if not state.colour:   # a colour must be named first
        return False
    return face.wild or face.colour == state.colour or face.rank == state.face(state.top).rank


def legal_actions(state: State) -> list[Action]:
    """Every play (a wild once per colour it may name), drawing, and keeping a drawn card;
    or, while the colour in force is to be named, each colour."""
    if state.winner is not None:
        return []
    if not state.colour:
        return [Choose(colour) for colour in state.table.colours(state.side)]
    if state.drawn is not None:
        return [*_plays(state, state.drawn), Keep()]
    actions: list[Action] = []
    for card in dict.fromkeys(state.hands[state.to_move]):
        if playable(state, card):
            actions.extend(_plays(state, card))
    return [*actions, Draw()]


def _plays(state: State, card: Card) -> list[Play]:
    colours = _names(state, card)
    return [Play(card, colour) for colour in colours] if colours else [Play(card)]


def _names(state: State, card: Card) -> tuple[str, ...]:
    """The colours a play of the card chooses from: a wild's of the side in play; a
    Tischwende's of the other side when its other face, the new top, is a wild and it is
    not the last card; else none."""
    face = state.face(card)
    if face.wild:
        return state.table.colours(state.side)
    after = other_side(state.side)
    if face.rank == "flip" and card.face(after).wild and len(state.hands[state.to_move]) > 1:
        return state.table.colours(after)
    return ()


def apply(state: State, action: Action) -> State:
    """The state after the player to move takes this action; IllegalMove names why not."""
    if state.winner is not None:
        raise IllegalMove(f"the game is over: player {state.winner} won")
    if not state.colour and not isinstance(action, Choose):
        raise IllegalMove("the table turned over onto a wild: name the colour first "
                          f"(choose {'|'.join(state.table.colours(state.side))})")
    game = _Game(state)
    match action:
        case Play():
            game.play(action)
        case Draw():
            game.draw()
        case Keep():
            if state.drawn is None:
                raise IllegalMove("there is no drawn card to keep")
            game.drawn = None
            game.hand_over(game.next(game.to_move))
        case Choose():
            game.choose(action.colour)
        case _:
            raise IllegalMove(f"{action!r} is not an action")
    return game.freeze()


def scores(state: State) -> tuple[int, ...]:
    """Each seat's score at the end: what everybody still holds (by the faces of the
    side in play), less one's own."""
    held = [sum(state.table.points(card, state.side) for card in hand) for hand in state.hands]
    return tuple(sum(held) - own for own in held)


class _Game:
    """A mutable copy of a state for the length of one action."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.table = state.table
        self.hands = [list(hand) for hand in state.hands]
        self.draw_pile = list(state.draw_pile)
        self.discard = list(state.discard)
        self.colour = state.colour
        self.to_move = state.to_move
        self.direction = state.direction
        self.pending = state.pending
        self.pending_kind = state.pending_kind
        self.fuse = state.fuse
        self.shields = list(state.shields)
        self.drawn = state.drawn
        self.winner = state.winner
        self.seed = state.seed
        self.side = state.side
        self.clock = state.clock
        self.hunt_colour = state.hunt_colour

    def freeze(self) -> State:
        return replace(self.state, hands=tuple(tuple(sorted(h)) for h in self.hands),
                       draw_pile=tuple(self.draw_pile), discard=tuple(self.discard),
                       colour=self.colour, to_move=self.to_move, direction=self.direction,
                       pending=self.pending, pending_kind=self.pending_kind, fuse=self.fuse,
                       shields=tuple(self.shields), drawn=self.drawn, winner=self.winner,
                       seed=self.seed, side=self.side, clock=self.clock,
                       hunt_colour=self.hunt_colour)

    def next(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % len(self.hands)

    # ------------------------------------------------------------ actions

    def play(self, action: Play) -> None:
        card, me, state = action.card, self.to_move, self.state
        if self.drawn is not None and card != self.drawn:
            raise IllegalMove(f"only the card just drawn ({self.drawn}) may be played now")
        if card not in self.hands[me]:
            raise IllegalMove(f"{card} is not in the hand")
        face = state.face(card)
        if not playable(state, card):
            if self.pending_kind == HUNT:
                raise IllegalMove(f"a hunt for {self.hunt_colour} waits: nothing answers it, "
                                  f"draw until a {self.hunt_colour} card")
            if self.pending:
                answers = " or ".join(self.table.answers[self.pending_kind]) or "nothing"
                raise IllegalMove(f"a stack of {self.pending} waits: {answers} may answer it, "
                                  "or draw to collect it")
            raise IllegalMove(f"{face} matches neither {self.colour} nor "
                              f"{state.face(state.top).rank}")
        names = _names(state, card)
        if bool(names) != (action.colour is not None):
            raise IllegalMove(
                f"{card} names no colour" if not names
                else f"{card} names a colour: play {card} COLOUR" if face.wild
                else f"{card} turns the table over onto a wild: play {card} COLOUR")
        if names and action.colour not in names:
            side = self.side if face.wild else other_side(self.side)
            raise IllegalMove(f"{action.colour} is not a colour of this table"
                              + (f"'s {side} side" if self.table.double_faced else ""))
        self.drawn = None
        self.hands[me].remove(card)
        self.discard.append(card)
        self.colour = action.colour if face.wild else face.colour
        if not self.hands[me]:   # the last card has no effect, and a stack it answered is void
            self.winner, self.pending, self.pending_kind = me, 0, None
            return
        self.resolve(face, action.colour)

    def resolve(self, face: Card, named: str | None) -> None:
        me, two = self.to_move, len(self.hands) == 2
        if face.rank in PENALTY:
            self.pending += PENALTY[face.rank]
            if self.pending_kind != "draw4":
                self.pending_kind = face.rank
        elif face.rank == HUNT:
            self.pending, self.pending_kind, self.hunt_colour = 1, HUNT, self.colour
        elif face.rank == "shield":
            if self.pending:
                self.pending, self.pending_kind = 0, None
            else:
                self.shields[me] = min(self.shields[me] + 1,
                                       self.table.config.standing_shield_max)
        elif face.rank == "bomb":
            config = self.table.config
            size = self.fuse.size + config.fuse_relight_add if self.fuse else config.fuse_base
            self.fuse = Fuse(size, config.fuse_handovers, skip_next=True)
        elif face.rank == "clock":   # winding a running clock sets it back to the start
            self.clock = Clock(self.table.config.clock_handovers, skip_next=True)
        elif face.rank == "flip":
            self.flip(named)
        if face.rank == "skip":
            self.hand_over(me if two else self.next(me, 2))
        elif face.rank == "skipall":   # everybody else passes: play again
            self.hand_over(me)
        elif face.rank == "reverse":
            self.direction = -self.direction
            self.hand_over(me if two else self.next(me))
        else:
            self.hand_over(self.next(me))

    def draw(self) -> None:
        me = self.to_move
        if self.drawn is not None:
            raise IllegalMove(f"play the drawn card ({self.drawn}) or keep it")
        if self.pending:
            if self.pending_kind == HUNT:
                self.hunt(me)
            elif self.shields[me]:
                self.shields[me] -= 1
            else:
                self.take(me, self.pending)
            self.pending, self.pending_kind, self.hunt_colour = 0, None, None
            self.hand_over(self.next(me))
            return
        drawn = self.take(me, 1)
        if drawn and playable(self.state, drawn[0]):
            self.drawn = drawn[0]
        else:
            self.hand_over(self.next(me))

    def hunt(self, seat: int) -> None:
        """Draw until a card whose face of the hunted colour's side (the night face for a
        Farbjagd) has that colour; a wild face never does. Stops when no card is left."""
        side = "night" if self.hunt_colour in self.table.night_colours else "day"
        while True:
            drawn = self.take(seat, 1)
            if not drawn or drawn[0].face(side).colour == self.hunt_colour:
                return

    def choose(self, colour: str) -> None:
        if self.colour:
            raise IllegalMove(f"no colour is to be named now ({self.colour} is in force)")
        if colour not in self.table.colours(self.side):
            raise IllegalMove(f"{colour} is not a {self.side} colour "
                              f"({', '.join(self.table.colours(self.side))})")
        self.colour = colour

    # ------------------------------------------------------------ the table

    def flip(self, named: str | None) -> None:
        """Turn the table over: every card keeps its place, the top card's other face is
        now the card to match (its action is not executed). On a wild face the colour is
        the one the Tischwende named, or else ("") the next player to act names it."""
        self.side = other_side(self.side)
        top = self.discard[-1].face(self.side)
        self.colour = (named or "") if top.wild else top.colour

    # ------------------------------------------------------------ handovers

    def hand_over(self, to: int) -> None:
        """The turn passes (to the same seat on a two-player Skip or Reverse, or an Alle
        passen); the fuse and the clock count it. At 0 the fuse deals the BOOM to the seat
        receiving the turn, and the clock turns the table over before that seat acts."""
        self.to_move = to
        fuse, clock = self.fuse, self.clock
        if fuse is not None:
            self.fuse = _counted(fuse)
            if self.fuse is None:
                self.take(to, fuse.size)
        if clock is not None:
            self.clock = _counted(clock)
            if self.clock is None:
                self.flip(None)

    def take(self, seat: int, count: int) -> list[Card]:
        """Draw cards into a hand, reshuffling the discard pile (all but its top) into
        the draw pile when it runs out; stops when both are exhausted."""
        taken = []
        for _ in range(count):
            if not self.draw_pile:
                if len(self.discard) < 2:
                    break
                rest, self.discard = self.discard[:-1], self.discard[-1:]
                rng = random.Random(self.seed)
                rng.shuffle(rest)
                self.seed = rng.getrandbits(62)
                self.draw_pile = rest
            taken.append(self.draw_pile.pop(0))
        self.hands[seat].extend(taken)
        return taken


# ---------------------------------------------------------------- JSON

GAME = "farbduell"
_KEYS = {"game", "table", "hands", "draw_pile", "discard", "colour", "to_move", "direction",
         "pending", "pending_kind", "fuse", "shields", "drawn", "winner", "seed"}
_TWO_SIDED_KEYS = {"side", "clock", "hunt_colour"}   # double-faced tables only


def _counted(timer: Timer) -> Timer | None:
    """A fuse or a clock after one handover (they count alike, spec §2); None when it
    goes off now."""
    if timer.skip_next:
        return replace(timer, skip_next=False)
    if timer.count > 1:
        return replace(timer, count=timer.count - 1)
    return None


def to_json(state: State) -> dict[str, Any]:
    """The position as a JSON value; a double-faced card as DAY/NIGHT ("red-7/teal-skipall")."""
    fuse = state.fuse
    data = {
        "game": GAME, "table": state.table.name,
        "hands": [[str(card) for card in hand] for hand in state.hands],
        "draw_pile": [str(card) for card in state.draw_pile],
        "discard": [str(card) for card in state.discard],
        "colour": state.colour or None, "to_move": state.to_move, "direction": state.direction,
        "pending": state.pending, "pending_kind": state.pending_kind,
        "fuse": None if fuse is None else {"size": fuse.size, "count": fuse.count,
                                           "skip_next": fuse.skip_next},
        "shields": list(state.shields), "drawn": None if state.drawn is None else str(state.drawn),
        "winner": state.winner, "seed": state.seed,
    }
    if state.table.double_faced:
        clock = state.clock
        data |= {"side": state.side, "hunt_colour": state.hunt_colour,
                 "clock": None if clock is None else {"count": clock.count,
                                                      "skip_next": clock.skip_next}}
    return data


def load(data: Any, tables: Mapping[str, Table]) -> State:
    """A position from its JSON value. The draw pile may be left out: it is then the
    cards placed nowhere else, in table order (on a double-faced table the day faces
    left over paired in table order with the night faces left over). Every fault is
    named, all at once."""
    if not isinstance(data, dict):
        raise InvalidInput("position must be a JSON object")
    table = tables.get(data.get("table", "classic"))
    two_sided = table is None or table.double_faced
    problems = [f"position has an unknown field {key!r}"
                for key in data.keys() - _KEYS - (_TWO_SIDED_KEYS if two_sided else set())]
    if data.get("game", GAME) != GAME:
        problems.append(f"position is of game {data['game']!r}, not {GAME!r}")
    if table is None:
        raise InvalidInput(problems + [f"no table is called {data.get('table')!r} "
                                       f"(tables: {', '.join(tables)})"])

    def cards(value: Any, what: str) -> list[Card]:
        if not isinstance(value, list):
            problems.append(f"{what} must be a list of cards")
            return []
        result = []
        for text in value:
            try:
                result.append(table.card(str(text)))
            except InvalidInput as error:
                problems.append(f"{what}: {error}")
        return result

    hands_data = data.get("hands")
    if not isinstance(hands_data, list) or not (
            table.config.min_players <= len(hands_data) <= table.config.max_players):
        raise InvalidInput(problems + [f"position needs \"hands\": a list of "
                                       f"{table.config.min_players} to "
                                       f"{table.config.max_players} hands"])
    hands = [cards(hand, f"hand {k}") for k, hand in enumerate(hands_data)]
    discard = cards(data.get("discard"), "discard")
    if not discard and not problems:
        problems.append("discard must hold at least the top card")
    pile = None if data.get("draw_pile") is None else cards(data["draw_pile"], "draw_pile")
    placed = Counter(discard) + Counter(pile or [])
    for hand in hands:
        placed.update(hand)
    rest = _rest(table, placed, problems)
    if pile is not None and rest:
        problems.append(f"position misses {len(rest)} cards: {', '.join(map(str, rest[:5]))}...")
    seats = len(hands)
    fuse_data = data.get("fuse")
    if fuse_data is not None and (not isinstance(fuse_data, dict)
                                  or set(fuse_data) != {"size", "count", "skip_next"}):
        problems.append("fuse must be null or {\"size\": n, \"count\": c, \"skip_next\": b}")
        fuse_data = None
    side = data.get("side", "day")
    if side not in SIDES:
        problems.append("side must be day or night")
        side = "day"
    clock_data = data.get("clock")
    if clock_data is not None and (not isinstance(clock_data, dict)
                                   or set(clock_data) != {"count", "skip_next"}):
        problems.append("clock must be null or {\"count\": c, \"skip_next\": b}")
        clock_data = None
    colours = table.colours(side)
    top_face = discard[-1].face(side) if discard else None
    colour = data.get("colour", top_face.colour if top_face else "")
    if colour is None and top_face is not None and top_face.wild and table.double_faced:
        colour = ""    # the table turned over onto a wild: the player to move names a colour
    elif colour not in colours:
        problems.append(f"colour must be one of {', '.join(colours)}")
    kind = data.get("pending_kind")
    if kind not in (None, *table.answers):
        problems.append(f"pending_kind must be null or one of {', '.join(table.answers)}")
    pending = data.get("pending", 0)
    if type(pending) is not int or pending < 0:
        problems.append("pending must be a whole number >= 0")
    elif (pending > 0) != (kind is not None):
        problems.append("pending and pending_kind go together: a stack has both or neither")
    elif kind == HUNT and pending != 1:
        problems.append("a waiting hunt has pending 1")
    hunt_colour = data.get("hunt_colour")
    if (kind == HUNT) != (hunt_colour is not None):
        problems.append("hunt_colour goes with pending_kind hunt: a hunt has both or neither")
    elif hunt_colour is not None and hunt_colour not in table.colours("day") + table.night_colours:
        problems.append(f"hunt_colour must be one of "
                        f"{', '.join(table.colours('day') + table.night_colours)}")
    if data.get("to_move", 0) not in range(seats):
        problems.append(f"to_move must be a seat 0..{seats - 1}")
    if data.get("direction", 1) not in (1, -1):
        problems.append("direction must be 1 or -1")
    drawn = data.get("drawn")
    drawn_card = None
    if drawn is not None:
        found = cards([drawn], "drawn")
        drawn_card = found[0] if found else None
        to_move = data.get("to_move", 0)
        if drawn_card is not None and to_move in range(seats) and drawn_card not in hands[to_move]:
            problems.append(f"the drawn card {drawn_card} is not in the hand of the player to move")
    if problems:
        raise InvalidInput(problems)
    return State(
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        draw_pile=tuple(rest if pile is None else pile), discard=tuple(discard),
        colour=colour, to_move=data.get("to_move", 0), direction=data.get("direction", 1),
        pending=pending, pending_kind=kind,
        fuse=None if fuse_data is None else Fuse(**fuse_data),
        shields=tuple(data.get("shields", [0] * seats)), drawn=drawn_card,
        winner=data.get("winner"), seed=data.get("seed", 0), side=side,
        clock=None if clock_data is None else Clock(**clock_data), hunt_colour=hunt_colour,
        table=table)


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
        full, held = Counter(faces), Counter()
        for card, count in placed.items():
            held[card.face(side)] += count
        problems.extend(f"position holds the {side} face {face} {held[face]} times (the deck "
                        f"has {full[face]})" for face in sorted(held) if held[face] > full[face])
        left[side] = sorted((full - held).elements(), key=faces.index)
    return [replace(day, night=night)
            for day, night in zip(left["day"], left["night"], strict=False)]
