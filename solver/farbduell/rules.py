"""The Farbduell rules for the Classic, Belagerung and Tag & Nacht tables: a new game,
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
receiving the turn names it first (`Choose`).

Every rule that shows a card or lets a player deduce one also updates what each player
knows (`Position.knows`, through solver/farbduell/knowledge.py's Tracker): the cards turned
up before the start card, a card drawn from a known place, the draw pile running out, a
card played, a table turning over.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TypeVar

from solver.errors import IllegalMove
from solver.farbduell.actions import Action, Choose, Draw, Keep, Play
from solver.farbduell.data import HUNT, NUMBERS, PENALTY, Card, Table, other_side
from solver.farbduell.knowledge import Tracker
from solver.farbduell.position import Clock, Fuse, Knows, Position

Timer = TypeVar("Timer", Fuse, Clock)


def new_game(table: Table, players: int, seed: int, first: int | None = None) -> Position:
    """Pair the faces (double-faced tables), shuffle, deal seven each, turn up a number
    card (by its day face) to start on; the cards turned up before it go under the draw
    pile, seen by all (on Tag & Nacht both faces: the other showed on top of the pile)."""
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
    turned = 0
    while pile[0].rank not in NUMBERS:   # the first card is always a number card
        pile.append(pile.pop(0))
        turned += 1
    start = pile.pop(0)
    bottom = tuple(pile[len(pile) - min(turned, len(pile)):])
    return Position(hands=tuple(tuple(h) for h in hands), draw_pile=tuple(pile),
                    discard=(start,), colour=start.colour,
                    to_move=rng.randrange(players) if first is None else first,
                    shields=(0,) * players, seed=rng.getrandbits(62),
                    knows=(Knows.nothing(players, bottom),) * players, table=table)


def playable(state: Position, card: Card) -> bool:
    """Whether the card may go on the pile now (not counting a just-drawn card's limit)."""
    face = state.face(card)
    if state.pending_kind is not None:   # a stack waits
        return face.rank in state.table.answers[state.pending_kind]
    if not state.colour:   # a colour must be named first
        return False
    return face.wild or face.colour == state.colour or face.rank == state.face(state.top).rank


def legal_actions(state: Position) -> list[Action]:
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


def _plays(state: Position, card: Card) -> list[Play]:
    colours = _names(state, card)
    return [Play(card, colour) for colour in colours] if colours else [Play(card)]


def _names(state: Position, card: Card) -> tuple[str, ...]:
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


def apply(state: Position, action: Action) -> Position:
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


def scores(state: Position) -> tuple[int, ...]:
    """Each seat's score at the end: what everybody still holds (by the faces of the
    side in play), less one's own."""
    held = [sum(state.table.points(card, state.side) for card in hand) for hand in state.hands]
    return tuple(sum(held) - own for own in held)


class _Game:
    """A mutable copy of a state for the length of one action."""

    def __init__(self, state: Position) -> None:
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
        self.known = None if state.knows is None else Tracker(state.knows,
                                                              state.table.double_faced)

    def freeze(self) -> Position:
        return replace(self.state, hands=tuple(tuple(sorted(h)) for h in self.hands),
                       draw_pile=tuple(self.draw_pile), discard=tuple(self.discard),
                       colour=self.colour, to_move=self.to_move, direction=self.direction,
                       pending=self.pending, pending_kind=self.pending_kind, fuse=self.fuse,
                       shields=tuple(self.shields), drawn=self.drawn, winner=self.winner,
                       seed=self.seed, side=self.side, clock=self.clock,
                       hunt_colour=self.hunt_colour,
                       knows=None if self.known is None else self.known.freeze())

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
            if self.pending_kind is not None:
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
        if self.known is not None:
            self.known.played(me, card)
        self.colour = action.colour if face.wild and action.colour else face.colour
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
        if self.known is not None:
            self.known.flipped(self.hands, self.draw_pile)

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
        the draw pile when it runs out; stops when both are exhausted. An empty draw
        pile tells everyone that what they do not see is in the others' hands."""
        taken = []
        known = self.known
        for _ in range(count):
            if not self.draw_pile:
                if len(self.discard) < 2:
                    break
                if known is not None:
                    known.emptied(self.hands)
                rest, self.discard = self.discard[:-1], self.discard[-1:]
                rng = random.Random(self.seed)
                rng.shuffle(rest)
                self.seed = rng.getrandbits(62)
                self.draw_pile = rest
            card = self.draw_pile.pop(0)
            self.hands[seat].append(card)
            taken.append(card)
            if known is not None:
                known.drawn(seat, card, len(self.draw_pile))
        if known is not None and not self.draw_pile:
            known.emptied(self.hands)
        return taken


def _counted(timer: Timer) -> Timer | None:
    """A fuse or a clock after one handover (they count alike, docs/farbduell.md §2); None when it
    goes off now."""
    if timer.skip_next:
        return replace(timer, skip_next=False)
    if timer.count > 1:
        return replace(timer, count=timer.count - 1)
    return None
