"""Beleaguered Fortress: protobuf messages <-> solver values, and its RPCs.

Explicit positions go through the same JSON reader as the command line, so bad input
gets the same message on both; a message with more piles, slots or cards than the game
has is refused, in the reader's words, before any card is converted. Optimal solutions
fill the hint cache: a hint for a position along one is answered at once.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any

from service.api import fortress_solver_pb2 as pb
from service.convert.common import (
    STATUS,
    STATUS_BACK,
    budget_from_proto,
    budget_to_proto,
    check_budget,
    options_of,
    stats_from_proto,
    stats_to_proto,
)
from solver.beleaguered import MAX_DEAL, Algorithm, Hint, Mode, Move, Position, Solution, deal
from solver.beleaguered.census import deal_info
from solver.beleaguered.census import shipped as shipped_census
from solver.beleaguered.game import GAME, GRADE, SOLVE, HintOptions, SolveOptions
from solver.beleaguered.grading import Graded, Grading, Outcome
from solver.beleaguered.position import oversized, shape_faults
from solver.beleaguered.solve import hint_from
from solver.beleaguered.wire import PILES, RESERVE_SLOTS
from solver.budget import Budget, SearchStats, Status
from solver.errors import InvalidInput, OutOfRange

if TYPE_CHECKING:
    from service.games import Calls

_SUITS = ("clubs", "diamonds", "hearts", "spades")


def position_from_proto(message: pb.BeleagueredPosition) -> Position:
    piles = [pile.cards for pile in message.tableau[:PILES]]
    slots = [slot.card or None for slot in message.reserve[:RESERVE_SLOTS]]
    too_big = (shape_faults(len(message.tableau), len(message.reserve))
               + oversized(piles, sum(card is not None for card in slots)))
    if too_big:
        raise InvalidInput(too_big)
    data: dict[str, Any] = {"tableau": [list(cards) for cards in piles], "reserve": slots}
    if message.HasField("foundations"):
        tops = message.foundations
        data["foundations"] = {suit[0].upper(): getattr(tops, suit) for suit in _SUITS}
    return Position.from_json(data)


def position_to_proto(position: Position) -> pb.BeleagueredPosition:
    tops = dict(zip(_SUITS, position.foundations, strict=True))
    return pb.BeleagueredPosition(
        tableau=[pb.Pile(cards=[str(card) for card in pile]) for pile in position.tableau],
        reserve=[pb.ReserveSlot(card="" if card is None else str(card))
                 for card in position.reserve],
        foundations=pb.Foundations(**tops),
    )


def mode_from_proto(mode: int, default: Mode = Mode.OPTIMAL) -> Mode:
    modes: dict[int, Mode] = {pb.MODE_OPTIMAL: Mode.OPTIMAL, pb.MODE_ANY: Mode.ANY}
    return modes.get(mode, default)


def algorithm_from_proto(algorithm: int) -> Algorithm:
    return Algorithm.IDASTAR if algorithm == pb.ALGORITHM_IDASTAR else Algorithm.ASTAR


def move_to_proto(move: Move) -> pb.Move:
    return pb.Move(card=str(move.card), source=str(move.source), target=str(move.target))


def solution_to_proto(solution: Solution) -> pb.SolveResponse:
    response = pb.SolveResponse(
        status=STATUS[solution.status],
        optimal=solution.optimal,
        moves=[move_to_proto(move) for move in solution.moves],
        stats=stats_to_proto(solution.stats),
    )
    if solution.length is not None:
        response.length = solution.length
    return response


def hint_to_proto(hint: Hint, cached: bool = False) -> pb.HintResponse:
    response = pb.HintResponse(status=STATUS[hint.status], cached=cached)
    if hint.move is not None:
        response.move.CopyFrom(move_to_proto(hint.move))
    if hint.moves_left is not None:
        response.moves_left = hint.moves_left
    if hint.winnable is not None:
        response.winnable = hint.winnable
    return response


def move_from_proto(message: pb.Move) -> Move:
    return Move.parse(f"{message.card} {message.source} {message.target}")


def solution_from_proto(message: pb.SolveResponse) -> Solution:
    return Solution(STATUS_BACK[message.status], message.optimal,
                    tuple(move_from_proto(m) for m in message.moves),
                    stats_from_proto(message.stats))


def hint_from_proto(message: pb.HintResponse) -> Hint:
    return Hint(STATUS_BACK[message.status],
                move_from_proto(message.move) if message.HasField("move") else None,
                message.moves_left if message.HasField("moves_left") else None,
                SearchStats(0, 0.0, 0))


MODES = {Mode.OPTIMAL: pb.MODE_OPTIMAL, Mode.ANY: pb.MODE_ANY}
ALGORITHMS = {Algorithm.ASTAR: pb.ALGORITHM_ASTAR, Algorithm.IDASTAR: pb.ALGORITHM_IDASTAR}


# ---------------------------------------------------------------- requests (the client's)


def deal_source(number: int) -> pb.PositionSource:
    return pb.PositionSource(beleaguered_deal=number)


def position_source(position: Position) -> pb.PositionSource:
    return pb.PositionSource(beleaguered=position_to_proto(position))


def solve_request(source: pb.PositionSource, mode: Mode, algorithm: Algorithm,
                  budget: Budget) -> pb.SolveRequest:
    options = pb.BeleagueredSolveOptions(mode=MODES[mode], algorithm=ALGORITHMS[algorithm])
    return pb.SolveRequest(position=source, beleaguered=options,
                           budget=budget_to_proto(budget))


def hint_request(source: pb.PositionSource, budget: Budget,
                 all_moves: bool = False) -> pb.HintRequest:
    options = pb.BeleagueredHintOptions(all_moves=True) if all_moves else None
    return pb.HintRequest(position=source, budget=budget_to_proto(budget), beleaguered=options)


_OUTCOMES = {Outcome.WINS: pb.MOVE_OUTCOME_WINS, Outcome.LOSES: pb.MOVE_OUTCOME_LOSES,
             Outcome.UNKNOWN: pb.MOVE_OUTCOME_UNKNOWN}
_OUTCOMES_BACK = {code: outcome for outcome, code in _OUTCOMES.items()}


def graded_to_proto(graded: Graded) -> pb.GradedMove:
    return pb.GradedMove(move=move_to_proto(graded.move), outcome=_OUTCOMES[graded.outcome],
                         moves_left=graded.moves_left)


def graded_from_proto(message: pb.GradedMove) -> Graded:
    return Graded(move_from_proto(message.move), _OUTCOMES_BACK[message.outcome],
                  message.moves_left if message.HasField("moves_left") else None)


def batch_request(deals: list[int], mode: Mode, algorithm: Algorithm,
                  budget: Budget) -> pb.SolveBatchRequest:
    return pb.SolveBatchRequest(deals=_ranges(deals), mode=MODES[mode],
                                algorithm=ALGORITHMS[algorithm],
                                budget=budget_to_proto(budget))


def generate_request(count: int, min_length: int | None, max_length: int | None,
                     budget: Budget) -> pb.GenerateDealsRequest:
    return pb.GenerateDealsRequest(count=count, min_length=min_length, max_length=max_length,
                                   budget=budget_to_proto(budget))


def _ranges(deals: list[int]) -> list[pb.DealRange]:
    """Consecutive deal numbers as ranges, so a resumed batch sends only what is left."""
    ranges: list[pb.DealRange] = []
    for number in sorted(deals):
        if ranges and ranges[-1].last == number - 1:
            ranges[-1].last = number
        else:
            ranges.append(pb.DealRange(first=number, last=number))
    return ranges


# ---------------------------------------------------------------- the RPCs (the server's)


def _position(source: pb.PositionSource) -> Position:
    if source.WhichOneof("source") == "beleaguered_deal":
        return deal(source.beleaguered_deal)
    return position_from_proto(source.beleaguered)


def _unwinnable_deal(source: pb.PositionSource) -> Hint | None:
    """The hint for a deal the shipped census proves unwinnable: known without a search."""
    if source.WhichOneof("source") != "beleaguered_deal":
        return None
    known = deal_info(source.beleaguered_deal)
    if known is None or known.status is not Status.UNSOLVABLE:
        return None
    return Hint(Status.UNSOLVABLE, None, None, SearchStats(0, 0.0, 0))


def _solve_options(request: pb.SolveRequest) -> SolveOptions:
    message = options_of(request, "beleaguered", GAME.name)
    return SolveOptions(mode_from_proto(message.mode), algorithm_from_proto(message.algorithm))


def _check_range(first: int, last: int) -> None:
    if not 1 <= first <= last <= MAX_DEAL:
        raise OutOfRange(f"deal range {first}-{last} is not within 1..{MAX_DEAL} in order")


class _Wire:
    sources = ("beleaguered_deal", "beleaguered")

    def info(self) -> pb.GameInfo:
        return pb.GameInfo(name=GAME.name, modes=[m.value for m in Mode],
                           algorithms=[a.value for a in Algorithm], max_deal=MAX_DEAL)

    def source(self, position: Position) -> pb.PositionSource:
        return position_source(position)

    def position(self, source: pb.PositionSource) -> Position:
        return _position(source)

    def solve(self, request: pb.SolveRequest, calls: Calls) -> pb.SolveResponse:
        position = _position(request.position)
        options = _solve_options(request)
        solution: Solution = calls.ask(SOLVE, position, options, request.budget)
        if options.mode is Mode.OPTIMAL:
            calls.cache.remember(position, solution)
        return solution_to_proto(solution)

    def hint(self, request: pb.HintRequest, calls: Calls) -> pb.HintResponse:
        check_budget(request.budget)  # here: a cached answer never reaches calls.ask
        options = options_of(request, "beleaguered", GAME.name)
        position = _position(request.position)
        known = calls.cache.get(position) or _unwinnable_deal(request.position)
        if known is not None:
            response = hint_to_proto(known, cached=True)
        else:
            solution: Solution = calls.ask(SOLVE, position, SolveOptions(), request.budget)
            calls.cache.remember(position, solution)
            response = hint_to_proto(hint_from(solution))
        if request.WhichOneof("options") == "beleaguered" and options.all_moves:
            grading: Grading = calls.ask(GRADE, position, HintOptions(), request.budget)
            response.all_moves.extend(graded_to_proto(g) for g in grading.moves)
        return response


class _Streams:
    def solve_batch(self, request: pb.SolveBatchRequest,
                    calls: Calls) -> Iterator[pb.BatchResult]:
        options = SolveOptions(mode_from_proto(request.mode, default=Mode.ANY),
                               algorithm_from_proto(request.algorithm))
        budget = budget_from_proto(request.budget, calls.limits)
        jobs = (((index, number), SOLVE, deal(item) if isinstance(item, int) else item, options)
                for (index, number), item in _batch_items(request, calls.max_batch))
        for (index, number), solution in calls.ask_many(jobs, budget):
            result = pb.BatchResult(index=index, result=solution_to_proto(solution))
            if number is not None:
                result.deal = number
            yield result

    def generate_deals(self, request: pb.GenerateDealsRequest,
                       calls: Calls) -> Iterator[pb.GeneratedDeal]:
        """The deals found, then OUT_OF_RANGE if the range was spent first, or once
        `max_batch` deals were searched (a band no deal meets would otherwise search up
        to MAX_DEAL of them): deals whose budget ran out count as not found, and the
        message says how many there were."""
        if request.count > calls.max_batch:
            raise OutOfRange(f"count {request.count} is more than this server's limit of "
                             f"{calls.max_batch} deals a call")
        first = request.first_deal if request.HasField("first_deal") else 1
        last = request.last_deal if request.HasField("last_deal") else MAX_DEAL
        _check_range(first, last)
        low = request.min_length if request.HasField("min_length") else 0
        high = request.max_length if request.HasField("max_length") else math.inf
        if low > high:
            raise OutOfRange(f"the band {low}-{high} is empty (min_length above max_length): "
                             "no deal can meet it")
        budget = budget_from_proto(request.budget, calls.limits)
        census = shipped_census()  # skips what it proves out of the band; each is still solved
        numbers = iter(range(first, last + 1) if census is None
                       else census.candidates(first, last, low, high))
        # the deals handed to a search; the census's skips cost nothing and are not
        # counted (its scan is bounded by its size: a million deals, some 40 ms)
        tries = islice(numbers, calls.max_batch)
        jobs = ((number, SOLVE, deal(number), SolveOptions()) for number in tries)
        sent: list[int] = []
        unknown = 0
        last_tried = first - 1
        for number, solution in calls.ask_many(jobs, budget,
                                               enough=lambda: len(sent) >= request.count):
            last_tried = max(last_tried, number)
            if solution.status is Status.SOLVED and solution.optimal:
                if low <= solution.length <= high and len(sent) < request.count:
                    sent.append(number)
                    yield pb.GeneratedDeal(deal=number,
                                           position=position_to_proto(deal(number)),
                                           length=solution.length,
                                           moves=[move_to_proto(m) for m in solution.moves])
            elif solution.status is not Status.UNSOLVABLE:
                unknown += 1  # the budget ran out: not proven outside the band
        if len(sent) < request.count and next(tries, None) is None:  # else the client left
            unsettled = "" if not unknown else (
                f"; {unknown} deal{'s' * (unknown != 1)} unknown (the budget ran out: a "
                "larger one may find more)")
            found = f"{len(sent)} of {request.count} deals found{_band(request)}{unsettled}"
            if next(numbers, None) is None:
                raise OutOfRange(f"deals {first}-{last} spent: {found}")
            raise OutOfRange(f"deals {first}-{last_tried} tried (the most one call may try, "
                             f"--max-batch {calls.max_batch}): {found}")


def _band(request: pb.GenerateDealsRequest) -> str:
    """The band of lengths asked for, as `client generate` words it."""
    if not request.HasField("min_length") and not request.HasField("max_length"):
        return ""
    low = request.min_length if request.HasField("min_length") else "..."
    high = request.max_length if request.HasField("max_length") else "..."
    return f" within {low}-{high} moves"


def _batch_items(request: pb.SolveBatchRequest,
                 most: int) -> Iterator[tuple[tuple[int, int | None], int | Position]]:
    """Every item as ((index, deal number), the deal number or the position), made as
    needed; ranges, the count (at most `most`) and positions are checked (and refused)
    before any work starts."""
    positions = []
    listed = len(request.deals) + len(request.positions)  # a range holds a deal or more
    if listed > most:
        raise OutOfRange(f"the batch lists {listed} ranges and positions, more than this "
                         f"server's limit of {most} items a call: send it in parts")
    for span in request.deals:
        _check_range(span.first, span.last)
    items = sum(span.last - span.first + 1 for span in request.deals) + len(request.positions)
    if items > most:
        raise OutOfRange(f"the batch holds {items} items, more than this server's limit of "
                         f"{most} a call: send it in parts")
    for k, message in enumerate(request.positions):
        try:
            positions.append(position_from_proto(message))
        except InvalidInput as error:
            raise InvalidInput(f"positions[{k}]: {error}") from None
    numbers = (n for span in request.deals for n in range(span.first, span.last + 1))
    index = 0
    for number in numbers:
        yield (index, number), number
        index += 1
    for position in positions:
        yield (index, None), position
        index += 1


WIRE = _Wire()
STREAMS = _Streams()
