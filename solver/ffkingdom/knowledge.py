"""What a player of Fortress Fight Kingdom knows of the cards it cannot see, and the one
function that says what the player to move knows: `known`. Hints and bots look at that
and at the public state, nothing else.

Everyone sees the board (castles, walls, stocks, producers, shields, guards, effects), the
discard pile, how many cards each hand and the deck hold, and each card that is played or
discarded. A player sees its own hand. What it knows beyond that is kept on each player
(`Player.knows`, a `Knowledge`): cards it knows to be in the opponent's hand and the
deck's top cards it knows, in order. The engine keeps it as the rules show cards:

* Kundschafter (`reveal = "opp_hand"`): the player sees the opponent's hand. The rules
  (§8) show it "until the end of the turn"; a player remembers what it saw, so each card
  stays known until it leaves that hand. The shield count it also shows is public here
  already (below).
* Spitzel (`reveal = "deck_top_3"`): the player sees the deck's top three cards (all of
  them when it holds fewer).
* A card that leaves a hand is seen by both players (played, discarded, or discarded at
  random by Zermürbung, all face up), so it is no longer known to be in that hand. Schild
  is played face down, but it is the only card played so and its gold is public: the
  opponent knows it was a Schild.
* A draw from a known deck top: the card leaves the known top for both players; the
  drawer's opponent now knows it is in the drawer's hand. A draw from an unknown top
  shows nothing to the opponent.
* A player who knows every card of the deck, an empty deck above all, knows the
  opponent's whole hand: every card it cannot see is there or in the deck. The deck runs
  empty just before the discard pile is shuffled into a new one, so after a reshuffle
  the opponent's hand is known; the new deck's order is not (its cards are the discard
  pile, seen by all, so they are exactly what is unseen beyond the opponent's hand).

Nothing else is inferred (not what the opponent's choices say about its cards). So the
cards a player knows in the opponent's hand are always part of that hand, the top it
knows is always the deck's top, and every other unseen card is equally likely anywhere
else: a hint samples worlds that keep the known cards where they are and deal the rest.

Shields are counted per player and read as public: the rules (§11) hide a player's shield
count from the opponent, but each shield is a Schild played face down (seen as such, see
above), and each one used or dispelled is seen too, so the count follows from what
everyone sees.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from solver.ffkingdom.data import reveal_count
from solver.ffkingdom.position import NOTHING, SHIELD_CARD, Knowledge, Player, State

__all__ = ["NOTHING", "Knowledge", "drawn", "forget", "forget_all", "known", "left_hand",
           "revealed_top", "saw_hand", "saw_top", "unseen"]


def known(state: State) -> Knowledge:
    """What the player to move knows of the cards it cannot see: what it remembers, and
    when the deck holds only cards it knows, the opponent's whole hand (every unseen card
    not in the deck)."""
    knows = state.mover.knows
    if (len(knows.deck_top) == len(state.deck)
            and len(knows.opponent_hand) < len(state.opponent.hand)):
        rest = unseen(state) - Counter(knows.deck_top)
        return replace(knows, opponent_hand=tuple(sorted(rest.elements())))
    return knows


def unseen(state: State) -> Counter[str]:
    """The cards the player to move cannot see: the opponent's hand and the deck."""
    visible = Counter(state.mover.hand) + Counter(state.discard)
    visible[SHIELD_CARD] += state.mover.shields + state.opponent.shields
    return Counter(state.rules.deck()) - visible


def forget(state: State) -> State:
    """The position as the player to move would see it remembering nothing: its knowledge
    blanked (what the knowledge-blind hint looks at)."""
    if not state.mover.knows:
        return state
    return state.with_player(state.to_move, replace(state.mover, knows=NOTHING))


def forget_all(state: State) -> State:
    """The position with both players' knowledge blanked: for searches that see every
    card, where knowledge changes nothing (no rule reads it)."""
    first, second = state.players
    if not first.knows and not second.knows:
        return state
    return replace(state, players=(_blank(first), _blank(second)))


def _blank(player: Player) -> Player:
    return replace(player, knows=NOTHING) if player.knows else player


# ---------------------------------------------------------------- the engine's updates
# (values made directly: dataclasses.replace costs more than the rest of an update)


def revealed_top(reveal: str) -> int:
    """How many deck cards a card's `reveal` shows: "deck_top_N" N, "opp_hand" none (the
    card table's reader refuses any other)."""
    return reveal_count(reveal) or 0


def saw_hand(knows: Knowledge, hand: Iterable[str]) -> Knowledge:
    """The opponent's whole hand shown (or deduced)."""
    return Knowledge(tuple(sorted(hand)), knows.deck_top)


def saw_top(knows: Knowledge, deck: list[str], count: int) -> Knowledge:
    """The deck's top `count` cards shown (a longer known top stays known)."""
    return Knowledge(knows.opponent_hand, tuple(deck[:max(count, len(knows.deck_top))]))


def left_hand(knows: Knowledge, cards: Iterable[str]) -> Knowledge:
    """Cards seen leaving the opponent's hand: no longer known to be in it."""
    hand = list(knows.opponent_hand)
    for card in cards:
        if card in hand:
            hand.remove(card)
    return Knowledge(tuple(hand), knows.deck_top)


def drawn(knows: Knowledge, card: str, by_opponent: bool) -> Knowledge:
    """A card drawn from a known deck top: off the known top, and into the known cards of
    the opponent's hand when the opponent drew it."""
    top = knows.deck_top[1:]
    if not by_opponent:
        return Knowledge(knows.opponent_hand, top)
    return Knowledge(tuple(sorted((*knows.opponent_hand, card))), top)
