"""Stronghold over gRPC, against a real server on 127.0.0.1: plans (Hint), clears and
races (Solve), bad input, budgets and deadlines, the position message, the log line and
the client commands.

The tests share one module-scoped server (2 workers). Remote answers are compared with
the library's answers for the same position (plans, clears and races are deterministic).
Positions are docs/stronghold.md C.2's JSON: E.2 for plans, E.3's cases 1 and 3 for
clears and races, and a near end (the Stronghold row active) where speed matters (the
shared ones in tests/support/stronghold.py).
"""

from __future__ import annotations

import json
import logging
import random
import time
from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.api import fortress_solver_pb2 as pb
from service.stronghold.messages import POSITIONS as MESSAGES
from service.stronghold.messages import VIEW
from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.stronghold.plan import best_assignment, best_assignment_exact
from solver.stronghold.policies import POLICIES
from solver.stronghold.position import Position
from solver.stronghold.questions import clear, race
from solver.stronghold.rules import begin_turn
from solver.stronghold.search import fewest_turns
from tests.support.cli import assert_client_prints_what_local_prints, run
from tests.support.proto_mutation import mutate
from tests.support.servers import address, connect, rpc_error, running_server
from tests.support.stronghold import CASE_1, E2, NEAR_END, RICH, unit

BUDGET = Budget(seconds=600.0, nodes=None, table_entries=None)  # a guard, never reached

# Case 2: two Might-2 units per attacker: cleared on turn 16, seconds of search.
CASE_2 = {"mode": "1v3", "units": [
    unit("r1", "D", 1, "O1"), unit("r2", "D", 1, "O2"),
    *(unit(f"{p.lower()}{k}", p, 2) for p in ("A1", "A2", "A3") for k in (1, 2))]}
# Case 3: Might-5 defenders on all three: the defender reaches its target on turn 9.
CASE_3 = {"units": [
    unit("x", "D", 5, "O1"), unit("y", "D", 5, "O2"), unit("z", "D", 5, "O3"),
    unit("a", "A1", 2), unit("b", "A2", 2), unit("c", "A3", 2)]}
# Faults the reader names all at once: the rules' ...
BAD = {"mode": "1v3", "units": [
    unit("x", "A1", 2, "I1"), unit("y", "A4", 2), unit("z", "A2", 1), unit("z", "A3", 1)]}
# ... and, before them, the wire schema's (ranges the message's fields go beyond).
BAD_RANGES = {"turn": 0, "units": [unit("x", "A1", 2), unit("z", "A2", 5000)]}
OVER = {**CASE_1, "winner": "defender"}


# 1v3, four units per attacker: the search runs out of time; CP-SAT proves 15 in ~1.5 s.
FOUR_EACH = {"units": [
    *(unit(f"{a}-{k}", a.upper(), might) for a in ("a1", "a2", "a3")
      for k, might in enumerate((2, 2, 1, 1))),
    *(unit(f"d{b}", "D", 3, b) for b in ("O1", "O2", "O3"))]}


def parse(data: dict) -> Position:
    return Position.from_json(data)


def json_source(data: dict) -> pb.PositionSource:
    """The message of a position's JSON, as it is (bad ones too)."""
    return pb.PositionSource(stronghold=MESSAGES.message(data))


def clear_request(data: dict, budget: pb.Budget | None = None, **options) -> pb.SolveRequest:
    """A Solve with StrongholdSolveOptions of `options` (none given: no options message,
    the game's defaults)."""
    chosen = pb.StrongholdSolveOptions(**options) if options else None
    return pb.SolveRequest(position=json_source(data), stronghold=chosen, budget=budget)


def plan_request(data: dict, **options) -> pb.HintRequest:
    """A Hint with StrongholdHintOptions of `options` (none given: no options message)."""
    chosen = pb.StrongholdHintOptions(**options) if options else None
    return pb.HintRequest(position=json_source(data), stronghold=chosen)


def parse_message(data: dict) -> str:
    with pytest.raises(InvalidInput) as caught:
        parse(data)
    return str(caught.value)


def same_stats(remote, local) -> bool:
    """The same search: nodes and table entries (the seconds differ)."""
    return ((remote.nodes, remote.table_entries) == (local.nodes, local.table_entries))


def timeless(message):
    """A typed answer with its search's seconds left out, which differ between runs."""
    copy = type(message)()
    copy.CopyFrom(message)
    (copy.stronghold if isinstance(copy, pb.HintResponse) else copy).stats.seconds = 0
    return copy


def typed(question: str, answer):
    """The typed message of a local answer, as the server makes it."""
    kind = pb.HintResponse if question == "plan" else pb.SolveResponse
    return VIEW.answers[question](kind, answer, None)


# ============================================================================ plans


@pytest.mark.parametrize(("exact", "moves"), [
    (False, {"u1": "O3", "u2": "O3", "u3": "O3", "u4": "O1"}),
    (True, {"u1": "O3", "u2": "O2", "u3": "O2", "u4": "O1"}),
], ids=["bound", "exact"])
def test_plan_is_the_librarys(stub, exact, moves):
    response = stub.Hint(plan_request(E2, exact=exact), timeout=30)
    started = begin_turn(parse(E2))
    local = (best_assignment_exact if exact else best_assignment)(started, BUDGET)
    assert response.status == pb.STATUS_SOLVED and local.status is Status.SOLVED
    assert not response.HasField("move") and not response.HasField("ffk")
    plan = response.stronghold
    assert dict(plan.moves) == moves == local.moves
    assert (plan.cp_status, plan.optimal) == ("OPTIMAL", True)
    assert plan.HasField("objective") and plan.objective.removals == 3
    assert [(f.battlefield, f.controller, f.garrison, f.secure, f.conquerable)
            for f in plan.battlefields] == [
        (f.battlefield, f.controller, f.garrison, f.secure, f.conquerable_now)
        for f in local.battlefields]
    assert timeless(response) == timeless(typed("plan", local))


def test_a_battlefield_nobody_controls_has_no_controller(stub):
    data = {"turn": 2, "units": [unit("u1", "A1", 1), unit("d5", "D", 5, "O1")]}
    plan = stub.Hint(plan_request(data), timeout=30).stronghold
    (o2,) = [f for f in plan.battlefields if f.battlefield == "O2"]
    local = best_assignment(begin_turn(parse(data)), BUDGET)
    assert dict(plan.moves) == local.moves
    expected = next(f for f in local.battlefields if f.battlefield == "O2")
    assert o2.HasField("controller") == (expected.controller is not None)
    assert timeless(stub.Hint(plan_request(data), timeout=30)) == timeless(typed("plan", local))


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
    assert response.status == pb.STATUS_SOLVED and response.optimal
    assert not response.HasField("length") and not response.HasField("turns")
    answer = response.stronghold
    assert (answer.winner, answer.turn, answer.rounds, answer.proven) == ("attackers", 20, 5,
                                                                         True)
    assert not answer.HasField("defender_first")
    assert [(s.turn, s.player, dict(s.moves)) for s in answer.plan] == \
        [(s.turn, s.player, s.moves) for s in local.plan]
    assert timeless(response) == timeless(typed("clear", local))


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
    assert response.status == pb.STATUS_SOLVED and response.optimal
    answer = response.stronghold
    assert answer.HasField("defender_first") and answer.defender_first is first
    assert answer.winner == ("defender" if first else "attackers") and answer.turn == turn
    assert timeless(response) == timeless(typed("race", local))
    cleared = stub.Solve(clear_request(data, defender=defender), timeout=30)
    assert not cleared.stronghold.HasField("defender_first")
    assert cleared.stronghold.winner == answer.winner and cleared.stronghold.plan == answer.plan


@pytest.mark.parametrize("question", ["clear", "race"])
def test_too_few_turns_is_unknown(stub, question):
    response = stub.Solve(clear_request(CASE_1, question=question, max_turns=5), timeout=30)
    local = race(parse(CASE_1), "passive", BUDGET, 5)
    assert local.defender_first is None and local.outcome.winner is None
    assert response.status == pb.STATUS_UNKNOWN and not response.optimal
    answer = response.stronghold
    for field in ("winner", "turn", "rounds", "defender_first"):
        assert not answer.HasField(field), field
    assert not answer.proven and list(answer.plan) == []
    assert same_stats(response.stats, local.outcome.stats)
    assert timeless(response) == timeless(typed("race", local))


def test_request_budget_answers_unknown(stub):
    response = stub.Solve(clear_request(CASE_1, method="search", budget=pb.Budget(nodes=50)),
                          timeout=30)
    assert response.status == pb.STATUS_UNKNOWN and not response.stronghold.HasField("winner")
    assert response.stats.nodes <= 50


def warm_up_cpsat(stub) -> None:
    """A plan on every worker at once: a process imports CP-SAT with its first model
    (about half a second), which no deadline of a search should have to cover."""
    calls = [stub.Hint.future(plan_request(E2), timeout=30) for _ in range(2)]
    assert all(call.result().status == pb.STATUS_SOLVED for call in calls)


@pytest.mark.timing
@pytest.mark.parametrize("method, data", [("search", "CASE_2"), ("cpsat", "FOUR_EACH")])
def test_tiny_deadline_answers_unknown_in_time(stub, method, data):
    warm_up_cpsat(stub)
    started = time.perf_counter()
    response = stub.Solve(clear_request(globals()[data], method=method),
                          timeout=0.5)  # never DEADLINE_EXCEEDED
    elapsed = time.perf_counter() - started
    assert response.status == pb.STATUS_UNKNOWN and not response.optimal
    assert not response.stronghold.HasField("winner")
    assert elapsed < 0.5


def test_an_unknown_method_names_the_choices(stub):
    error = rpc_error(stub.Solve, clear_request(CASE_1, method="guess"))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == "method must be one of cpsat, search, not 'guess'"


@pytest.mark.timing
@pytest.mark.parametrize("method, data", [("search", "CASE_2"), ("cpsat", "FOUR_EACH")])
def test_cancelled_clear_frees_its_worker(method, data):
    """The exhaustive search and CP-SAT both stop when cancelled."""
    with running_server(workers=1, queue=2) as server, connect(server) as client:
        assert client.Hint(plan_request(E2), timeout=30).status == pb.STATUS_SOLVED  # warm
        slow = client.Solve.future(clear_request(globals()[data], method=method))
        time.sleep(0.3)
        assert not slow.done(), "the search should still be running"
        cancelled_at = time.perf_counter()
        assert slow.cancel()
        response = client.Solve(clear_request(NEAR_END), timeout=5)
        elapsed = time.perf_counter() - cancelled_at
    assert response.status == pb.STATUS_SOLVED
    assert elapsed < 0.5


# ============================================================================ bad input


def test_bad_position_is_invalid_argument_naming_every_fault(stub):
    expected = parse_message(BAD)
    for fragment in ("unit 'x' is on I1, which is not in the active row",
                     "unit 'y' belongs to 'A4', who is not playing",
                     "two units are called 'z'"):
        assert fragment in expected
    ranges = parse_message(BAD_RANGES)
    assert ranges == ("turn: must be at least 1, not 0; "
                      "units[1].might: must be at most 1000, not 5000")
    for data, message in ((BAD, expected), (BAD_RANGES, ranges)):
        for call, request in ((stub.Solve, clear_request(data)),
                              (stub.Solve, clear_request(data, question="race")),
                              (stub.Hint, plan_request(data)),
                              (stub.Hint, plan_request(data, exact=True))):
            error = rpc_error(call, request)
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert error.details() == message


def test_a_field_beyond_the_readers_range_is_refused_with_its_path(stub):
    """A message's numbers are uint32: the reader's ranges are narrower, and say so."""
    message = MESSAGES.message(NEAR_END)
    message.units[0].might = 2**32 - 1
    message.turn = 2**32 - 1
    error = rpc_error(stub.Solve, pb.SolveRequest(position=pb.PositionSource(stronghold=message)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == ("turn: must be at most 10000, not 4294967295; "
                               "units[0].might: must be at most 1000, not 4294967295")


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


def test_more_turns_to_look_at_than_the_limit_are_out_of_range(stub):
    for request in (clear_request(NEAR_END, max_turns=1001),
                    clear_request(NEAR_END, question="race", max_turns=2**32 - 1)):
        error = rpc_error(stub.Solve, request)
        assert error.code() == grpc.StatusCode.OUT_OF_RANGE
        assert error.details().startswith("max_turns ") and error.details().endswith(
            " is more than the limit of 1000")


def test_a_far_turn_reads_at_once(stub):
    """The defender's earlier turns are counted in closed form."""
    response = stub.Solve(clear_request({**NEAR_END, "turn": 10_000}, max_turns=1),
                          timeout=10)
    assert response.status == pb.STATUS_UNKNOWN


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


@pytest.mark.parametrize("data", [E2, CASE_1, CASE_3, NEAR_END, RICH],
                         ids=["e2", "case-1", "case-3", "near-end", "rich"])
def test_position_round_trip(data):
    """Through the message and back, as the file or written out: the same position; and a
    message's JSON holds the fields it sets, no more."""
    position = parse(data)
    sent = pb.PositionSource.FromString(json_source(data).SerializeToString()).stronghold
    assert MESSAGES.json(sent) == data
    assert MESSAGES.read(sent) == position
    full = pb.StrongholdPosition.FromString(MESSAGES.write(position).SerializeToString())
    assert MESSAGES.read(full) == position
    assert MESSAGES.source(position).stronghold == full


def test_a_message_sets_only_what_the_json_holds():
    message = MESSAGES.message({"units": [unit("a", "A1", 2, ready=False)]})
    assert not message.HasField("turn") and not message.HasField("grid")
    assert not message.units[0].HasField("loc") and message.units[0].HasField("ready")
    assert MESSAGES.json(message) == {"units": [unit("a", "A1", 2, ready=False)]}
    assert MESSAGES.json(pb.StrongholdPosition()) == {}


@pytest.mark.parametrize("value", [-1, 2**32, "seven", 2.5, [1]])
def test_a_value_no_field_holds_is_refused(value):
    with pytest.raises(InvalidInput, match="position cannot be sent to a server"):
        MESSAGES.message({"turn": value})
    with pytest.raises(InvalidInput, match="position cannot be sent to a server"):
        MESSAGES.message({"units": [unit("a", "A1", 2, speed=value)]})
    assert MESSAGES.message({"turn": 2**32 - 1}).turn == 2**32 - 1


# ============================================================================ options


def test_options_of_another_game_are_refused(stub):
    for call, request in (
            (stub.Solve, pb.SolveRequest(position=json_source(NEAR_END),
                                         farbduell=pb.FarbduellSolveOptions(turns=2))),
            (stub.Hint, pb.HintRequest(position=json_source(E2),
                                       ffkingdom=pb.FfkHintOptions(worlds=2)))):
        error = rpc_error(call, request)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error.details().startswith("options are for ")
        assert error.details().endswith(", but the position is stronghold")


def test_a_method_in_the_options_is_checked(stub):
    error = rpc_error(stub.Solve, pb.SolveRequest(
        position=json_source(NEAR_END), stronghold=pb.StrongholdSolveOptions(method="guess")))
    assert error.details() == "method must be one of cpsat, search, not 'guess'"


# ============================================================================ the client


POSITIONS = {
    "e2": "{ // docs/stronghold.md E.2, with a comment\n" + json.dumps(E2)[1:],
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
    """A greedy defender's moves, listed by urgency, come back in the library's order:
    the client reads the answer's JSON, not the typed message's map, which keeps none."""
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
    assert list(remote_json["plan"][0]["moves"]) == ["z", "a"]


def test_client_refuses_what_no_field_holds(capsys, tmp_path, solver_server):
    """A Might beyond the reader's range is refused before anything is sent, as the local
    command refuses it; and so is more turns to look at than the limit, on both."""
    path = tmp_path / "huge-might.json"
    path.write_text(json.dumps({**NEAR_END, "units": [unit("a1", "A1", 2**60)]}))
    code, out, err = run(capsys, "client", "stronghold", "clear", str(path),
                         "--server", address(solver_server))
    assert (code, out) == (2, "")
    assert err == (f"fortress-solver: units[0].might: must be at most 1000, not {2**60}\n")
    assert run(capsys, "stronghold", "clear", str(path)) == (code, out, err)
    path.write_text(json.dumps(NEAR_END))
    assert run(capsys, "stronghold", "race", str(path), "--max-turns", str(2**32)) == (
        2, "", f"fortress-solver: max_turns {2**32} is more than the limit of 1000\n")
    assert_client_prints_what_local_prints(capsys, address(solver_server), "stronghold",
                                           "race", str(path), "--max-turns", str(2**32))


def test_budget_reaches_the_server(capsys, tmp_path, solver_server):
    path = tmp_path / "case-2.json"
    path.write_text(json.dumps(CASE_2))
    code, out, _ = run(capsys, "client", "stronghold", "race", str(path), "--seconds", "0.2",
                       "--json", "--server", address(solver_server))
    assert code == 0
    answer = json.loads(out)
    assert (answer["defender_first"], answer["turn"], answer["proven"]) == (None, None, False)
    assert answer["seconds"] < 30  # its 0.2 s, not the server's limit of 60 s


# ============================================================================ fuzzing


FUZZ_BUDGET = pb.Budget(seconds=0.2)
# UNIMPLEMENTED: a mutation that clears the position leaves a source of no game.
ANSWERS = (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.OUT_OF_RANGE,
           grpc.StatusCode.UNIMPLEMENTED)
_STRINGS = ["", "A1", "A4", "D", "O1", "I2", "S3", "base", "x y", "attackers", "defender",
            "1v2", "2v2", "race", "clear", "greedy", "search", "cpsat", "9" * 40, "\u00fc"]
_NUMBERS = [0, 1, 2, 3, 5, 9, 13, 100, 1000, 1001, 10_000, 2**32 - 1]


def _scalar(field: FieldDescriptor, rng: random.Random) -> Any:
    if field.type == FieldDescriptor.TYPE_STRING:
        return rng.choice(_STRINGS)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if field.type == FieldDescriptor.TYPE_ENUM:
        return rng.choice([v.number for v in field.enum_type.values])
    if field.type == FieldDescriptor.TYPE_DOUBLE:
        return rng.choice([0.0, 0.1, 1e9])
    return rng.choice(_NUMBERS)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_mutated_messages_get_an_answer_or_invalid_argument(stub, seed):
    """Every field of the position and the options, mutated: never INTERNAL or UNKNOWN."""
    rng = random.Random(seed)
    data = rng.choice([E2, CASE_1, CASE_3, NEAR_END, RICH])
    solve = rng.random() < 0.6
    request = (pb.SolveRequest(position=json_source(data), budget=FUZZ_BUDGET) if solve else
               pb.HintRequest(position=json_source(data), budget=FUZZ_BUDGET))
    if solve and rng.random() < 0.5:
        request.stronghold.max_turns = rng.choice([1, 6, 12])
    for _ in range(rng.choice([1, 1, 2, 3, 5])):
        mutate(request.position.stronghold if rng.random() < 0.85 else request, rng, _scalar)
    request.budget.CopyFrom(FUZZ_BUDGET)
    call = stub.Solve if solve else stub.Hint
    try:
        response = call(request, timeout=20)
    except grpc.RpcError as error:
        assert error.code() in ANSWERS, (request, error.code(), error.details())
        assert error.details() and "\n" not in error.details()
        return
    if request.position.WhichOneof("source") == "stronghold":  # not mutated into another game
        assert response.status in (pb.STATUS_SOLVED, pb.STATUS_UNKNOWN)
