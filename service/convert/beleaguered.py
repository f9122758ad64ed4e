"""Beleaguered Fortress: protobuf messages <-> solver values.

Explicit positions go through the same JSON reader as the command line, so bad input
gets the same message on both.
"""

from __future__ import annotations

from typing import Any

from service.api import fortress_solver_pb2 as pb
from solver.beleaguered import Algorithm, Hint, Mode, Move, Position, Solution
from solver.budget import Budget, SearchStats, Status

STATUS = {Status.SOLVED: pb.SOLVED, Status.UNSOLVABLE: pb.UNSOLVABLE, Status.UNKNOWN: pb.UNKNOWN}
_SUITS = ("clubs", "diamonds", "hearts", "spades")


def position_from_proto(message: pb.BeleagueredPosition) -> Position:
    data: dict[str, Any] = {
        "tableau": [list(pile.cards) for pile in message.tableau],
        "reserve": [slot.card or None for slot in message.reserve],
    }
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
    return {pb.MODE_OPTIMAL: Mode.OPTIMAL, pb.MODE_ANY: Mode.ANY}.get(mode, default)


def algorithm_from_proto(algorithm: int) -> Algorithm:
    return Algorithm.IDASTAR if algorithm == pb.IDASTAR else Algorithm.ASTAR


def budget_from_proto(message: pb.Budget, limits: Budget) -> Budget:
    """The request's budget, each field defaulted to and capped by the server's limit."""
    def capped(asked: float, limit: float | None) -> float | None:
        if asked <= 0:
            return limit
        return asked if limit is None else min(asked, limit)

    return Budget(
        seconds=capped(message.seconds, limits.seconds),
        nodes=capped(message.nodes, limits.nodes),
        table_entries=capped(message.table_entries, limits.table_entries),
    )


def move_to_proto(move: Move) -> pb.Move:
    return pb.Move(card=str(move.card), source=str(move.source), target=str(move.target))


def stats_to_proto(stats: SearchStats) -> pb.SearchStats:
    return pb.SearchStats(nodes=stats.nodes, seconds=stats.seconds,
                          table_entries=stats.table_entries)


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


STATUS_BACK = {code: status for status, code in STATUS.items()}


def move_from_proto(message: pb.Move) -> Move:
    return Move.parse(f"{message.card} {message.source} {message.target}")


def stats_from_proto(message: pb.SearchStats) -> SearchStats:
    return SearchStats(message.nodes, message.seconds, message.table_entries)


def solution_from_proto(message: pb.SolveResponse) -> Solution:
    return Solution(STATUS_BACK[message.status], message.optimal,
                    tuple(move_from_proto(m) for m in message.moves),
                    stats_from_proto(message.stats))


def hint_from_proto(message: pb.HintResponse) -> Hint:
    return Hint(STATUS_BACK[message.status],
                move_from_proto(message.move) if message.HasField("move") else None,
                message.moves_left if message.HasField("moves_left") else None,
                SearchStats(0, 0.0, 0))


def budget_to_proto(budget: Budget) -> pb.Budget:
    return pb.Budget(seconds=budget.seconds or 0, nodes=budget.nodes or 0,
                     table_entries=budget.table_entries or 0)


MODES = {Mode.OPTIMAL: pb.MODE_OPTIMAL, Mode.ANY: pb.MODE_ANY}
ALGORITHMS = {Algorithm.ASTAR: pb.ASTAR, Algorithm.IDASTAR: pb.IDASTAR}
