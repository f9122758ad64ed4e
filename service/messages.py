"""What every game's messages share: statuses, search statistics, budgets, worlds, and
the refusal of a repeated field longer than its game allows."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sized
from itertools import chain
from typing import TYPE_CHECKING, Any, TypeVar

from service.api import fortress_solver_pb2 as pb
from solver.budget import HINT_MEMORY_MIB, Budget, SearchStats, Status
from solver.errors import InvalidInput, OutOfRange
from solver.reading import path_of

if TYPE_CHECKING:
    from solver.games import Question

STATUS = {Status.SOLVED: pb.STATUS_SOLVED, Status.UNSOLVABLE: pb.STATUS_UNSOLVABLE,
          Status.UNKNOWN: pb.STATUS_UNKNOWN}
STATUS_BACK = {code: status for status, code in STATUS.items()}

# SolveBatch items and GenerateDeals deals a call, `serve --max-batch`'s default: a few
# bytes can ask for every deal, two billion solves (`client batch` sends 50 a call)
MAX_BATCH = 100_000
MOST_TOGETHER = 256  # results in one SolveBatch message: some 100 KiB at most, with moves


def at_most(items: Sized, most: int, *path: int | str) -> None:
    """A repeated field or map that holds more than the game's wire schema allows is
    refused before any item is converted, in the reader's words and with its path
    (`players[0].hand: has 300 items, at most 200`)."""
    if len(items) > most:
        raise InvalidInput(f"{path_of(path)}: has {len(items)} items, at most {most}")


def stats_to_proto(stats: SearchStats) -> pb.SearchStats:
    return pb.SearchStats(nodes=stats.nodes, seconds=stats.seconds,
                          table_entries=stats.table_entries, table_bytes=stats.table_bytes,
                          line_seconds=stats.line_seconds)


def stats_from_proto(message: pb.SearchStats) -> SearchStats:
    return SearchStats(message.nodes, message.seconds, message.table_entries,
                       message.table_bytes,
                       message.line_seconds if message.HasField("line_seconds") else None)


def budget_to_proto(budget: Budget) -> pb.Budget:
    return pb.Budget(seconds=budget.seconds or 0, nodes=budget.nodes or 0,
                     table_entries=budget.table_entries or 0,
                     memory_mib=budget.memory_mib or 0)


def budget_from_proto(message: pb.Budget, limits: Budget) -> Budget:
    """The request's budget, each field defaulted to and capped by the server's limit;
    seconds that are no time at all are refused (see check_budget)."""
    check_budget(message)
    return Budget(
        seconds=_capped(message.seconds, limits.seconds),
        nodes=_capped(message.nodes, limits.nodes),
        table_entries=_capped(message.table_entries, limits.table_entries),
        memory_mib=_capped(message.memory_mib, limits.memory_mib),
    )


def asked_budget(message: pb.Budget, question: Question[Any, Any, Any]) -> pb.Budget:
    """The request's budget as `question` takes it: a quick question (Question.quick, a
    patience hint) given no seconds has its own, and HINT_MEMORY_MIB unless it asks for
    memory, where another has the server's limits."""
    if message.seconds or not question.quick:
        return message
    filled = pb.Budget()
    filled.CopyFrom(message)
    filled.seconds = question.seconds
    filled.memory_mib = message.memory_mib or HINT_MEMORY_MIB
    return filled


def check_budget(message: pb.Budget) -> None:
    """NaN, infinite or negative seconds are InvalidInput: put in the limit's place they
    would hide the client's mistake (and a NaN let through outlasts any deadline: no
    clock is ever past it). nodes and table_entries are unsigned on the wire."""
    seconds = message.seconds
    if not math.isfinite(seconds) or seconds < 0:
        raise InvalidInput(f"budget seconds {seconds:g} is not a number of seconds: send a "
                           "positive number, or 0 for the server's limit")


N = TypeVar("N", int, float)


def _capped(asked: N, limit: N | None) -> N | None:
    """0 (unset) is the limit; anything else at most the limit."""
    if not asked:
        return limit
    return asked if limit is None else min(asked, limit)


def options_of(request: pb.SolveRequest | pb.HintRequest, field: str | None,
               game: str) -> Any:
    """The request's options message for a game (`field` in its `options` oneof; None: the
    game takes none), or the request itself when none is set: the deprecated flat fields
    have the same names. Another game's options are refused."""
    chosen = request.WhichOneof("options")
    if chosen is not None and chosen != field:
        raise InvalidInput(f"options are for {chosen}, but the position is {game}")
    return request if chosen is None else getattr(request, chosen)


def batch_items(request: pb.SolveBatchRequest, most: int, check: Callable[[int, int], None],
                read: Callable[[Any], Any]) -> Iterator[tuple[tuple[int, int | None], Any]]:
    """A SolveBatch's items as ((index, deal number), the deal number or the position),
    made as needed; its count (at most `most`), its ranges (`check(first, last)`: refused
    when not the game's deal numbers), its positions (`read`) and its results a message
    (at most MOST_TOGETHER) are checked, and refused, before any work starts."""
    if request.results_per_message > MOST_TOGETHER:
        raise InvalidInput(f"results_per_message {request.results_per_message} is more "
                           f"than {MOST_TOGETHER}, the most one message carries")
    listed = len(request.deals) + len(request.positions)  # a range holds a deal or more
    if listed > most:
        raise OutOfRange(f"the batch lists {listed} ranges and positions, more than this "
                         f"server's limit of {most} items a call: send it in parts")
    for span in request.deals:
        check(span.first, span.last)
    items = sum(span.last - span.first + 1 for span in request.deals) + len(request.positions)
    if items > most:
        raise OutOfRange(f"the batch holds {items} items, more than this server's limit of "
                         f"{most} a call: send it in parts")
    positions = []
    for k, message in enumerate(request.positions):
        try:
            positions.append(read(message))
        except InvalidInput as error:
            raise InvalidInput(f"positions[{k}]: {error}") from None
    numbers = ((n, n) for span in request.deals for n in range(span.first, span.last + 1))
    for index, (number, item) in enumerate(chain(numbers, ((None, p) for p in positions))):
        yield (index, number), item
