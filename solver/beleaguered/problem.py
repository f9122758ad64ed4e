"""Beleaguered Fortress as a search problem over a compact state, with pruning that
keeps every optimal solution:

- a card that can go home goes home at once (building is by suit, so nothing else
  can use it; checked against the unpruned rules in tests/);
- foundation cards never come back (the only card that could then sit on them could
  have gone home instead);
- of several empty piles only the first is a target, and a pile's only card never
  moves to an empty pile;
- positions that differ only in the order of piles share one key.

A step is the chosen move followed by the moves home it allows, each written without
pile numbers as (card, from reserve?, onto) with onto a card, EMPTY or HOME: positions
that share a key may order their piles differently, and such a step means the same in
all of them. `to_moves` gives the piles their numbers back by replaying from the start.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import NamedTuple

from solver.beleaguered.heuristic import Pile, blocked_cards, extra_moves_bound
from solver.beleaguered.position import Position
from solver.beleaguered.rules import FOUNDATION, TABLEAU, Location, Move
from solver.beleaguered.rules import RESERVE as RESERVE_KIND
from solver.cards import Card

RESERVE = -1  # a move's source when it is not a pile
HOME = -1  # a move's target, or where a step says the card goes
EMPTY = -2  # where a step says the card goes: an empty pile

Triple = tuple[int, int, int]  # (card, source pile or RESERVE, target pile or HOME)
StepMove = tuple[int, bool, int]  # (card, from reserve?, card it goes onto, EMPTY or HOME)
Step = tuple[StepMove, ...]


class State(NamedTuple):
    piles: tuple[Pile, ...]
    reserve: int  # bit c set when card c is still in the reserve
    home: tuple[int, int, int, int]  # cards home per suit


class FortressProblem:
    """Implements solver.search.Problem for one starting position."""

    def __init__(self, position: Position, thorough: bool = True) -> None:
        """`thorough` picks the stronger bound, worth its cost when proving optimality;
        a search for any verdict does better with the cheap one."""
        self.position = position
        self._extra_moves = extra_moves_bound if thorough else blocked_cards
        self._slot = {card.index: slot for slot, card in enumerate(position.reserve) if card}
        piles = tuple(tuple(card.index for card in pile) for pile in position.tableau)
        raw = State(piles, sum(1 << index for index in self._slot), position.foundations)
        free = [pile[-1] for pile in piles if pile] + list(self._slot)
        self._start, self.opening = _settle(raw, free)

    def start(self) -> State:
        """The position after the moves home it allows at once (the `opening`)."""
        return self._start

    def is_goal(self, state: State) -> bool:
        return sum(state.home) == 52

    def heuristic(self, state: State) -> int:
        return 52 - sum(state.home) + self._extra_moves(tuple(sorted(state.piles)))

    def key(self, state: State) -> tuple[tuple[Pile, ...], int]:
        return tuple(sorted(state.piles)), state.reserve

    def successors(self, state: State) -> Iterator[tuple[Step, State, int]]:
        piles = state.piles
        for triple in _moves(state):
            card, source, target = triple
            child = _apply(state, triple)
            move = (card, source == RESERVE, piles[target][-1] if piles[target] else EMPTY)
            if source == RESERVE or len(piles[source]) == 1:
                yield (move,), child, 1  # nothing was uncovered, so nothing can go home
                continue
            child, home_moves = _settle(child, (piles[source][-2],))
            yield (move, *home_moves), child, 1 + len(home_moves)

    def to_moves(self, steps: tuple[Step, ...]) -> list[Move]:
        """The whole solution, the opening first, with pile numbers of the start position."""
        piles = [[card.index for card in pile] for pile in self.position.tableau]
        moves = []
        for card, from_reserve, onto in (m for step in (self.opening, *steps) for m in step):
            if from_reserve:
                source = Location(RESERVE_KIND, self._slot[card])
            else:
                pile = next(i for i, cards in enumerate(piles) if cards and cards[-1] == card)
                piles[pile].pop()
                source = Location(TABLEAU, pile)
            if onto == HOME:
                target = Location(FOUNDATION)
            else:
                pile = next(i for i, cards in enumerate(piles)
                            if (cards[-1] == onto if cards else onto == EMPTY))
                piles[pile].append(card)
                target = Location(TABLEAU, pile)
            moves.append(Move(Card.from_index(card), source, target))
        return moves


def _moves(state: State) -> Iterator[Triple]:
    """Every move to the tableau, less those the pruning rules drop."""
    piles = state.piles
    top_pile = {}
    sources = []
    empty = None
    for i, pile in enumerate(piles):
        if pile:
            top_pile[pile[-1]] = i
            sources.append((pile[-1], i))
        elif empty is None:
            empty = i
    sources += _reserve_sources(state.reserve)
    for card, source in sources:
        target = top_pile.get(card - 4)
        if target is not None and target != source:
            yield card, source, target
        target = top_pile.get(card + 4)
        if target is not None and target != source:
            yield card, source, target
        if empty is not None and (source == RESERVE or len(piles[source]) > 1):
            yield card, source, empty


@lru_cache(maxsize=1 << 12)
def _reserve_sources(reserve: int) -> tuple[tuple[int, int], ...]:
    return tuple((card, RESERVE) for card in range(52) if reserve >> card & 1)


def _apply(state: State, triple: Triple) -> State:
    card, source, target = triple
    piles = list(state.piles)
    reserve = state.reserve
    if source == RESERVE:
        reserve &= ~(1 << card)
    else:
        piles[source] = piles[source][:-1]
    if target == HOME:
        home = list(state.home)
        home[card & 3] += 1
        return State(tuple(piles), reserve, tuple(home))  # type: ignore[arg-type]
    piles[target] = piles[target] + (card,)
    return State(tuple(piles), reserve, state.home)


def _settle(state: State, candidates: Iterable[int]) -> tuple[State, Step]:
    """Send home every card that can go, starting from `candidates` (cards just freed).

    A card going home lets its successor in suit follow, and uncovers the card below.
    """
    moves: list[StepMove] = []
    work = list(candidates)
    while work:
        card = work.pop()
        if card >> 2 != state.home[card & 3]:
            continue
        if state.reserve >> card & 1:
            source = RESERVE
        else:
            top_of = next((i for i, pile in enumerate(state.piles) if pile and pile[-1] == card),
                          None)
            if top_of is None:
                continue  # covered, so not free yet
            source = top_of
        moves.append((card, source == RESERVE, HOME))
        state = _apply(state, (card, source, HOME))
        if card < 48:
            work.append(card + 4)
        if source != RESERVE and state.piles[source]:
            work.append(state.piles[source][-1])
    return state, tuple(moves)
