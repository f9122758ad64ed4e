"""Every repeated field and map of a request is refused by its length before any item is
converted, in the words the JSON reader uses for the same position; a Beleaguered
Fortress pile of 200,000 cards, sent to a real server as its message and as JSON, is
refused by its count."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.beleaguered import messages as beleaguered
from service.farbduell import messages as farbduell
from service.ffkingdom import messages as ffkingdom
from service.messages import batch_items
from service.stronghold import messages as stronghold
from solver.beleaguered import Position
from solver.beleaguered.variant import (
    MAX_CELLS,
    MAX_PILES,
    MAX_RESERVE,
    Variant,
    shipped_variants,
)
from solver.cards import Card
from solver.errors import InvalidInput, OutOfRange
from solver.farbduell.position import Position as FarbduellPosition
from solver.ffkingdom import load
from solver.stronghold.position import Position as StrongholdPosition
from tests.support.servers import connect, rpc_error, running_server


def _fault(read: Callable[[Any], Any], value: Any) -> str:
    with pytest.raises(InvalidInput) as caught:
        read(value)
    return str(caught.value)


def _pile(cards: int) -> list[list[str]]:
    return [[], [], [], ["TS"] * cards]


@pytest.mark.parametrize(("data", "fault"), [
    ({"tableau": _pile(200_000)}, "tableau[3]: has 200000 items, at most 52"),
    ({"tableau": [["AC"] * 30, ["AD"] * 30]}, "position holds 60 cards, at most 52"),
    ({"tableau": [[]] * 9}, "tableau: has 9 items, at most 8"),
    ({"tableau": [], "reserve": [None] * 13}, "reserve: has 13 items, at most 12"),
], ids=["pile", "position", "piles", "slots"])
def test_a_beleaguered_position_too_big_is_refused_before_a_card_is_read(monkeypatch, data,
                                                                          fault):
    parsed: list[str] = []
    parse = Card.parse
    monkeypatch.setattr(Card, "parse",
                        staticmethod(lambda text: parsed.append(text) or parse(text)))
    message = pb.BeleagueredPosition(
        tableau=[pb.Pile(cards=pile) for pile in data["tableau"]],
        reserve=[pb.ReserveSlot(card=card or "") for card in data.get("reserve", [])])
    assert _fault(beleaguered.position_from_proto, message) == fault
    assert _fault(Position.from_json, data) == fault
    assert parsed == []


@pytest.mark.parametrize("variant", shipped_variants(), ids=str)
@pytest.mark.parametrize("field", ["tableau", "reserve", "cells"])
def test_a_place_too_many_says_the_variants_own_count(variant: Variant, field: str) -> None:
    """A position of more piles, reserve slots or cells than its variant has is refused
    with the variant's count, as JSON and as a message, whether or not it is above what
    any variant has (FreeCell's 9 cells say at most 4, as its 5 do)."""
    most = {"tableau": len(variant.piles), "reserve": variant.reserve,
            "cells": variant.cells}[field]
    wire = {"tableau": MAX_PILES, "reserve": MAX_RESERVE, "cells": MAX_CELLS}[field]
    for given in sorted({most + 1, wire + 1}):
        data = {"variant": variant.name, "tableau": [], field: [[] if field == "tableau"
                                                                else None] * given}
        fault = f"{field}: has {given} items, at most {most}"
        assert _fault(Position.from_json, data) == fault
        if given > wire:  # the schema's fault, named beside the position's others
            assert _fault(Position.from_json, {**data, "colour": "red"}) == (
                f"{fault}; colour: is not a field of this position")
        message = pb.BeleagueredPosition(variant=variant.name, **{field: [
            pb.Pile() if field == "tableau" else pb.ReserveSlot()] * given})
        assert _fault(beleaguered.position_from_proto, message) == fault
        assert _fault(partial(beleaguered.position_from_proto, variant=variant),
                      message) == fault


def test_a_batch_of_more_ranges_than_items_allowed_is_refused_before_any_is_checked():
    request = pb.SolveBatchRequest(deals=[pb.DealRange(first=0, last=0)] * 6)
    checked: list[tuple[int, int]] = []
    with pytest.raises(OutOfRange) as caught:
        next(batch_items(request, 5, lambda first, last: checked.append((first, last)),
                         beleaguered.position_from_proto))
    assert checked == []
    assert str(caught.value) == ("the batch lists 6 ranges and positions, more than this "
                                 "server's limit of 5 items a call: send it in parts")


_HAND = ["mauer"] * 201


@pytest.mark.parametrize(("message", "data", "fault"), [
    (pb.FfkPosition(players=[pb.FfkPlayer()] * 3), {"players": [{}] * 3},
     "players: has 3 items, at most 2"),
    (pb.FfkPosition(players=[pb.FfkPlayer(hand=pb.FfkCards(cards=_HAND)), pb.FfkPlayer()]),
     {"players": [{"hand": _HAND}, {}]}, "players[0].hand: has 201 items, at most 200"),
    (pb.FfkPosition(players=[pb.FfkPlayer(), pb.FfkPlayer(knows=pb.FfkKnows(deck_top=_HAND))]),
     {"players": [{}, {"knows": {"deck_top": _HAND}}]},
     "players[1].knows.deck_top: has 201 items, at most 200"),
    (pb.FfkPosition(players=[pb.FfkPlayer(poison=[pb.FfkTicks(per=1, ticks=1)] * 101)]),
     {"players": [{"poison": [{"per": 1, "ticks": 1}] * 101}]},
     "players[0].poison: has 101 items, at most 100"),
    (pb.FfkPosition(discard=_HAND), {"players": [{}, {}], "discard": _HAND},
     "discard: has 201 items, at most 200"),
], ids=["players", "hand", "knows", "poison", "discard"])
def test_a_ffk_list_too_long_is_refused_as_the_reader_refuses_it(message, data, fault):
    assert _fault(ffkingdom.POSITIONS.read, message) == fault
    assert _fault(load, data) == fault


_CARDS = ["red-1"] * 501


@pytest.mark.parametrize(("message", "data", "fault"), [
    (pb.FarbduellPosition(hands=[pb.FarbduellCards()] * 13), {"hands": [[]] * 13},
     "hands: has 13 items, at most 12"),
    (pb.FarbduellPosition(hands=[pb.FarbduellCards(cards=_CARDS)]), {"hands": [_CARDS]},
     "hands[0]: has 501 items, at most 500"),
    (pb.FarbduellPosition(draw_pile=pb.FarbduellCards(cards=_CARDS)), {"draw_pile": _CARDS},
     "draw_pile: has 501 items, at most 500"),
    (pb.FarbduellPosition(knows=[pb.FarbduellKnows(
        hands={seat: pb.FarbduellCards() for seat in range(13)})]),
     {"knows": [{"hands": {str(seat): [] for seat in range(13)}}]},
     "knows[0].hands: has 13 items, at most 12"),
    (pb.FarbduellPosition(knows=[pb.FarbduellKnows(),
                                 pb.FarbduellKnows(hands={2: pb.FarbduellCards(cards=_CARDS)})]),
     {"knows": [{}, {"hands": {"2": _CARDS}}]},
     'knows[1].hands."2": has 501 items, at most 500'),
], ids=["hands", "hand", "draw_pile", "knows", "known-hand"])
def test_a_farbduell_list_too_long_is_refused_as_the_reader_refuses_it(message, data, fault):
    assert _fault(farbduell.POSITIONS.read, message) == fault
    assert _fault(FarbduellPosition.from_json, {"discard": ["red-9"], "hands": [], **data}) == fault


_ENTRIES = [{"turn": 2, "might": 1}] * 33


@pytest.mark.parametrize(("message", "data", "fault"), [
    (pb.StrongholdPosition(control={f"b{k}": "D" for k in range(10)}),
     {"control": {f"b{k}": "D" for k in range(10)}}, "control: has 10 items, at most 9"),
    (pb.StrongholdPosition(units=[pb.StrongholdUnit(id="u", owner="D")] * 65),
     {"units": [{"id": "u", "owner": "D", "might": 0}] * 65}, "units: has 65 items, at most 64"),
    (pb.StrongholdPosition(grid=pb.StrongholdGrid(O=["O1", "O2", "O3", "O4"])),
     {"grid": {"O": ["O1", "O2", "O3", "O4"], "I": ["I1", "I2", "I3"], "S": ["S1", "S2", "S3"]}},
     "grid.O: has 4 items, at most 3"),
    (pb.StrongholdPosition(reinforcements={"A1": pb.StrongholdReinforcements(
        entries=[pb.StrongholdReinforcement(**entry) for entry in _ENTRIES])}),
     {"reinforcements": {"A1": _ENTRIES}}, "reinforcements.A1: has 33 items, at most 32"),
    (pb.StrongholdPosition(burnouts={"D": pb.StrongholdTurns(turns=[2] * 33)}),
     {"burnouts": {"D": [2] * 33}}, "burnouts.D: has 33 items, at most 32"),
    (pb.StrongholdPosition(counters=pb.StrongholdCounters(
        consolation={f"A{k}": 0 for k in range(65)})),
     {"counters": {"consolation": {f"A{k}": 0 for k in range(65)}}},
     "counters.consolation: has 65 items, at most 64"),
], ids=["control", "units", "grid", "reinforcements", "burnouts", "consolation"])
def test_a_stronghold_list_or_map_too_long_is_refused_as_the_reader_refuses_it(message, data,
                                                                               fault):
    assert _fault(stronghold.POSITIONS.read, message) == fault
    assert _fault(StrongholdPosition.from_json, data) == fault


def test_a_pile_of_200000_cards_is_refused_by_a_server_as_a_message_and_as_json():
    as_message = pb.PositionSource(beleaguered=pb.BeleagueredPosition(
        tableau=[pb.Pile(cards=pile) for pile in _pile(200_000)]))
    # as JSON, 150,000 cards: 200,000 would be more than a position's megabyte
    as_json = pb.PositionSource(json=json.dumps({"game": "beleaguered-fortress",
                                                 "tableau": _pile(150_000)}))
    # a server that lets them in, for its reader to refuse (by default their size is)
    with running_server(workers=1, max_position_bytes=1 << 20) as server, \
            connect(server) as client:
        for source, cards in ((as_message, 200_000), (as_json, 150_000)):
            error = rpc_error(client.Hint, pb.HintRequest(position=source))
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert error.details() == f"tableau[3]: has {cards} items, at most 52"
        play = pb.PlayRequest(position=pb.PositionSource(beleaguered_deal=2),
                              moves=["AS reserve:8 foundation"] * 1001)
        error = rpc_error(client.Play, play)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error.details() == "moves: has 1001 items, at most 1000"
