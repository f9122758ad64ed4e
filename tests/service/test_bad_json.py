"""A position that is not JSON and holds a number JSON has not (NaN, then the text cut
short) is refused in one line naming the fault on every face: every game's commands
that read a position (exit 2), gRPC (INVALID_ARGUMENT) and HTTP (400), with no
traceback in the server's log.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.frontends import words_of
from solver.beleaguered.position import Position
from solver.errors import InvalidInput
from solver.ffkingdom.data import shipped_cards
from solver.ffkingdom.reading import parse as ffk_parse
from solver.games import games
from tests.support.cli import assert_one_line_error, run
from tests.support.http import post
from tests.support.serve_process import ServeProcess, serving

# The probe's input: NaN, then the text cut short.
NAN_CUT_SHORT = '{"game": "patience", "tableau": NaN, "reserve": [NaN, "4C'
NOT_JSON = "is not JSON: Unterminated string starting at: line 1 column 55 (char 54)"


def reading_commands(path: str) -> list[list[str]]:
    """Every command that reads a position from a file: each game's questions (its own
    command and `ask`), `show` and `apply`."""
    asked = [[*words_of(game, question.name).split(), path]
             for game in games() for question in game.questions]
    anyhow = [["ask", game.name, question.name, path]
              for game in games() for question in game.questions]
    return [*asked, *anyhow, ["show", path], ["apply", path, "AS reserve:8 foundation"]]


@pytest.fixture
def position(tmp_path: Path) -> Path:
    path = tmp_path / "position.json"
    path.write_text(NAN_CUT_SHORT)
    return path


def test_every_command_that_reads_a_position_says_it_is_not_json(capsys, position):
    for command in reading_commands(str(position)):
        code, out, err = run(capsys, *command)
        assert_one_line_error(code, out, err, f"{position} {NOT_JSON}")


def test_the_installed_command_exits_2_with_one_line(position):
    done = subprocess.run([sys.executable, "-m", "service.cli", "solve", str(position)],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"fortress-solver: {position} {NOT_JSON}\n")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    with serving(tmp_path_factory.mktemp("serve") / "serve.log", "--http-port", "0") as process:
        yield process


@pytest.fixture(scope="module")
def stub(server: ServeProcess) -> Iterator[pb_grpc.SolverStub]:
    with grpc.insecure_channel(server.address) as channel:
        yield pb_grpc.SolverStub(channel)


SOURCE = pb.PositionSource(json=NAN_CUT_SHORT)


@pytest.mark.parametrize("request_", [
    pb.SolveRequest(position=SOURCE), pb.HintRequest(position=SOURCE),
    pb.SolveRequest(position=pb.PositionSource(beleaguered_deal=1),
                    question_options=pb.QuestionOptions(question="solve",
                                                        options='{"mode": NaN, "x": "4C')),
], ids=["solve", "hint", "options"])
def test_a_grpc_call_is_invalid_argument_naming_the_fault(server, stub, request_):
    call = stub.Solve if isinstance(request_, pb.SolveRequest) else stub.Hint
    with pytest.raises(grpc.RpcError) as refused:
        call(request_, timeout=60)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "is not JSON: Unterminated string" in refused.value.details()
    assert "\n" not in refused.value.details()
    assert "Traceback" not in server.log.read_text()


DEEP = '{"card": ' + "[" * 5000


@pytest.mark.parametrize(("argv", "fault"), [
    (["apply", "--deal", "2", DEEP], "the move nests too deeply"),
    (["apply", "--deal", "2", '{"card": "AS", "from": "reserve:8", "to": NaN}'],
     "the move: to must be a finite number, not NaN"),
    (["apply", "--deal", "2", '{"card": "AS", "from": "reserve:8"'], "the move is not JSON"),
])
def test_a_move_as_json_that_is_no_json_is_one_short_line(capsys, argv, fault):
    code, out, err = run(capsys, *argv)
    assert_one_line_error(code, out, err, fault)
    assert len(err) < 300  # the move quoted in part


@pytest.mark.parametrize("parse", [Position.parse, lambda text: ffk_parse(text, shipped_cards())],
                         ids=["patience", "ffk"])
def test_a_positions_text_form_nested_too_deeply_is_refused(parse):
    with pytest.raises(InvalidInput, match="^position nests too deeply to be read$"):
        parse("[" * 100_000)


@pytest.mark.parametrize("method", ["Solve", "Hint"])
def test_an_http_call_is_400_naming_the_fault(server, method):
    status, body = post(server, method, {"position": {"json": NAN_CUT_SHORT}})
    assert status == 400 and body["code"] == "invalid_argument"
    assert body["message"] == f"position.json {NOT_JSON}"
    assert "Traceback" not in server.log.read_text()
