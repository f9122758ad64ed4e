"""The client side of the service, for the `fortress-solver client ...` commands:
requests from command-line values, answers back as solver values."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.convert import farbduell, stronghold
from service.convert.beleaguered import (
    ALGORITHMS,
    MODES,
    budget_to_proto,
    hint_from_proto,
    position_from_proto,
    position_to_proto,
    solution_from_proto,
)
from service.convert.ffkingdom import hint_from_proto as ffk_hint_from_proto
from service.convert.ffkingdom import position_from_json, puzzle_from_proto
from solver.beleaguered import Algorithm, Hint, Mode, Position, Solution
from solver.budget import Budget
from solver.errors import InvalidInput
from solver.farbduell import hints as farbduell_hints
from solver.farbduell import puzzles as farbduell_puzzles
from solver.farbduell.chains import Chain
from solver.farbduell.tables import Table
from solver.ffkingdom import hints
from solver.ffkingdom.puzzles import PuzzleAnswer
from solver.stronghold.plan import Plan
from solver.stronghold.questions import Race
from solver.stronghold.search import Outcome


class Client:
    def __init__(self, address: str) -> None:
        self._channel = grpc.insecure_channel(address)
        self._stub = pb_grpc.SolverStub(self._channel)

    def close(self) -> None:
        self._channel.close()

    def solve(self, source: pb.PositionSource, mode: Mode, algorithm: Algorithm,
              budget: Budget) -> Solution:
        request = pb.SolveRequest(position=source, mode=MODES[mode],
                                  algorithm=ALGORITHMS[algorithm], budget=budget_to_proto(budget))
        return solution_from_proto(self._stub.Solve(request, timeout=_timeout(budget)))

    def hint(self, source: pb.PositionSource, budget: Budget) -> Hint:
        request = pb.HintRequest(position=source, budget=budget_to_proto(budget))
        return hint_from_proto(self._stub.Hint(request, timeout=_timeout(budget)))

    def ffk_puzzle(self, data: dict[str, Any], turns: int, budget: Budget) -> PuzzleAnswer:
        """A Fortress Fight Kingdom puzzle; `data` is the position's JSON."""
        request = pb.SolveRequest(position=ffk_source(data), turns=turns,
                                  budget=budget_to_proto(budget))
        return puzzle_from_proto(self._stub.Solve(request, timeout=_timeout(budget)))

    def ffk_hint(self, data: dict[str, Any], budget: Budget, worlds: int,
                 seed: int) -> hints.Hint:
        """A Fortress Fight Kingdom hint; `data` is the position's JSON."""
        request = pb.HintRequest(position=ffk_source(data), budget=budget_to_proto(budget),
                                 worlds=worlds, seed=seed)
        return ffk_hint_from_proto(self._stub.Hint(request, timeout=_timeout(budget)))

    def farbduell_chain(self, data: dict[str, Any], table: Table, objective: str,
                        budget: Budget) -> Chain:
        """A Farbduell go-out chain; `data` is the position's JSON, `table` its table."""
        request = pb.SolveRequest(position=farbduell_source(data), chain=objective,
                                  budget=budget_to_proto(budget))
        return farbduell.chain_from_proto(self._stub.Solve(request, timeout=_timeout(budget)),
                                          table)

    def farbduell_puzzle(self, data: dict[str, Any], table: Table, turns: int,
                         budget: Budget) -> farbduell_puzzles.PuzzleAnswer:
        """A Farbduell puzzle; `data` is the position's JSON, `table` its table."""
        request = pb.SolveRequest(position=farbduell_source(data), turns=turns,
                                  budget=budget_to_proto(budget))
        return farbduell.puzzle_from_proto(self._stub.Solve(request, timeout=_timeout(budget)),
                                           table)

    def farbduell_hint(self, data: dict[str, Any], table: Table, budget: Budget, worlds: int,
                       seed: int) -> farbduell_hints.Hint:
        """A Farbduell hint; `data` is the position's JSON, `table` its table."""
        request = pb.HintRequest(position=farbduell_source(data), budget=budget_to_proto(budget),
                                 worlds=worlds, seed=seed)
        return farbduell.hint_from_proto(self._stub.Hint(request, timeout=_timeout(budget)),
                                         table)

    def stronghold_plan(self, data: dict[str, Any], exact: bool, budget: Budget) -> Plan:
        """A Stronghold plan for the turn the position starts; `data` is its JSON."""
        request = pb.HintRequest(position=stronghold.source(data), exact=exact,
                                 budget=budget_to_proto(budget))
        return stronghold.plan_from_proto(self._stub.Hint(request, timeout=_timeout(budget)))

    def stronghold_clear(self, data: dict[str, Any], defender: str, max_turns: int,
                         method: str, budget: Budget) -> Outcome:
        """The fewest turns to clear the Stronghold; `data` is the position's JSON."""
        return stronghold.outcome_from_proto(
            self._stronghold_solve(data, "clear", defender, max_turns, method, budget))

    def stronghold_race(self, data: dict[str, Any], defender: str, max_turns: int,
                        method: str, budget: Budget) -> Race:
        """The defender's race; `data` is the position's JSON."""
        return stronghold.race_from_proto(
            self._stronghold_solve(data, "race", defender, max_turns, method, budget))

    def _stronghold_solve(self, data: dict[str, Any], question: str, defender: str,
                          max_turns: int, method: str, budget: Budget) -> pb.SolveResponse:
        request = pb.SolveRequest(position=stronghold.source(data), question=question,
                                  defender=defender, max_turns=max_turns, method=method,
                                  budget=budget_to_proto(budget))
        return self._stub.Solve(request, timeout=_timeout(budget))

    def batch(self, deals: list[int], mode: Mode, algorithm: Algorithm,
              budget: Budget) -> Iterator[tuple[int, Solution]]:
        request = pb.SolveBatchRequest(deals=_ranges(deals), mode=MODES[mode],
                                       algorithm=ALGORITHMS[algorithm],
                                       budget=budget_to_proto(budget))
        for result in self._stub.SolveBatch(request):
            yield result.deal, solution_from_proto(result.result)

    def generate(self, count: int, min_length: int | None, max_length: int | None,
                 budget: Budget) -> Iterator[tuple[int, Position, int]]:
        request = pb.GenerateDealsRequest(count=count, min_length=min_length,
                                          max_length=max_length, budget=budget_to_proto(budget))
        for found in self._stub.GenerateDeals(request):
            yield found.deal, position_from_proto(found.position), found.length


def source_of(position: Position | None, deal: int | None) -> pb.PositionSource:
    if deal is not None:
        return pb.PositionSource(beleaguered_deal=deal)
    return pb.PositionSource(beleaguered=position_to_proto(position))


def ffk_source(data: dict[str, Any]) -> pb.PositionSource:
    """The message of a position JSON that `load` accepted."""
    try:
        return pb.PositionSource(ffkingdom=position_from_json(data))
    except ValueError as error:  # a number the JSON allows, too large for its field
        raise InvalidInput(f"position cannot be sent to a server: {error}") from None


def farbduell_source(data: dict[str, Any]) -> pb.PositionSource:
    """The message of a position JSON that `load` accepted."""
    try:
        return pb.PositionSource(farbduell=farbduell.position_from_json(data))
    except (ValueError, TypeError) as error:  # a value the JSON allows, not its field
        raise InvalidInput(f"position cannot be sent to a server: {error}") from None


def _timeout(budget: Budget) -> float | None:
    """The call's deadline: the budget and a little room to send the answer."""
    return None if budget.seconds is None else budget.seconds + 5.0


def _ranges(deals: list[int]) -> list[pb.DealRange]:
    """Consecutive deal numbers as ranges, so a resumed batch sends only what is left."""
    ranges: list[pb.DealRange] = []
    for number in sorted(deals):
        if ranges and ranges[-1].last == number - 1:
            ranges[-1].last = number
        else:
            ranges.append(pb.DealRange(first=number, last=number))
    return ranges
