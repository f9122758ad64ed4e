"""The deprecated flat fields of SolveRequest and HintRequest, and the enum values' old
names, are still honoured: each field gives the answer its options message gives with
the same value, and not the answer of the game's default (so the server read it); an
options message, when one is set, wins over them. Every other test sends the options
messages and the STATUS_ / ALGORITHM_ names; this module is where the old ones live.

One module-scoped server (tests/service/conftest.py) answers every call.
"""

from __future__ import annotations

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from service.api import fortress_solver_pb2 as pb
from service.farbduell.messages import POSITIONS as FARBDUELL_POSITIONS
from service.ffkingdom.messages import POSITIONS as FFK_POSITIONS
from service.stronghold.messages import POSITIONS as STRONGHOLD_POSITIONS
from solver.farbduell.hints import HINT_BUDGET as FARBDUELL_HINT_BUDGET
from solver.farbduell.hints import Settings as FarbduellSettings
from solver.farbduell.hints import hint as farbduell_hint
from solver.farbduell.position import Position
from solver.ffkingdom import load
from solver.ffkingdom.hints import HINT_BUDGET as FFK_HINT_BUDGET
from solver.ffkingdom.hints import Settings as FfkSettings
from solver.ffkingdom.hints import hint as ffk_hint
from tests.support import farbduell, ffkingdom
from tests.support.servers import deal_source, rpc_error
from tests.support.stronghold import CASE_1, E2, NEAR_END

# What each deprecated field stands for, by request: the options field it is.
SOLVE_FIELDS = {"mode", "algorithm", "turns", "chain", "question", "defender", "max_turns",
                "method"}
HINT_FIELDS = {"worlds", "seed", "exact"}


def timeless(message: Message) -> Message:
    """A copy with every `seconds` (and `line_seconds`) set to 0: the time a search took
    differs call to call."""
    copy = type(message)()
    copy.CopyFrom(message)
    _zero_seconds(copy)
    return copy


def _zero_seconds(message: Message) -> None:
    for field, value in message.ListFields():
        if field.name in ("seconds", "line_seconds") and field.type == FieldDescriptor.TYPE_DOUBLE:
            setattr(message, field.name, 0.0)
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.message_type.GetOptions().map_entry:
                items = value.values() if hasattr(value, "values") else ()
                for item in items:
                    if isinstance(item, Message):
                        _zero_seconds(item)
            elif field.is_repeated:
                for item in value:
                    _zero_seconds(item)
            else:
                _zero_seconds(value)


def test_every_deprecated_field_is_one_this_module_tests():
    """The proto marks these fields deprecated, and no others: a field deprecated later
    gets a test here."""
    for message, expected in ((pb.SolveRequest, SOLVE_FIELDS), (pb.HintRequest, HINT_FIELDS)):
        marked = {field.name for field in message.DESCRIPTOR.fields
                  if field.GetOptions().deprecated}
        assert marked == expected, message.DESCRIPTOR.name


# ============================================================================ enum names


@pytest.mark.parametrize(("enum", "old", "new"), [
    (pb.Status, "SOLVED", "STATUS_SOLVED"), (pb.Status, "UNSOLVABLE", "STATUS_UNSOLVABLE"),
    (pb.Status, "UNKNOWN", "STATUS_UNKNOWN"), (pb.Algorithm, "ASTAR", "ALGORITHM_ASTAR"),
    (pb.Algorithm, "IDASTAR", "ALGORITHM_IDASTAR"),
])
def test_an_old_enum_name_is_its_new_names_number(enum, old, new):
    assert enum.Value(old) == enum.Value(new) == getattr(pb, old) == getattr(pb, new)
    assert enum.DESCRIPTOR.values_by_name[old].GetOptions().deprecated
    assert enum.Name(enum.Value(old)) == new  # what a response's status is named


def test_a_status_compares_equal_to_its_old_name(stub):
    solved = stub.Solve(pb.SolveRequest(position=deal_source(2)), timeout=60)
    unsolvable = stub.Solve(pb.SolveRequest(position=deal_source(1)), timeout=60)
    assert solved.status == pb.SOLVED == pb.STATUS_SOLVED
    assert unsolvable.status == pb.UNSOLVABLE == pb.STATUS_UNSOLVABLE


# ========================================================================== Beleaguered Fortress


@pytest.mark.parametrize(("mode", "algorithm"), [
    (pb.MODE_ANY, pb.ALGORITHM_UNSPECIFIED), (pb.MODE_OPTIMAL, pb.IDASTAR),
], ids=["mode-any", "idastar"])
def test_flat_mode_and_algorithm_are_the_options(stub, mode, algorithm):
    """With a table of 500 entries, which IDA* keeps to and A* runs out of, each mode and
    algorithm answers in its own way."""
    budget = pb.Budget(table_entries=500)
    flat = stub.Solve(pb.SolveRequest(position=deal_source(2), mode=mode, algorithm=algorithm,
                                      budget=budget), timeout=60)
    typed = stub.Solve(pb.SolveRequest(position=deal_source(2), beleaguered=pb.
                                       BeleagueredSolveOptions(mode=mode, algorithm=algorithm),
                                       budget=budget), timeout=60)
    default = stub.Solve(pb.SolveRequest(position=deal_source(2), budget=budget), timeout=60)
    assert flat.status == pb.STATUS_SOLVED
    assert timeless(flat) == timeless(typed)
    assert (flat.status, flat.length, flat.stats.nodes) != (
        default.status, default.length, default.stats.nodes)


def test_beleaguered_options_win_over_the_flat_fields(stub):
    request = pb.SolveRequest(position=deal_source(2), mode=pb.MODE_ANY,
                              beleaguered=pb.BeleagueredSolveOptions(mode=pb.MODE_OPTIMAL))
    response = stub.Solve(request, timeout=60)
    assert response.optimal and response.length == 66


# ======================================================================== Fortress Fight Kingdom


def ffk_source(data: dict) -> pb.PositionSource:
    return pb.PositionSource(ffkingdom=FFK_POSITIONS.message(data))


def test_flat_turns_are_the_ffk_options(stub):
    """A client of before the options messages sends `turns` on the request itself."""
    source = ffk_source(ffkingdom.TWO_TURNS)
    flat = stub.Solve(pb.SolveRequest(position=source, turns=2), timeout=30)
    typed = stub.Solve(pb.SolveRequest(position=source, ffkingdom=pb.FfkSolveOptions(turns=2)),
                       timeout=30)
    default = stub.Solve(pb.SolveRequest(position=source), timeout=30)
    assert flat.status == pb.STATUS_SOLVED and flat.turns == 2
    assert timeless(flat) == timeless(typed)
    assert default.status != pb.STATUS_SOLVED


def test_flat_worlds_and_seed_are_the_ffk_options(stub):
    data = ffkingdom.view(2)
    state = load(data, ffkingdom.RULES).state
    local = ffk_hint(state, FFK_HINT_BUDGET, FfkSettings(worlds=3), 7)
    assert local.value != ffk_hint(state, FFK_HINT_BUDGET, FfkSettings(), 0).value
    flat = stub.Hint(pb.HintRequest(position=ffk_source(data), worlds=3, seed=7), timeout=30)
    typed = stub.Hint(pb.HintRequest(position=ffk_source(data),
                                     ffkingdom=pb.FfkHintOptions(worlds=3, seed=7)), timeout=30)
    assert timeless(flat) == timeless(typed)
    assert (flat.ffk.action, flat.ffk.value) == (str(local.action), pytest.approx(local.value))


def test_flat_worlds_over_the_limit_are_out_of_range_for_ffk(stub):
    error = rpc_error(stub.Hint, pb.HintRequest(position=ffk_source(ffkingdom.view(1)),
                                                worlds=1001))
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert "1001" in error.details() and "1000" in error.details()


def test_ffk_options_win_over_the_flat_fields(stub):
    request = pb.SolveRequest(position=ffk_source(ffkingdom.whole(ffkingdom.WIN_THIS_TURN)),
                              turns=5, ffkingdom=pb.FfkSolveOptions())
    assert stub.Solve(request, timeout=30).turns == 1  # 0 means 1; the flat 5 is unread


# ============================================================================ Farbduell


def farbduell_source(data: dict) -> pb.PositionSource:
    return pb.PositionSource(farbduell=FARBDUELL_POSITIONS.message(data))


def test_flat_chain_is_the_farbduell_options(stub):
    source = farbduell_source(farbduell.WILD)
    flat = stub.Solve(pb.SolveRequest(position=source, chain="points"), timeout=30)
    typed = stub.Solve(pb.SolveRequest(position=source,
                                       farbduell=pb.FarbduellSolveOptions(chain="points")),
                       timeout=30)
    default = stub.Solve(pb.SolveRequest(position=source), timeout=30)  # the puzzle
    assert flat.HasField("goes_out") and not default.HasField("goes_out")
    assert timeless(flat) == timeless(typed)


def test_flat_turns_are_the_farbduell_options(stub):
    source = farbduell_source(farbduell.TWO_TURNS)
    flat = stub.Solve(pb.SolveRequest(position=source, turns=2), timeout=30)
    typed = stub.Solve(pb.SolveRequest(position=source,
                                       farbduell=pb.FarbduellSolveOptions(turns=2)), timeout=30)
    default = stub.Solve(pb.SolveRequest(position=source), timeout=30)
    assert flat.status == pb.STATUS_SOLVED and flat.turns == 2
    assert default.status == pb.STATUS_UNSOLVABLE
    assert timeless(flat) == timeless(typed)


def test_flat_worlds_and_seed_are_the_farbduell_options(stub):
    data = farbduell.view(2)
    state = Position.from_json(data, farbduell.TABLES)
    local = farbduell_hint(state, FARBDUELL_HINT_BUDGET, FarbduellSettings(worlds=3), 7)
    assert local.value != farbduell_hint(state, FARBDUELL_HINT_BUDGET, FarbduellSettings(),
                                         0).value
    flat = stub.Hint(pb.HintRequest(position=farbduell_source(data), worlds=3, seed=7),
                     timeout=30)
    typed = stub.Hint(pb.HintRequest(position=farbduell_source(data),
                                     farbduell=pb.FarbduellHintOptions(worlds=3, seed=7)),
                      timeout=30)
    assert timeless(flat) == timeless(typed)
    assert (flat.farbduell.action, flat.farbduell.value) == \
        (str(local.action), pytest.approx(local.value))


def test_flat_worlds_over_the_limit_are_out_of_range_for_farbduell(stub):
    error = rpc_error(stub.Hint, pb.HintRequest(position=farbduell_source(farbduell.view(1)),
                                                worlds=1001))
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error.details() == "worlds 1001 is more than the limit of 1000"


def test_farbduell_options_win_over_the_flat_fields(stub):
    """A flat chain asks for a chain; the options message's puzzle is what is answered."""
    puzzle = stub.Solve(pb.SolveRequest(position=farbduell_source(farbduell.TWO_TURNS),
                                        chain="cards",
                                        farbduell=pb.FarbduellSolveOptions(turns=2)),
                        timeout=30)
    assert puzzle.status == pb.STATUS_SOLVED and puzzle.turns == 2
    assert not puzzle.HasField("goes_out")


# ============================================================================ Stronghold


def stronghold_source(data: dict) -> pb.PositionSource:
    return pb.PositionSource(stronghold=STRONGHOLD_POSITIONS.message(data))


@pytest.mark.parametrize(("data", "fields"), [
    (NEAR_END, {"question": "race"}),
    (NEAR_END, {"defender": "greedy"}),
    (CASE_1, {"max_turns": 5}),
    (NEAR_END, {"method": "search"}),
], ids=["question", "defender", "max-turns", "method"])
def test_flat_stronghold_fields_are_the_options(stub, data, fields):
    source = stronghold_source(data)
    flat = stub.Solve(pb.SolveRequest(position=source, **fields), timeout=60)
    typed = stub.Solve(pb.SolveRequest(position=source,
                                       stronghold=pb.StrongholdSolveOptions(**fields)),
                       timeout=60)
    default = stub.Solve(pb.SolveRequest(position=source), timeout=60)
    assert timeless(flat) == timeless(typed)
    assert timeless(flat) != timeless(default)


def test_a_flat_method_is_checked(stub):
    error = rpc_error(stub.Solve, pb.SolveRequest(position=stronghold_source(NEAR_END),
                                                  method="guess"))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == "method must be one of cpsat, search, not 'guess'"


def test_flat_exact_is_the_stronghold_hint_options(stub):
    source = stronghold_source(E2)
    flat = stub.Hint(pb.HintRequest(position=source, exact=True), timeout=30)
    typed = stub.Hint(pb.HintRequest(position=source,
                                     stronghold=pb.StrongholdHintOptions(exact=True)),
                      timeout=30)
    default = stub.Hint(pb.HintRequest(position=source), timeout=30)
    assert timeless(flat) == timeless(typed) and flat.stronghold.objective.garrison == 7
    assert dict(flat.stronghold.moves) != dict(default.stronghold.moves)


def test_stronghold_options_win_over_the_flat_fields(stub):
    request = pb.SolveRequest(position=stronghold_source(NEAR_END), defender="angry",
                              stronghold=pb.StrongholdSolveOptions(defender="greedy"))
    assert stub.Solve(request, timeout=30).stronghold.turn == 7
