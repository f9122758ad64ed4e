"""What every game's converter shares: statuses, search statistics, budgets, worlds."""

from __future__ import annotations

from typing import Any, TypeVar

from service.api import fortress_solver_pb2 as pb
from solver.budget import Budget, SearchStats, Status
from solver.errors import InvalidInput, OutOfRange

STATUS = {Status.SOLVED: pb.STATUS_SOLVED, Status.UNSOLVABLE: pb.STATUS_UNSOLVABLE,
          Status.UNKNOWN: pb.STATUS_UNKNOWN}
STATUS_BACK = {code: status for status, code in STATUS.items()}

MAX_WORLDS = 1000  # each world is a copy of the position: a cap on one call's memory
# SolveBatch items and GenerateDeals deals a call, `serve --max-batch`'s default: a few
# bytes can ask for every deal, two billion solves (`client batch` sends 50 a call)
MAX_BATCH = 100_000


def stats_to_proto(stats: SearchStats) -> pb.SearchStats:
    return pb.SearchStats(nodes=stats.nodes, seconds=stats.seconds,
                          table_entries=stats.table_entries)


def stats_from_proto(message: pb.SearchStats) -> SearchStats:
    return SearchStats(message.nodes, message.seconds, message.table_entries)


def budget_to_proto(budget: Budget) -> pb.Budget:
    return pb.Budget(seconds=budget.seconds or 0, nodes=budget.nodes or 0,
                     table_entries=budget.table_entries or 0)


def budget_from_proto(message: pb.Budget, limits: Budget) -> Budget:
    """The request's budget, each field defaulted to and capped by the server's limit."""
    return Budget(
        seconds=_capped(message.seconds, limits.seconds),
        nodes=_capped(message.nodes, limits.nodes),
        table_entries=_capped(message.table_entries, limits.table_entries),
    )


N = TypeVar("N", int, float)


def _capped(asked: N, limit: N | None) -> N | None:
    """0 (unset) is the limit, as is a negative or NaN one (NaN would outlast any
    deadline: no clock is ever past it); anything else at most the limit."""
    if not asked > 0:
        return limit
    return asked if limit is None else min(asked, limit)


def worlds(asked: int, default: int) -> int:
    """A hint's worlds: 0 means the game's default; above the limit is OUT_OF_RANGE."""
    chosen = asked or default
    if chosen > MAX_WORLDS:
        raise OutOfRange(f"worlds {chosen} is more than this server's limit of {MAX_WORLDS}")
    return chosen


def options_of(request: pb.SolveRequest | pb.HintRequest, field: str | None,
               game: str) -> Any:
    """The request's options message for a game (`field` in its `options` oneof; None: the
    game takes none), or the request itself when none is set: the deprecated flat fields
    have the same names. Another game's options are refused."""
    chosen = request.WhichOneof("options")
    if chosen is not None and chosen != field:
        raise InvalidInput(f"options are for {chosen}, but the position is {game}")
    return request if chosen is None else getattr(request, chosen)
