"""Beleaguered Fortress and its family of variants: protobuf messages <-> solver values.

Explicit positions go through the same JSON reader as the command line, so bad input
gets the same message on both; a message with more piles, slots, cells or cards than
any variant has is refused, in the reader's words, before any card is converted, and
one with more than its own variant has by the reader. A position's `variant` names its
rules (empty: Beleaguered Fortress); a message for another variant than the request's
is refused in one line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from service.api import fortress_solver_pb2 as pb
from service.generic.typed import Reply, View
from service.messages import STATUS_BACK, at_most, budget_to_proto, stats_from_proto
from solver.beleaguered import Algorithm, Hint, Mode, Move, Position
from solver.beleaguered.game import HINT, SOLVE
from solver.beleaguered.notation import line_json
from solver.beleaguered.reading import places, read
from solver.beleaguered.schema import MAX_CARDS, NAME
from solver.beleaguered.solve import Metric
from solver.beleaguered.variant import DEFAULT, Variant, find_variant
from solver.budget import Budget, SearchStats, Status
from solver.errors import InvalidInput

_SUITS = ("clubs", "diamonds", "hearts", "spades")


def variant_from_proto(name: str) -> Variant:
    """The variant a request names (empty: Beleaguered Fortress); InvalidInput, in one
    line naming those known, for a name no variant has."""
    return find_variant(name or None)


def variant_to_proto(variant: Variant | None) -> str:
    """A request's variant field: empty for Beleaguered Fortress, as before variants."""
    return "" if variant is None or variant.name == DEFAULT else variant.name


def position_from_proto(message: pb.BeleagueredPosition,
                        variant: Variant | None = None) -> Position:
    """The position a message holds; with `variant`, one of that variant only (a message
    naming no variant is read as one of it, one naming another is refused)."""
    if variant is not None and message.variant and message.variant != variant.name:
        raise InvalidInput(f"variant: this is a {message.variant[:40]} position, not one of "
                           f"{variant.name}, the request's variant")
    most = places(message.variant or None, variant)
    at_most(message.tableau, most["tableau"], "tableau")
    for k, pile in enumerate(message.tableau):
        at_most(pile.cards, MAX_CARDS, "tableau", k)
    at_most(message.reserve, most["reserve"], "reserve")
    at_most(message.cells, most["cells"], "cells")
    data: dict[str, Any] = {"tableau": [list(pile.cards) for pile in message.tableau],
                            "reserve": [slot.card or None for slot in message.reserve],
                            "cells": [slot.card or None for slot in message.cells]}
    if message.variant:
        data["variant"] = message.variant
    if message.HasField("foundations"):
        tops = message.foundations
        data["foundations"] = {suit[0].upper(): getattr(tops, suit) for suit in _SUITS}
    return read(data, variant)


def position_to_proto(position: Position) -> pb.BeleagueredPosition:
    """Its message: `variant` and `cells` as `to_json` writes them (a Beleaguered
    Fortress position's as before variants)."""
    tops = dict(zip(_SUITS, position.foundations, strict=True))
    return pb.BeleagueredPosition(
        tableau=[pb.Pile(cards=[str(card) for card in pile]) for pile in position.tableau],
        reserve=[pb.ReserveSlot(card="" if card is None else str(card))
                 for card in position.reserve],
        foundations=pb.Foundations(**tops),
        variant=variant_to_proto(position.variant),
        cells=[pb.ReserveSlot(card="" if card is None else str(card))
               for card in position.cells],
    )


# A move's JSON keys that its message names otherwise. A solution's and a hint's typed
# responses are their JSON, written into the response's own fields.
MOVE_KEYS = {"from": "source", "to": "target"}
ANSWER = Reply(renamed=MOVE_KEYS)


def line_to_proto(start: Position, moves: Iterable[Move]) -> list[pb.Move]:
    """A line's moves played from `start`, each with the cards it carries and its standard
    notation (where the variant has one), as an answer's JSON has them."""
    return [pb.Move(**{MOVE_KEYS.get(key, key): value for key, value in shown.items()})
            for shown in line_json(start, moves)]


def move_from_proto(message: pb.Move) -> Move:
    return Move.parse(f"{message.card} {message.source} {message.target}")


MODES = {Mode.OPTIMAL: pb.MODE_OPTIMAL, Mode.ANY: pb.MODE_ANY, Mode.VERDICT: pb.MODE_VERDICT}
ALGORITHMS = {Algorithm.ASTAR: pb.ALGORITHM_ASTAR, Algorithm.IDASTAR: pb.ALGORITHM_IDASTAR}
METRICS = {Metric.MOVES: pb.METRIC_MOVES, Metric.CARDS: pb.METRIC_CARDS}


# ---------------------------------------------------------------- requests (the client's)


def deal_source(number: int) -> pb.PositionSource:
    return pb.PositionSource(beleaguered_deal=number)


def position_source(position: Position) -> pb.PositionSource:
    return pb.PositionSource(beleaguered=position_to_proto(position))


def batch_request(deals: list[int], mode: Mode, algorithm: Algorithm, budget: Budget,
                  without_moves: bool = False, variant: Variant | None = None,
                  metric: Metric = Metric.MOVES, together: int = 0) -> pb.SolveBatchRequest:
    """The deals of `variant` (None: Beleaguered Fortress) to solve; `together`: the
    results one message may carry (0: one)."""
    return pb.SolveBatchRequest(game=NAME, deals=_ranges(deals), mode=MODES[mode],
                                algorithm=ALGORITHMS[algorithm],
                                budget=budget_to_proto(budget), without_moves=without_moves,
                                variant=variant_to_proto(variant), metric=METRICS[metric],
                                results_per_message=together)


def verdict_from_proto(message: pb.SolveResponse) -> tuple[Status, bool, int | None,
                                                           SearchStats, int | None]:
    """A batch line's fields of an answer, its moves not read: (status, optimal, length,
    stats, single-card moves)."""
    return (STATUS_BACK[message.status], message.optimal,
            message.length if message.HasField("length") else None,
            stats_from_proto(message.stats),
            message.single_card_moves if message.HasField("single_card_moves") else None)


def generate_request(count: int, min_length: int | None, max_length: int | None,
                     budget: Budget, variant: Variant | None = None,
                     max_seconds: float | None = None,
                     mode: Mode = Mode.OPTIMAL) -> pb.GenerateDealsRequest:
    """`count` deals of `variant` (None: Beleaguered Fortress) within the band, in at most
    `max_seconds` of wall time (None: the server's most), found in `mode`."""
    return pb.GenerateDealsRequest(game=NAME, count=count, min_length=min_length,
                                   max_length=max_length, budget=budget_to_proto(budget),
                                   variant=variant_to_proto(variant),
                                   max_seconds=max_seconds or 0, mode=MODES[mode])


def mode_from_proto(message: pb.GenerateDealsRequest) -> Mode:
    """A GenerateDeals's mode: optimal when it names none; a number naming no mode is
    refused, as a Solve's is."""
    if not message.mode:
        return Mode.OPTIMAL
    known = {number: mode for mode, number in MODES.items()}
    if message.mode not in known:
        names = ", ".join(f"{number} ({pb.Mode.Name(number)})" for number in sorted(known))
        raise InvalidInput(f"GenerateDealsRequest.mode: {message.mode} is no Mode: send "
                           f"0 (MODE_UNSPECIFIED), {names}")
    return known[message.mode]


def _ranges(deals: list[int]) -> list[pb.DealRange]:
    """Consecutive deal numbers as ranges, so a resumed batch sends only what is left."""
    ranges: list[pb.DealRange] = []
    for number in sorted(deals):
        if ranges and ranges[-1].last == number - 1:
            ranges[-1].last = number
        else:
            ranges.append(pb.DealRange(first=number, last=number))
    return ranges


def _cached(response: pb.HintResponse, hint: Hint, _: Position) -> None:
    """What the hint's moves left count, and whether it was known without a search (from
    the cache or the census)."""
    response.metric, response.cached = METRICS[hint.metric], hint.known


# How the typed messages map onto the game's questions (service/generic/typed.py).
VIEW = View("beleaguered", tuple(mode.value for mode in Mode), position_from_proto,
            position_source, solve=lambda _: SOLVE, hint=HINT,
            answers={SOLVE.name: ANSWER, HINT.name: Reply(renamed=MOVE_KEYS, then=_cached)})
