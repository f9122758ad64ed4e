"""A plug-in game cannot take the solver down or leak its faults: an entry point that is
broken or names a game already installed is skipped with one line of warning naming its
package (every command and the server work on), a plug-in's exception reaches the client
as INTERNAL with a fixed message (its words and traceback in the server's log alone), its
answers are strict JSON, and numbers JSON has not (NaN, Infinity) are refused in its
options."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from tests.support.serve_process import ServeProcess

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(sys.executable).parent / "fortress-solver"
SECRET = "the plug-in's private words"
FAILED = "the game faulty failed on this call; the server log has the details"

GAME_MODULE = f'''
"""A game whose one question fails as its options tell it to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.budget import Budget, SearchStats, Status
from solver.errors import InvalidInput
from solver.games import Game, Question


@dataclass(frozen=True)
class Options:
    fault: str = "none"  # none, raise, refuse or nan
    weight: float = 1.0


@dataclass(frozen=True)
class Told:
    status: Status
    value: float
    stats: SearchStats

    def to_json(self) -> dict[str, Any]:
        return {{"status": self.status.value, "value": self.value}}

    @classmethod
    def unknown(cls, seconds: float) -> Told:
        return cls(Status.UNKNOWN, 0.0, SearchStats(0, seconds, 0))


def solve(n: int, options: Options, budget: Budget) -> Told:
    if options.fault == "raise":
        raise RuntimeError({SECRET!r})
    if options.fault == "refuse":
        raise InvalidInput("the plug-in refuses this position")
    value = float("nan") if options.fault == "nan" else options.weight * n
    return Told(Status.SOLVED, value, SearchStats(1, 0.0, 0))


def read(data: Any) -> int:
    if data["n"] == 13:  # a fault in the server's own process, not in a search process
        raise LookupError({SECRET!r})
    return int(data["n"])


def game(name: str) -> Game[int]:
    return Game(name=name, aliases=(), summary=f"{{name}}: fails when told to",
                from_json=read, to_json=lambda n: {{"game": name, "n": n}},
                schema=lambda: {{"title": name}},
                questions=(Question("solve", "n times the weight", Options, Told, solve),))


GAME = game("faulty")
STRONGHOLD = game("stronghold")  # the name of a game of the registry
'''

# Each bad entry point: its name, its package, and what its warning says is wrong.
SKIPPED = [
    ("broken", "faulty-games 1.0", "ModuleNotFoundError: No module named 'faulty_games.gone'"),
    ("notagame", "faulty-games 1.0", "TypeError: faulty_games.game:Options is not a "),
    ("stronghold", "faulty-games 1.0", "the registry has a game called 'stronghold' already"),
    ("faulty", "second-games 2.0", "entry point faulty of package faulty-games 1.0 has a game "
                                   "called 'faulty' already"),
]


def _distribution(root: Path, name: str, version: str, *entry_points: str) -> None:
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text("[fortress_solver.games]\n" + "\n".join(entry_points))


@pytest.fixture(scope="module")
def plug_ins(tmp_path_factory) -> Path:
    """A folder on the path holding the faulty game's package and two distributions: one
    declaring it beside three bad entry points, one declaring it again."""
    root = tmp_path_factory.mktemp("plug-ins")
    (root / "faulty_games").mkdir()
    (root / "faulty_games" / "__init__.py").write_text("")
    (root / "faulty_games" / "game.py").write_text(textwrap.dedent(GAME_MODULE))
    _distribution(root, "faulty-games", "1.0", "faulty = faulty_games.game:GAME",
                  "broken = faulty_games.gone:GAME", "notagame = faulty_games.game:Options",
                  "stronghold = faulty_games.game:STRONGHOLD")
    _distribution(root, "second-games", "2.0", "faulty = faulty_games.game:GAME")
    return root


def _path(plug_ins: Path) -> str:
    return os.pathsep.join([str(plug_ins), str(ROOT)])


def assert_warned_once_each(stderr: str) -> None:
    """One line for each bad entry point, naming it and its package, and no other."""
    lines = stderr.splitlines()
    assert len(lines) == len(SKIPPED), stderr
    for name, package, reason in SKIPPED:
        said = [line for line in lines if f"skipped plug-in game {name!r}" in line
                and f"of package {package})" in line]
        assert len(said) == 1, stderr
        assert said[0].startswith("fortress-solver: ") and reason in said[0], said[0]


# ---------------------------------------------------------------- the registry


@pytest.mark.parametrize(("argv", "stdin", "printed"), [
    (["--help"], None, "faulty"),
    (["show", "-"], '{"game": "faulty", "n": 4}', '"n": 4'),
    (["schema", "faulty"], None, '"title": "faulty"'),
    (["schema", "stronghold"], None, '"properties"'),  # the registry's game, not the plug-in's
], ids=["help", "show", "schema", "schema of a built-in name"])
def test_bad_entry_points_are_skipped_with_a_line_each_naming_their_package(
        plug_ins, argv, stdin, printed):
    done = subprocess.run([str(CLI), *argv], input=stdin, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": _path(plug_ins)}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert printed in done.stdout
    assert_warned_once_each(done.stderr)


# ---------------------------------------------------------------- the service


def test_an_entry_point_file_that_is_a_fifo_is_passed_over_not_waited_for(tmp_path):
    info = tmp_path / "stalled-1.0.dist-info"
    info.mkdir()
    os.mkfifo(info / "entry_points.txt")  # no one writes it: reading it would wait
    done = subprocess.run([str(CLI), "--help"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": _path(tmp_path)})
    assert (done.returncode, done.stderr) == (0, "")
    assert "usage: fortress-solver" in done.stdout


@pytest.fixture(scope="module")
def server(plug_ins, tmp_path_factory) -> Iterator[ServeProcess]:
    """A real server with the plug-ins on its path, and its log."""
    log = tmp_path_factory.mktemp("server") / "serve.log"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", _path(plug_ins))
        process = ServeProcess(log, "--http-port", "0")
    try:
        process.wait_serving()
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def stub(server) -> Iterator[pb_grpc.SolverStub]:
    with grpc.insecure_channel(server.address) as channel:
        yield pb_grpc.SolverStub(channel)


def solve(n: int, options: dict[str, object] | str = "") -> pb.SolveRequest:
    text = options if isinstance(options, str) else json.dumps(options)
    return pb.SolveRequest(position=pb.PositionSource(json=json.dumps({"game": "faulty", "n": n})),
                           question_options=pb.QuestionOptions(options=text))


def refused(stub: pb_grpc.SolverStub, request: pb.SolveRequest) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        stub.Solve(request, timeout=60)
    return caught.value


def post_solve(server: ServeProcess, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{server.http_port}/fortress.solver.v1.Solver/Solve",
        data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_server_serves_the_good_plug_in_and_warns_once_of_each_bad_one(server, stub):
    answer = stub.Solve(solve(6, {"weight": 0.5}), timeout=60)
    assert answer.status == pb.STATUS_SOLVED
    assert json.loads(answer.answer_json) == {"status": "solved", "value": 3.0}
    warnings = "\n".join(line for line in server.log.read_text().splitlines()
                         if "skipped plug-in game" in line)
    assert_warned_once_each(warnings)  # by the server, not again by its search process


def test_a_plug_in_fault_reaches_the_client_as_internal_without_its_words(server, stub):
    """One test, in this order: the log keeps one fault's traceback every 10 s."""
    error = refused(stub, solve(5, {"fault": "raise"}))  # in the search process
    assert (error.code(), error.details()) == (grpc.StatusCode.INTERNAL, FAILED)
    server.wait_for(r"(?s)faulty failed on a Solve call.*Traceback.*"
                    r"raise RuntimeError.*RuntimeError: the plug-in's private words")
    for request in (solve(13),  # in the server's own process, reading the position
                    solve(5, {"fault": "nan"})):  # an answer that is not JSON
        error = refused(stub, request)
        assert (error.code(), error.details()) == (grpc.StatusCode.INTERNAL, FAILED)
    status, body = post_solve(server, {"position": {"json": '{"game": "faulty", "n": 5}'},
                                       "questionOptions": {"options": '{"fault": "raise"}'}})
    assert (status, body["code"], body["message"]) == (500, "internal", FAILED)


def test_an_invalid_input_of_a_plug_in_is_invalid_argument_with_its_words(stub):
    error = refused(stub, solve(5, {"fault": "refuse"}))
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert error.details() == "the plug-in refuses this position"


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_a_number_json_has_not_is_refused_in_the_options_naming_its_field(stub, number):
    error = refused(stub, solve(5, f'{{"fault": "none", "weight": {number}}}'))
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert error.details().startswith("options: weight must be a finite number, not ")
    assert "\n" not in error.details()
