"""Admissible lower bounds on the moves left, over the compact search state.

Cards are ints 0..51 (rank*4 + suit), so a card's suit is `c & 3`, and two cards of
one suit compare by rank as ints. Every card not home needs one move; the bound adds
the cards that provably need a second one. A card that goes home straight from its
pile must stay there until its lower suit-mates are home, and everything beneath it
must wait for it. So a card needs a second move when:

- it lies above a lower card of its own suit (`blocked`), or
- it is one of a pair in two piles that wait for each other: X lies above a card of
  Y's suit lower than Y, and Y above a card of X's suit lower than X. One of the two
  must step aside; each pair of a matching (pairs sharing no card) adds one move.

Where a built run moves as one move (sequence moves), a whole run may step aside in one
move, so the bound counts, per pile, the built runs (as the pile lies) holding a blocked
card instead (`blocked_runs`): one move off a pile carries a built run, so cards of one
run of the pile as it lies, and each such run must leave before the suit-mate below it
goes home.
"""

from __future__ import annotations

from functools import lru_cache

Pile = tuple[int, ...]
_NONE = 99  # "no card of this suit below"


@lru_cache(maxsize=1 << 18)
def _profile(pile: Pile) -> tuple[int, tuple[tuple[int, tuple[int, ...]], ...], int, int]:
    """(blocked cards, the other cards each with the lowest card per suit beneath it,
    and two masks of which suits wait on which: bit 4a+b when a card of suit a lies above
    a card of suit b, and the same transposed) so that most pairs of piles are ruled
    out without looking at their cards."""
    lowest = [_NONE, _NONE, _NONE, _NONE]
    blocked = waits = waits_transposed = 0
    free = []
    for card in pile:
        suit = card & 3
        if lowest[suit] < card:
            blocked += 1
        else:
            free.append((card, tuple(lowest)))
            for other in range(4):
                if lowest[other] != _NONE and other != suit:
                    waits |= 1 << (4 * suit + other)
                    waits_transposed |= 1 << (4 * other + suit)
            lowest[suit] = card
    return blocked, tuple(free), waits, waits_transposed


@lru_cache(maxsize=1 << 20)
def _waiting_pairs(first: Pile, second: Pile) -> tuple[tuple[int, int], ...]:
    """Pairs (x in first, y in second) of unblocked cards that wait for each other."""
    pairs = []
    for x, below_x in _profile(first)[1]:
        for y, below_y in _profile(second)[1]:
            if (x ^ y) & 3 and below_x[y & 3] < y and below_y[x & 3] < x:
                pairs.append((x, y))
    return tuple(pairs)


def blocked_runs(piles: tuple[Pile, ...], takes: tuple[frozenset[int], ...]) -> int:
    """The bound's extra moves with sequence moves: per pile, the built runs (`takes`:
    per card the cards that build on it) that hold a card above a lower suit-mate."""
    return sum(_blocked_runs(pile, takes) for pile in piles)


def _blocked_runs(pile: Pile, takes: tuple[frozenset[int], ...]) -> int:
    return _run_profile(pile, takes)[0]


@lru_cache(maxsize=1 << 18)
def _run_profile(pile: Pile, takes: tuple[frozenset[int], ...]
                 ) -> tuple[int, tuple[tuple[int, tuple[int, ...], int], ...]]:
    """(the built runs holding a blocked card, and the cards of the other runs that are
    not blocked, each with the lowest card per suit beneath it and its run's number)."""
    lowest = [_NONE, _NONE, _NONE, _NONE]
    counted: list[bool] = []
    unblocked = []
    for at, card in enumerate(pile):
        if not at or card not in takes[pile[at - 1]]:
            counted.append(False)  # a new run starts
        if lowest[card & 3] < card:
            counted[-1] = True
        else:
            unblocked.append((card, tuple(lowest), len(counted) - 1))
            lowest[card & 3] = card
    return sum(counted), tuple(free for free in unblocked if not counted[free[2]])


@lru_cache(maxsize=1 << 16)
def run_moves_bound(piles: tuple[Pile, ...], takes: tuple[frozenset[int], ...]) -> int:
    """The stronger bound's extra moves with sequence moves: `blocked_runs`, plus a
    matching of pairs of runs not counted there, in two piles, holding cards that wait
    for each other (as `extra_moves_bound` pairs cards): one of the two runs must step
    aside, in a move off its pile of its own. Piles in sorted order, as there."""
    profiles = [_run_profile(pile, takes) for pile in piles]
    busy = [(k, profile) for k, (pile, profile) in enumerate(zip(piles, profiles, strict=True))
            if len(pile) > 1]
    matched: set[tuple[int, int]] = set()  # (pile, run)
    for i, (first, one) in enumerate(busy):
        for second, other in busy[i + 1:]:
            for x, below_x, run_x in one[1]:
                if (first, run_x) in matched:
                    continue
                for y, below_y, run_y in other[1]:
                    if ((second, run_y) not in matched and (x ^ y) & 3
                            and below_x[y & 3] < y and below_y[x & 3] < x):
                        matched.update(((first, run_x), (second, run_y)))
                        break
    return sum(profile[0] for profile in profiles) + len(matched) // 2


def blocked_cards(piles: tuple[Pile, ...]) -> int:
    """The cheap part of the bound: only the cards above a lower suit-mate."""
    return sum(_profile(pile)[0] for pile in piles)


@lru_cache(maxsize=1 << 16)
def extra_moves_bound(piles: tuple[Pile, ...]) -> int:
    """Moves beyond one per card that the piles force; piles in sorted order, so that
    positions differing only in pile order share the cache entry."""
    busy = [(pile, _profile(pile)) for pile in piles if len(pile) > 1]
    pairs = [pair for i, (first, one) in enumerate(busy) for second, other in busy[i + 1:]
             if one[2] & other[3] for pair in _waiting_pairs(first, second)]
    return sum(profile[0] for _, profile in busy) + _matching_size(pairs)


def _matching_size(pairs: list[tuple[int, int]]) -> int:
    """Size of a matching in the graph of waiting pairs, taken greedily. Any matching is
    a valid bound, as every pair in it needs its own extra move; a maximum one would add
    under half a move per deal and cost more time than it saves."""
    matched: set[int] = set()
    for x, y in pairs:
        if x not in matched and y not in matched:
            matched.update((x, y))
    return len(matched) // 2


def forget() -> None:
    """Empty the caches: they serve one search, and a long-lived process (a server's
    worker) should not hold them between searches."""
    _profile.cache_clear()
    _run_profile.cache_clear()
    run_moves_bound.cache_clear()
    _waiting_pairs.cache_clear()
    extra_moves_bound.cache_clear()
