"""The Farbduell rules for the Classic and Belagerung tables: a state value, the legal
actions, and applying one.

Turn handovers drive the Bomb's fuse: the handover that ends the bomber's own play does
not count, a Skip's jump counts one, and a two-player Skip or Reverse (play again) is a
handover to oneself that counts one. All randomness (shuffles) comes from the state's
seed, so a game is a function of its seed and its actions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from solver.errors import IllegalMove, InvalidInput
from solver.farbduell.tables import NUMBERS, PENALTY, Card, Table


@dataclass(frozen=True)
class Fuse:
    size: int            # cards the BOOM deals
    count: int           # handovers left
    skip_next: bool      # the handover ending the bomber's play does not count


@dataclass(frozen=True)
class State:
    hands: tuple[tuple[Card, ...], ...]   # sorted, one per seat
    draw_pile: tuple[Card, ...]           # top first
    discard: tuple[Card, ...]             # bottom first: the last card is the top
    colour: str                           # the colour in force (a wild's chosen colour)
    to_move: int = 0
    direction: int = 1
    pending: int = 0                      # cards waiting for the player to move
    pending_kind: str | None = None       # "draw2" or "draw4" (the stack's level)
    fuse: Fuse | None = None
    shields: tuple[int, ...] = ()         # standing shields per seat (Belagerung)
    drawn: Card | None = None             # a playable card just drawn: play it or keep it
    winner: int | None = None
    seed: int = 0
    table: Table = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def top(self) -> Card:
        return self.discard[-1]


@dataclass(frozen=True)
class Play:
    card: Card
    colour: str | None = None   # the colour a wild names

    def __str__(self) -> str:
        return f"play {self.card}" + (f" {self.colour}" if self.colour else "")


@dataclass(frozen=True)
class Draw:
    """Draw one card, or collect the waiting stack."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Keep:
    """Keep the card just drawn; the turn ends."""

    def __str__(self) -> str:
        return "keep"


Action = Play | Draw | Keep


def new_game(table: Table, players: int, seed: int, first: int | None = None) -> State:
    """Shuffle, deal seven each, turn up a number card to start on."""
    config = table.config
    if not config.min_players <= players <= config.max_players:
        raise IllegalMove(f"a table seats {config.min_players} to {config.max_players} "
                          f"players, not {players}")
    rng = random.Random(seed)
    deck = list(table.deck)
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
    if state.pending:
        return card.rank in state.table.answers[state.pending_kind]
    return card.wild or card.colour == state.colour or card.rank == state.top.rank


def legal_actions(state: State) -> list[Action]:
    """Every play (a wild once per colour it may name), drawing, and keeping a drawn card."""
    if state.winner is not None:
        return []
    if state.drawn is not None:
        return [*_plays(state, state.drawn), Keep()]
    actions: list[Action] = []
    for card in dict.fromkeys(state.hands[state.to_move]):
        if playable(state, card):
            actions.extend(_plays(state, card))
    return [*actions, Draw()]


def _plays(state: State, card: Card) -> list[Play]:
    if card.wild:
        return [Play(card, colour) for colour in state.table.config.colours]
    return [Play(card)]


def apply(state: State, action: Action) -> State:
    """The state after the player to move takes this action; IllegalMove names why not."""
    if state.winner is not None:
        raise IllegalMove(f"the game is over: player {state.winner} won")
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
        case _:
            raise IllegalMove(f"{action!r} is not an action")
    return game.freeze()


def scores(state: State) -> tuple[int, ...]:
    """Each seat's score at the end: what everybody still holds, less one's own."""
    held = [sum(state.table.points(card) for card in hand) for hand in state.hands]
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

    def freeze(self) -> State:
        return replace(self.state, hands=tuple(tuple(sorted(h)) for h in self.hands),
                       draw_pile=tuple(self.draw_pile), discard=tuple(self.discard),
                       colour=self.colour, to_move=self.to_move, direction=self.direction,
                       pending=self.pending, pending_kind=self.pending_kind, fuse=self.fuse,
                       shields=tuple(self.shields), drawn=self.drawn, winner=self.winner,
                       seed=self.seed)

    def next(self, seat: int, steps: int = 1) -> int:
        return (seat + steps * self.direction) % len(self.hands)

    # ------------------------------------------------------------ actions

    def play(self, action: Play) -> None:
        card, me = action.card, self.to_move
        if self.drawn is not None and card != self.drawn:
            raise IllegalMove(f"only the card just drawn ({self.drawn}) may be played now")
        if card not in self.hands[me]:
            raise IllegalMove(f"{card} is not in the hand")
        if not playable(self.state, card):
            if self.pending:
                answers = " or ".join(self.table.answers[self.pending_kind]) or "nothing"
                raise IllegalMove(f"a stack of {self.pending} waits: {answers} may answer it, "
                                  "or draw to collect it")
            raise IllegalMove(f"{card} matches neither {self.colour} nor {self.state.top.rank}")
        if card.wild != (action.colour is not None):
            raise IllegalMove(f"{card} names a colour: play {card} COLOUR" if card.wild
                              else f"{card} names no colour")
        if card.wild and action.colour not in self.table.config.colours:
            raise IllegalMove(f"{action.colour} is not a colour of this table")
        self.drawn = None
        self.hands[me].remove(card)
        self.discard.append(card)
        self.colour = action.colour or card.colour or self.colour
        if not self.hands[me]:   # the last card has no effect
            self.winner = me
            return
        self.resolve(card)

    def resolve(self, card: Card) -> None:
        me, two = self.to_move, len(self.hands) == 2
        if card.rank in PENALTY:
            self.pending += PENALTY[card.rank]
            if self.pending_kind != "draw4":
                self.pending_kind = card.rank
        elif card.rank == "shield":
            if self.pending:
                self.pending, self.pending_kind = 0, None
            else:
                self.shields[me] = min(self.shields[me] + 1,
                                       self.table.config.standing_shield_max)
        elif card.rank == "bomb":
            config = self.table.config
            size = self.fuse.size + config.fuse_relight_add if self.fuse else config.fuse_base
            self.fuse = Fuse(size, config.fuse_handovers, skip_next=True)
        if card.rank == "skip":
            self.hand_over(me if two else self.next(me, 2))
        elif card.rank == "reverse":
            self.direction = -self.direction
            self.hand_over(me if two else self.next(me))
        else:
            self.hand_over(self.next(me))

    def draw(self) -> None:
        me = self.to_move
        if self.drawn is not None:
            raise IllegalMove(f"play the drawn card ({self.drawn}) or keep it")
        if self.pending:
            if self.shields[me]:
                self.shields[me] -= 1
            else:
                self.take(me, self.pending)
            self.pending, self.pending_kind = 0, None
            self.hand_over(self.next(me))
            return
        drawn = self.take(me, 1)
        if drawn and playable(self.state, drawn[0]):
            self.drawn = drawn[0]
        else:
            self.hand_over(self.next(me))

    # ------------------------------------------------------------ handovers

    def hand_over(self, to: int) -> None:
        """The turn passes (to the same seat on a two-player Skip or Reverse); the fuse
        counts it, and at 0 the seat receiving the turn draws the BOOM."""
        self.to_move = to
        fuse = self.fuse
        if fuse is None:
            return
        if fuse.skip_next:
            self.fuse = replace(fuse, skip_next=False)
        elif fuse.count > 1:
            self.fuse = replace(fuse, count=fuse.count - 1)
        else:
            self.fuse = None
            self.take(to, fuse.size)

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


def to_json(state: State) -> dict[str, Any]:
    fuse = state.fuse
    return {
        "game": GAME, "table": state.table.name,
        "hands": [[str(card) for card in hand] for hand in state.hands],
        "draw_pile": [str(card) for card in state.draw_pile],
        "discard": [str(card) for card in state.discard],
        "colour": state.colour, "to_move": state.to_move, "direction": state.direction,
        "pending": state.pending, "pending_kind": state.pending_kind,
        "fuse": None if fuse is None else {"size": fuse.size, "count": fuse.count,
                                           "skip_next": fuse.skip_next},
        "shields": list(state.shields), "drawn": None if state.drawn is None else str(state.drawn),
        "winner": state.winner, "seed": state.seed,
    }


def load(data: Any, tables: Mapping[str, Table]) -> State:
    """A position from its JSON value. The draw pile may be left out: it is then the
    cards placed nowhere else, in table order. Every fault is named, all at once."""
    if not isinstance(data, dict):
        raise InvalidInput("position must be a JSON object")
    problems = [f"position has an unknown field {key!r}" for key in data.keys() - _KEYS]
    if data.get("game", GAME) != GAME:
        problems.append(f"position is of game {data['game']!r}, not {GAME!r}")
    table = tables.get(data.get("table", "classic"))
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
    full = Counter(table.deck)
    problems.extend(f"position holds {card} {placed[card]} times (the deck has {full[card]})"
                    for card in sorted(placed) if placed[card] > full[card])
    rest = sorted((full - placed).elements(), key=table.deck.index)
    if pile is not None and rest:
        problems.append(f"position misses {len(rest)} cards: {', '.join(map(str, rest[:5]))}...")
    seats = len(hands)
    fuse_data = data.get("fuse")
    if fuse_data is not None and (not isinstance(fuse_data, dict)
                                  or set(fuse_data) != {"size", "count", "skip_next"}):
        problems.append("fuse must be null or {\"size\": n, \"count\": c, \"skip_next\": b}")
        fuse_data = None
    top_colour = discard[-1].colour if discard else ""
    colour = data.get("colour", top_colour)
    if colour not in table.config.colours:
        problems.append(f"colour must be one of {', '.join(table.config.colours)}")
    if data.get("pending_kind") not in (None, *PENALTY):
        problems.append(f"pending_kind must be null or one of {', '.join(PENALTY)}")
    pending = data.get("pending", 0)
    if type(pending) is not int or pending < 0:
        problems.append("pending must be a whole number >= 0")
    elif (pending > 0) != (data.get("pending_kind") is not None):
        problems.append("pending and pending_kind go together: a stack has both or neither")
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
        pending=data.get("pending", 0), pending_kind=data.get("pending_kind"),
        fuse=None if fuse_data is None else Fuse(**fuse_data),
        shields=tuple(data.get("shields", [0] * seats)), drawn=drawn_card,
        winner=data.get("winner"), seed=data.get("seed", 0), table=table)
