"""Generating deals whose optimal length lies in a band, at the pace the deals allow: the
plan that both `fortress-solver generate` and the server's GenerateDeals follow.

Proving a deal's optimal length takes milliseconds for most deals and minutes for a few,
so one budget for every deal either misses the hard ones or spends hours on them. The
plan climbs a ladder of budgets instead (0.25 s, then four times more each rung, up to
the budget asked for): the first rung runs over fresh deal numbers in order, and a deal
whose verdict in the band the rung does not settle is set aside and counted. The rungs
share the wall time by what they find: a rung above the first tries the deals set aside
for it while it has had less than its share of the time the rung below has had, and the
first rung draws fresh deals otherwise. Its share is its deals found per second against
the rung below's (counted from one find in eight searches each, so that an untried rung
is tried), at least an eighth and at most as much. So a band whose deals are quick to prove keeps
most of the time on the first rung, and one whose deals are slow still gets the larger
budgets within the wall time. Once the fresh numbers are spent, every deal set aside is
tried again, rung by rung. A rung above the first tries the deals set aside for it by
the line the rung below found, shortest first (those with none last): a deal whose line
lies near the band's bottom is the likeliest to be proven in the band, and the cheapest
(a proof's cost grows with the length it proves), while one with no line, or a long one,
is mostly out of band or out of reach.

A deal is settled when its optimal length is proven (in the band: found; outside it: out
of band), when it is proven unwinnable, or when a search proves it out of band without
finishing: a lower bound above the band's top, or a winning line shorter than the band's
bottom (the optimal length is at most any line's). A plan of `any` or `verdict` mode looks
for winnable deals alone, with no band: a deal is found with the first line that wins.

The wall time is a hard limit: a deal drawn near the end is given only the time left, and
a search that the end cuts short is no try (it did not have its rung): it is neither
counted nor recorded, and waits for a later run at the same rung. Each caller brings its
own way of running searches (`Run`): a local process pool, or the server's workers.

A band no deal meets would search every deal number, so a run given no wall time by its
user gives up (`give_up`, HOPELESS_AFTER by default): when it has found no deal of its band
within that time, it ends, with its counts; once it has found one, the band is shown to be
met and the run goes on to its count. The searches started before the first find end by
the give-up moment; a search that moment cut short is tried again at its rung.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from enum import StrEnum

from solver.beleaguered import Mode, Move, Solution, deal, solve
from solver.beleaguered.variant import Variant
from solver.budget import Budget, Status

FIRST_RUNG = 0.25  # seconds: most deals' verdicts within the band come sooner
RUNG_FACTOR = 4  # each rung's budget, the one before's times this
# The searches of a rung a round of it runs at the least: its time behind its share must
# be worth this many of them, and as many deals must wait for it (rounds of single
# searches would leave workers idle between them).
BATCH = 2
LEAST_SHARE = 1 / 8  # of the rung below's time, what a rung above has at the least
PRIOR = 8  # a rung's finds per second start as one find in this many of its searches
_TOO_LITTLE = 0.01  # seconds left below which no search is started
# seconds: a run with no wall time of its user's that has found none by then ends (a band
# no deal meets), and says what it tried; ten seconds short of two minutes, for the process
# to start, its last answers to come in (a search reads the clock every 256 nodes) and its
# workers to end, so that the whole command ends within two minutes
HOPELESS_AFTER = 110.0


def ladder(top: float, first: float = FIRST_RUNG) -> tuple[float, ...]:
    """The budgets, in seconds a deal, from `first` up by RUNG_FACTOR, the last `top`."""
    rungs = []
    rung = first
    while rung < top:
        rungs.append(rung)
        rung *= RUNG_FACTOR
    return (*rungs, top)


@dataclass(frozen=True)
class Band:
    """The optimal lengths asked for, in moves; None: no bound on that side."""

    low: int | None = None
    high: int | None = None

    @property
    def top(self) -> float:
        return math.inf if self.high is None else self.high

    def holds(self, length: int) -> bool:
        return (self.low or 0) <= length <= self.top

    @property
    def empty(self) -> bool:
        return self.low is not None and self.low > self.top

    def __str__(self) -> str:
        """" within 95-100 moves", "..." for a side not bounded; "" for no band."""
        if self.low is None and self.high is None:
            return ""
        low = "..." if self.low is None else self.low
        high = "..." if self.high is None else self.high
        return f" within {low}-{high} moves"


class Outcome(StrEnum):
    FOUND = "found"  # its optimal length is proven, and in the band
    OUT = "out"  # proven outside the band (or unwinnable)
    UNKNOWN = "unknown"  # not settled within its budget: set aside


def outcome(solution: Solution, band: Band, mode: Mode = Mode.OPTIMAL) -> Outcome:
    """What a search's answer proves of a deal and the band; of a deal alone in `any` or
    `verdict` mode, which looks for winnable deals with no band."""
    if solution.status is Status.UNSOLVABLE:
        return Outcome.OUT
    if mode is not Mode.OPTIMAL:
        return Outcome.FOUND if solution.status is Status.SOLVED else Outcome.UNKNOWN
    length = solution.length
    if solution.status is Status.SOLVED and length is not None:
        if solution.optimal:
            return Outcome.FOUND if band.holds(length) else Outcome.OUT
        if length < (band.low or 0):  # the optimal length is at most this line's
            return Outcome.OUT
    if solution.lower_bound is not None and solution.lower_bound > band.top:
        return Outcome.OUT
    return Outcome.UNKNOWN


@dataclass(frozen=True)
class Tried:
    """One deal's try: what it proved, and within how many seconds."""

    deal: int
    outcome: Outcome
    seconds: float  # its budget: the rung's, or the time that was left when less
    # found: the optimal length (any and verdict modes: the line's); else the best line's
    length: int | None = None
    lower_bound: int | None = None
    moves: tuple[Move, ...] = ()  # found: its line (optimal in optimal mode), replayed


class Why(StrEnum):
    """Why a deal is out of the band."""

    UNWINNABLE = "unwinnable"
    SHORTER = "with a line below the band"  # its optimal length is at most the line's
    LONGER = "with a bound above it"  # a lower bound, or the optimal length, above the top


def why_out(tried: Tried, band: Band) -> Why:
    """What put a deal out of the band (a deal proven unwinnable has neither a line nor a
    bound above the band)."""
    if tried.length is not None and tried.length < (band.low or 0):
        return Why.SHORTER
    if tried.lower_bound is not None and tried.lower_bound > band.top:
        return Why.LONGER
    return Why.UNWINNABLE


# How a caller runs searches: each deal of the iterator (read as a search can start) within
# the rung's seconds, and never past `Generation.deadline`; (deal, the seconds it was given,
# the answer) as each finishes. It may stop early (its client gone): the plan stops too.
Run = Callable[[Iterator[int], float], Iterator[tuple[int, float, Solution]]]


def try_deal(number: int, rung: float, deadline: float, budget: Budget,
             variant: Variant | None,
             mode: Mode = Mode.OPTIMAL) -> tuple[int, float, Solution]:
    """Deal `number` solved in `mode` within the rung's seconds, the budget's other
    limits, and before `deadline` (time.monotonic(), the same clock in every process):
    (deal, the seconds it was given, the answer), as a Run yields it."""
    seconds = min(rung, deadline - time.monotonic())
    if seconds <= 0:
        return number, 0.0, Solution.unknown(0.0)
    return number, seconds, solve(deal(number, variant), mode,
                                  budget=replace(budget, seconds=seconds))


def fresh_deals(first: int, last: int, band: Band, variant: Variant | None) -> Iterator[int]:
    """The deal numbers first..last a plan draws, in order: all but those the variant's
    shipped census proves out of the band (every one without a census)."""
    from solver.beleaguered.census import shipped  # the census data is read only here

    census = shipped(variant)
    if census is None:
        return iter(range(first, last + 1))
    return census.candidates(first, last, band.low or 0, band.top)


class Ending(StrEnum):
    FOUND = "found"  # the count was found
    TIME_UP = "time up"  # the wall time ran out first
    SPENT = "spent"  # every deal was tried at every rung
    STOPPED = "stopped"  # the runner stopped early
    HOPELESS = "hopeless"  # none found within the give-up time (a band no deal meets)


class _Draw:
    """One round's deals (of rung `rung`), drawn as they are needed: `drained` once all
    were, `paused` when the round gave way to another rung."""

    def __init__(self, deals: Iterator[int], plan: Generation, rung: int) -> None:
        self._deals = deals
        self._plan = plan
        self._rung = rung
        self.drained = False
        self.paused = False

    def __iter__(self) -> Iterator[int]:
        return self

    def __next__(self) -> int:
        if self._plan.done or self._plan.left() < _TOO_LITTLE:
            raise StopIteration
        if self._plan.gives_way(self._rung):
            self.paused = True
            raise StopIteration
        number = next(self._deals, None)
        if number is None:
            self.drained = True
            raise StopIteration
        return number


class Generation:
    """The plan for `count` deals of the band: fresh deal numbers from `fresh` (in order,
    those a census rules out already left out), the rungs' budgets, and at most
    `max_seconds` of wall time (None: no limit). `earlier` are the tries of an earlier run
    (its --out file, a deal's last try last): their deals are not drawn afresh, those found
    count, and those set aside are tried again at the first rung above their budget.
    `mode`: the searches' (`outcome` reads their answers as it says). `give_up`: the
    seconds after which a run that has found none ends (None: never)."""

    def __init__(self, count: int, band: Band, fresh: Iterator[int], rungs: tuple[float, ...],
                 max_seconds: float | None = None, earlier: Iterable[Tried] = (),
                 mode: Mode = Mode.OPTIMAL, give_up: float | None = None) -> None:
        self.count = count
        self.band = band
        self.mode = mode
        self.rungs = rungs
        self.max_seconds = max_seconds
        self.give_up = give_up
        began = time.monotonic()
        self._wall = math.inf if max_seconds is None else began + max_seconds
        self._give_up_at = math.inf if give_up is None else began + give_up
        self.last_fresh: int | None = None  # the largest fresh deal number drawn
        self.ending: Ending | None = None
        self._fresh = fresh
        self._fresh_spent = False
        self._spent = [0.0 for _ in rungs]  # the seconds given to each rung's searches
        self._found_at = [0 for _ in rungs]  # the deals each rung found
        self._last: dict[int, Tried] = {}  # every deal's last try
        for tried in earlier:
            self._last[tried.deal] = tried
        self.found = [tried for tried in self._last.values()
                      if tried.outcome is Outcome.FOUND]  # in the order they were found
        self._waiting: list[list[int]] = [[] for _ in rungs]  # to try again, by rung
        for tried in self._last.values():
            if tried.outcome is Outcome.UNKNOWN:
                above = [k for k, rung in enumerate(rungs) if rung > tried.seconds]
                if above:
                    self._waiting[above[0]].append(tried.deal)

    @property
    def done(self) -> bool:
        return len(self.found) >= self.count

    @property
    def deadline(self) -> float:
        """The moment (time.monotonic()) the searches end by: the wall time's end, or the
        give-up moment before it while none is found."""
        return self._wall if self.found else min(self._wall, self._give_up_at)

    def left(self) -> float:
        """The wall time left, in seconds."""
        return self.deadline - time.monotonic()

    def run(self, run: Run) -> Iterator[Tried]:
        """Try deals, round by round, until the count is found, the time is up, or every
        deal has been tried at every rung (`ending` says which); each try as it settles,
        those set aside too. The found ones beyond the count (searches that finished
        together) are tried as well, and yielded."""
        while not self.done:
            k = self._next_rung()
            if k is None:
                self.ending = Ending.SPENT
                return
            until = self.deadline  # a find during the round moves it on
            draw = _Draw(self._round(k), self, k)
            for number, seconds, solution in run(draw, self.rungs[k]):
                tried = self._settle(number, k, seconds, solution)
                if tried is not None:
                    yield tried
            if self.done or draw.drained or draw.paused:
                continue
            if until - time.monotonic() >= _TOO_LITTLE:
                self.ending = Ending.STOPPED
                return
            if self.left() < _TOO_LITTLE:
                self.ending = Ending.TIME_UP if self.found or self._wall <= until \
                    else Ending.HOPELESS
                return
        self.ending = Ending.FOUND

    def _next_rung(self) -> int | None:
        """The rung of the next round: the highest one above the first that is due;
        else the first, while fresh deals are left; else the lowest with deals waiting;
        None when there is nothing left to try."""
        if not self._fresh_spent:
            return max((k for k in range(1, len(self.rungs)) if self._due(k)), default=0)
        return next((k for k, waiting in enumerate(self._waiting) if waiting), None)

    def _due(self, k: int) -> bool:
        """Whether rung k (above the first) is owed a round: BATCH deals wait for it, and
        it is behind its share by BATCH of its searches."""
        return (len(self._waiting[k]) >= BATCH
                and self._owed(k) - self._spent[k] >= BATCH * self.rungs[k])

    def _owed(self, k: int) -> float:
        """The seconds rung k (above the first) may have had by now: its share of the
        rung below's."""
        def rate(j: int) -> float:
            return (self._found_at[j] + 1) / (self._spent[j] + PRIOR * self.rungs[j])
        share = min(1.0, max(LEAST_SHARE, rate(k) / rate(k - 1)))
        return share * self._spent[k - 1]

    def gives_way(self, k: int) -> bool:
        """Whether a round of rung k stops drawing for another rung's: the first rung's
        for a rung that is due, a rung above once it has caught up with the one below
        (while fresh deals are left: after that each rung runs out its deals)."""
        if self._fresh_spent:
            return False
        if k == 0:
            return any(self._due(j) for j in range(1, len(self.rungs)))
        return self._spent[k] >= self._owed(k)

    def _round(self, k: int) -> Iterator[int]:
        """Rung k's deals: those waiting for it, lowest first, each taken off the list as
        it is drawn; then (the first rung) fresh ones."""
        waiting = self._waiting[k]
        while waiting:
            waiting.sort(key=self._promise)
            yield waiting.pop(0)
        if k:
            return
        for number in self._fresh:
            if number not in self._last:
                self.last_fresh = number
                yield number
        self._fresh_spent = True

    def _promise(self, number: int) -> tuple[bool, int, int]:
        """A deal set aside, by the line its last try found: shortest first, none last."""
        last = self._last.get(number)
        line = None if last is None else last.length
        return line is None, line or 0, number

    def _settle(self, number: int, k: int, seconds: float,
                solution: Solution) -> Tried | None:
        """The try of a deal, remembered (and set aside for the next rung when unknown);
        None for a search the wall time cut short (tried again at its rung when a find
        has since moved the end on, so far that it would now have all of its rung)."""
        self._spent[k] += seconds
        found = outcome(solution, self.band, self.mode)
        if found is Outcome.UNKNOWN and (seconds < self.rungs[k] or self.left() <= 0):
            if self.left() >= self.rungs[k]:
                self._waiting[k].append(number)
            return None
        tried = Tried(number, found, seconds, solution.length, solution.lower_bound,
                      solution.moves if found is Outcome.FOUND else ())
        self._last[number] = tried
        if found is Outcome.FOUND:
            self.found.append(tried)
            self._found_at[k] += 1
        elif found is Outcome.UNKNOWN and k + 1 < len(self.rungs):
            self._waiting[k + 1].append(number)
        return tried

    def status(self, spent: str = "", limit: str = "", wall: str = "--max-seconds") -> str:
        """Why the plan stopped short, in one line: `spent` names the deals when they
        were spent ("deals 1-30 spent"); `limit` follows the wall time when it was up
        (" (this server's most for one call)"); `wall` names how a user sets one, when
        the plan gave up."""
        found = f"{len(self.found)} of {self.count} deals found{self.band}"
        unknown = Counter(t.seconds for t in self._last.values()
                          if t.outcome is Outcome.UNKNOWN)
        if self.ending is Ending.HOPELESS:
            return (f"gave up after {self.give_up:g} s with none found (with no {wall}, a "
                    f"run that finds none by then ends): {found}; {self._counts(unknown)}")
        if self.ending is not Ending.TIME_UP:
            left = sum(unknown.values())
            unsettled = "" if not left else (
                f"; {left} deal{'s' * (left != 1)} unknown (the budget ran out: a larger "
                "one may find more)")
            return f"{spent}: {found}{unsettled}"
        return (f"time up after {self.max_seconds:g} s{limit}: {found}; "
                f"{self._counts(unknown)}")

    def _counts(self, unknown: Counter[float]) -> str:
        """The deals tried: how many, winnable (a line found), in the band, out of it by
        why, and set aside unknown by their budgets."""
        tries = self._last.values()
        out = Counter(why_out(t, self.band) for t in tries if t.outcome is Outcome.OUT)
        winnable = sum(t.length is not None for t in tries)
        in_band = sum(t.outcome is Outcome.FOUND for t in tries)
        counts = (f"{len(self._last)} tried: {winnable} winnable, {in_band} in band, "
                  f"{out.total()} out of band")
        if out:
            counts += " (" + ", ".join(f"{out[why]} {why}" for why in Why if out[why]) + ")"
        if unknown:
            at = sorted(unknown.items())
            where = (f"at {_seconds(at[0][0])}" if len(at) == 1 else
                     "(" + ", ".join(f"{n} at {_seconds(s)}" for s, n in at) + ")")
            counts += f", {unknown.total()} unknown set aside {where}"
        return counts


_FOUND = re.compile(r"([0-9]+) of ([0-9]+) deals found")


def restated(status: str, found: int, count: int, note: str = "") -> str | None:
    """A status with the deals found and asked for put in, and `note` after its first
    clause (a client that asked for the rest of its count, after those it had); None
    when `status` is none of the plan's."""
    if _FOUND.search(status) is None:
        return None
    head, semicolon, rest = _FOUND.sub(f"{found} of {count} deals found", status,
                                       count=1).partition("; ")
    return f"{head}{note}{semicolon}{rest}"


def _seconds(seconds: float) -> str:
    return f"{seconds:.3g} s"
