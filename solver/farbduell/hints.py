"""Hints in a real game: the best play (or draw) for the player to move, who sees only
their own hand, the discard pile and how many cards the others hold.

Depth-limited expectimax over the unseen cards: the other hands and the draw pile are
sampled as a multiset from what is not visible; each legal action is played in every
world, the others answer by the greedy policy until the turn comes back, and the
position is valued then by its chance of winning (solver/farbduell/evaluate.py: 1 or 0
when the game is over, else fitted to the hands' features). Every action is valued in
the same worlds, so actions are compared on equal luck.

On Tag & Nacht the mover also sees the other faces of the others' hands; the worlds do
not use that, and they keep the game's pairing of faces, which the mover could not know.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Self

from solver.budget import Budget, BudgetExhausted, Meter, SearchStats, Status
from solver.errors import InvalidInput
from solver.farbduell.actions import Action
from solver.farbduell.evaluate import chance
from solver.farbduell.policies import greedy_action
from solver.farbduell.rules import apply, legal_actions
from solver.farbduell.state import State
from solver.search.expectimax import expectimax

HINT_BUDGET = Budget(seconds=10.0, nodes=None, table_entries=None)


@dataclass(frozen=True)
class Settings:
    worlds: int = 12      # samples of the unseen cards
    horizon: int = 60     # the others' actions at most before the turn comes back


@dataclass(frozen=True)
class Hint:
    status: Status                                # SOLVED, or UNKNOWN when out of budget
    action: Action | None
    value: float | None                           # mean chance of winning when the turn returns
    runners_up: tuple[tuple[Action, float], ...]  # the other actions, best first
    stats: SearchStats

    @classmethod
    def unknown(cls, seconds: float) -> Self:
        return cls(Status.UNKNOWN, None, None, (), SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value,
                "action": None if self.action is None else str(self.action),
                "value": None if self.value is None else round(self.value, 4),
                "runners_up": [{"action": str(action), "value": round(value, 4)}
                               for action, value in self.runners_up],
                "seconds": round(self.stats.seconds, 6)}


def hint(state: State, budget: Budget = HINT_BUDGET, settings: Settings = Settings(),
         seed: int = 0) -> Hint:
    """The best action for the player to move, from what that player can see."""
    if state.winner is not None:
        raise InvalidInput(f"the game is over: player {state.winner} won")
    meter = Meter(budget, costly_nodes=True)
    rng = random.Random(seed)
    me = state.to_move
    actions = legal_actions(state)
    if len(actions) == 1:
        return Hint(Status.SOLVED, actions[0], None, (), meter.stats(0))
    try:
        worlds = []
        for _ in range(settings.worlds):
            meter.tick()
            worlds.append(sample_world(state, rng))

        def value(action: Action, world: State) -> float:
            world = apply(world, action)
            for _ in range(settings.horizon):
                if world.winner is not None or world.to_move == me:
                    break
                world = apply(world, greedy_action(world))
            return chance(world, me)

        ranked = expectimax(actions, worlds, value, prior=lambda _: 0.0,
                            shortlist=len(actions), meter=meter)
    except BudgetExhausted:
        return Hint(Status.UNKNOWN, None, None, (), meter.stats(0))
    best, *rest = ranked
    return Hint(Status.SOLVED, best.option, best.value,
                tuple((r.option, r.value) for r in rest), meter.stats(len(actions)))


def sample_world(state: State, rng: random.Random) -> State:
    """The position with the cards the mover cannot see dealt afresh at random: the
    game's own cards, but for the mover's hand and the discard pile."""
    me = state.to_move
    unseen = [card for seat, hand in enumerate(state.hands) if seat != me for card in hand]
    unseen = sorted([*unseen, *state.draw_pile])   # no trace of where they were
    rng.shuffle(unseen)
    hands = list(state.hands)
    for seat, hand in enumerate(state.hands):
        if seat != me:
            hands[seat], unseen = tuple(sorted(unseen[:len(hand)])), unseen[len(hand):]
    return replace(state, hands=tuple(hands), draw_pile=tuple(unseen),
                   seed=rng.getrandbits(62))
