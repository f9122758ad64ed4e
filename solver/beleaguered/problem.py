"""A patience of Beleaguered Fortress's family as a search problem over a compact state,
with pruning that keeps every optimal solution. The compiled kernel (`_kernel.cpp`)
implements the very same pruning; this module is the readable reference it is held to.

- A free card (a pile's top, a reserve card or a cell's card) that can go home goes at
  once when that is safe: always when piles build by suit (nothing but its suit-mates
  could use it, and they can go home instead); when they build down regardless of suit
  or by alternate colours, once every card that could be built onto it is home or could
  itself go home as soon as it is free, with every card that could be built onto that
  one home (regardless of suit: once every card two ranks lower is home); where
  foundation cards may come back, only aces.
- Foundation cards never come back when piles build by suit (the only card that could
  then sit on one could have gone home instead).
- Of several empty piles only the first is a target, and a pile's only card never moves
  to an empty pile; likewise only the first free cell, and only a pile's top goes
  there (a reserve or cell card is as free where it is).
- A card goes home as a chosen move only when that is not safe: the safe ones went.
- Positions that differ only in the order of piles, of reserve slots or of cells share
  one key.

With sequence moves (counted one move each: the `moves` metric) a move from pile to pile
may carry the built run on its card, as many cards as `rules.capacity` allows; the whole
of a pile never goes to an empty one. The bound then counts runs, not cards, that must
step aside (heuristic.blocked_runs). Searched without them (the `cards` metric), every
move is one card, as in a variant without them.

A step is the chosen move followed by the moves home it allows, each written without
pile or cell numbers as (card, onto) with onto a card, EMPTY, HOME or CELL; a move's
source is found by its card (the pile it tops, its reserve slot, its cell, or its
foundation). Positions that share a key may order their piles differently, and such a
step means the same in all of them; `to_moves` gives the numbers back by replaying
from the start.

Order matters only for which of several optimal lines comes out, and the kernel compares
steps move by move, so it is part of the contract: sources are pile tops (pile order),
reserve cards, cell cards (both by ascending card), then foundation tops (ascending
suit); each source's targets are the piles whose tops take it (by ascending top card),
the first empty pile, the first free cell, then home; then the sequence moves: per pile
(pile order), per run from two cards up, the piles whose tops take its base card (by
ascending top card), then the first empty pile. Settling pops candidates from the
end of a work list; a card going home pushes its successor in suit (for builds
regardless of suit: the four cards of the rank after next and then the four of the next
rank, each by ascending suit, which hold its successor) and then the card it uncovered.
The opening settles from every free card: pile tops, then reserve slots, then cells, each
in their order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache, partial
from typing import NamedTuple

from solver.beleaguered.heuristic import (
    Pile,
    blocked_cards,
    blocked_runs,
    extra_moves_bound,
    run_moves_bound,
)
from solver.beleaguered.position import Position
from solver.beleaguered.rules import CELL as CELL_KIND
from solver.beleaguered.rules import FOUNDATION, TABLEAU, Location, Move
from solver.beleaguered.rules import RESERVE as RESERVE_KIND
from solver.beleaguered.variant import Build, Fill, Variant
from solver.cards import Card

HOME = -1  # where a step says the card goes: its foundation
EMPTY = -2  # where a step says the card goes: an empty pile
CELL = -3  # where a step says the card goes: a free cell

# The verdict flares' orders, as the kernel's FLARES: weights of the cards not home, the
# blocked cards (runs with sequence moves), the cards above the next card each foundation
# needs, the cards in cells, the piles not empty (of 13) and the moves made.
FLARES = ((6, 2, 1, 3, 3, 1), (5, 3, 1, 4, 4, 0), (2, 2, 1, 2, 2, 1), (4, 2, 0, 2, 2, 0))
FIRST_FLARE_NODES = 2000  # the kernel's: the nodes each flare has in the first round
_MAX_PILES = 13

# A chosen move's source besides a pile (its index), and its target besides a pile
_FROM_RESERVE, _FROM_CELL, _FROM_HOME = -1, -2, -3
_TO_HOME, _TO_CELL = -1, -2
_KING = 12  # a card's rank index is card >> 2

Triple = tuple[int, int, int]  # (card, source pile or _FROM_*, target pile or _TO_*)
StepMove = tuple[int, int]  # (card, the card it goes onto, EMPTY, HOME or CELL)
Step = tuple[StepMove, ...]


class State(NamedTuple):
    piles: tuple[Pile, ...]
    reserve: int  # bit c set when card c is still in the reserve
    cells: int  # bit c set when card c is in a free cell
    home: tuple[int, int, int, int]  # cards home per suit


class _Rules(NamedTuple):
    """A variant's rules as tables over card ints, for the search's inner loops."""

    onto: tuple[tuple[int, ...], ...]  # per card: the tops it may go onto, ascending
    fills: tuple[bool, ...]  # per card: whether it may go onto an empty pile
    after_home: tuple[tuple[int, ...], ...]  # per card: the candidates its going home adds
    needs: tuple[tuple[int, ...] | None, ...] | None  # per card: the suits of the cards
    #   that could be built onto it (`_safe`), None when it never goes home at once
    #   (worrying back); None for the whole table when every card may
    returns: bool  # whether foundation tops are sources
    cells: int  # how many free cells
    sequences: bool  # whether a built run moves from pile to pile as one move
    through_piles: bool  # whether empty piles carry a run's cards (any card fills them)
    takes: tuple[frozenset[int], ...]  # per card: the cards that may go onto it


@lru_cache(maxsize=64)
def _rules(variant: Variant, sequences: bool) -> _Rules:
    by_suit = variant.build in (Build.SAME_SUIT_UP_OR_DOWN, Build.SAME_SUIT_DOWN)
    onto: list[tuple[int, ...]] = []
    needs: list[tuple[int, ...] | None] = []
    after_home: list[tuple[int, ...]] = []
    for card in range(52):
        rank, suit = card >> 2, card & 3
        if variant.build is Build.SAME_SUIT_UP_OR_DOWN:
            onto.append(tuple(top for top in (card - 4, card + 4) if 0 <= top < 52))
        elif rank == _KING:
            onto.append(())
        elif variant.build is Build.SAME_SUIT_DOWN:
            onto.append((card + 4,))
        else:
            onto.append(tuple((rank + 1) * 4 + s for s in _other_suits(variant.build, suit)))
        if rank == 0:
            needs.append(())  # nothing goes onto an ace
        elif variant.worrying_back:
            needs.append(None)  # a card that could go onto it may come back
        else:
            needs.append(_other_suits(variant.build, suit))
        if rank == _KING:
            after_home.append(())
        elif by_suit:
            after_home.append((card + 4,))
        else:  # cards of the next two ranks may be safe now
            after_home.append(tuple(next_rank * 4 + s for next_rank in (rank + 2, rank + 1)
                                    if next_rank <= _KING for s in range(4)))
    fills = tuple(variant.empty is Fill.ANY or (variant.empty is Fill.KINGS and card >> 2 == _KING)
                  for card in range(52))
    takes = tuple(frozenset(card for card in range(52) if below in onto[card])
                  for below in range(52))
    return _Rules(tuple(onto), fills, tuple(after_home), None if by_suit else tuple(needs),
                  variant.worrying_back and not by_suit, variant.cells, sequences,
                  variant.empty is Fill.ANY, takes)


def _other_suits(build: Build, suit: int) -> tuple[int, ...]:
    """Under a down build regardless of suit: the suits of the cards one rank higher that
    a card of `suit` may go onto, which are also the suits of the cards one rank lower
    that may go onto it (either rule is symmetric between the two cards)."""
    if build is Build.ALTERNATE_COLOURS_DOWN:
        return (0, 3) if suit in (1, 2) else (1, 2)  # C D H S: diamonds and hearts are red
    return (0, 1, 2, 3)


def takes_of(variant: Variant) -> tuple[frozenset[int], ...]:
    """Per card, the cards that build on it in a run moved as one (sequence moves)."""
    return _rules(variant, True).takes


class FortressProblem:
    """Implements solver.search.Problem for one starting position, under its variant."""

    def __init__(self, position: Position, thorough: bool = True,
                 sequences: bool = False) -> None:
        """`thorough` picks the stronger bound, worth its cost when proving optimality;
        a search for any verdict does better with the cheap one. `sequences`: built runs
        move as one move (only where the variant has sequence moves)."""
        self.position = position
        self._rules = _rules(position.variant, sequences)
        self._extra_moves: Callable[[tuple[Pile, ...]], int] = (
            partial(run_moves_bound if thorough else blocked_runs, takes=self._rules.takes)
            if sequences
            else extra_moves_bound if thorough else blocked_cards)
        self._slot = {card.index: slot for slot, card in enumerate(position.reserve) if card}
        in_cells = [card.index for card in position.cells if card]
        piles = tuple(tuple(card.index for card in pile) for pile in position.tableau)
        raw = State(piles, sum(1 << index for index in self._slot),
                    sum(1 << index for index in in_cells), position.foundations)
        free = [pile[-1] for pile in piles if pile] + list(self._slot) + in_cells
        self._start, self.opening = self._settle(raw, free)

    def start(self) -> State:
        """The position after the moves home it allows at once (the `opening`)."""
        return self._start

    def is_goal(self, state: State) -> bool:
        return sum(state.home) == 52

    def heuristic(self, state: State) -> int:
        return 52 - sum(state.home) + self._extra_moves(tuple(sorted(state.piles)))

    def verdict_orders(self) -> tuple[Callable[[State, int], int], ...]:
        """The orders of the verdict flares (solver/search/flares.py), as the kernel's:
        FLARES with free cells; without, the `any` search's order alone (cards away and
        blocked, by suit alone; twice that and the moves made otherwise)."""
        if self._rules.cells:
            return tuple(partial(self._verdict_score, weights) for weights in FLARES)
        weight = 1 if self._rules.needs is None else 2  # by suit: no `needs` table
        made = 0 if weight == 1 else 1
        return (partial(self._verdict_score, (weight, weight, 0, 0, 0, made)),)

    def _verdict_score(self, weights: tuple[int, ...], state: State, moves: int) -> int:
        """A guess at how far `state` is from a win (the kernel's verdict_score)."""
        away, blocked, over, cells, empty, made = weights
        piles = tuple(sorted(state.piles))
        above_next = 0
        for pile in piles:
            for at, card in enumerate(pile):
                if card >> 2 == state.home[card & 3]:
                    above_next += len(pile) - 1 - at
        stuck = (blocked_runs(piles, self._rules.takes) if self._rules.sequences
                 else blocked_cards(piles))
        return (away * (52 - sum(state.home)) + blocked * stuck + over * above_next
                + cells * state.cells.bit_count()
                + empty * (_MAX_PILES - sum(not pile for pile in piles)) + made * moves)

    def key(self, state: State) -> tuple[tuple[Pile, ...], int, int]:
        return tuple(sorted(state.piles)), state.reserve, state.cells

    def successors(self, state: State) -> Iterator[tuple[Step, State, int]]:
        piles = state.piles
        for triple in self._moves(state):
            card, source, target = triple
            child = _apply(state, triple)
            if target >= 0:
                move = (card, piles[target][-1] if piles[target] else EMPTY)
            else:
                move = (card, HOME if target == _TO_HOME else CELL)
            uncovers = source >= 0 and bool(child.piles[source])
            if target == _TO_HOME:  # its going home may free more, as in `_settle`
                work = list(self._rules.after_home[card])
                if uncovers:
                    work.append(child.piles[source][-1])
            elif uncovers:
                work = [child.piles[source][-1]]
            else:
                yield (move,), child, 1  # nothing was uncovered, so nothing can go home
                continue
            child, home_moves = self._settle(child, work)
            yield (move, *home_moves), child, 1 + len(home_moves)

    def _moves(self, state: State) -> Iterator[Triple]:
        """Every chosen move, less those the pruning rules drop."""
        rules = self._rules
        piles, home = state.piles, state.home
        top_pile = {}
        sources = []
        empty = None
        for i, pile in enumerate(piles):
            if pile:
                top_pile[pile[-1]] = i
                sources.append((pile[-1], i))
            elif empty is None:
                empty = i
        sources += _bit_sources(state.reserve, _FROM_RESERVE)
        if state.cells:
            sources += _bit_sources(state.cells, _FROM_CELL)
        if rules.returns:
            sources += [((top - 1) * 4 + suit, _FROM_HOME) for suit, top in enumerate(home)
                        if top]
        free_cell = state.cells.bit_count() < rules.cells
        needs = rules.needs
        for card, source in sources:
            for top in rules.onto[card]:
                target = top_pile.get(top)
                if target is not None and target != source:
                    yield card, source, target
            if empty is not None and rules.fills[card] and (source < 0 or len(piles[source]) > 1):
                yield card, source, empty
            if free_cell and source >= 0:
                yield card, source, _TO_CELL
            if (needs is not None and source != _FROM_HOME and card >> 2 == home[card & 3]
                    and not _safe(needs, card, home)):
                yield card, source, _TO_HOME
        if rules.sequences:
            yield from self._sequence_moves(state, top_pile, empty)

    def _sequence_moves(self, state: State, top_pile: dict[int, int],
                        empty: int | None) -> Iterator[Triple]:
        """The moves of two or more cards from pile to pile: as many as the empty cells
        and piles carry (rules.capacity), the target pile aside."""
        rules = self._rules
        carried = rules.cells - state.cells.bit_count() + 1
        empty_piles = sum(not pile for pile in state.piles)
        to_pile = carried << empty_piles if rules.through_piles else carried
        to_empty = carried << max(empty_piles - 1, 0) if rules.through_piles else carried
        for i, pile in enumerate(state.piles):
            for depth in range(2, min(len(pile), to_pile) + 1):
                base = pile[-depth]
                if pile[-depth + 1] not in rules.takes[base]:
                    break
                for top in rules.onto[base]:
                    target = top_pile.get(top)
                    if target is not None and target != i:
                        yield base, i, target
                if (empty is not None and rules.fills[base] and depth < len(pile)
                        and depth <= to_empty):
                    yield base, i, empty

    def _settle(self, state: State, candidates: Iterable[int]) -> tuple[State, Step]:
        """Send home every card that can safely go, starting from `candidates` (cards
        just freed, or whose safety may just have changed).

        A card going home lets its successor in suit follow (and, under builds regardless
        of suit, may make the next rank safe), and uncovers the card below.
        """
        moves: list[StepMove] = []
        work = list(candidates)
        needs, after_home = self._rules.needs, self._rules.after_home
        while work:
            card = work.pop()
            rank = card >> 2
            if rank != state.home[card & 3]:
                continue
            if needs is not None and not _safe(needs, card, state.home):
                continue
            bit = 1 << card
            if state.reserve & bit:
                source = _FROM_RESERVE
            elif state.cells & bit:
                source = _FROM_CELL
            else:
                top_of = next((i for i, pile in enumerate(state.piles)
                               if pile and pile[-1] == card), None)
                if top_of is None:
                    continue  # covered, so not free yet
                source = top_of
            moves.append((card, HOME))
            state = _apply(state, (card, source, _TO_HOME))
            work += after_home[card]
            if source >= 0 and state.piles[source]:
                work.append(state.piles[source][-1])
        return state, tuple(moves)

    def to_moves(self, steps: tuple[Step, ...]) -> list[Move]:
        """The whole solution, the opening first, with the pile, slot and cell numbers of
        the start position."""
        piles = [[card.index for card in pile] for pile in self.position.tableau]
        cells = [None if card is None else card.index for card in self.position.cells]
        in_reserve = set(self._slot)
        moves = []
        for card, onto in (m for step in (self.opening, *steps) for m in step):
            run = [card]
            if card in in_reserve:
                in_reserve.discard(card)
                source = Location(RESERVE_KIND, self._slot[card])
            elif card in cells:
                cell = cells.index(card)
                cells[cell] = None
                source = Location(CELL_KIND, cell)
            else:
                pile = next((i for i, cards in enumerate(piles) if card in cards), None)
                if pile is None:
                    source = Location(FOUNDATION)  # a card coming back
                else:
                    run = piles[pile][piles[pile].index(card):]
                    del piles[pile][-len(run):]
                    source = Location(TABLEAU, pile)
            if onto == HOME:
                target = Location(FOUNDATION)
            elif onto == CELL:
                cell = cells.index(None)
                cells[cell] = card
                target = Location(CELL_KIND, cell)
            else:
                pile = next(i for i, cards in enumerate(piles)
                            if (cards[-1] == onto if cards else onto == EMPTY))
                piles[pile] += run
                target = Location(TABLEAU, pile)
            moves.append(Move(Card.from_index(card), source, target))
        return moves


def safe_moves(position: Position) -> list[Move]:
    """The moves home the search makes at once from `position`, in its order: every card
    `_safe` lets go home (always when piles build by suit), then those their going home
    lets follow. Played for a person (the playground's auto-play), they lose no win and
    no shortest line, by the same proof as the pruning (docs/castle-family.md, 4.3-4.4)."""
    return FortressProblem(position).to_moves(())


def _safe(needs: tuple[tuple[int, ...] | None, ...], card: int,
          home: tuple[int, int, int, int]) -> bool:
    """Whether a card that can go home may go at once (docs/castle-family.md, 4.4): each
    card that could be built onto it (`needs[card]`: their suits) is home, or could go
    home as soon as it is free with every card that could be built onto that one home;
    and no foundation card may come back (None)."""
    suits = needs[card]
    if suits is None:
        return False
    rank = card >> 2
    below = card - 4 - (card & 3)  # the card of the rank below, in suit 0
    return all(home[suit] >= rank or home[suit] == rank - 1
               and all(home[other] >= rank - 1 for other in needs[below + suit] or ())
               for suit in suits)


@lru_cache(maxsize=1 << 12)
def _bit_sources(bits: int, source: int) -> tuple[tuple[int, int], ...]:
    return tuple((card, source) for card in range(52) if bits >> card & 1)


def _apply(state: State, triple: Triple) -> State:
    card, source, target = triple
    piles = list(state.piles)
    if source >= 0 and target >= 0:  # the most common move first
        pile = piles[source]
        at = len(pile) - 1 if pile[-1] == card else pile.index(card)  # a run from `at`
        piles[source] = pile[:at]
        piles[target] = piles[target] + pile[at:]
        return State(tuple(piles), state.reserve, state.cells, state.home)
    reserve, cells, home = state.reserve, state.cells, state.home
    if source >= 0:
        piles[source] = piles[source][:-1]
    elif source == _FROM_RESERVE:
        reserve &= ~(1 << card)
    elif source == _FROM_CELL:
        cells &= ~(1 << card)
    else:
        lowered = list(home)
        lowered[card & 3] -= 1
        home = (lowered[0], lowered[1], lowered[2], lowered[3])
    if target >= 0:
        piles[target] = piles[target] + (card,)
    elif target == _TO_CELL:
        cells |= 1 << card
    else:
        raised = list(home)
        raised[card & 3] += 1
        home = (raised[0], raised[1], raised[2], raised[3])
    return State(tuple(piles), reserve, cells, home)
