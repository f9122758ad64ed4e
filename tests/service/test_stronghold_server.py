"""Stronghold over gRPC, against a real server on 127.0.0.1: plans (Hint), clears and
races (Solve), bad input, budgets and deadlines, the position message, the log line and
the client commands.

The tests share one module-scoped server (2 workers). Remote answers are compared with
the library's answers for the same position (plans, clears and races are deterministic).
Positions are built here as the spec's JSON: E.2 for plans, E.3's cases 1 and 3 for
clears and races, and a near end (the Stronghold row active) where speed matters.
"""

from __future__ import annotations

import json
import logging
import time

import grpc
import pytest
from google.protobuf import struct_pb2

from service.api import fortress_solver_pb2 as pb
from service.convert.stronghold import (
    outcome_from_proto,
    plan_from_proto,
    position_from_json,
    position_from_proto,
    position_to_json,
    position_to_proto,
    race_from_proto,
    source,
)
from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.stronghold.plan import best_assignment, best_assignment_exact
from solver.stronghold.policies import POLICIES
from solver.stronghold.position import parse, to_json
from solver.stronghold.questions import clear, race
from solver.stronghold.search import fewest_turns
from solver.stronghold.turns import begin_turn
from tests.service.conftest import address, connect, rpc_error, running_server

from ..cli import assert_client_prints_what_local_prints, keep_sigpipe, run  # noqa: F401

BUDGET = Budget(seconds=30.0, nodes=None, table_entries=None)


def unit(id: str, owner: str, might: int, loc: str | None = None, **extras) -> dict:
    return {"id": id, "owner": owner, "might": might, **({"loc": loc} if loc else {}), **extras}


# Spec E.2: A1 to move on turn 2, the Outer row O1 {3}, O2 {2, 2 Tank}, O3 empty; one
# defender unit in base.
E2 = {"mode": "1v3", "turn": 2, "units": [
    unit("u4", "A1", 4), unit("u3", "A1", 3), unit("u2", "A1", 2), unit("u1", "A1", 1),
    unit("d3", "D", 3, "O1"), unit("d2", "D", 2, "O2"), unit("t2", "D", 2, "O2", tank=True),
    unit("b2", "D", 2)]}
# Spec E.3 case 1: two Recruits against one Might-2 unit per attacker: cleared on turn 20.
CASE_1 = {"mode": "1v3", "units": [
    unit("r1", "D", 1, "O1"), unit("r2", "D", 1, "O2"),
    unit("a", "A1", 2), unit("b", "A2", 2), unit("c", "A3", 2)]}
# Case 2: two Might-2 units per attacker: cleared on turn 16, seconds of search.
CASE_2 = {"mode": "1v3", "units": [
    unit("r1", "D", 1, "O1"), unit("r2", "D", 1, "O2"),
    *(unit(f"{p.lower()}{k}", p, 2) for p in ("A1", "A2", "A3") for k in (1, 2))]}
# Case 3: Might-5 defenders on all three: the defender reaches its target on turn 9.
CASE_3 = {"units": [
    unit("x", "D", 5, "O1"), unit("y", "D", 5, "O2"), unit("z", "D", 5, "O3"),
    unit("a", "A1", 2), unit("b", "A2", 2), unit("c", "A3", 2)]}
# The Stronghold row active, A1 to move: cleared on turn 6 (passive) or 7 (greedy).
NEAR_END = {"turn": 2, "removed": ["O1", "O2", "O3", "I1", "I2", "I3"], "units": [
    unit("a1", "A1", 2), unit("a2", "A1", 2), unit("b1", "A2", 3),
    unit("d1", "D", 1, "S3"), unit("d2", "D", 1), unit("d0", "D", 4)]}
# Faults the reader names all at once.
BAD = {"mode": "1v3", "turn": 0, "units": [
    unit("x", "A1", 2, "I1"), unit("y", "A4", 2), unit("z", "A2", -1)]}
OVER = {**CASE_1, "winner": "defender"}


# 1v3, four units per attacker: the search runs out of time; CP-SAT proves 15 in ~1.5 s.
FOUR_EACH = {"units": [
    *(unit(f"{a}-{k}", a.upper(), might) for a in ("a1", "a2", "a3")
      for k, might in enumerate((2, 2, 1, 1))),
    *(unit(f"d{b}", "D", 3, b) for b in ("O1", "O2", "O3"))]}


def clear_request(data: dict, **fields) -> pb.SolveRequest:
    return pb.SolveRequest(position=source(data), **fields)


def plan_request(data: dict, **fields) -> pb.HintRequest:
    return pb.HintRequest(position=source(data), **fields)


def parse_message(data: dict) -> str:
    with pytest.raises(InvalidInput) as caught:
        parse(data)
    return str(caught.value)


def same_stats(remote, local) -> bool:
    """The same search: nodes and table entries (the seconds differ)."""
    return ((remote.nodes, remote.table_entries) == (local.nodes, local.table_entries))


# ============================================================================ plans


@pytest.mark.parametrize(("exact", "moves"), [
    (False, {"u1": "O3", "u2": "O3", "u3": "O3", "u4": "O1"}),
    (True, {"u1": "O3", "u2": "O2", "u3": "O2", "u4": "O1"}),
], ids=["bound", "exact"])
def test_plan_is_the_librarys(stub, exact, moves):
    response = stub.Hint(plan_request(E2, exact=exact), timeout=30)
    started = begin_turn(parse(E2))
    local = (best_assignment_exact if exact else best_assignment)(started, BUDGET)
    assert response.status == pb.SOLVED and local.status is Status.SOLVED
    assert not response.HasField("move") and not response.HasField("ffk")
    plan = response.stronghold
    assert dict(plan.moves) == moves == local.moves
    assert (plan.cp_status, plan.optimal) == ("OPTIMAL", True)
    assert plan.HasField("objective") and plan.objective.removals == 3
    assert [(f.battlefield, f.controller, f.garrison, f.secure, f.conquerable)
            for f in plan.battlefields] == [
        (f.battlefield, f.controller, f.garrison, f.secure, f.conquerable_now)
        for f in local.battlefields]
    remote = plan_from_proto(response)
    assert (remote.status, remote.cp_status, remote.optimal, remote.moves,
            remote.battlefields, remote.objective) == (
        local.status, local.cp_status, local.optimal, local.moves, local.battlefields,
        local.objective)
    assert list(remote.moves) == list(local.moves)  # the same order too
    assert same_stats(remote.stats, local.stats)


def test_a_battlefield_nobody_controls_has_no_controller(stub):
    data = {"turn": 2, "units": [unit("u1", "A1", 1), unit("d5", "D", 5, "O1")]}
    plan = stub.Hint(plan_request(data), timeout=30).stronghold
    (o2,) = [f for f in plan.battlefields if f.battlefield == "O2"]
    local = best_assignment(begin_turn(parse(data)), BUDGET)
    assert dict(plan.moves) == local.moves
    expected = next(f for f in local.battlefields if f.battlefield == "O2")
    assert o2.HasField("controller") == (expected.controller is not None)
    assert plan_from_proto(stub.Hint(plan_request(data), timeout=30)).battlefields == \
        local.battlefields


@pytest.mark.parametrize(("data", "problem"), [
    (CASE_3, "the defender D is to move; these plans are an attacker's action step"),
    ({"turn": 2, "units": [unit(f"u{k}", "A1", 1) for k in range(13)]},
     "A1 has 13 ready units; the subset tables allow at most 12"),
], ids=["defender-to-move", "too-many-units"])
def test_plan_refusals_are_the_librarys(stub, data, problem):
    with pytest.raises(InvalidInput) as caught:
        best_assignment(begin_turn(parse(data)), BUDGET)
    assert str(caught.value) == problem
    for exact in (False, True):
        error = rpc_error(stub.Hint, plan_request(data, exact=exact))
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error.details() == problem


# ============================================================================ clear and race


@pytest.mark.parametrize("defender", ["passive", "greedy"])
def test_clear_is_the_librarys(stub, defender):
    response = stub.Solve(clear_request(CASE_1, defender=defender), timeout=30)
    local = clear(parse(CASE_1), defender, BUDGET)
    assert (local.winner, local.turn, local.rounds, local.proven) == ("attackers", 20, 5, True)
    assert response.status == pb.SOLVED and response.optimal
    assert not response.HasField("length") and not response.HasField("turns")
    answer = response.stronghold
    assert (answer.winner, answer.turn, answer.rounds, answer.proven) == ("attackers", 20, 5,
                                                                         True)
    assert not answer.HasField("defender_first")
    assert [(s.turn, s.player, dict(s.moves)) for s in answer.plan] == \
        [(s.turn, s.player, s.moves) for s in local.plan]
    remote = outcome_from_proto(response)
    assert (remote.winner, remote.turn, remote.rounds, remote.proven, remote.plan) == \
        (local.winner, local.turn, local.rounds, local.proven, local.plan)
    assert same_stats(remote.stats, local.stats)


def test_clear_is_the_default_question_and_passive_the_default_defender(stub):
    implicit = stub.Solve(clear_request(NEAR_END), timeout=30)
    explicit = stub.Solve(clear_request(NEAR_END, question="clear", defender="passive",
                                        max_turns=80), timeout=30)
    greedy = stub.Solve(clear_request(NEAR_END, defender="greedy"), timeout=30)
    assert implicit.stronghold == explicit.stronghold
    assert (implicit.stronghold.turn, greedy.stronghold.turn) == (6, 7)


@pytest.mark.parametrize(("data", "defender", "first", "turn"), [
    (CASE_3, "passive", True, 9), (CASE_3, "greedy", True, 9),
    (NEAR_END, "greedy", False, 7),
], ids=["case-3", "case-3-greedy", "near-end"])
def test_race_is_the_librarys(stub, data, defender, first, turn):
    response = stub.Solve(clear_request(data, question="race", defender=defender), timeout=30)
    local = race(parse(data), defender, BUDGET)
    assert (local.defender_first, local.turn, local.proven) == (first, turn, True)
    assert response.status == pb.SOLVED and response.optimal
    answer = response.stronghold
    assert answer.HasField("defender_first") and answer.defender_first is first
    assert answer.winner == ("defender" if first else "attackers") and answer.turn == turn
    remote = race_from_proto(response)
    assert (remote.defender_first, remote.turn, remote.proven, remote.outcome.plan) == \
        (local.defender_first, local.turn, local.proven, local.outcome.plan)
    cleared = stub.Solve(clear_request(data, defender=defender), timeout=30)
    assert not cleared.stronghold.HasField("defender_first")
    assert cleared.stronghold.winner == answer.winner and cleared.stronghold.plan == answer.plan


@pytest.mark.parametrize("question", ["clear", "race"])
def test_too_few_turns_is_unknown(stub, question):
    response = stub.Solve(clear_request(CASE_1, question=question, max_turns=5), timeout=30)
    local = race(parse(CASE_1), "passive", BUDGET, 5)
    assert local.defender_first is None and local.outcome.winner is None
    assert response.status == pb.UNKNOWN and not response.optimal
    answer = response.stronghold
    for field in ("winner", "turn", "rounds", "defender_first"):
        assert not answer.HasField(field), field
    assert not answer.proven and list(answer.plan) == []
    assert same_stats(response.stats, local.outcome.stats)
    remote = race_from_proto(response)
    assert (remote.defender_first, remote.turn, remote.proven) == (None, None, False)


def test_request_budget_answers_unknown(stub):
    response = stub.Solve(clear_request(CASE_1, method="search", budget=pb.Budget(nodes=50)),
                          timeout=30)
    assert response.status == pb.UNKNOWN and not response.stronghold.HasField("winner")
    assert response.stats.nodes <= 50


@pytest.mark.parametrize("method, data", [("search", "CASE_2"), ("cpsat", "FOUR_EACH")])
def test_tiny_deadline_answers_unknown_in_time(stub, method, data):
    started = time.perf_counter()
    response = stub.Solve(clear_request(globals()[data], method=method),
                          timeout=0.5)  # never DEADLINE_EXCEEDED
    elapsed = time.perf_counter() - started
    assert response.status == pb.UNKNOWN and not response.optimal
    assert not response.stronghold.HasField("winner")
    assert elapsed < 0.5


def test_an_unknown_method_names_the_choices(stub):
    error = rpc_error(stub.Solve, clear_request(CASE_1, method="guess"))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == "method must be one of cpsat, search, not 'guess'"


def test_cancelled_clear_frees_its_worker():
    """The exhaustive search stops when cancelled (CP-SAT only when its seconds run out)."""
    with running_server(workers=1, queue=2) as server, connect(server) as client:
        slow = client.Solve.future(clear_request(CASE_2, method="search"))
        time.sleep(0.3)
        assert not slow.done(), "the search should still be running"
        cancelled_at = time.perf_counter()
        assert slow.cancel()
        response = client.Solve(clear_request(NEAR_END), timeout=5)
        elapsed = time.perf_counter() - cancelled_at
    assert response.status == pb.SOLVED
    assert elapsed < 0.5


# ============================================================================ bad input


def test_bad_position_is_invalid_argument_naming_every_fault(stub):
    expected = parse_message(BAD)
    for fragment in ("turn must be a whole number of at least 1",
                     "unit 'x' is on I1, which is not in the active row",
                     "unit 'y' belongs to 'A4', who is not playing",
                     "unit 'z': might must be a whole number of at least 0"):
        assert fragment in expected
    for call, request in ((stub.Solve, clear_request(BAD)),
                          (stub.Solve, clear_request(BAD, question="race")),
                          (stub.Hint, plan_request(BAD)),
                          (stub.Hint, plan_request(BAD, exact=True))):
        error = rpc_error(call, request)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error.details() == expected


def test_a_fraction_is_refused_and_a_whole_double_is_an_integer(stub):
    """A Struct's numbers are doubles: 2.0 is the integer 2, 2.5 is refused by the reader."""
    fraction = {**NEAR_END, "units": [unit("a1", "A1", 2.5), *NEAR_END["units"][1:]]}
    error = rpc_error(stub.Solve, clear_request(fraction))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == parse_message(fraction) == \
        "unit 'a1': might must be a whole number of at least 0"
    whole = position_to_json(source(NEAR_END).stronghold)
    assert whole["turn"] == 2 and type(whole["turn"]) is int
    assert all(type(u["might"]) is int for u in whole["units"])


@pytest.mark.parametrize(("fields", "problem"), [
    ({"question": "fastest"}, "question must be one of clear, race, not 'fastest'"),
    ({"defender": "angry"}, "defender must be one of greedy, passive, not 'angry'"),
    ({"question": "race", "defender": "Greedy"},
     "defender must be one of greedy, passive, not 'Greedy'"),
])
def test_unknown_question_or_defender_names_the_choices(stub, fields, problem):
    error = rpc_error(stub.Solve, clear_request(NEAR_END, **fields))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == problem


def test_a_far_turn_reads_at_once(stub):
    """The defender's earlier turns are counted in closed form."""
    response = stub.Solve(clear_request({**NEAR_END, "turn": 10**15}, max_turns=1),
                          timeout=10)
    assert response.status == pb.UNKNOWN


def test_a_finished_game_is_invalid_argument(stub):
    for call, request in ((stub.Solve, clear_request(OVER)),
                          (stub.Solve, clear_request(OVER, question="race")),
                          (stub.Hint, plan_request(OVER))):
        error = rpc_error(call, request)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error.details() == "the game is over: the defender won"


# ============================================================================ server


def test_server_info_lists_the_game(stub):
    info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=5)
    (game,) = [game for game in info.games if game.name == "stronghold"]
    assert list(game.modes) == ["plan", "plan-exact", "clear", "race"]
    assert list(game.algorithms) == [] and game.max_deal == 0


def test_log_line_names_the_game(stub, caplog):
    with caplog.at_level(logging.INFO, logger="fortress_solver.calls"):
        stub.Solve(clear_request(NEAR_END), timeout=30)
        stub.Hint(plan_request(E2), timeout=30)
        rpc_error(stub.Solve, clear_request(BAD))
    lines = [json.loads(record.getMessage()) for record in caplog.records
             if record.name == "fortress_solver.calls"]
    assert [(line["method"], line["game"], line["status"]) for line in lines] == [
        ("Solve", "stronghold", "OK"), ("Hint", "stronghold", "OK"),
        ("Solve", "stronghold", "INVALID_ARGUMENT"),
    ]


# ============================================================================ the message


RICH = {
    "mode": "1v2", "turn": 5, "win_target": 7, "defender_score": 3,
    "removed": ["O1", "O2", "O3"],
    "control": {"I1": "A1", "I3": "D"},
    "units": [unit("s", "A1", 3, "I1", assault=1, shield=2, tank=True, ganking=True,
                   ready=False),
              unit("g", "D", 4, "I3", ganking=True), unit("h", "A2", 0)],
    "reinforcements": {"D": [{"turn": 7, "might": 2, "shield": 1}],
                       "A2": [{"turn": 6, "might": 1, "tank": True}]},
    "burnouts": {"D": [9, 12]},
    "counters": {"defender_bonus": 1, "consolation": {"I2": 2}},
    "consoled": [["O2", 1]],
}


@pytest.mark.parametrize("data", [E2, CASE_1, CASE_3, NEAR_END, RICH],
                         ids=["e2", "case-1", "case-3", "near-end", "rich"])
def test_position_round_trip(data):
    """Through the message and back, as the file or written out: the same position."""
    position = parse(data)
    sent = pb.PositionSource.FromString(source(data).SerializeToString()).stronghold
    assert position_from_proto(sent) == position
    full = struct_pb2.Struct.FromString(position_to_proto(position).SerializeToString())
    assert position_to_json(full) == to_json(position)
    assert position_from_proto(full) == position


def test_values_keep_their_kind():
    data = {"a": [1, 2.5, -3, None, True, "x", {"b": [[]]}], "c": {}, "d": 1e300}
    assert position_to_json(position_from_json(data)) == data
    back = position_to_json(position_from_json(data))
    assert [type(v) for v in back["a"]] == [int, float, int, type(None), bool, str, dict]


@pytest.mark.parametrize("value", [2**53 + 1, -(2**60), 10**400])
def test_a_number_no_double_holds_is_refused(value):
    with pytest.raises(InvalidInput, match="position cannot be sent to a server"):
        position_from_json({"turn": value})
    position_from_json({"turn": 2**53})


# ============================================================================ the client


POSITIONS = {
    "e2": "{ // spec E.2, with a comment\n" + json.dumps(E2)[1:],
    "case-1": json.dumps(CASE_1), "case-3": json.dumps(CASE_3),
    "near-end": json.dumps(NEAR_END), "rich": json.dumps(RICH), "bad": json.dumps(BAD),
    "over": json.dumps(OVER), "not-json": '{"units": [',
}


@pytest.mark.parametrize("argv", [
    ["plan", "e2"], ["plan", "e2", "--json"], ["plan", "e2", "--exact"],
    ["plan", "e2", "--exact", "--json"], ["plan", "rich", "--json"], ["plan", "case-3"],
    ["plan", "over"], ["plan", "bad"], ["plan", "not-json"],
    ["clear", "case-1", "--json"], ["clear", "near-end"], ["clear", "near-end", "--json"],
    ["clear", "near-end", "--defender", "greedy"], ["clear", "case-1", "--max-turns", "5"],
    ["clear", "case-3", "--json"], ["clear", "rich", "--json", "--defender", "greedy"],
    ["clear", "bad"], ["clear", "over"],
    ["race", "case-3"], ["race", "case-3", "--json", "--defender", "greedy"],
    ["race", "near-end", "--json"], ["race", "case-1", "--max-turns", "5", "--json"],
    ["race", "bad"],
], ids=lambda argv: " ".join(argv))
def test_client_prints_what_the_local_command_prints(capsys, tmp_path, solver_server, argv):
    command, name, *options = argv
    path = tmp_path / f"{name}.jsonc"
    path.write_text(POSITIONS[name])
    assert_client_prints_what_local_prints(capsys, address(solver_server), "stronghold", command,
                                           str(path), *options)


def test_a_greedy_defenders_moves_come_back_sorted(capsys, tmp_path, solver_server):
    """A proto map keeps no order: the client lists each step's moves by unit id, as the
    library lists an attacker's; a greedy defender's, listed by urgency, are the same
    JSON object in another order."""
    data = {"units": [unit("z", "D", 1), unit("a", "D", 5), unit("p", "A1", 9)]}
    local = fewest_turns(parse(data), POLICIES["greedy"], BUDGET)
    assert local.winner == "attackers"
    assert list(local.plan[0].moves) == ["z", "a"]  # the smallest unit to O1 first
    path = tmp_path / "greedy.json"
    path.write_text(json.dumps(data))
    argv = ("clear", str(path), "--defender", "greedy", "--json")
    code, out, _ = run(capsys, "stronghold", *argv)
    remote = run(capsys, "client", "stronghold", *argv, "--server", address(solver_server))
    assert code == remote[0] == 0
    local_json, remote_json = json.loads(out), json.loads(remote[1])
    assert remote_json.pop("seconds") >= 0 and local_json.pop("seconds") >= 0
    assert remote_json == local_json
    assert list(remote_json["plan"][0]["moves"]) == ["a", "z"]


def test_client_refuses_what_no_field_holds(capsys, tmp_path, solver_server):
    """A Might the file may hold (the reader takes any) but a double cannot, exactly; and
    more turns to search than the request's uint32."""
    path = tmp_path / "huge-might.json"
    path.write_text(json.dumps({**NEAR_END, "units": [unit("a1", "A1", 2**60)]}))
    code, out, err = run(capsys, "client", "stronghold", "clear", str(path),
                         "--server", address(solver_server))
    assert (code, out) == (2, "")
    assert err.startswith("fortress-solver: position cannot be sent to a server: ")
    path.write_text(json.dumps(NEAR_END))
    code, out, err = run(capsys, "client", "stronghold", "race", str(path), "--max-turns",
                         str(2**32), "--server", address(solver_server))
    assert (code, out) == (2, "")
    assert err == ("fortress-solver: --max-turns must be at most 4294967295 for a server, "
                   f"not {2**32}\n")


def test_budget_reaches_the_server(capsys, tmp_path, solver_server):
    path = tmp_path / "case-2.json"
    path.write_text(json.dumps(CASE_2))
    code, out, _ = run(capsys, "client", "stronghold", "race", str(path), "--seconds", "0.2",
                       "--json", "--server", address(solver_server))
    assert code == 0
    answer = json.loads(out)
    assert (answer["defender_first"], answer["turn"], answer["proven"]) == (None, None, False)
    assert answer["seconds"] < 1
