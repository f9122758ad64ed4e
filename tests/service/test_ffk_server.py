"""Fortress Fight Kingdom over gRPC, against real servers on 127.0.0.1: puzzles and
hints, their options messages, bad input, deadlines, cancellation, the position message,
the log line, the client commands, and mutated positions that never get INTERNAL or
UNKNOWN. (The deprecated flat fields: test_deprecated_fields.py.)

Most tests share one module-scoped server (2 workers); the cancellation test gets a
1-worker server of its own. Remote answers are compared with the library's answers for
the same position (searches and hints are deterministic within their budgets).
"""

from __future__ import annotations

import json
import logging
import random
import time

import grpc
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service.api import fortress_solver_pb2 as pb
from service.ffkingdom.messages import POSITIONS
from service.messages import STATUS
from solver.budget import Status
from solver.errors import InvalidInput
from solver.ffkingdom import apply, legal_actions, load, new_game, parse_action
from solver.ffkingdom.hints import HINT_BUDGET, Settings, hint
from solver.ffkingdom.puzzles import solve_puzzle
from tests.support.cli import assert_client_prints_what_local_prints, run
from tests.support.ffkingdom import RULES, TWO_TURNS, WIN_THIS_TURN, view, whole
from tests.support.ffkingdom_strategies import mutated, plausible
from tests.support.servers import address, connect, rpc_error, running_server

OUT_OF_REACH = {"players": [WIN_THIS_TURN["players"][0], {"castle": 30, "wall": 0}]}
NEEDS_A_HAND_AND_DECK = ('turns 2 needs the whole position: give the opponent\'s "hand" '
                         'and the "deck" in order')


def source(data: dict) -> pb.PositionSource:
    return pb.PositionSource(ffkingdom=POSITIONS.message(data))


def puzzle(stub, data: dict, timeout: float = 30, turns: int = 0,
           budget: pb.Budget | None = None) -> pb.SolveResponse:
    request = pb.SolveRequest(position=source(data), budget=budget)
    if turns:
        request.ffkingdom.turns = turns
    return stub.Solve(request, timeout=timeout)


def replay(data: dict, line) -> int | None:
    """The winner after the line's actions."""
    state = load(data, RULES).state
    for step in line:
        assert step.player == state.to_move
        state = apply(state, parse_action(step.action))
    return state.winner


# ============================================================================ puzzles


def test_win_this_turn(stub):
    response = puzzle(stub, WIN_THIS_TURN)
    assert response.status == pb.STATUS_SOLVED
    assert response.optimal
    assert response.HasField("turns") and response.turns == 1
    assert response.HasField("length") and response.length == 3 == len(response.ffk_line)
    actions = [step.action for step in response.ffk_line]
    assert actions[0] == "play doppelzug"
    assert sorted(actions[1:]) == ["play angriff", "play katapult"]
    assert {step.player for step in response.ffk_line} == {0}
    assert replay(WIN_THIS_TURN, response.ffk_line) == 0
    assert list(response.moves) == []
    assert response.stats.nodes > 0


def test_turns_one_is_the_default(stub):
    default, one = puzzle(stub, WIN_THIS_TURN), puzzle(stub, WIN_THIS_TURN, turns=1)
    assert default.ffk_line == one.ffk_line
    assert default.turns == one.turns == 1


@pytest.mark.parametrize("request_", [
    pb.SolveRequest(position=source(WIN_THIS_TURN), farbduell=pb.FarbduellSolveOptions(turns=1)),
    pb.HintRequest(position=source(WIN_THIS_TURN), farbduell=pb.FarbduellHintOptions(worlds=2)),
], ids=["Solve", "Hint"])
def test_another_games_options_are_invalid_argument(stub, request_):
    call = stub.Solve if isinstance(request_, pb.SolveRequest) else stub.Hint
    error = rpc_error(call, request_)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == "options are for farbduell, but the position is " \
                              "fortress-fight-kingdom"


def test_out_of_reach_is_unsolvable(stub):
    response = puzzle(stub, OUT_OF_REACH)
    assert response.status == pb.STATUS_UNSOLVABLE
    assert not response.optimal
    assert not response.HasField("length")
    assert not response.HasField("turns")
    assert list(response.ffk_line) == []


def test_forced_win_within_two_turns(stub):
    response = puzzle(stub, TWO_TURNS, turns=2)
    local = solve_puzzle(load(TWO_TURNS, RULES).state, 2)
    assert local.status is Status.SOLVED and local.turns == 2
    assert response.status == pb.STATUS_SOLVED
    assert response.turns == 2
    assert response.optimal
    assert [(step.player, step.action) for step in response.ffk_line] == \
        [(player, str(action)) for player, action in local.line]
    assert {step.player for step in response.ffk_line} == {0, 1}  # with the defence
    assert response.length == len(response.ffk_line)
    assert replay(TWO_TURNS, response.ffk_line) == 0


@pytest.mark.parametrize("known", ["nothing", "hand", "deck"])
def test_turns_above_one_need_the_whole_position(stub, known):
    data = whole(WIN_THIS_TURN)
    if known != "hand":
        del data["players"][1]["hand"]
    if known != "deck":
        del data["deck"]
    request = pb.SolveRequest(position=source(data), ffkingdom=pb.FfkSolveOptions(turns=2))
    error = rpc_error(stub.Solve, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == NEEDS_A_HAND_AND_DECK


def _load_message(data: dict) -> str:
    with pytest.raises(InvalidInput) as caught:
        load(data, RULES)
    return str(caught.value)


def test_bad_card_is_invalid_argument_with_the_cli_message(stub):
    data = {"players": [{"hand": ["katapullt", "mauer"]}, {"hand": ["drache", "besen"]}]}
    expected = _load_message(data)
    assert "'katapullt'" in expected and "'besen'" in expected
    for call, request in ((stub.Solve, pb.SolveRequest(position=source(data))),
                          (stub.Hint, pb.HintRequest(position=source(data)))):
        error = rpc_error(call, request)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error.details() == expected


def test_every_fault_is_named_as_the_cli_names_it(stub):
    message = pb.FfkPosition(to_move=2, players=[pb.FfkPlayer(castle=1200, locked="wetter"),
                                                 pb.FfkPlayer(wall=2**32 - 1)])
    expected = _load_message(POSITIONS.json(message))
    assert expected == ("to_move: must be at most 1, not 2; "
                        "players[0].castle: must be at most 1000, not 1200; "
                        "players[0].locked: input should be 'bau', 'angriff', 'magie' or "
                        "'gold', not \"wetter\"; "
                        "players[1].wall: must be at most 10000, not 4294967295")
    error = rpc_error(stub.Solve, pb.SolveRequest(position=pb.PositionSource(ffkingdom=message)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == expected


def test_the_card_tables_faults_are_named_as_the_cli_names_them(stub):
    message = pb.FfkPosition(players=[pb.FfkPlayer(castle=120, hand=pb.FfkCards(cards=[])),
                                      pb.FfkPlayer(hand_size=12)])
    expected = _load_message(POSITIONS.json(message))
    assert expected == ("players[0].castle: must be at most 100, the castle that wins, not 120; "
                        "players[1].hand_size: must be at most 9, a full hand, not 12")
    error = rpc_error(stub.Hint, pb.HintRequest(position=pb.PositionSource(ffkingdom=message)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == expected


def test_a_finished_game_is_invalid_argument(stub):
    data = {**WIN_THIS_TURN, "winner": 1}
    error = rpc_error(stub.Solve, pb.SolveRequest(position=source(data)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == "the game is already over: player 1 won"
    error = rpc_error(stub.Hint, pb.HintRequest(position=source(data)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == "the game is over: player 1 won"


# ============================================================================ hints


@pytest.mark.parametrize(("seed", "worlds", "hint_seed"), [(1, 0, 0), (2, 3, 7), (5, 12, 1)])
def test_hint_is_legal_and_the_librarys(stub, seed, worlds, hint_seed):
    data = view(seed)
    request = pb.HintRequest(position=source(data), ffkingdom=pb.FfkHintOptions(
        worlds=worlds, seed=hint_seed))
    response = stub.Hint(request, timeout=30)
    assert response.status == pb.STATUS_SOLVED
    assert not response.HasField("move") and not response.cached
    ffk = response.ffk
    assert ffk.HasField("action") and ffk.HasField("value")
    state = load(data, RULES).state
    legal = {str(action) for action in legal_actions(state)}
    assert ffk.action in legal
    assert ffk.plan[0] == ffk.action
    others = [other.action for other in ffk.runners_up]
    assert ffk.action not in others
    assert len(set(others)) == len(others)
    assert set(others) <= legal
    local = hint(state, HINT_BUDGET, Settings(worlds=worlds or Settings().worlds), hint_seed)
    assert (ffk.action, ffk.value, list(ffk.plan),
            [(other.action, other.win_chance) for other in ffk.runners_up]) == \
        (str(local.action), local.value, [str(action) for action in local.plan],
         [(str(action), chance) for action, chance in local.runners_up])


def test_some_hint_has_runners_up(stub):
    """So that the test above checks runners-up at all."""
    response = stub.Hint(pb.HintRequest(position=source(view(1))), timeout=30)
    assert response.ffk.runners_up


def test_too_many_worlds_is_out_of_range(stub):
    request = pb.HintRequest(position=source(view(1)), ffkingdom=pb.FfkHintOptions(worlds=1001))
    error = rpc_error(stub.Hint, request)
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert "1001" in error.details() and "1000" in error.details()


# ============================================================================ deadlines


@pytest.mark.timing
def test_tiny_deadline_answers_unknown_in_time(stub):
    hard = new_game(RULES, 1).to_json()  # no forced win within 3 turns is found in 20 s
    started = time.perf_counter()
    response = puzzle(stub, hard, timeout=0.3, turns=3)  # never DEADLINE_EXCEEDED
    elapsed = time.perf_counter() - started
    print(f"\n[figure] FFK forced win within 3 turns, timeout=0.3: UNKNOWN after "
          f"{elapsed * 1000:.0f} ms")
    assert response.status == pb.STATUS_UNKNOWN
    assert not response.optimal
    assert not response.HasField("length") and not response.HasField("turns")
    assert elapsed < 0.3
    request = pb.HintRequest(position=source(view(1)),  # about 4 s of work
                             ffkingdom=pb.FfkHintOptions(worlds=1000))
    started = time.perf_counter()
    response = stub.Hint(request, timeout=0.3)
    assert time.perf_counter() - started < 0.3
    assert response.status == pb.STATUS_UNKNOWN
    assert not response.ffk.HasField("action") and not response.ffk.HasField("value")
    assert list(response.ffk.plan) == [] and list(response.ffk.runners_up) == []


def test_request_budget_answers_unknown(stub):
    response = puzzle(stub, new_game(RULES, 1).to_json(), turns=3,
                      budget=pb.Budget(nodes=50))
    assert response.status == pb.STATUS_UNKNOWN
    assert response.stats.nodes <= 50


@pytest.mark.timing
@pytest.mark.parametrize("call", ["Solve", "Hint"])
def test_cancelled_call_frees_its_worker(call):
    requests = {"Solve": pb.SolveRequest(position=source(new_game(RULES, 1).to_json()),
                                         ffkingdom=pb.FfkSolveOptions(turns=3)),
                "Hint": pb.HintRequest(position=source(view(1)),
                                       ffkingdom=pb.FfkHintOptions(worlds=1000))}
    with running_server(workers=1, queue=2) as server, connect(server) as client:
        hard = getattr(client, call).future(requests[call])  # no deadline
        time.sleep(0.3)
        assert not hard.done(), "the search should still be running"
        cancelled_at = time.perf_counter()
        assert hard.cancel()
        response = puzzle(client, WIN_THIS_TURN, timeout=5)
        elapsed = time.perf_counter() - cancelled_at
    print(f"\n[figure] after cancelling an FFK {call}, a puzzle answered in "
          f"{elapsed * 1000:.1f} ms on a 1-worker server")
    assert response.status == pb.STATUS_SOLVED
    assert elapsed < 0.25


# ============================================================================ server


def test_server_info_lists_the_game(stub):
    info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=5)
    (ffk,) = [game for game in info.games if game.name == "fortress-fight-kingdom"]
    assert list(ffk.modes) == ["win-this-turn", "forced-win", "hint"]
    assert list(ffk.algorithms) == []
    assert ffk.max_deal == 0
    assert info.limits.max_worlds == 1000


def test_log_line_names_the_game(stub, caplog):
    with caplog.at_level(logging.INFO, logger="fortress_solver.calls"):
        puzzle(stub, WIN_THIS_TURN)
        stub.Hint(pb.HintRequest(position=pb.PositionSource(beleaguered_deal=1)), timeout=30)
        rpc_error(stub.Hint, pb.HintRequest(position=source({"players": []})))
        stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=5)
    lines = [json.loads(record.getMessage()) for record in caplog.records
             if record.name == "fortress_solver.calls"]
    assert [(line["method"], line["game"], line["status"]) for line in lines] == [
        ("Solve", "fortress-fight-kingdom", "OK"),
        ("Hint", "patience", "OK"),
        ("Hint", "fortress-fight-kingdom", "INVALID_ARGUMENT"),
        ("GetServerInfo", None, "OK"),
    ]


# ============================================================================ the message


def _states(seed: int, every: int = 5) -> list:
    """Every `every`-th state of a game of random legal actions, and its last."""
    rng = random.Random(seed)
    state = new_game(RULES, seed)
    states = [state]
    while state.winner is None:
        state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states[::every] + states[-1:]


@pytest.mark.parametrize("seed", range(8))
def test_state_round_trip(seed):
    for state in _states(seed):
        sent = pb.FfkPosition.FromString(POSITIONS.message(state.to_json()).SerializeToString())
        loaded = POSITIONS.read(sent)
        assert loaded.complete
        assert loaded.state == state


@pytest.mark.parametrize("data", [
    WIN_THIS_TURN, OUT_OF_REACH, view(3),
    {"players": [{"hand": []}, {"hand_size": 4, "locked": "magie", "shields": 1}],
     "deck_size": 65, "discard": ["mauer", "mauer"], "winner": None, "to_move": 0},
    {"players": [{"hand_size": 2, "poison": [{"per": 2, "ticks": 3}]},
                 {"hand": ["katapult"], "heal": [{"per": 1, "ticks": 1}], "double_next": True}],
     "to_move": 1, "round": 7, "first_player": 1, "resource_win": False, "seed": 2**62},
    {"players": [{"hand": ["mauer"], "knows": {"opponent_hand": ["drache", "festung"],
                                               "deck_top": ["troja"]}},
                 {"hand_size": 4, "knows": {"opponent_hand": ["mauer"], "deck_top": []}}]},
], ids=["win-this-turn", "out-of-reach", "a-view", "hand-size", "player-1-to-move", "knows"])
def test_json_round_trip_keeps_what_is_unknown(data):
    """What a client sends is what the file says: the same state, the same parts known."""
    back = load(POSITIONS.json(POSITIONS.message(data)), RULES)
    local = load(data, RULES)
    assert back.state == local.state
    assert (back.opponent_hand_known, back.deck_known) == \
        (local.opponent_hand_known, local.deck_known)


def test_knows_travels_both_ways_and_its_faults_are_named_as_the_cli_names_them(stub):
    data = {"players": [{"hand": ["mauer"], "knows": {"opponent_hand": ["drache"],
                                                      "deck_top": ["troja", "festung"]}},
                        {"hand_size": 3}]}
    message = pb.FfkPosition.FromString(POSITIONS.message(data).SerializeToString())
    assert list(message.players[0].knows.opponent_hand) == ["drache"]
    assert list(message.players[0].knows.deck_top) == ["troja", "festung"]
    assert not message.players[1].HasField("knows")
    back = POSITIONS.read(message).state
    assert back == load(data, RULES).state
    assert back.players[0].knows.opponent_hand == ("drache",)
    assert "drache" in back.players[1].hand and back.deck[:2] == ("troja", "festung")
    wrong = {"players": [{"hand": ["mauer"], "knows": {"opponent_hand": ["drache"]}},
                         {"hand": ["turm"]}]}
    expected = _load_message(wrong)
    assert expected.startswith("players[0].knows.opponent_hand: holds more than players[1]")
    error = rpc_error(stub.Hint, pb.HintRequest(position=source(wrong)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == expected


def test_unknown_and_empty_are_apart():
    empty = whole({"players": [{"hand": []}, {"hand": []}]})
    empty["deck"] = []
    empty["discard"] = list(RULES.deck())
    message = POSITIONS.message(empty)
    assert message.HasField("deck") and list(message.deck.cards) == []
    assert all(player.HasField("hand") for player in message.players)
    unknown = POSITIONS.message({"players": [{"hand": []}, {}]})
    assert not unknown.HasField("deck") and not unknown.players[1].HasField("hand")


def test_puzzle_answer_round_trip(stub):
    local = solve_puzzle(load(TWO_TURNS, RULES).state, 2)
    remote = puzzle(stub, TWO_TURNS, turns=2)
    assert (remote.status, remote.turns, [(step.player, step.action) for step in remote.ffk_line],
            remote.optimal) == \
        (STATUS[local.status], local.turns,
         [(player, str(action)) for player, action in local.line], local.optimal)


# ============================================================================ the client


@pytest.mark.parametrize("argv", [
    ["puzzle", "win"], ["puzzle", "win", "--json"], ["puzzle", "out-of-reach"],
    ["puzzle", "two-turns", "--turns", "2"], ["puzzle", "two-turns", "--turns", "2", "--json"],
    ["puzzle", "win", "--turns", "2"], ["puzzle", "bad-card", "--json"],
    ["hint", "view"], ["hint", "view", "--json", "--worlds", "3", "--seed", "5"],
    ["hint", "win"], ["hint", "bad-card"], ["puzzle", "huge"], ["hint", "huge"],
    ["puzzle", "card-list"], ["hint", "card-list"],
], ids=lambda argv: " ".join(argv))
def test_client_prints_what_the_local_command_prints(capsys, tmp_path, solver_server, argv):
    """Also for the numbers the local command once accepted and the client refused (a
    wall of 10^20, 500 builders, round 10^9), and a card that is a list."""
    huge = {"round": 10**9, "players": [{"wall": 10**20, "builders": 500, "hand": ["mauer"]},
                                        {}]}
    positions = {"win": WIN_THIS_TURN, "out-of-reach": OUT_OF_REACH, "two-turns": TWO_TURNS,
                 "view": view(2), "bad-card": {"players": [{"hand": ["katapullt"]}, {}]},
                 "huge": huge, "card-list": {"players": [{"hand": [["katapult"]]}, {}]}}
    command, name, *options = argv
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(positions[name]))
    assert_client_prints_what_local_prints(capsys, address(solver_server), "ffk", command,
                                           str(path), *options)


def test_a_negative_seed_is_answered_by_a_server_as_here(capsys, tmp_path, solver_server):
    """The client sends its options as JSON, which takes any seed the command takes (the
    typed FfkHintOptions.seed cannot carry one below 0)."""
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view(1)))
    assert_client_prints_what_local_prints(capsys, address(solver_server), "ffk", "hint",
                                           str(path), "--seed", "-1", "--worlds", "2")


def test_budget_reaches_the_server(capsys, tmp_path, solver_server):
    path = tmp_path / "hard.json"
    path.write_text(json.dumps(new_game(RULES, 1).to_json()))
    code, out, _ = run(capsys, "client", "ffk", "puzzle", str(path), "--turns", "3",
                       "--seconds", "0.2", "--json", "--server", address(solver_server))
    assert code == 0
    answer = json.loads(out)
    assert answer["status"] == "unknown"
    assert answer["seconds"] < 30  # its 0.2 s, not the server's limit of 60 s


# ============================================================================ never INTERNAL


def _request(data, rng: random.Random):
    """A Solve or Hint request for a JSON position, or None when the JSON cannot be a
    message at all (a client could not send it)."""
    try:
        position = pb.PositionSource(ffkingdom=POSITIONS.message(data))
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError):
        return None
    budget = pb.Budget(seconds=0.05, nodes=2000)
    if rng.random() < 0.5:
        return pb.SolveRequest(position=position, budget=budget,
                               ffkingdom=pb.FfkSolveOptions(turns=rng.choice([0, 1, 2])))
    return pb.HintRequest(position=position, budget=budget,
                          ffkingdom=pb.FfkHintOptions(worlds=rng.choice([0, 1, 2, 2000]),
                                                      seed=rng.choice([0, 2**64 - 1])))


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=mutated() | plausible(), rng=st.randoms(use_true_random=False))
def test_mutated_positions_get_an_answer_or_invalid_argument(stub, data, rng):
    """Mutations of real positions, and positions whose numbers span their ranges, as a
    client sends them: never INTERNAL or UNKNOWN."""
    request = _request(data, rng)
    assume(request is not None)
    call = stub.Solve if isinstance(request, pb.SolveRequest) else stub.Hint
    try:
        response = call(request, timeout=30)
    except grpc.RpcError as error:
        assert error.code() in (grpc.StatusCode.INVALID_ARGUMENT,
                                grpc.StatusCode.OUT_OF_RANGE), (request, error.details())
    else:
        assert response.status in (pb.STATUS_SOLVED, pb.STATUS_UNSOLVABLE, pb.STATUS_UNKNOWN)


def test_messages_with_any_field_values_get_an_answer_or_invalid_argument(stub):
    """Messages no JSON file gives: every uint32 at its extremes, card ids of any text."""
    rng = random.Random(3)
    texts = ["", "katapult", "mauer", "schild", "bau", "\u0000", "ü" * 300, "play katapult"]
    numbers = [0, 1, 2, 9, 100, 101, 2**31, 2**32 - 1]
    for _ in range(60):
        def player() -> pb.FfkPlayer:
            message = pb.FfkPlayer(**{name: rng.choice(numbers) for name in (
                "castle", "wall", "bricks", "weapons", "crystals", "gold", "builders",
                "shields", "guards", "hand_size") if rng.random() < 0.3})
            if rng.random() < 0.5:
                message.hand.cards.extend(rng.choice(texts) for _ in range(rng.randrange(4)))
            if rng.random() < 0.3:
                message.locked = rng.choice(texts)
            if rng.random() < 0.3:
                message.poison.add(per=rng.choice(numbers), ticks=rng.choice(numbers))
            return message
        message = pb.FfkPosition(players=[player() for _ in range(rng.choice([0, 1, 2, 2, 3]))],
                                 discard=[rng.choice(texts) for _ in range(rng.randrange(3))])
        for name in ("round", "to_move", "actions_left", "winner", "deck_size"):
            if rng.random() < 0.3:
                setattr(message, name, rng.choice(numbers))
        if rng.random() < 0.3:
            message.seed = 2**64 - 1
        request = pb.SolveRequest(position=pb.PositionSource(ffkingdom=message),
                                  budget=pb.Budget(seconds=0.05))
        try:
            stub.Solve(request, timeout=30)
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, (message, error.details())
