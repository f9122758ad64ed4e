"""What each Farbduell player knows of the cards hidden from them, and what the player
to move knows: `known(state)` is the one thing, besides the public state (the
discard pile, how many cards each seat and the draw pile hold, the side, what waits),
that hints and bots may look at.

Where the rules let a player see or deduce a card (docs/farbduell.md §1, §5.3 and §6.1;
rules.py keeps `Position.knows` current through `Tracker`):

* The start card: the cards turned up before it, not number cards, go under the draw
  pile in the sight of all: everyone knows the pile's bottom cards (`deck_bottom`).
* A card drawn from a known place of the pile (its top or bottom) is known in the
  drawer's hand to everyone.
* The draw pile runs out: every card a player does not see is then in an opponent's
  hand, with two players in the one opponent's; with more, the holder is unknown
  (`pooled`). The reshuffle then makes a new pile of the discard pile but its top, in an
  unknown order: nothing of the new pile is known but that it is what is left.
* A card played is face up: it leaves the knowledge of the hand it came from.
* Tag & Nacht (section 5.3): a player sees the faces in play of their own hand and the
  other faces of every opponent's hand and of the draw pile's top card, never the other
  face of their own cards. So they know both faces of a card they drew (its other face
  showed on top of the pile), of every card in every hand when the table turns over
  (the face seen before and the face seen after), and of the pile's top card then. The
  faces seen at a glance are not stored: `known` reads them off the state.

Not modelled, because none of it names a card: a drawn card kept (it could be played)
or passed on (it could not), the colour a Farbjagd's last card must have, and what a
player's choices suggest. Tag & Nacht: the discard pile counts as seen on both faces
(true of every card an opponent played; a player's own card played before they saw
its other face is the exception), and when the pile runs out the hidden faces of the
opponents' cards are known only as a whole, so nothing is stored then.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from solver.farbduell.data import Card, other_side
from solver.farbduell.position import Knows, Position

WHOLE = ("card",)              # parts of a slot: the whole card
FACES = ("day", "night")       # or its faces, one per side (Tag & Nacht)


@dataclass(frozen=True)
class Slot:
    """One card as the player to move knows it: per part of `View.parts`, the face (or
    the whole card) known, None where it is not. `wild`: whether the missing face is a
    wild, where the rules tell (the plays of one's own Tischwende name a colour when
    its other face is a wild)."""

    faces: tuple[Card | None, ...]
    wild: bool | None = None

    @property
    def unknown(self) -> bool:
        return all(face is None for face in self.faces)


@dataclass(frozen=True)
class View:
    """What the player at `seat` knows of every card not in the discard pile: a slot per
    card of each hand and of the draw pile (top first), the cards known to be in some
    opponent's hand (`pooled`), and per part what is left to deal into the slots'
    missing parts (`pools`, sorted). `own`: for each card of the mover's hand, in its
    order, its slot (the mover tells their cards apart by what they know of them);
    `drawn`: the slot of the card just drawn."""

    seat: int
    parts: tuple[str, ...]
    hands: tuple[tuple[Slot, ...], ...]
    deck: tuple[Slot, ...]
    pooled: tuple[Card, ...]
    pools: tuple[tuple[Card, ...], ...]
    own: tuple[int, ...]
    drawn: int | None

    @cached_property
    def slots(self) -> tuple[Slot, ...]:
        """Every slot in one row: the hands in seat order, then the draw pile."""
        return (*(slot for slots in self.hands for slot in slots), *self.deck)

    @cached_property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(slots) for slots in self.hands)

    @cached_property
    def missing(self) -> tuple[list[int], ...]:
        """Per part, the slots (of `slots`) that miss it, in their order."""
        return tuple([k for k, slot in enumerate(self.slots) if slot.faces[part] is None]
                     for part in range(len(self.parts)))

    @cached_property
    def free(self) -> list[int]:
        """The slots (of `slots`) of the others' hands of which nothing is known."""
        start = sum(self.sizes[:self.seat])
        mine = range(start, start + self.sizes[self.seat])
        return [k for k, slot in enumerate(self.slots[:sum(self.sizes)])
                if slot.unknown and k not in mine]


def known(state: Position) -> View:
    """What the player to move knows. A state that keeps no knowledge (`knows` None: a
    position read without it) knows what the hint always assumed: `blind_view`."""
    if state.knows is None:
        return blind_view(state)
    knows = state.knows[state.to_move]
    if state.table.double_faced:
        return _faces_view(state, knows)
    return _cards_view(state, knows)


def blind_view(state: Position) -> View:
    """The knowledge-blind view: one's own hand and the discard pile, every other card
    dealt afresh from the game's own cards (the hint before knowledge was kept; on Tag &
    Nacht this keeps the game's pairing of faces, which no player can know)."""
    me = state.to_move
    unseen = [card for seat, hand in enumerate(state.hands) if seat != me for card in hand]
    deck = (Slot((None,)),) * len(state.draw_pile)
    return _view(state, WHOLE, _own_cards(state), None, deck, (),
                 (tuple(sorted([*unseen, *state.draw_pile])),))


def _own_cards(state: Position) -> tuple[Slot, ...]:
    return tuple(Slot((card,)) for card in state.hands[state.to_move])


def _view(state: Position, parts: tuple[str, ...], own: tuple[Slot, ...],
          others: Sequence[tuple[Slot, ...]] | None, deck: tuple[Slot, ...],
          pooled: tuple[Card, ...], pools: tuple[tuple[Card, ...], ...]) -> View:
    """The view with the mover's slots `own` (one per card of the hand, in its order)
    and the others' (`others[seat]`; None: nothing known), each hand's slots put in an
    order of what is known of them, not of the cards."""
    me = state.to_move
    hands = []
    for seat, hand in enumerate(state.hands):
        if seat == me:
            slots = own
        elif others is None:
            slots = (Slot((None,) * len(parts)),) * len(hand)
        else:
            slots = others[seat]
        hands.append(tuple(sorted(slots, key=_order)))
    places = tuple(hands[me].index(slot) for slot in own)   # the first alike
    drawn = None if state.drawn is None else places[state.hands[me].index(state.drawn)]
    return View(me, parts, tuple(hands), deck, pooled, pools, places, drawn)


def _order(slot: Slot) -> tuple[str, ...]:
    return (*("" if face is None else str(face) for face in slot.faces), str(slot.wild))


def _cards_view(state: Position, known: Knows) -> View:
    """One-faced tables: the known cards of each hand and of the pile in their places."""
    me, pile = state.to_move, state.draw_pile
    hands: list[tuple[Slot, ...]] = []
    placed = Counter(state.hands[me]) + Counter(state.discard) + Counter(known.pooled)
    for seat, hand in enumerate(state.hands):
        cards = known.hands[seat] if seat != me else ()
        placed.update(cards)
        hands.append(tuple(Slot((card,)) for card in cards)
                     + (Slot((None,)),) * (len(hand) - len(cards)))
    top, bottom = known.deck_top, known.deck_bottom
    placed.update(top)
    placed.update(bottom)
    deck = (tuple(Slot((card,)) for card in top)
            + (Slot((None,)),) * (len(pile) - len(top) - len(bottom))
            + tuple(Slot((card,)) for card in bottom))
    left = Counter(state.table.deck) - placed
    return _view(state, WHOLE, _own_cards(state), hands, deck, known.pooled,
                 (tuple(sorted(left.elements())),))


def _faces_view(state: Position, known: Knows) -> View:
    """Tag & Nacht: whole the cards known; else the face the mover sees, the face in
    play of their own cards and the other face of the others' and of the pile's top."""
    me, side, pile = state.to_move, state.side, state.draw_pile
    other = other_side(side)
    hands: list[tuple[Slot, ...]] = []
    for seat, hand in enumerate(state.hands):
        whole = Counter(known.hands[seat])
        slots = []
        for card in hand:
            if whole[card]:
                whole[card] -= 1
                slots.append(_whole(card))
            elif seat == me:
                tells = card.face(side).rank == "flip" and len(hand) > 1
                slots.append(_face(card, side, card.face(other).wild if tells else None))
            else:
                slots.append(_face(card, other))
        hands.append(tuple(slots))
    top, bottom = known.deck_top, known.deck_bottom
    deck = []
    for k, card in enumerate(pile):
        if k < len(top) or k >= len(pile) - len(bottom):
            deck.append(_whole(card))
        else:
            deck.append(_face(card, other) if k == 0 else Slot((None, None)))
    fixed = [slot for slots in hands for slot in slots] + deck
    pools = []
    for part, name in enumerate(FACES):
        left = Counter(state.table.faces(name))
        left.subtract(card.face(name) for card in state.discard)
        left.subtract(face for slot in fixed if (face := slot.faces[part]) is not None)
        pools.append(tuple(sorted((+left).elements())))
    return _view(state, FACES, hands[me], hands, tuple(deck), (), tuple(pools))


def _whole(card: Card) -> Slot:
    return Slot((card.face("day"), card.face("night")))


def _face(card: Card, side: str, wild: bool | None = None) -> Slot:
    face = card.face(side)
    return Slot((face, None) if side == "day" else (None, face), wild)


# ---------------------------------------------------------------- keeping it current


class Tracker:
    """Every player's knowledge during one action (rules.py), changed by each rule that
    shows or implies a card; `freeze` gives it back as the state's."""

    def __init__(self, knows: tuple[Knows, ...], double_faced: bool) -> None:
        self.knows = list(knows)
        self.double_faced = double_faced

    def freeze(self) -> tuple[Knows, ...]:
        return tuple(self.knows)

    def played(self, seat: int, card: Card) -> None:
        """A card played face up leaves the hand it was known in (the seat's, or else
        the opponents' pooled cards)."""
        for player, known in enumerate(self.knows):
            if card in known.hands[seat]:
                self.knows[player] = replace(known, hands=_less(known.hands, seat, card))
            elif player != seat and card in known.pooled:
                self.knows[player] = replace(known, pooled=_without(known.pooled, card))

    def drawn(self, seat: int, card: Card, left: int) -> None:
        """`seat` drew `card` from the top of the pile, which holds `left` now: known to
        whoever knew that place; on Tag & Nacht the drawer saw its other face on top."""
        for player, known in enumerate(self.knows):
            changed = known
            if known.deck_top:
                changed = replace(known, deck_top=known.deck_top[1:])
            elif len(known.deck_bottom) == left + 1:
                changed = replace(known, deck_bottom=known.deck_bottom[1:])
            if (changed is not known and player != seat) or (
                    player == seat and self.double_faced):
                changed = replace(changed, hands=_more(changed.hands, seat, card))
            self.knows[player] = changed

    def emptied(self, hands: Sequence[Sequence[Card]]) -> None:
        """The draw pile is empty: every card a player does not see is in an opponent's
        hand (one-faced tables; on Tag & Nacht that tells the hidden faces only as a
        whole)."""
        if self.double_faced:
            return
        for player, known in enumerate(self.knows):
            others = [seat for seat in range(len(hands)) if seat != player]
            if len(others) == 1:
                seat = others[0]
                self.knows[player] = replace(known, hands=_set(known.hands, seat, hands[seat]),
                                             deck_top=(), deck_bottom=())
                continue
            held = Counter(card for seat in others for card in hands[seat])
            held.subtract(card for seat in others for card in known.hands[seat])
            self.knows[player] = replace(known, pooled=tuple(sorted((+held).elements())),
                                         deck_top=(), deck_bottom=())

    def flipped(self, hands: Sequence[Sequence[Card]], pile: Sequence[Card]) -> None:
        """The table turned over: every hand's cards and the pile's top showed one face
        before and the other now, to everyone."""
        for player, known in enumerate(self.knows):
            top = known.deck_top
            if pile and not top and len(pile) > len(known.deck_bottom):
                top = (pile[0],)
            self.knows[player] = replace(known, hands=tuple(tuple(sorted(h)) for h in hands),
                                         pooled=(), deck_top=top)


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    k = cards.index(card)
    return cards[:k] + cards[k + 1:]


def _less(hands: tuple[tuple[Card, ...], ...], seat: int,
          card: Card) -> tuple[tuple[Card, ...], ...]:
    return _set(hands, seat, _without(hands[seat], card))


def _more(hands: tuple[tuple[Card, ...], ...], seat: int,
          card: Card) -> tuple[tuple[Card, ...], ...]:
    cards = list(hands[seat])
    bisect.insort(cards, card)
    return _set(hands, seat, cards)


def _set(hands: tuple[tuple[Card, ...], ...], seat: int,
         cards: Sequence[Card]) -> tuple[tuple[Card, ...], ...]:
    return (*hands[:seat], tuple(sorted(cards)), *hands[seat + 1:])
