"""One way to ask every game: `fortress-solver ask GAME QUESTION`, and `QuestionOptions`
on a server, for every game of `games()` and every question its descriptor has, the
built-in games' typed options and answers aside. GameInfo lists the questions."""

from __future__ import annotations

import dataclasses
import json
import logging
from itertools import accumulate

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.generic.commands import default_question, options_from_json
from service.generic.handler import _options_schema
from solver.beleaguered import Move, apply, deal, legal_moves, solve
from solver.budget import Budget
from solver.errors import InvalidInput
from solver.games import find_game, games
from tests.support.cli import assert_one_line_error, run, run_json, timeless
from tests.support.ffkingdom import position as ffk_position
from tests.support.ffkingdom import rest_of_deck
from tests.support.seeds import own_positions
from tests.support.servers import address
from tests.support.stronghold import NEAR_END

ASKED = [(game, question) for game in games() for question in game.questions]


def test_the_server_lists_every_question_of_every_game_with_its_options_schema(stub):
    info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=30)
    assert [listed.name for listed in info.games] == [game.name for game in games()]
    for listed, game in zip(info.games, games(), strict=True):
        assert [(q.name, q.summary) for q in listed.questions] == \
            [(q.name, q.summary) for q in game.questions]
        for shown, question in zip(listed.questions, game.questions, strict=True):
            schema = json.loads(shown.options_schema)
            assert set(schema.get("properties", {})) == \
                {field.name for field in dataclasses.fields(question.options)}


def test_an_options_schema_says_what_its_options_refuse():
    """Every bound and choice an options schema gives is the one its options keep: a
    value past it is refused in a line naming the option, the value at it taken."""
    checked = 0
    for game in games():
        for question in game.questions:
            schema = json.loads(_options_schema(question))
            for name, said in schema["properties"].items():
                assert said.get("description"), (game.name, question.name, name)
                for key, step in (("minimum", -1), ("maximum", 1)):
                    if key in said:
                        checked += 1
                        options_from_json(question, json.dumps({name: said[key]}))
                        with pytest.raises(InvalidInput, match=name):
                            options_from_json(question, json.dumps({name: said[key] + step}))
                for choice in said.get("enum", []):
                    options_from_json(question, json.dumps({name: choice}))
                if "enum" in said:
                    checked += 1
                    with pytest.raises(InvalidInput, match=name):
                        options_from_json(question, json.dumps({name: "no-such-choice"}))
    assert checked >= 8  # worlds and turns of the duels, Stronghold's turns and choices


# JSON values of other types than each of the schema's, that a lax reader would coerce
OTHER_TYPES = {"integer": ['"3"', "true", "3.0"], "boolean": ['"yes"', "1", '"true"', "0"],
               "number": ['"3.5"', "true"], "string": ["3", "true"]}


def test_an_option_of_another_type_than_its_schema_says_is_refused_naming_it():
    """Options are read strictly, as their schema types them: "yes" and 1 are no
    boolean, "3" and true no integer; and a key the schema does not name is refused."""
    checked = 0
    for game in games():
        for question in game.questions:
            schema = json.loads(_options_schema(question))
            assert schema["additionalProperties"] is False
            with pytest.raises(InvalidInput, match="options.no_such_option"):
                options_from_json(question, json.dumps({"no_such_option": 1}))
            for name, said in schema["properties"].items():
                typed = said if "type" in said else \
                    schema["$defs"][said["$ref"].rpartition("/")[2]]
                for value in OTHER_TYPES[typed["type"]]:
                    checked += 1
                    with pytest.raises(InvalidInput, match=f"options.{name}: "):
                        options_from_json(question, f'{{"{name}": {value}}}')
    assert checked >= 40


@pytest.mark.parametrize(("game", "question"), ASKED,
                         ids=[f"{game.name}-{question.name}" for game, question in ASKED])
def test_every_question_of_every_game_is_answered_by_a_server_as_here(
        capsys, caplog, tmp_path, solver_server, game, question):
    """The answer_json of a server is what the command prints, timings aside; a question
    that cannot be asked of the position is refused in the same one line. The client
    asks through Hint the question a Hint asks by default, through Solve any other (the
    RPC its typed request used): the server's log line and metrics say so."""
    rpc = "Hint" if default_question(game, "hint") is question else "Solve"
    for number, position in enumerate(own_positions(game)[:2]):
        path = tmp_path / f"{number}.json"
        path.write_text(json.dumps(position))
        asked = ("ask", game.name, question.name, str(path), "--seconds", "60")
        local = run(capsys, *asked)
        with caplog.at_level(logging.INFO, logger="fortress_solver.calls"):
            remote = run(capsys, "client", *asked, "--server", address(solver_server))
        assert local[0] in (0, 2), local
        assert (remote[0], timeless(remote[1]), remote[2]) == \
            (local[0], timeless(local[1]), local[2])
    calls = [json.loads(record.getMessage()) for record in caplog.records
             if record.name == "fortress_solver.calls"]
    assert {(line["method"], line["game"]) for line in calls} == {(rpc, game.name)}


def test_the_patience_questions_reach_what_only_typed_options_did(stub):
    """`grade` was reachable only through BeleagueredHintOptions.all_moves."""
    request = pb.HintRequest(position=pb.PositionSource(beleaguered_deal=2),
                             question_options=pb.QuestionOptions(question="grade"),
                             budget=pb.Budget(seconds=60))
    graded = json.loads(stub.Hint(request, timeout=120).answer_json)
    typed = stub.Hint(pb.HintRequest(position=pb.PositionSource(beleaguered_deal=2),
                                     beleaguered=pb.BeleagueredHintOptions(all_moves=True),
                                     budget=pb.Budget(seconds=60)), timeout=120)
    assert graded["status"] == "solved"
    assert sorted(item["moves_left"] for item in graded["all_moves"]
                  if item["moves_left"] is not None) == \
        sorted(item.moves_left for item in typed.all_moves if item.HasField("moves_left"))


@pytest.mark.parametrize(("position", "question", "options", "code", "words"), [
    ("fortress-fight-kingdom", "hint", '{"worlds": 5000}',
     grpc.StatusCode.OUT_OF_RANGE, "worlds 5000 is more than the limit of 1000"),
    ("farbduell", "hint", '{"worlds": 0}',
     grpc.StatusCode.INVALID_ARGUMENT, "worlds must be at least 1, got 0"),
    ({"game": "stronghold", **NEAR_END, "winner": "attackers"}, "clear", "",
     grpc.StatusCode.INVALID_ARGUMENT, "the game is over: the attackers won"),
    ({"game": "stronghold", **NEAR_END}, "clear", '{"defender": "lazy"}',
     grpc.StatusCode.INVALID_ARGUMENT, "defender must be one of"),
], ids=["worlds-above-the-cap", "no-worlds", "game-over", "unknown-defender"])
def test_what_a_question_cannot_take_is_refused_in_its_own_words(
        stub, position, question, options, code, words):
    """A position given by its game's name is that game's first own position."""
    if isinstance(position, str):
        position = own_positions(find_game(position))[0]
    source = pb.PositionSource(json=json.dumps(position))
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(pb.SolveRequest(position=source, question_options=pb.QuestionOptions(
            question=question, options=options)), timeout=60)
    assert (caught.value.code(), words in caught.value.details()) == (code, True), \
        caught.value.details()


def test_ask_lists_every_game_and_names_the_command_for_another_games_position(
        capsys, tmp_path):
    code, out, _ = run(capsys, "ask", "--help")
    assert code == 0 and all(game.name in out for game in games())
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(own_positions(games()[0])[0]))
    code, out, err = run(capsys, "ask", "farbduell", "chain", str(path))
    assert_one_line_error(code, out, err, f"try `fortress-solver ask {games()[0].name} ")


def _farbduell_seen() -> dict:
    """A Farbduell game eight bot moves in, where its mover has seen cards."""
    game = find_game("farbduell")
    position = game.start(5)
    for _ in range(8):
        position = game.play(position, game.bot(position))
    return game.to_json(position)


def _ffk_seen() -> dict:
    """A Fortress Fight Kingdom duel whose mover has seen that the opponent holds no
    threat: knowing it, the hint attacks; blind, it defends."""
    mine = ["katapult", "schild", "angriff", "angriff", "blitz", "blitz", "turm", "turm",
            "burgfried"]
    theirs = ["mauer"] * 4 + ["wehrgang"] * 3 + ["bollwerk"] * 2
    deck = ["drache", "umbau", "umbau", "markt", "markt", "festung"]
    me = {"castle": 20, "wall": 0, "Z": 2, "W": 7, "K": 4, "G": 5,
          "knows": {"opponent_hand": theirs}}
    them = {"castle": 30, "wall": 0, "Z": 0, "W": 0, "K": 22, "G": 0, "builders": 0,
            "soldiers": 0}
    return ffk_position({**me, "hand": mine}, {**them, "hand": theirs}, deck=deck,
                        discard=rest_of_deck(mine, theirs, deck)).to_json()


@pytest.mark.parametrize(("name", "command", "seen"), [
    ("farbduell", "farbduell", _farbduell_seen), ("fortress-fight-kingdom", "ffk", _ffk_seen)],
    ids=["farbduell", "fortress-fight-kingdom"])
def test_an_option_added_in_its_game_package_alone_reaches_every_front_end(
        capsys, tmp_path, stub, solver_server, name, command, seen):
    """The hint option `knowing`, a field of the game's HintOptions that nothing in
    service/ names: the server lists it in the question's options schema and takes it in
    QuestionOptions, `ask`, the game's own `hint` and their client forms take it as a
    flag, and each answer is the library's with it (which is not the answer without it,
    in this position)."""
    game, data = find_game(name), seen()
    position = game.from_json(data)
    hint = game.question("hint")
    blind, knowing = (hint.ask(position, hint.options(knowing=flag), Budget(seconds=60))
                      for flag in (False, True))
    assert (blind.action, blind.value) != (knowing.action, knowing.value)
    expected = {key: blind.to_json()[key] for key in ("status", "action", "value")}

    info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=30)
    listed = next(q for g in info.games if g.name == game.name for q in g.questions
                  if q.name == "hint")
    assert json.loads(listed.options_schema)["properties"]["knowing"]["default"] is True
    source = pb.PositionSource(json=json.dumps(data))
    answer = stub.Hint(pb.HintRequest(position=source, budget=pb.Budget(seconds=60),
                                      question_options=pb.QuestionOptions(
                                          options='{"knowing": false}')), timeout=120)
    assert {key: json.loads(answer.answer_json)[key] for key in expected} == expected

    path = tmp_path / "position.json"
    path.write_text(json.dumps(data))
    for asked in (("ask", game.name, "hint", str(path), "--no-knowing", "--seconds", "60"),
                  (command, "hint", str(path), "--no-knowing", "--seconds", "60", "--json")):
        for argv in (asked, ("client", *asked, "--server", address(solver_server))):
            code, out, err = run(capsys, *argv)
            assert code == 0, err
            assert {key: json.loads(out)[key] for key in expected} == expected


def test_the_patience_commands_take_every_option_of_their_questions(capsys, solver_server):
    """Every question of the patience game is a command at the top (`solve`, `hint`,
    `grade`), here and under `client`, with a flag for each option of its question, and
    asks a server through QuestionOptions: `moves`, which no typed message carries, leaves
    the line's moves out here and on a server alike."""
    patience = find_game("patience")
    assert [question.name for question in patience.questions] == ["solve", "hint", "grade"]
    for question in patience.questions:
        name = question.name
        flags = ["--" + field.name.replace("_", "-")
                 for field in dataclasses.fields(question.options)]
        for argv in ((name, "--help"), ("client", name, "--help")):
            code, out, _ = run(capsys, *argv)
            assert code == 0 and [flag for flag in flags if flag not in out] == []
    solve = patience.question("solve")
    length = solve.ask(patience.deal(2), solve.options(), Budget(seconds=60)).length
    for argv in (("solve",), ("client", "solve", "--server", address(solver_server))):
        answer = run_json(capsys, *argv, "--deal", "2", "--no-moves", "--json")
        assert (answer["status"], answer["optimal"], answer["length"], answer["moves"]) == \
            ("solved", True, length, [])


def test_grade_grades_each_move_by_the_optimal_line_after_it_here_and_on_a_server(
        capsys, solver_server):
    """`grade` prints each legal move's grade as JSON, the same here and from a server: a
    move that wins in N moves leads to a position whose optimal line has N - 1."""
    start = deal(2)
    local = run_json(capsys, "grade", "--deal", "2", "--seconds", "60")
    remote = run_json(capsys, "client", "grade", "--deal", "2", "--seconds", "60",
                      "--server", address(solver_server))
    assert remote["all_moves"] == local["all_moves"]
    assert len(local["all_moves"]) == len(legal_moves(start))
    for graded in local["all_moves"]:
        assert graded["outcome"] == "wins"  # deal 2 loses by no first move
        after = apply(start, Move.from_json(graded["move"]))
        assert solve(after).length == graded["moves_left"] - 1


def test_solve_steps_are_the_positions_along_the_line_here_and_on_a_server(
        capsys, solver_server):
    """--steps is the solve question's option: the position after each move, asked here
    or of a server, the line replayed."""
    local = run_json(capsys, "solve", "--deal", "2", "--steps", "--json")
    remote = run_json(capsys, "client", "solve", "--deal", "2", "--steps", "--json",
                      "--server", address(solver_server))
    assert remote["steps"] == local["steps"]
    line = [Move.from_json(move) for move in local["moves"]]
    assert local["steps"] == [position.to_json() for position in
                              accumulate(line, apply, initial=deal(2))][1:]


def test_ask_plays_the_variant_chosen_here_and_on_a_server(capsys, solver_server):
    """--variant reaches `ask` for the game whose front end plays variants: deal 3 of
    Fortress, solved as `solve --variant fortress` solves it, not as deal 3 of the
    game's first variant."""
    typed = run_json(capsys, "solve", "--deal", "3", "--variant", "fortress", "--json")
    first = run_json(capsys, "ask", "beleaguered-fortress", "solve", "--deal", "3")
    assert first["moves"] != typed["moves"]
    asked = ("ask", "beleaguered-fortress", "solve", "--deal", "3", "--variant", "fortress")
    for argv in (asked, ("client", *asked, "--server", address(solver_server))):
        answer = run_json(capsys, *argv)
        assert (answer["length"], answer["moves"]) == (typed["length"], typed["moves"])


def test_the_patience_questions_share_the_hint_cache_with_the_typed_calls(stub):
    """A solve asked through QuestionOptions fills the server's hint cache as a typed
    optimal Solve does, and a hint asked through it is answered from the cache (or, for a
    deal the shipped census proves unwinnable, from the census): with a budget of one
    node, where a search would have answered unknown. A solve without its moves leaves
    the cache alone."""
    def asked(deal: int, question: str, budget: pb.Budget) -> dict:
        request = pb.HintRequest(position=pb.PositionSource(beleaguered_deal=deal),
                                 question_options=pb.QuestionOptions(question=question),
                                 budget=budget)
        if question == "hint":
            return json.loads(stub.Hint(request, timeout=120).answer_json)
        return json.loads(stub.Solve(pb.SolveRequest(
            position=request.position, question_options=request.question_options,
            budget=budget), timeout=120).answer_json)

    def typed_hint(deal: int) -> pb.HintResponse:
        return stub.Hint(pb.HintRequest(position=pb.PositionSource(beleaguered_deal=deal),
                                        budget=pb.Budget(seconds=60)), timeout=120)

    solved = asked(13, "solve", pb.Budget(seconds=60))  # deals 13, 15, 22: winnable
    assert solved["status"] == "solved" and solved["optimal"]
    assert typed_hint(13).cached
    hinted = asked(15, "hint", pb.Budget(seconds=60))
    assert hinted["status"] == "solved"
    assert typed_hint(15).cached
    assert asked(15, "hint", pb.Budget(nodes=1)) == hinted
    assert asked(22, "hint", pb.Budget(nodes=1))["status"] == "unknown"  # not cached: searched
    # a deal the shipped census proves unwinnable is answered from it, as a typed Hint is
    assert asked(1, "hint", pb.Budget(nodes=1))["status"] == "unsolvable"
    assert typed_hint(1).status == pb.STATUS_UNSOLVABLE
    # a verdict without its moves has no line to keep: deal 23 is not taken for won
    verdict = json.loads(stub.Solve(pb.SolveRequest(
        position=pb.PositionSource(beleaguered_deal=23), budget=pb.Budget(seconds=60),
        question_options=pb.QuestionOptions(question="solve", options='{"moves": false}')),
        timeout=120).answer_json)
    assert (verdict["status"], verdict["length"], verdict["moves"]) == ("solved", 82, [])
    after = typed_hint(23)
    assert (after.cached, after.moves_left) == (False, 82)
