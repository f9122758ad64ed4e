"""Hints in a real game: the best action for the player to move, who sees only their own
hand, the discard pile, the board and how many cards the others hold.

Depth-limited expectimax: every plan for the rest of this turn (plays and discards in
order) is a choice; the unseen cards (the opponent's hand and the deck order, drawn as
a multiset from what is not visible) are sampled into worlds; in each world the plan is
played, the hand refilled, the opponent answers with a greedy turn, and the position is
evaluated when the turn comes back (fitted weights, hand included). The plan with the
best mean wins; a turn that wins outright is taken by its fewest actions.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Hashable
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from solver.budget import Budget, BudgetExhausted, Meter, SearchStats, Status
from solver.errors import InvalidInput
from solver.ffkingdom.actions import Action, Discard
from solver.ffkingdom.engine import apply, plays, waits
from solver.ffkingdom.evaluate import FITTED_WEIGHTS, WIN, card_value, evaluate
from solver.ffkingdom.policies import greedy_turn
from solver.ffkingdom.state import SHIELD_CARD, State
from solver.search.expectimax import Ranked, expectimax

HINT_BUDGET = Budget(seconds=10.0, nodes=None, table_entries=None)

Plan = tuple[Action, ...]


@dataclass(frozen=True)
class Settings:
    """How wide the hint looks; the defaults are what the self-play figures measure."""

    worlds: int = 8          # samples of the unseen cards
    shortlist: int = 8       # plans valued in every world
    discard_pool: int = 4    # discards are drawn from this many least useful cards


@dataclass(frozen=True)
class Hint:
    status: Status                  # SOLVED: every shortlisted plan valued; UNKNOWN: out of budget
    action: Action | None
    value: float | None             # mean log-odds of winning when the turn returns
    plan: Plan                      # the whole turn the action begins
    runners_up: tuple[tuple[Action, float], ...]  # other first actions, best first
    stats: SearchStats

    @classmethod
    def unknown(cls, seconds: float) -> Hint:
        return cls(Status.UNKNOWN, None, None, (), (), SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        """What `ffk hint --json` prints."""
        return {
            "status": self.status.value,
            "action": None if self.action is None else str(self.action),
            "value": None if self.value is None else round(self.value, 3),
            "plan": [str(action) for action in self.plan],
            "runners_up": [{"action": str(action), "value": round(value, 3)}
                           for action, value in self.runners_up],
            "seconds": round(self.stats.seconds, 6),
        }


def hint(state: State, budget: Budget = HINT_BUDGET, settings: Settings = Settings(),
         seed: int = 0) -> Hint:
    """The best action for the player to move, from what that player can see."""
    if state.winner is not None:
        raise InvalidInput(f"the game is over: player {state.winner} won")
    if settings.worlds < 1:
        raise InvalidInput(f"worlds must be at least 1, got {settings.worlds}")
    meter = Meter(budget, costly_nodes=True)
    rng = random.Random(seed)
    me = state.to_move
    try:
        worlds = []
        for _ in range(settings.worlds):
            meter.tick()
            worlds.append(sample_world(state, rng))
        plans = turn_plans(worlds[0], settings.discard_pool, meter)
        wins = [plan for plan, end in plans.items() if end.winner == me]
        if wins:  # won this turn whatever the hidden cards are: take the shortest win
            wins.sort(key=len)
            others = dict.fromkeys(plan[0] for plan in wins if plan[0] != wins[0][0])
            return Hint(Status.SOLVED, wins[0][0], WIN, wins[0],
                        tuple((action, WIN) for action in others), meter.stats(len(plans)))

        def prior(plan: Plan) -> float:
            return evaluate(plans[plan], me, FITTED_WEIGHTS)

        def value(plan: Plan, world: State) -> float:
            for action in plan:
                world = apply(world, action)
            return evaluate(greedy_turn(world), me, FITTED_WEIGHTS)

        ranked = expectimax(list(plans), worlds, value, prior, settings.shortlist, meter)
    except BudgetExhausted:
        return Hint(Status.UNKNOWN, None, None, (), (), meter.stats(0))
    return _answer(ranked, meter.stats(len(plans)))


def _answer(ranked: list[Ranked[Plan]], stats: SearchStats) -> Hint:
    best = ranked[0]
    firsts: dict[Action, float] = {}
    for entry in ranked[1:]:
        if entry.option[0] != best.option[0]:
            firsts.setdefault(entry.option[0], entry.value)
    return Hint(Status.SOLVED, best.option[0], best.value, best.option,
                tuple(firsts.items()), stats)


def sample_world(state: State, rng: random.Random) -> State:
    """The position with the cards the mover cannot see dealt afresh at random."""
    mover, opponent = state.mover, state.opponent
    visible = Counter(mover.hand) + Counter(state.discard)
    visible[SHIELD_CARD] += mover.shields + opponent.shields
    unseen = list((Counter(state.rules.deck()) - visible).elements())
    rng.shuffle(unseen)
    size = len(opponent.hand)
    hidden_hand = replace(opponent, hand=tuple(sorted(unseen[:size])))
    world = state.with_player(1 - state.to_move, hidden_hand)
    return replace(world, deck=tuple(unseen[size:]), seed=rng.getrandbits(62))


def turn_plans(state: State, discard_pool: int, meter: Meter) -> dict[Plan, State]:
    """Every distinct way to play out this turn, with the state it ends in."""
    me = state.to_move
    seen: set[Hashable] = set()
    plans: dict[Plan, State] = {}
    queue: deque[tuple[Plan, State]] = deque([((), state)])
    while queue:  # breadth first: each state is reached by its shortest plan
        plan, current = queue.popleft()
        for action in _choices(current, discard_pool):
            meter.tick()
            child = apply(current, action)
            if child in seen:
                continue
            seen.add(child)
            if child.winner is not None or child.to_move != me:
                plans[plan + (action,)] = child
            else:
                queue.append((plan + (action,), child))
    return plans


def _choices(state: State, discard_pool: int) -> list[Action]:
    """Every play, and discards of up to three of the least useful cards (with no cards,
    the timeout)."""
    player, rules = state.mover, state.rules
    pool = sorted(dict.fromkeys(player.hand), key=lambda c: card_value(player, c, rules))
    pool = pool[:discard_pool]
    limit = min(rules.config.discard_max, len(pool))
    return [*plays(state), *(Discard(cards) for size in range(1, limit + 1)
                             for cards in combinations(pool, size)), *waits(state)]
