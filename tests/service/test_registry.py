"""The seam: a fifth game, one folder and one registry line in a package of its own (its
entry point in the `fortress_solver.games` group), is served end to end with no other
file edited: on the command line, over gRPC through `PositionSource.json`, over HTTP, in
the schema command and the fuzzer. And the shared files name no game."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from solver.games import REGISTRY, find_game, games

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(sys.executable).parent / "fortress-solver"

# Nim with one pile: take 1 to max_take coins; whoever takes the last coin wins.
GAME_MODULE = '''
"""One pile of Nim: the whole game, as a game of its own package writes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field

from solver.budget import Budget, SearchStats, Status
from solver.errors import IllegalMove
from solver.games import Game, Question
from solver.reading import Schema, check, schema


class PileSchema(Schema):
    game: Literal["coins"] = "coins"
    coins: Annotated[int, Field(ge=0, le=10_000)]
    to_move: Annotated[int, Field(ge=0, le=1)] = 0


@dataclass(frozen=True)
class Pile:
    coins: int
    to_move: int = 0


@dataclass(frozen=True)
class Options:
    max_take: int = 2


@dataclass(frozen=True)
class Verdict:
    status: Status
    wins: bool | None
    take: int | None
    stats: SearchStats

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status.value, "wins": self.wins, "take": self.take}

    @classmethod
    def unknown(cls, seconds: float) -> Verdict:
        return cls(Status.UNKNOWN, None, None, SearchStats(0, seconds, 0))


def solve(pile: Pile, options: Options, budget: Budget) -> Verdict:
    """Searched, not computed by rule, so that the answer is the pool's work."""
    wins = [False]  # wins[n]: the player to move with n coins wins
    for n in range(1, pile.coins + 1):
        wins.append(any(not wins[n - k] for k in range(1, min(options.max_take, n) + 1)))
    take = next((k for k in range(1, min(options.max_take, pile.coins) + 1)
                 if not wins[pile.coins - k]), None)
    return Verdict(Status.SOLVED, wins[pile.coins], take, SearchStats(pile.coins, 0.0, 0))


def read(data: Any) -> Pile:
    checked = check(PileSchema, data)
    return Pile(checked.coins, checked.to_move)


def play(pile: Pile, move: str) -> Pile:
    if move not in ("take 1", "take 2") or int(move[-1]) > pile.coins:
        raise IllegalMove(f"{move!r} is not a move here (take 1 or take 2)")
    return Pile(pile.coins - int(move[-1]), 1 - pile.to_move)


SOLVE = Question("solve", "who wins, and what to take", Options, Verdict, solve)
HINT = Question("hint", "what to take", Options, Verdict, solve)
GAME: Game[Pile] = Game(
    name="coins", aliases=("nim",), summary="one pile of Nim",
    from_json=read, to_json=lambda pile: {"game": "coins", "coins": pile.coins,
                                          "to_move": pile.to_move},
    schema=lambda: schema(PileSchema, "coins"), questions=(SOLVE, HINT),
    start=lambda seed: Pile(10 + seed % 7), play=play,
    moves=lambda pile: tuple(f"take {k}" for k in (1, 2) if k <= pile.coins),
    winner=lambda pile: None if pile.coins else 1 - pile.to_move,
    to_move=lambda pile: pile.to_move)
'''


@pytest.fixture(scope="module")
def plug_in(tmp_path_factory) -> Path:
    """A folder on the path holding the game's package and its one registry line."""
    root = tmp_path_factory.mktemp("plug-in")
    (root / "coins_game").mkdir()
    (root / "coins_game" / "__init__.py").write_text("")
    (root / "coins_game" / "game.py").write_text(textwrap.dedent(GAME_MODULE))
    (root / "coins_game-1.0.dist-info").mkdir()
    (root / "coins_game-1.0.dist-info" / "entry_points.txt").write_text(
        "[fortress_solver.games]\ncoins = coins_game.game:GAME\n")
    return root


def environment(plug_in: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(plug_in), str(ROOT)])}


def run(plug_in: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CLI), *args], input=stdin, capture_output=True, text=True,
                          env=environment(plug_in), timeout=120)


def pile(coins: int) -> str:
    return json.dumps({"game": "coins", "coins": coins})


# ---------------------------------------------------------------- the command line


def test_the_fifth_game_answers_its_questions_on_the_command_line(plug_in, tmp_path):
    for coins, max_take, wins, take in ((7, 2, True, 1), (9, 2, False, None),
                                        (11, 2, True, 2), (8, 3, False, None)):
        path = tmp_path / "pile.json"
        path.write_text(pile(coins))
        done = run(plug_in, "coins", "solve", str(path), "--max-take", str(max_take))
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == {"status": "solved", "wins": wins, "take": take}
    done = run(plug_in, "nim", "hint", "-", stdin=pile(4))
    assert json.loads(done.stdout)["take"] == 1


def test_the_fifth_game_refuses_bad_input_in_one_line(plug_in):
    done = run(plug_in, "coins", "solve", "-", stdin='{"coins": -3, "colour": "red"}')
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "coins: must be at least 0" in done.stderr and "colour" in done.stderr


def test_the_fifth_game_is_shown_played_and_described(plug_in):
    shown = run(plug_in, "show", "-", stdin=pile(5))
    assert shown.returncode == 0 and json.loads(shown.stdout)["coins"] == 5
    played = run(plug_in, "apply", "-", "take 2", "take 1", "--json", stdin=pile(5))
    assert json.loads(played.stdout) == {"game": "coins", "coins": 2, "to_move": 0}
    described = run(plug_in, "schema", "coins")
    assert json.loads(described.stdout)["properties"]["coins"]["maximum"] == 10_000


def test_the_fuzzer_covers_the_fifth_game(plug_in):
    done = subprocess.run([sys.executable, "-m", "bench.fuzz_positions", "--games", "coins",
                           "--inputs", "40", "--seed", "1"], capture_output=True, text=True,
                          env=environment(plug_in), cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "coins" in done.stdout


# ---------------------------------------------------------------- the service


@pytest.fixture(scope="module")
def server(plug_in, tmp_path_factory) -> Iterator[tuple[str, int]]:
    """A real server with the plug-in on its path: its gRPC address and HTTP port."""
    log = tmp_path_factory.mktemp("server") / "serve.log"
    with log.open("w") as stderr:
        process = subprocess.Popen([str(CLI), "serve", "--port", "0", "--http-port", "0",
                                    "--workers", "1"], stdout=subprocess.DEVNULL,
                                   stderr=stderr, env=environment(plug_in))
    try:
        found = None
        while found is None:
            assert process.poll() is None, log.read_text()
            found = re.search(r"serving gRPC on 127\.0\.0\.1:(\d+).*HTTP on 127\.0\.0\.1:(\d+)",
                              log.read_text())
        yield f"127.0.0.1:{found[1]}", int(found[2])
    finally:
        process.terminate()
        process.wait(timeout=60)


@pytest.fixture(scope="module")
def stub(server) -> Iterator[pb_grpc.SolverStub]:
    with grpc.insecure_channel(server[0]) as channel:
        yield pb_grpc.SolverStub(channel)


def test_the_server_lists_the_fifth_game_and_its_questions(stub):
    info = stub.GetServerInfo(pb.GetServerInfoRequest(), timeout=30)
    coins = next(game for game in info.games if game.name == "coins")
    assert list(coins.modes) == ["solve", "hint"]


def test_the_fifth_game_is_solved_over_grpc_through_json(stub):
    request = pb.SolveRequest(position=pb.PositionSource(json=pile(8)),
                              question_options=pb.QuestionOptions(options='{"max_take": 3}'),
                              budget=pb.Budget(seconds=10))
    answer = stub.Solve(request, timeout=60)
    assert answer.status == pb.STATUS_SOLVED
    assert json.loads(answer.answer_json) == {"status": "solved", "wins": False, "take": None}
    hint = stub.Hint(pb.HintRequest(position=pb.PositionSource(json=pile(7))), timeout=60)
    assert json.loads(hint.answer_json)["take"] == 1


def test_the_fifth_game_refuses_bad_options_and_positions(stub):
    for request, words in (
            (pb.SolveRequest(position=pb.PositionSource(json=pile(8)),
                             question_options=pb.QuestionOptions(options='{"depth": 3}')),
             "options.depth: is not an option of solve"),
            (pb.SolveRequest(position=pb.PositionSource(json=pile(8)),
                             question_options=pb.QuestionOptions(question="race")),
             "coins answers solve, hint, not 'race'"),
            (pb.SolveRequest(position=pb.PositionSource(json='{"game": "coins"}')),
             "coins: is missing")):
        with pytest.raises(grpc.RpcError) as caught:
            stub.Solve(request, timeout=60)
        assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert words in caught.value.details()


def test_the_fifth_game_is_dealt_and_played_over_grpc(stub):
    dealt = stub.Deal(pb.DealRequest(game="nim", seed=3), timeout=30)
    assert json.loads(dealt.position_json)["coins"] == 13
    assert list(dealt.legal_moves) == ["take 1", "take 2"]
    played = stub.Play(pb.PlayRequest(position=dealt.position, moves=["take 2", "take 2"]),
                       timeout=30)
    assert json.loads(played.position_json) == {"game": "coins", "coins": 9, "to_move": 0}


def test_the_fifth_game_is_asked_over_http(server):
    body = json.dumps({"position": {"json": pile(9)},
                       "questionOptions": {"question": "solve"}}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{server[1]}/fortress.solver.v1.Solver/Solve", data=body,
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        answer = json.loads(response.read())
    assert answer["status"] == "STATUS_SOLVED"
    assert json.loads(answer["answerJson"])["wins"] is False


def test_the_fifth_game_is_asked_through_the_client_command(plug_in, server, tmp_path):
    path = tmp_path / "pile.json"
    path.write_text(pile(11))
    done = run(plug_in, "client", "coins", "solve", str(path), "--server", server[0])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"status": "solved", "wins": True, "take": 2}


# ---------------------------------------------------------------- the shared files


SHARED = ("service/servicer.py", "service/pool.py", "service/client.py", "service/cli.py",
          "service/arguments.py", "service/calls.py", "service/server.py", "service/http.py",
          "service/metrics.py", "service/messages.py", "service/grpc_face.py",
          "service/bridge.py", "service/position_messages.py", "service/generic/commands.py",
          "service/generic/handler.py", "service/generic/runs.py", "service/rules_routes.py",
          "service/batch.py", "service/dask_batch.py", "service/generate_pool.py",
          "solver/results.py")


@pytest.mark.parametrize("path", SHARED)
def test_the_shared_service_files_name_no_game(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    assert not re.findall(r"(?i)ffk|farbduell|stronghold|beleaguered", text)


def test_only_the_registry_lines_name_the_built_in_games():
    assert [game.name for game in games()][:len(REGISTRY)] == [
        "patience", "fortress-fight-kingdom", "farbduell", "stronghold"]
    for game in games():
        assert find_game(game.name) is game
        for alias in game.aliases:
            assert find_game(alias.upper()) is game
