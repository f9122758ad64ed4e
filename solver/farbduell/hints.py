"""Hints in a real game: the best play (or draw) for the player to move, from what that
player knows: their own hand, the discard pile, how many cards the others hold, and the
cards they have seen or deduced (solver/farbduell/knowledge.py: `known`).

Depth-limited expectimax over the unseen cards: each world keeps every card (or face)
the mover knows where it is known to be and deals the rest at random from what is left;
each legal action is played in every world, the others answer by the greedy policy
until the turn comes back, and the position is valued then by its chance of winning
(solver/farbduell/evaluate.py: 1 or 0 when the game is over, else fitted to the hands'
features). Every action is valued in the same worlds, so actions are compared on equal
luck.

An action that begins a go-out this turn which shows the mover nothing they do not know
(solver/farbduell/going_out.py) wins in every world: it is valued 1, ranked first, and
the hint gives its line (`chain`). The actions ranked are the ones the mover can tell
apart: plays of cards they know alike (on Tag & Nacht, two cards of one face in play
whose other faces they have not seen) are one action.

On Tag & Nacht a world keeps the faces the mover sees (the faces in play of their own
hand, the other faces of the others' hands and of the pile's top card) and deals the
faces they do not see afresh, pairing them anew. The knowledge-blind hint
(`Settings(knowing=False)`, the bot hint-blind) deals everything but the mover's hand
and the discard pile afresh from the game's own cards, as the hint did before it read
the mover's knowledge.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Self

from solver.budget import Budget, BudgetExhausted, Meter, SearchStats, Status
from solver.errors import InvalidInput
from solver.farbduell.actions import Action, Play
from solver.farbduell.data import Card
from solver.farbduell.evaluate import chance
from solver.farbduell.going_out import winning_line
from solver.farbduell.knowledge import Slot, View, blind_view, known
from solver.farbduell.policies import greedy_action
from solver.farbduell.position import Position
from solver.farbduell.rules import apply, legal_actions
from solver.search.expectimax import expectimax

HINT_BUDGET = Budget(seconds=10.0, nodes=None, table_entries=None)


@dataclass(frozen=True)
class Settings:
    worlds: int = 12      # samples of the unseen cards
    horizon: int = 60     # the others' actions at most before the turn comes back
    knowing: bool = True  # sample around what the mover knows (False: the hint-blind bot)


@dataclass(frozen=True)
class Hint:
    status: Status                                # SOLVED, or UNKNOWN when out of budget
    action: Action | None
    value: float | None                           # chance of winning: 1 for a proven win,
                                                  # else the mean when the turn returns
    runners_up: tuple[tuple[Action, float], ...]  # the other actions, best first
    stats: SearchStats
    chain: tuple[Action, ...] = ()                # the proven win `action` begins, if any
    winning: frozenset[Action] = frozenset()      # every action that begins a proven win

    @property
    def wins(self) -> bool:
        """The action wins this turn whatever the cards the mover does not know."""
        return bool(self.chain)

    @classmethod
    def unknown(cls, seconds: float) -> Self:
        return cls(Status.UNKNOWN, None, None, (), SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value,
                "action": None if self.action is None else str(self.action),
                "value": self.value,
                "wins": self.wins, "chain": [str(action) for action in self.chain],
                "runners_up": [{"action": str(action), "value": value,
                                "wins": action in self.winning}
                               for action, value in self.runners_up],
                "seconds": round(self.stats.seconds, 6)}


def hint(state: Position, budget: Budget = HINT_BUDGET, settings: Settings = Settings(),
         seed: int = 0) -> Hint:
    """The best action for the player to move, from what that player knows."""
    if state.winner is not None:
        raise InvalidInput(f"the game is over: player {state.winner} won")
    meter = Meter(budget, costly_nodes=True)
    rng = random.Random(seed)
    me = state.to_move
    view = known(state) if settings.knowing else blind_view(state)
    actions = told_apart(legal_actions(state), state, view)
    lines: dict[Action, tuple[Action, ...]] = {}
    try:
        for action in actions:
            if (line := winning_line(state, action, meter)) is not None:
                lines[action] = line
        if len(actions) == 1:   # nothing to compare: valued only when it wins
            only = actions[0]
            return Hint(Status.SOLVED, only, 1.0 if only in lines else None, (),
                        meter.stats(0), lines.get(only, ()), frozenset(lines))
        worlds = []
        for _ in range(settings.worlds):
            meter.tick()
            worlds.append(deal(state, view, rng))

        def value(action: Action, dealt: tuple[Position, tuple[Card, ...]]) -> float:
            world, own = dealt
            world = apply(world, in_world(action, state, view, own))
            for _ in range(settings.horizon):
                if world.winner is not None or world.to_move == me:
                    break
                world = apply(world, greedy_action(world))
            return chance(world, me)

        unproven = [action for action in actions if action not in lines]
        ranked = expectimax(unproven, worlds, value, prior=lambda _: 0.0,
                            shortlist=len(unproven), meter=meter) if unproven else []
    except BudgetExhausted:
        if lines:   # a proven win needs no more: the others go unvalued
            return _answer([], lines, meter.stats(len(actions)))
        return Hint(Status.UNKNOWN, None, None, (), meter.stats(0))
    return _answer([(r.option, r.value) for r in ranked], lines, meter.stats(len(actions)))


def _answer(ranked: list[tuple[Action, float]], lines: dict[Action, tuple[Action, ...]],
            stats: SearchStats) -> Hint:
    """The proven wins first (the shortest line first, valued 1), then the ranked
    actions."""
    wins = sorted(lines, key=lambda action: len(lines[action]))
    (best, value), *rest = [(action, 1.0) for action in wins] + ranked
    return Hint(Status.SOLVED, best, value, tuple(rest), stats, lines.get(best, ()),
                frozenset(lines))


def told_apart(actions: list[Action], state: Position, view: View) -> list[Action]:
    """One action per choice the mover can tell apart: plays of the cards they know
    alike (the same slot of `view`) naming the same colour are one, the first kept."""
    hand = state.hands[state.to_move]
    kept: dict[object, Action] = {}
    for action in actions:
        key = (view.own[hand.index(action.card)], action.colour) \
            if isinstance(action, Play) else action
        kept.setdefault(key, action)
    return list(kept.values())


def sample_world(state: Position, rng: random.Random, knowing: bool = True) -> Position:
    """The position with what the mover does not know dealt afresh at random and what
    they know kept where it is (not `knowing`: as if they knew nothing but their hand).
    A world keeps no knowledge of its own (`knows` None)."""
    return deal(state, known(state) if knowing else blind_view(state), rng)[0]


def deal(state: Position, view: View, rng: random.Random) -> tuple[Position, tuple[Card, ...]]:
    """A world of `view`, with the card of each slot of the mover's hand: the pooled
    cards into unknown slots of the others' hands, then for each part (the whole card,
    or each side's face) the pool dealt at random into the slots that miss it, first
    those whose missing face must (not) be a wild."""
    slots = view.slots
    missing = view.missing
    if view.pooled:
        placed = list(slots)
        for k, card in zip(rng.sample(view.free, len(view.pooled)), view.pooled, strict=True):
            placed[k] = Slot((card,))
        slots = tuple(placed)
        missing = tuple([k for k, slot in enumerate(slots) if slot.faces[part] is None]
                        for part in range(len(view.parts)))
    faces = [list(slot.faces) for slot in slots]
    for part, pool in enumerate(view.pools):
        left = list(pool)
        free = missing[part]
        for k in free:
            wild = slots[k].wild
            if wild is not None:
                choices = [n for n, face in enumerate(left) if face.wild == wild]
                faces[k][part] = left.pop(rng.choice(choices) if choices else 0)
        rng.shuffle(left)
        rest = iter(left)
        for k in free:
            if slots[k].wild is None:
                faces[k][part] = next(rest)
    cards = [_card(parts) for parts in faces]
    hands, start = [], 0
    for size in view.sizes:
        hands.append(cards[start:start + size])
        start += size
    own = tuple(hands[view.seat])
    drawn = None if view.drawn is None else own[view.drawn]
    return replace(state, hands=tuple(tuple(sorted(cards)) for cards in hands),
                   draw_pile=tuple(cards[start:]), drawn=drawn,
                   seed=rng.getrandbits(62), knows=None), own


def _card(parts: list[Card | None]) -> Card:
    """A whole card, or a double-faced card of its day and its night face."""
    if len(parts) == 1:
        card = parts[0]
    else:
        day, night = parts
        card = None if day is None or night is None else _pair(day, night)
    if card is None:
        raise ValueError("a slot was left without its card")
    return card


_PAIRS: dict[tuple[str, str, str, str], Card] = {}


def _pair(day: Card, night: Card) -> Card:
    """The card of two faces, made once (a world makes a hundred)."""
    key = (day.colour, day.rank, night.colour, night.rank)
    card = _PAIRS.get(key)
    if card is None:
        card = _PAIRS[key] = Card(day.colour, day.rank, night)
    return card


def in_world(action: Action, state: Position, view: View, own: tuple[Card, ...]) -> Action:
    """The action in a world whose mover holds the cards `own`, one per slot of `view`:
    a card played is the world's card of its slot (Tag & Nacht: the same face in play;
    elsewhere the same card)."""
    if not isinstance(action, Play):
        return action
    card = own[view.own[state.hands[state.to_move].index(action.card)]]
    return action if card == action.card else Play(card, action.colour)
