"""Farbduell over gRPC, against a real server on 127.0.0.1: chains, puzzles and hints,
bad input, deadlines, the position message, the log line and the client commands.

The tests share one module-scoped server (2 workers). Remote answers are compared with
the library's answers for the same position (chains, puzzles and hints are
deterministic within their budgets).
"""

from __future__ import annotations

import json
import logging
import random
import time

import grpc
import pytest
from hypothesis import HealthCheck, given, settings

from service.api import fortress_solver_pb2 as pb
from service.farbduell.messages import POSITIONS as MESSAGES
from service.messages import STATUS
from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.farbduell.actions import parse_action
from solver.farbduell.chains import best_chain
from solver.farbduell.hints import HINT_BUDGET, Hint, Settings, hint
from solver.farbduell.position import Position
from solver.farbduell.puzzles import solve_puzzle
from solver.farbduell.rules import apply, legal_actions, new_game
from tests.support.cli import assert_client_prints_what_local_prints, run
from tests.support.farbduell import GOES_OUT, TABLES, TWO_TURNS, WILD, view
from tests.support.farbduell_strategies import mutated
from tests.support.servers import address, connect, rpc_error, running_server

CHAIN_BUDGET = Budget(seconds=10.0, nodes=None, table_entries=None)
HARD = new_game(TABLES["classic"], 2, 1).to_json()  # within 20 turns: far beyond a second
BAD_CARD = {"hands": [["red-11", "blue-7"], ["green-1", "purple-3"]], "discard": ["red-9"]}
THREE_SEATS = {"hands": [["red-1"], ["red-2"], ["red-3"]], "discard": ["red-9"]}
CHAIN_OF_CARDS = pb.FarbduellSolveOptions(chain="cards")


def _empty_pile() -> dict:
    """A bomb burning over an empty draw pile: every other card is in the discard."""
    data = Position.from_json(
        {"hands": [["red-1", "green-bomb"], ["blue-2"]], "discard": ["joker"],
         "colour": "green", "fuse": {"size": 6, "count": 1, "skip_next": True}},
        TABLES).to_json()
    data["discard"] = data["draw_pile"] + data["discard"]
    data["draw_pile"] = []
    return data


def _knowing_three_seats() -> dict:
    """Three seats, seat 0 knowing a card of seat 1's, one of an opponent's it cannot
    place, and the draw pile's top and bottom cards."""
    data = Position.from_json({"hands": [["red-1"], ["blue-2", "blue-3"], ["green-4"]],
                               "discard": ["red-9"]}, TABLES).to_json()
    pile = data["draw_pile"]
    data["knows"] = [{"opponent_hand": ["green-4"], "hands": {"1": ["blue-3"]},
                      "deck_top": pile[:1], "deck_bottom": pile[-2:]}, {}, {}]
    return data


def source(data: dict) -> pb.PositionSource:
    return pb.PositionSource(farbduell=MESSAGES.message(data))


def state(data: dict):
    return Position.from_json(data, TABLES)


def solve(stub, data: dict, timeout: float = 30, budget: pb.Budget | None = None,
          **options) -> pb.SolveResponse:
    """Solve with FarbduellSolveOptions of `options` (none given: no options message)."""
    chosen = pb.FarbduellSolveOptions(**options) if options else None
    request = pb.SolveRequest(position=source(data), farbduell=chosen, budget=budget)
    return stub.Solve(request, timeout=timeout)


def hint_request(data: dict, **options) -> pb.HintRequest:
    """A Hint with FarbduellHintOptions of `options` (none given: no options message)."""
    chosen = pb.FarbduellHintOptions(**options) if options else None
    return pb.HintRequest(position=source(data), farbduell=chosen)


def _load_message(data: dict) -> str:
    with pytest.raises(InvalidInput) as caught:
        Position.from_json(data, TABLES)
    return str(caught.value)


# ============================================================================ chains


@pytest.mark.parametrize(("name", "data", "objective"), [
    ("goes-out", GOES_OUT, "cards"), ("goes-out", GOES_OUT, "points"),
    ("wild", WILD, "cards"), ("wild", WILD, "points"),
    ("view", view(3), "cards"), ("view", view(4), "points"),
])
def test_chain_is_the_librarys(stub, name, data, objective):
    response = solve(stub, data, chain=objective)
    local = best_chain(state(data), objective, CHAIN_BUDGET)
    assert response.status == pb.STATUS_SOLVED and local.status is Status.SOLVED
    assert response.optimal == local.optimal
    assert response.HasField("goes_out") and response.goes_out == local.goes_out
    assert response.HasField("points") and response.points == local.points
    assert response.HasField("length") and response.length == local.cards
    mover = state(data).to_move
    assert [(step.player, step.action) for step in response.farbduell_line] == \
        [(mover, str(play)) for play in local.plays]
    assert [(step.card, step.colour) for step in response.farbduell_line] == \
        [(str(play.card), play.colour or "") for play in local.plays]
    assert not response.HasField("turns") and list(response.moves) == []


def test_chain_goes_out_and_a_wild_names_a_colour(stub):
    response = solve(stub, GOES_OUT, chain="cards")
    assert response.goes_out and response.length == 3
    assert [step.action for step in response.farbduell_line] == [
        "play red-skip", "play blue-skip", "play blue-7"]
    response = solve(stub, WILD, chain="cards")
    assert not response.goes_out
    assert [(step.card, step.colour) for step in response.farbduell_line] == [
        ("red-skip", ""), ("joker", "red")]
    assert response.farbduell_line[-1].action == "play joker red"


@pytest.mark.parametrize(("data", "objective", "problem"), [
    (THREE_SEATS, "cards", "a chain needs a two-player position, not 3 players"),
    (GOES_OUT, "speed", "objective must be one of cards, points, not 'speed'"),
    ({**GOES_OUT, "winner": 1}, "cards", "the game is over: player 1 won"),
])
def test_chain_refusals_are_the_librarys(stub, data, objective, problem):
    with pytest.raises(InvalidInput) as caught:
        best_chain(state(data), objective, CHAIN_BUDGET)
    assert str(caught.value) == problem
    error = rpc_error(stub.Solve, pb.SolveRequest(
        position=source(data), farbduell=pb.FarbduellSolveOptions(chain=objective)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == problem


# ============================================================================ puzzles


def test_win_this_turn(stub):
    response = solve(stub, GOES_OUT)
    assert response.status == pb.STATUS_SOLVED and response.optimal
    assert response.turns == 1 and response.length == 3 == len(response.farbduell_line)
    assert [step.action for step in response.farbduell_line] == [
        "play red-skip", "play blue-skip", "play blue-7"]
    assert not response.HasField("goes_out") and not response.HasField("points")
    assert solve(stub, GOES_OUT, turns=1).farbduell_line == response.farbduell_line


def test_forced_win_within_two_turns_is_the_librarys(stub):
    one = solve(stub, TWO_TURNS)
    assert one.status == pb.STATUS_UNSOLVABLE and not one.optimal
    assert not one.HasField("turns") and not one.HasField("length")
    assert list(one.farbduell_line) == []
    response = solve(stub, TWO_TURNS, turns=2)
    local = solve_puzzle(state(TWO_TURNS), 2)
    assert local.status is Status.SOLVED and local.turns == 2
    assert response.status == pb.STATUS_SOLVED and response.optimal and response.turns == 2
    assert [(step.player, step.action) for step in response.farbduell_line] == \
        [(seat, str(action)) for seat, action in local.line]
    assert {step.player for step in response.farbduell_line} == {0, 1}  # with the defence
    assert response.length == len(local.line)
    assert response.stats.nodes == local.stats.nodes
    replayed = state(TWO_TURNS)
    for step in response.farbduell_line:
        assert step.player == replayed.to_move
        replayed = apply(replayed, parse_action(step.action, replayed.table))
    assert replayed.winner == 0


def test_a_finished_game_is_invalid_argument(stub):
    data = {**GOES_OUT, "winner": 1}
    error = rpc_error(stub.Solve, pb.SolveRequest(position=source(data)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == "the game is already over: player 1 won"
    error = rpc_error(stub.Hint, pb.HintRequest(position=source(data)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == "the game is over: player 1 won"


# ============================================================================ hints


def carried(response: pb.HintResponse) -> tuple:
    """What a hint's typed message says: its status, action, value and runners-up."""
    advice = response.farbduell
    return (response.status, advice.action, advice.value,
            [(other.action, other.value) for other in advice.runners_up])


def typed(local: Hint) -> tuple:
    """The library's hint as its typed message carries it."""
    return (STATUS[local.status], str(local.action), local.value or 0.0,
            [(str(action), value) for action, value in local.runners_up])


@pytest.mark.parametrize(("seed", "worlds", "hint_seed"), [(1, 0, 0), (2, 3, 7), (5, 20, 1)])
def test_hint_is_legal_and_the_librarys(stub, seed, worlds, hint_seed):
    data = view(seed)
    response = stub.Hint(hint_request(data, worlds=worlds, seed=hint_seed), timeout=30)
    assert response.status == pb.STATUS_SOLVED
    assert not response.HasField("move") and not response.HasField("ffk")
    advice = response.farbduell
    assert advice.HasField("action") and advice.HasField("value")
    legal = {str(action) for action in legal_actions(state(data))}
    others = [other.action for other in advice.runners_up]
    assert advice.action in legal and advice.action not in others
    assert set(others) <= legal and len(set(others)) == len(others) == len(legal) - 1
    local = hint(state(data), HINT_BUDGET, Settings(worlds=worlds or Settings().worlds),
                 hint_seed)
    assert carried(response) == typed(local)


def test_a_single_legal_action_has_no_value(stub):
    data = {"hands": [["blue-1"], ["green-1"]], "discard": ["red-9"]}  # nothing playable
    response = stub.Hint(pb.HintRequest(position=source(data)), timeout=30)
    assert response.status == pb.STATUS_SOLVED
    assert response.farbduell.action == "draw"
    assert not response.farbduell.HasField("value")
    assert list(response.farbduell.runners_up) == []


def test_too_many_worlds_is_out_of_range(stub):
    error = rpc_error(stub.Hint, hint_request(view(1), worlds=1001))
    assert error.code() == grpc.StatusCode.OUT_OF_RANGE
    assert error.details() == "worlds 1001 is more than the limit of 1000"


# ============================================================================ options


@pytest.mark.parametrize(("call", "message"), [
    ("Solve", pb.SolveRequest(position=source(GOES_OUT), ffkingdom=pb.FfkSolveOptions(turns=1))),
    ("Solve", pb.SolveRequest(position=source(GOES_OUT),
                              stronghold=pb.StrongholdSolveOptions(question="race"))),
    ("Hint", pb.HintRequest(position=source(GOES_OUT), ffkingdom=pb.FfkHintOptions(worlds=2))),
], ids=["solve-ffkingdom", "solve-stronghold", "hint-ffkingdom"])
def test_another_games_options_are_invalid_argument(stub, call, message):
    error = rpc_error(getattr(stub, call), message)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == (f"options are for {message.WhichOneof('options')}, but the "
                               "position is farbduell")


# ============================================================================ bad input


def test_bad_card_is_invalid_argument_naming_it(stub):
    expected = _load_message(BAD_CARD)
    assert "'red-11'" in expected and "'purple-3'" in expected
    for call, request in ((stub.Solve, pb.SolveRequest(position=source(BAD_CARD))),
                          (stub.Solve, pb.SolveRequest(position=source(BAD_CARD),
                                                       farbduell=CHAIN_OF_CARDS)),
                          (stub.Hint, pb.HintRequest(position=source(BAD_CARD)))):
        error = rpc_error(call, request)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error.details() == expected


def test_every_fault_is_named_as_the_cli_names_it(stub):
    """The table's checks name every fault at once; a fault of the schema (a direction
    of 2) is named before them, as the command line names it too."""
    message = pb.FarbduellPosition(
        hands=[pb.FarbduellCards(cards=["red-1"]), pb.FarbduellCards(cards=["red-1"])],
        discard=["red-1"], to_move=2, pending=2, colour="pink", side="night")
    expected = _load_message(MESSAGES.json(message))
    for fragment in ("red-1 3 times", "to_move", "pending and pending_kind",
                     "colour must be", "unknown field 'side'"):
        assert fragment in expected
    error = rpc_error(stub.Solve, pb.SolveRequest(position=pb.PositionSource(farbduell=message)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == expected
    message.direction = 2
    expected = _load_message(MESSAGES.json(message))
    assert expected.startswith("direction: ")
    error = rpc_error(stub.Hint, pb.HintRequest(position=pb.PositionSource(farbduell=message)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == expected


def test_a_bad_knowledge_is_invalid_argument_naming_it(stub):
    data = {**GOES_OUT, "knows": [{"opponent_hand": ["green-2"]}, {"deck_top": ["red-9"]}]}
    expected = _load_message(data)
    assert "knows[0].opponent_hand: green-2 is known once" in expected
    assert "knows[1].deck_top must be the top of the draw pile" in expected
    error = rpc_error(stub.Hint, pb.HintRequest(position=source(data)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == expected


def test_a_hint_reads_what_the_mover_knows_and_without_it_knows_nothing(stub):
    """The opponent's hand known (the draw pile ran out): the library's hint, sent and
    answered; the same position without `knows` is hinted as the knowledge-blind hint."""
    rng, game = random.Random(2), new_game(TABLES["classic"], 2, 2)
    while game.draw_pile or game.winner is not None or not game.knows[game.to_move].hands[
            1 - game.to_move]:
        game = new_game(TABLES["classic"], 2, rng.randrange(10**6)) if game.winner \
            is not None else apply(game, rng.choice(legal_actions(game)))
    data = game.to_json()
    blind = {key: value for key, value in data.items() if key != "knows"}
    for sent, asked in ((data, Settings()), (blind, Settings(knowing=False))):
        response = stub.Hint(hint_request(sent, seed=5), timeout=30)
        local = hint(state(sent), HINT_BUDGET, asked, 5)
        assert carried(response) == typed(local)


def test_tag_nacht_hint_is_the_librarys_and_its_chain_is_refused(stub):
    data = new_game(TABLES["tag_nacht"], 2, 1).to_json()
    response = stub.Hint(hint_request(data, seed=3), timeout=30)
    local = hint(state(data), HINT_BUDGET, Settings(), 3)
    assert response.farbduell.HasField("action")
    assert carried(response) == typed(local)
    error = rpc_error(stub.Solve, pb.SolveRequest(position=source(data),
                                                  farbduell=CHAIN_OF_CARDS))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "go-out chains are for the one-faced tables" in error.details()


# ============================================================================ fuzzing


ANSWERED_OR_REFUSED = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT,
                       grpc.StatusCode.OUT_OF_RANGE}


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutated())
def test_mutated_positions_are_answered_or_invalid_argument(stub, data):
    """Whatever a message can hold gives an answer or INVALID_ARGUMENT, never INTERNAL."""
    try:
        position = source(data)
    except (TypeError, ValueError, AttributeError):  # a value no field of the message holds
        return
    budget = pb.Budget(seconds=0.3, nodes=300)
    calls = [(stub.Solve, pb.SolveRequest(position=position, budget=budget,
                                          farbduell=pb.FarbduellSolveOptions(turns=2))),
             (stub.Solve, pb.SolveRequest(position=position, budget=budget,
                                          farbduell=pb.FarbduellSolveOptions(chain="cards"))),
             (stub.Hint, pb.HintRequest(position=position, budget=budget,
                                        farbduell=pb.FarbduellHintOptions(worlds=2)))]
    for call, request in calls:
        try:
            response = call(request, timeout=30)
        except grpc.RpcError as error:
            assert error.code() in ANSWERED_OR_REFUSED, (error.code(), error.details())
        else:
            assert response.status in (pb.STATUS_SOLVED, pb.STATUS_UNSOLVABLE, pb.STATUS_UNKNOWN)


# ============================================================================ deadlines


@pytest.mark.timing
def test_tiny_deadline_answers_unknown_in_time(stub):
    started = time.perf_counter()
    response = solve(stub, HARD, timeout=0.3, turns=20)  # never DEADLINE_EXCEEDED
    elapsed = time.perf_counter() - started
    print(f"\n[figure] Farbduell forced win within 20 turns, timeout=0.3: UNKNOWN after "
          f"{elapsed * 1000:.0f} ms")
    assert response.status == pb.STATUS_UNKNOWN and not response.optimal
    assert not response.HasField("length") and not response.HasField("turns")
    assert elapsed < 0.3


def test_request_budget_answers_unknown(stub):
    response = solve(stub, HARD, turns=20, budget=pb.Budget(nodes=50))
    assert response.status == pb.STATUS_UNKNOWN
    assert response.stats.nodes <= 50
    response = stub.Hint(pb.HintRequest(position=source(view(1)), budget=pb.Budget(nodes=3)),
                         timeout=30)
    assert response.status == pb.STATUS_UNKNOWN
    assert not response.farbduell.HasField("action")
    assert not response.farbduell.HasField("value")


@pytest.mark.timing
def test_cancelled_puzzle_frees_its_worker():
    with running_server(workers=1, queue=2) as server, connect(server) as client:
        hard = client.Solve.future(pb.SolveRequest(
            position=source(HARD), farbduell=pb.FarbduellSolveOptions(turns=20)))
        time.sleep(0.3)
        assert not hard.done(), "the search should still be running"
        cancelled_at = time.perf_counter()
        assert hard.cancel()
        response = solve(client, GOES_OUT, timeout=5)
        elapsed = time.perf_counter() - cancelled_at
    assert response.status == pb.STATUS_SOLVED
    assert elapsed < 0.25


# ============================================================================ server


def test_server_info_lists_the_game(stub):
    info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=5)
    (game,) = [game for game in info.games if game.name == "farbduell"]
    assert list(game.modes) == ["forced-win", "chain", "hint"]
    assert list(game.algorithms) == [] and game.max_deal == 0


def test_log_line_names_the_game(stub, caplog):
    with caplog.at_level(logging.INFO, logger="fortress_solver.calls"):
        solve(stub, GOES_OUT, chain="cards")
        stub.Hint(pb.HintRequest(position=source(GOES_OUT)), timeout=30)
        rpc_error(stub.Solve, pb.SolveRequest(position=source(BAD_CARD)))
    lines = [json.loads(record.getMessage()) for record in caplog.records
             if record.name == "fortress_solver.calls"]
    assert [(line["method"], line["game"], line["status"]) for line in lines] == [
        ("Solve", "farbduell", "OK"), ("Hint", "farbduell", "OK"),
        ("Solve", "farbduell", "INVALID_ARGUMENT"),
    ]


# ============================================================================ the message


def _played(table: str, seeds: range) -> list:
    """Every state of games of random legal actions on `table`, two and three seats."""
    states = []
    for seed in seeds:
        rng = random.Random(seed)
        game = new_game(TABLES[table], 2 + seed % 2, seed)
        states.append(game)
        while game.winner is None:
            game = apply(game, rng.choice(legal_actions(game)))
            states.append(game)
    return states


def _round_trip(states, every: int = 20) -> list:
    """Every `every`-th state and every rarer one (a colour to name, a hunt, a fuse) sent
    through the message and loaded back; the states checked."""
    checked = [each for k, each in enumerate(states)
               if k % every == 0 or not each.colour or each.hunt_colour or each.fuse]
    for each in checked:
        sent = pb.FarbduellPosition.FromString(MESSAGES.write(each).SerializeToString())
        assert MESSAGES.read(sent) == each
    return checked


def test_tag_nacht_round_trip():
    """States of six random Tag & Nacht games come back the same, among them the night
    side, a wound clock, a waiting hunt, a drawn card and a colour to be named."""
    states = _round_trip(_played("tag_nacht", range(6)))
    assert any(each.side == "night" for each in states)
    assert any(each.clock is not None for each in states)
    assert any(each.hunt_colour is not None for each in states)
    assert any(each.drawn is not None for each in states)
    assert any(each.colour == "" for each in states)
    message = MESSAGES.write(next(each for each in states if each.colour == ""))
    assert message.HasField("colour") and message.colour == ""


@pytest.mark.parametrize("table", ["classic", "belagerung"])
def test_one_sided_round_trip(table):
    states = _round_trip(_played(table, range(2)), every=5)
    assert any(each.fuse is not None for each in states) == (table == "classic")
    assert any(each.pending for each in states)
    assert any(each.drawn is not None for each in states)
    assert not MESSAGES.write(states[0]).HasField("side")  # refused on these tables


@pytest.mark.parametrize("data", [
    GOES_OUT, WILD, TWO_TURNS, view(3),
    {"table": "belagerung", "hands": [["red-1"], ["blue-2"], []], "discard": ["blue-draw2"],
     "pending": 4, "pending_kind": "draw2", "shields": [0, 1, 0], "to_move": 1,
     "direction": -1, "seed": 2**62, "winner": None, "drawn": None},
    _empty_pile(),
    {"table": "tag_nacht", "hands": [["red-1/pink-1"], ["blue-2/teal-2"]],
     "discard": ["red-3/joker"], "colour": None, "side": "night", "clock": None},
    {"table": "tag_nacht", "hands": [["red-1/pink-1"], ["blue-2/teal-2"]],
     "discard": ["yellow-3/joker"], "colour": "orange", "side": "night",
     "pending": 1, "pending_kind": "hunt", "hunt_colour": "orange",
     "clock": {"count": 2, "skip_next": False}},
    {**GOES_OUT, "knows": [{"opponent_hand": ["green-1"]}, {}]},
    _knowing_three_seats(),
    {"table": "tag_nacht", "hands": [["red-1/pink-1"], ["blue-2/teal-2"]],
     "discard": ["yellow-3/joker"],
     "knows": [{"own_hand": ["red-1/pink-1"]}, {"opponent_hand": ["red-1/pink-1"]}]},
], ids=["goes-out", "wild", "two-turns", "a-deal", "belagerung-stack", "fuse-empty-pile",
        "colour-to-name", "hunt-and-clock", "knows", "knows-three-seats", "knows-tag-nacht"])
def test_json_round_trip(data):
    """What a client sends is what the file says: the same state, the draw pile left out
    when the file leaves it out."""
    sent = MESSAGES.message(data)
    assert sent.HasField("draw_pile") == ("draw_pile" in data)
    assert Position.from_json(MESSAGES.json(sent), TABLES) == Position.from_json(data, TABLES)


def test_colour_left_out_and_colour_to_be_named_are_apart():
    top = {"table": "tag_nacht", "hands": [["red-1/pink-1"], ["blue-2/teal-2"]],
           "discard": ["joker/purple-flip"]}
    named = MESSAGES.message({**top, "colour": None})
    assert named.HasField("colour") and named.colour == ""
    assert Position.from_json(MESSAGES.json(named), TABLES).colour == ""
    left_out = MESSAGES.message(top)
    assert not left_out.HasField("colour")
    assert "colour" not in MESSAGES.json(left_out)


def test_actions_parse_back():
    for each in _played("tag_nacht", range(1))[::7] + _played("belagerung", range(1))[::7]:
        for action in legal_actions(each):
            assert parse_action(str(action), each.table) == action
    with pytest.raises(InvalidInput, match="'pass' is not a Farbduell action"):
        parse_action("pass", TABLES["classic"])


# ============================================================================ the client


POSITIONS = {
    "goes-out": GOES_OUT, "wild": WILD, "two-turns": TWO_TURNS, "hard": HARD,
    "view": view(2), "bad-card": BAD_CARD, "three-seats": THREE_SEATS,
    "over": {**GOES_OUT, "winner": 0},
    "tag-nacht": new_game(TABLES["tag_nacht"], 2, 1).to_json(),
}


@pytest.mark.parametrize("argv", [
    ["chain", "goes-out"], ["chain", "goes-out", "--json"], ["chain", "wild"],
    ["chain", "wild", "--objective", "points", "--json"], ["chain", "view"],
    ["chain", "three-seats"], ["chain", "bad-card"], ["chain", "tag-nacht"],
    ["puzzle", "goes-out"], ["puzzle", "two-turns"], ["puzzle", "two-turns", "--turns", "2"],
    ["puzzle", "two-turns", "--turns", "2", "--json"], ["puzzle", "over"],
    ["puzzle", "hard", "--turns", "20", "--nodes", "40"],
    ["hint", "view"], ["hint", "view", "--json", "--worlds", "3", "--seed", "5"],
    ["hint", "goes-out"], ["hint", "over", "--json"], ["hint", "bad-card"],
], ids=lambda argv: " ".join(argv))
def test_client_prints_what_the_local_command_prints(capsys, tmp_path, solver_server, argv):
    command, name, *options = argv
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(POSITIONS[name]))
    assert_client_prints_what_local_prints(capsys, address(solver_server), "farbduell", command,
                                           str(path), *options)


def test_a_negative_seed_is_answered_by_a_server_as_here(capsys, tmp_path, solver_server):
    """The client sends its options as JSON, which takes any seed the command takes (the
    typed FarbduellHintOptions.seed cannot carry one below 0)."""
    path = tmp_path / "view.json"
    path.write_text(json.dumps(view(1)))
    assert_client_prints_what_local_prints(capsys, address(solver_server), "farbduell", "hint",
                                           str(path), "--seed", "-1", "--worlds", "2")


def test_client_refuses_what_no_field_holds(capsys, tmp_path, solver_server):
    """A seed no message could hold is refused before anything is sent, as locally."""
    path = tmp_path / "negative-seed.json"
    path.write_text(json.dumps({**GOES_OUT, "seed": -3}))
    code, out, err = run(capsys, "client", "farbduell", "chain", str(path),
                         "--server", address(solver_server))
    assert (code, out) == (2, "")
    assert err == "fortress-solver: seed: must be at least 0, not -3\n"
    assert_client_prints_what_local_prints(capsys, address(solver_server), "farbduell", "chain",
                                           str(path))


def test_budget_reaches_the_server(capsys, tmp_path, solver_server):
    path = tmp_path / "hard.json"
    path.write_text(json.dumps(HARD))
    code, out, _ = run(capsys, "client", "farbduell", "puzzle", str(path), "--turns", "20",
                       "--seconds", "0.2", "--json", "--server", address(solver_server))
    assert code == 0
    answer = json.loads(out)
    assert answer["status"] == "unknown"
    assert answer["seconds"] < 30  # its 0.2 s, not the server's limit of 60 s
