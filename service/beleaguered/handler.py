"""Beleaguered Fortress's RPCs, for every variant of its family alike: Solve, Hint (from
its hint cache when it can), Deal, and the streams of numbered deals, SolveBatch and
GenerateDeals. A position names its variant; a request for deals names theirs (empty:
Beleaguered Fortress), and a position in it of another variant is refused."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, Any

from service.answer_cache import AnswerCache
from service.api import fortress_solver_pb2 as pb
from service.beleaguered.messages import (
    ANSWER,
    VIEW,
    line_to_proto,
    mode_from_proto,
    position_from_proto,
    position_to_proto,
    variant_from_proto,
)
from service.generic.typed import Typed
from service.messages import asked_budget, batch_items, budget_from_proto, budget_to_proto
from solver.beleaguered import Algorithm, Hint, Mode, Position, Solution, deal
from solver.beleaguered.census import deal_info
from solver.beleaguered.deals import LARGEST_DEAL, MAX_DEALS, check_deals
from solver.beleaguered.game import (
    GRADE,
    HINT,
    SOLVE,
    GradeOptions,
    SolveOptions,
    with_grades,
)
from solver.beleaguered.generation import (
    HOPELESS_AFTER,
    Band,
    Ending,
    Generation,
    Outcome,
    fresh_deals,
    ladder,
)
from solver.beleaguered.grading import Grading, hint_part
from solver.beleaguered.problem import safe_moves
from solver.beleaguered.solve import Metric, hint_from, hints_along
from solver.beleaguered.variant import load_variant_file, variants
from solver.budget import HINT_SECONDS, Budget, Status
from solver.errors import InvalidInput, OutOfRange
from solver.games import Game, Question
from solver.shared_budget import SharedBudget

if TYPE_CHECKING:
    from prometheus_client.registry import Collector

    from service.calls import Calls
    from service.frontends import Settings


def _unwinnable_deal(source: pb.PositionSource) -> Hint | None:
    """The hint for a deal the shipped census proves unwinnable: known without a search."""
    if source.WhichOneof("source") != "beleaguered_deal":
        return None
    known = deal_info(source.beleaguered_deal)
    if known is None or known.status is not Status.UNSOLVABLE:
        return None
    return Hint.unwinnable()


def _proven(held: Hint) -> bool:
    """A hint the cache keeps whatever line is put after it: one proven optimal (or
    unwinnable), which a line not proven shortest would only make worse."""
    return held.optimal


class Handler(Typed):
    """Solve and Hint, through the typed messages as service/beleaguered/messages.py maps
    them, and the streams of numbered deals. Optimal solutions fill its hint cache: a
    hint for a position along one is answered at once."""

    view = VIEW
    sources = ("beleaguered_deal", "beleaguered")

    def __init__(self, game: Game[Position], settings: Settings) -> None:
        """Reads the server's rules files (InvalidInput naming the first fault), so that
        their variants are known by name here: their positions and deals are served.
        (A worker needs no file: a position takes its rules along, see Variant.__reduce__.)"""
        super().__init__(game, settings)
        for path in settings.rules:
            load_variant_file(path)
        # the hints along the optimal lines it has found, by position
        self.cache: AnswerCache[Position, Hint] = AnswerCache(
            settings.cache_entries, settings.cache_mib, "hint_cache", "Hint",
            settings.cache_share)

    def info(self) -> pb.GameInfo:
        return pb.GameInfo(name=self.game.name, modes=[m.value for m in Mode],
                           algorithms=[a.value for a in Algorithm], max_deal=LARGEST_DEAL,
                           variants=[pb.VariantInfo(name=v.name, title=v.title,
                                                    max_deal=MAX_DEALS[v.numbering],
                                                    empty=v.empty.value,
                                                    sequence_moves=v.sequence_moves.value)
                                     for v in variants()])

    def position(self, source: pb.PositionSource) -> Position:
        if source.WhichOneof("source") == "beleaguered_deal":
            return deal(source.beleaguered_deal)
        return position_from_proto(source.beleaguered)

    def safe_moves(self, position: Position) -> tuple[str, ...]:
        """The moves home the solver makes at once (its own rule, problem.safe_moves),
        for a player's auto-play."""
        return tuple(str(move) for move in safe_moves(position))

    def deal(self, request: pb.DealRequest) -> Position:
        """Deal `seed` of the request's variant."""
        return deal(request.seed, variant_from_proto(request.variant))

    def answer(self, question: Question[Any, Any, Any], source: pb.PositionSource,
               position: Position, options: Any, budget: pb.Budget, calls: Calls) -> Any:
        """A hint from the census for a deal it proves unwinnable, else from the cache,
        else by an optimal solve that fills it; with every legal move graded when the
        options ask, the hint's search having a part of the budget (grading.hint_part),
        the grading what it left (HINT's own run, with the hint's search shared with the
        cache). A hint with no budget has the default second (HINT_SECONDS). An optimal
        solve's line is remembered, and so is the best line found when none was proven."""
        if question is not HINT:  # refused, when it is, by calls.ask
            answer = calls.ask(question, position, options, budget)
            if question is SOLVE and options.mode is Mode.OPTIMAL:
                self.cache.put(hints_along(position, answer), calls.owner, _proven)
            return answer
        HINT.refuse(position, options)  # here: a known answer never reaches calls.ask
        # checked here too, shared by the hint's search and the grading after it: the
        # grading has what the search left
        budget = asked_budget(budget, HINT)
        shared = SharedBudget(budget_from_proto(budget, calls.limits))
        searched = budget_to_proto(hint_part(shared.budget)) if options.all_moves else budget
        advice = (_unwinnable_deal(source)
                  or self._hint(position, options.metric, searched, shared.budget, calls))
        if options.all_moves:
            shared.spend(advice.stats)
            left = shared.left()
            grading: Grading = (
                Grading.unknown(shared.elapsed()) if left is None
                else calls.ask(GRADE, position, GradeOptions(options.metric),
                               budget_to_proto(left)))
            advice = with_grades(advice, grading, position)
        # what its moves left count: the options' (an answer the pool could not give at all
        # is in moves)
        return advice if advice.metric is options.metric else replace(advice,
                                                                       metric=options.metric)

    def _hint(self, position: Position, metric: Metric, budget: pb.Budget, whole: Budget,
              calls: Calls) -> Hint:
        """The cache's hint (it keeps lines in moves counted as moves), else the first
        move of an optimal solve in `budget`, whose line it then keeps. A hint along a
        line not proven shortest answers a call of the default second (`whole`, the
        call's budget, no larger): a larger budget searches again, for the proof."""
        known = self.cache.get(position) if metric is Metric.MOVES else None
        if known is not None and (known.optimal or (whole.seconds is not None
                                                     and whole.seconds <= HINT_SECONDS)):
            return known
        solution: Solution = calls.ask(SOLVE, position, SolveOptions(metric=metric), budget)
        self.cache.put(hints_along(position, solution), calls.owner, _proven)
        return hint_from(solution)

    def collectors(self) -> Iterable[Collector]:
        return (self.cache.collector(),)

    # the streams

    def solve_batch(self, request: pb.SolveBatchRequest,
                    calls: Calls) -> Iterator[pb.BatchResult]:
        # the request's options by name, as a Solve's are (its mode the one it names,
        # `any` when it names none)
        options = VIEW.options(SOLVE, request)
        options = replace(options, mode=options.mode if request.mode else Mode.ANY,
                          moves=not request.without_moves)  # left out in the worker
        budget = budget_from_proto(request.budget, calls.limits)
        variant = variant_from_proto(request.variant)
        expected = variant if request.variant else None  # else positions name their own
        items = batch_items(request, calls.max_batch,
                            partial(check_deals, variant=expected),
                            partial(position_from_proto, variant=expected))
        jobs = (((index, number), SOLVE,
                 deal(item, variant) if isinstance(item, int) else item, options)
                for (index, number), item in items)
        together = max(request.results_per_message, 1)  # batch_items refuses above 256
        for ready in calls.ask_many_together(jobs, budget, together):
            first, *more = (_batch_result(index, number, solution)
                            for (index, number), solution in ready)
            first.more.extend(more)
            yield first

    def generate_deals(self, request: pb.GenerateDealsRequest,
                       calls: Calls) -> Iterator[pb.GeneratedDeal]:
        """The deals found, by the plan of solver/beleaguered/generation.py; then
        OUT_OF_RANGE if the range was spent first, or once `max_batch` deals were drawn
        (a band no deal meets would otherwise search every deal number of the variant),
        or when the call's wall time is up: the message says how many deals were found,
        and how many are unknown (not proven outside the band)."""
        if request.count > calls.max_batch:
            raise OutOfRange(f"count {request.count} is more than this server's limit of "
                             f"{calls.max_batch} deals a call")
        variant = variant_from_proto(request.variant)
        first = request.first_deal if request.HasField("first_deal") else 1
        last = (request.last_deal if request.HasField("last_deal")
                else MAX_DEALS[variant.numbering])
        check_deals(first, last, variant)
        band = Band(request.min_length if request.HasField("min_length") else None,
                    request.max_length if request.HasField("max_length") else None)
        mode = mode_from_proto(request)
        if mode is not Mode.OPTIMAL and band != Band():
            raise InvalidInput(f"min_length and max_length bound optimal lengths: the lines "
                               f"of {pb.Mode.Name(request.mode)} are of any length; leave "
                               "them out, or send MODE_OPTIMAL")
        if band.empty:
            raise OutOfRange(f"the band {band.low}-{band.high} is empty (min_length above "
                             "max_length): no deal can meet it")
        budget = budget_from_proto(request.budget, calls.limits)
        most = _most_seconds(calls.limits)
        seconds = _wall_seconds(request.max_seconds, most)
        # the variant's census skips what it proves out of the band (each deal sent is
        # still solved); without one (a rules file's variant), every deal is searched
        numbers = fresh_deals(first, last, band, variant)
        # the deals handed to a search; the census's skips cost nothing and are not
        # counted (its scan is bounded by its size: a million deals, some 40 ms)
        # a call that sets no wall time gives up when it has found none within
        # HOPELESS_AFTER (a band no deal meets): solver/beleaguered/generation.py
        give_up = HOPELESS_AFTER if not request.max_seconds else None
        plan = Generation(request.count, band, islice(numbers, calls.max_batch),
                          ladder(budget.seconds or most), seconds, mode=mode,
                          give_up=give_up)

        def run(deals: Iterator[int], rung: float) -> Iterator[tuple[int, float, Solution]]:
            given: dict[int, float] = {}
            until = plan.deadline  # the round's: a find moves the plan's on for the next

            def jobs() -> Iterator[tuple[int, Question[Any, Any, Any], Position,
                                         SolveOptions]]:
                for number in deals:
                    given[number] = max(0.0, min(rung, until - time.monotonic()))
                    yield number, SOLVE, deal(number, variant), SolveOptions(mode=mode)

            for number, solution in calls.ask_many(jobs(), replace(budget, seconds=rung),
                                                   enough=lambda: plan.done,
                                                   deadline=until):
                yield number, given.pop(number), solution

        sent = 0
        for tried in plan.run(run):
            if tried.outcome is Outcome.FOUND and sent < request.count:
                sent += 1
                start = deal(tried.deal, variant)
                yield pb.GeneratedDeal(deal=tried.deal, position=position_to_proto(start),
                                       length=tried.length,
                                       moves=line_to_proto(start, tried.moves))
        if plan.ending is Ending.TIME_UP:
            limit = ("" if 0 < request.max_seconds <= most
                     else " (this server's most for one call)")
            raise OutOfRange(plan.status(limit=limit))
        if plan.ending is Ending.HOPELESS:
            raise OutOfRange(plan.status(wall="max_seconds"))
        if plan.ending is Ending.SPENT:
            if next(numbers, None) is None:
                raise OutOfRange(plan.status(f"deals {first}-{last} spent"))
            raise OutOfRange(plan.status(f"deals {first}-{plan.last_fresh} tried (the most "
                                         "one call may try, this server's max_batch "
                                         f"{calls.max_batch})"))
        # else the count was found, or the client left


# A GenerateDeals call's wall time at the most, in searches of the server's longest: so
# that no call holds the workers for days (a band no deal meets, past the census).
_MOST_SEARCHES = 10
_MOST_WITHOUT_LIMIT = 600.0  # seconds, for a server whose searches have no time limit


def _most_seconds(limits: Budget) -> float:
    """The most wall time this server gives one GenerateDeals."""
    return _MOST_WITHOUT_LIMIT if limits.seconds is None else _MOST_SEARCHES * limits.seconds


def _wall_seconds(asked: float, most: float) -> float:
    """The call's wall time: `max_seconds` within the server's most (0: the most); no
    number of seconds is INVALID_ARGUMENT."""
    if not math.isfinite(asked) or asked < 0:
        raise InvalidInput(f"max_seconds {asked:g} is not a number of seconds: send a "
                           "positive number, or 0 for the server's most")
    return min(asked, most) if asked else most


def _batch_result(index: int, number: int | None, solution: Solution) -> pb.BatchResult:
    result = pb.BatchResult(index=index, result=ANSWER(pb.SolveResponse, solution, None))
    if number is not None:
        result.deal = number
    return result
