"""Hints in a real game: the best action for the player to move, who sees only their own
hand, the discard pile, the board and how many cards the others hold, and knows what it
has been shown or can deduce (solver/ffkingdom/knowledge.py: `known`).

Depth-limited expectimax: every plan for the rest of this turn (plays and discards in
order) is a choice; the unseen cards (the opponent's hand and the deck order) are
sampled into worlds that agree with what the player knows: the cards it knows in the
opponent's hand stay there, the deck top it knows stays on top, and the rest of what it
cannot see is dealt at random. In each world the plan is played, the hand refilled, the
opponent answers with a greedy turn, and the position is evaluated when the turn comes
back by its chance of winning (the logistic of the fitted evaluation, hand included; 1 or
0 once the game is over). The plan with the best mean chance is the hint. A turn that
wins outright, whatever the hidden cards, is a proven win: it is taken by its fewest
actions, with a chance of 1.

A card that shows hidden cards (Kundschafter, Spitzel) is worth what the rest of the turn
gains from what it shows: a plan that begins with one is valued, in each world, by
playing it, then choosing the rest of the turn as the player then could, by what it now
knows (a fresh world that agrees with it), and valuing that choice in the world. The
knowledge-blind hint (`Settings(knowing=False)`, the bot `hint-blind`) deals every unseen
card at random and values the reveal as nothing, as the hint did before it knew.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from solver.budget import Budget, BudgetExhausted, Meter, SearchStats, Status
from solver.errors import IllegalMove, InvalidInput
from solver.ffkingdom.actions import Action, Discard
from solver.ffkingdom.evaluate import (
    FITTED_WEIGHTS,
    card_value,
    evaluate,
    log_odds,
    win_chance,
)
from solver.ffkingdom.knowledge import NOTHING, Knowledge, known, unseen
from solver.ffkingdom.policies import greedy_turn
from solver.ffkingdom.position import State
from solver.ffkingdom.rules import apply, plays, waits
from solver.search.expectimax import Ranked, expectimax

HINT_BUDGET = Budget(seconds=10.0, nodes=None, table_entries=None)

Plan = tuple[Action, ...]


@dataclass(frozen=True)
class Settings:
    """How wide the hint looks; the defaults are what the self-play figures measure."""

    worlds: int = 8          # samples of the unseen cards
    shortlist: int = 8       # plans valued in every world
    discard_pool: int = 4    # discards are drawn from this many least useful cards
    knowing: bool = True     # sample around what the player knows, and value reveals
    replans: int = 4         # after a reveal, the rests of the turn chosen among


@dataclass(frozen=True)
class Hint:
    status: Status                  # SOLVED: every shortlisted plan valued; UNKNOWN: out of budget
    action: Action | None
    win_chance: float | None        # chance of winning: 1 for a proven win, else the mean
                                    # estimate when the turn returns
    plan: Plan                      # the whole turn the action begins
    runners_up: tuple[tuple[Action, float], ...]  # other first actions and their chance, best first
    stats: SearchStats
    wins: bool = False              # proven: the plan wins this turn whatever the hidden
                                    # cards (and so does each runner-up's)

    @property
    def value(self) -> float | None:
        """The chance of winning as log-odds, the scale of the fitted evaluation; None
        when it is 0 or 1 (a proven win) or unknown."""
        return None if self.win_chance is None else log_odds(self.win_chance)

    @classmethod
    def unknown(cls, seconds: float) -> Hint:
        return cls(Status.UNKNOWN, None, None, (), (), SearchStats(0, seconds, 0))

    def to_json(self) -> dict[str, Any]:
        """What `ffk hint --json` prints."""
        return {
            "status": self.status.value,
            "action": None if self.action is None else str(self.action),
            "value": self.value, "win_chance": self.win_chance,
            "wins": self.wins,
            "plan": [str(action) for action in self.plan],
            "runners_up": [{"action": str(action), "value": log_odds(chance),
                            "win_chance": chance, "wins": self.wins}
                           for action, chance in self.runners_up],
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
    knows = known(state) if settings.knowing else NOTHING
    try:
        worlds = []
        for _ in range(settings.worlds):
            meter.tick()
            worlds.append(sample_world(state, rng, knows))
        plans = turn_plans(worlds[0], settings.discard_pool, meter)
        wins = [plan for plan, end in plans.items() if end.winner == me]
        if wins:  # won this turn whatever the hidden cards are: take the shortest win
            wins.sort(key=len)
            others = dict.fromkeys(plan[0] for plan in wins if plan[0] != wins[0][0])
            return Hint(Status.SOLVED, wins[0][0], 1.0, wins[0],
                        tuple((action, 1.0) for action in others), meter.stats(len(plans)),
                        wins=True)

        def prior(plan: Plan) -> float:
            return evaluate(plans[plan], me, FITTED_WEIGHTS)

        def value(plan: Plan, world: State) -> float:
            for action in plan:
                world = apply(world, action)
            return win_chance(greedy_turn(world), me)

        ranked = expectimax(list(plans), worlds, value, prior, settings.shortlist, meter)
        if settings.knowing:
            imagine = random.Random(rng.getrandbits(62))
            for reveal, rests in _reveals(worlds[0], ranked, settings.replans).items():
                ranked.append(_revealing(reveal, rests, worlds, value, imagine, meter))
            ranked.sort(key=lambda entry: entry.value, reverse=True)
    except BudgetExhausted:
        return Hint(Status.UNKNOWN, None, None, (), (), meter.stats(0))
    return _answer(ranked, meter.stats(len(plans)))


def _reveals(state: State, ranked: list[Ranked[Plan]], count: int) -> dict[Action, list[Plan]]:
    """Each play of a card that shows hidden cards (after which the turn goes on), with
    the rests of the turn to choose among once it is shown: the best valued plans, less
    that play when they begin with it, that can follow it (`count` at most)."""
    me, rules = state.to_move, state.rules
    reveals: dict[Action, list[Plan]] = {}
    for action in plays(state):
        if "reveal" not in rules.cards[action.card].effect:
            continue
        shown = apply(state, action)
        if shown.winner is not None or shown.to_move != me:
            continue
        rests: list[Plan] = []
        for entry in ranked:
            rest = entry.option[1:] if entry.option[0] == action else entry.option
            if rest and rest not in rests and _ends_the_turn(shown, rest):
                rests.append(rest)
                if len(rests) == count:
                    break
        if rests:
            reveals[action] = rests
    return reveals


def _ends_the_turn(state: State, plan: Plan) -> bool:
    """The plan is legal from here, action by action, and ends the turn (or the game)."""
    me = state.to_move
    for action in plan:
        if state.winner is not None or state.to_move != me:
            return False
        try:
            state = apply(state, action)
        except IllegalMove:
            return False
    return state.winner is not None or state.to_move != me


def _revealing(reveal: Action, rests: list[Plan], worlds: list[State],
               value: Callable[[Plan, State], float], imagine: random.Random,
               meter: Meter) -> Ranked[Plan]:
    """The reveal, then in each world the rest of the turn the player would choose by what
    it has been shown (its value in a fresh world that agrees with that), valued in the
    world: its mean, and the plan with the rest chosen most often."""
    total = 0.0
    chosen: list[Plan] = []
    for world in worlds:
        shown = apply(world, reveal)
        guess = sample_world(shown, imagine)
        scores = []
        for rest in rests:
            meter.tick()
            scores.append(value(rest, guess))
        best = rests[scores.index(max(scores))]
        chosen.append(best)
        meter.tick()
        total += value(best, shown)
    counts = Counter(chosen)
    return Ranked((reveal, *max(counts, key=counts.__getitem__)), total / len(worlds))


def _answer(ranked: list[Ranked[Plan]], stats: SearchStats) -> Hint:
    best = ranked[0]
    firsts: dict[Action, float] = {}
    for entry in ranked[1:]:
        if entry.option[0] != best.option[0]:
            firsts.setdefault(entry.option[0], entry.value)
    return Hint(Status.SOLVED, best.option[0], best.value, best.option,
                tuple(firsts.items()), stats)


def sample_world(state: State, rng: random.Random, knows: Knowledge | None = None) -> State:
    """The position with the cards the mover cannot see dealt afresh around what it
    knows (`knows`, by default `known(state)`): the cards it knows in the opponent's hand
    stay there, the deck top it knows stays on top in order, and the rest of what it
    cannot see is dealt at random (all of it with `knows=NOTHING`, the blind world). The
    world's mover knows `knows`; the opponent knows of the new deck's top as many cards as
    it knew of the real one, and of the mover's hand what it knew."""
    knows = known(state) if knows is None else knows
    opponent = state.opponent
    rest = unseen(state)
    if knows:
        rest = rest - Counter(knows.opponent_hand) - Counter(knows.deck_top)
    cards = list(rest.elements())
    rng.shuffle(cards)
    free = len(opponent.hand) - len(knows.opponent_hand)
    hand = tuple(sorted((*knows.opponent_hand, *cards[:free])))
    deck = (*knows.deck_top, *cards[free:])
    theirs = opponent.knows
    if theirs.deck_top:
        theirs = replace(theirs, deck_top=deck[:len(theirs.deck_top)])
    players = [state.players[0], state.players[1]]
    players[state.to_move] = replace(state.mover, knows=knows)
    players[1 - state.to_move] = replace(opponent, hand=hand, knows=theirs)
    return replace(state, players=(players[0], players[1]), deck=deck,
                   seed=rng.getrandbits(62))


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
