"""The HTTP face: the same RPCs over the Connect protocol, on a real server on 127.0.0.1.

Requests are plain HTTP/1.1 with JSON bodies, as a browser or curl sends them; the
streams go through the Connect client generated from the proto.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest

from service.api import fortress_solver_pb2 as pb
from service.api.fortress_solver_connect import SolverClientSync
from service.frontends import rules_pages
from service.server import RunningServer
from solver.beleaguered import deal
from solver.beleaguered.game import GAME
from solver.farbduell.data import default_tables
from solver.farbduell.game import GAME as FARBDUELL
from solver.farbduell.rules import new_game
from solver.ffkingdom.data import shipped_cards
from tests.support.http import SOLVER, post
from tests.support.servers import running_server

ORIGIN = "http://playground.example"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    with running_server(workers=2, queue=4, http_port=0, cors_origins=(ORIGIN,)) as running:
        yield running


def command_line(*args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "service.cli", *args], capture_output=True,
                          text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def test_a_hint_over_http_is_the_command_lines(server):
    status, body = post(server, "Hint", {"position": {"beleaguered_deal": 2}})
    local = command_line("hint", "--deal", "2", "--json")
    assert status == 200
    assert body["status"] == "STATUS_SOLVED" and body["winnable"] is True
    assert body["move"] == {"card": local["move"]["card"], "source": local["move"]["from"],
                            "target": local["move"]["to"], "cards": local["move"]["cards"]}
    assert body["movesLeft"] == local["moves_left"]


def test_a_bad_position_is_the_protocols_error_with_the_command_lines_message(server, tmp_path):
    bad = {"tableau": [["7H", "7H"]]}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    local = subprocess.run([sys.executable, "-m", "service.cli", "hint",
                            str(tmp_path / "bad.json")], capture_output=True, text=True,
                           timeout=60)
    status, body = post(server, "Hint", {"position": {"beleaguered": {
        "tableau": [{"cards": ["7H", "7H"]}]}}})
    assert status == 400
    assert body["code"] == "invalid_argument"
    assert local.returncode != 0 and body["message"] in local.stderr
    assert "7H twice" in body["message"]


def test_a_field_the_message_lacks_is_refused_not_dropped(server):
    status, body = post(server, "Hint", {"position": {"beleaguered": {"piles": []}}})
    assert status == 400 and body["code"] == "invalid_argument"
    assert "piles" in body["message"]


def test_a_body_that_is_not_json_is_refused(server):
    status, body = post(server, "Hint", b'{"position": {')
    assert status == 400 and body["code"] == "invalid_argument"


def test_error_codes_are_the_grpc_ones(server):
    status, body = post(server, "Hint", {"position": {"beleaguered_deal": 0}})
    assert (status, body["code"]) == (400, "out_of_range")
    status, body = post(server, "Hint", {"position": {}})
    assert (status, body["code"]) == (501, "unimplemented")


@pytest.mark.parametrize(("seconds", "shown"), [("NaN", "nan"), ("Infinity", "inf"),
                                                (-1, "-1")])
def test_budget_seconds_that_are_no_time_are_invalid_argument(server, seconds, shown):
    """Proto JSON writes NaN and the infinities as strings; none is a budget."""
    for method, deal_number in (("Solve", 2), ("Hint", 1)):
        status, body = post(server, method, {"position": {"beleaguered_deal": deal_number},
                                             "budget": {"seconds": seconds}})
        assert (status, body["code"]) == (400, "invalid_argument")
        assert body["message"] == (f"budget seconds {shown} is not a number of seconds: send "
                                   "a positive number, or 0 for the server's limit")


def test_a_position_as_the_command_lines_json_is_read_as_its_games_message(server):
    position = deal(7)
    text = json.dumps(GAME.to_json(position))
    _, by_json = post(server, "Hint", {"position": {"json": text}})
    _, by_deal = post(server, "Hint", {"position": {"beleagueredDeal": "7"}})
    assert by_json["status"] == by_deal["status"]
    assert by_json.get("move") == by_deal.get("move")
    status, body = post(server, "Hint", {"position": {"json": "{\"tableau\": []}"}})
    assert status == 400 and "names no game" in body["message"]


SERVICE_WORDS = [  # a request the service refuses, and what its message says
    ("Deal", {"game": "patience", "seed": 1, "variant": "nope"},
     "unknown variant 'nope': known are beleaguered-fortress, fortress"),
    ("Hint", {"position": {"json": json.dumps({"game": "patience", "variant": "nope",
                                                "tableau": []})}},
     "unknown variant 'nope': known are beleaguered-fortress, fortress"),
    ("Hint", {"position": {"json": "{\"tableau\": []}"}},
     'position.json names no game: give it a "game" key (patience, '),
]


@pytest.mark.parametrize(("method", "request_body", "said"), SERVICE_WORDS)
def test_the_services_errors_name_no_flag_of_the_command_line(server, tmp_path, method,
                                                              request_body, said):
    """An HTTP client has no --rules or --game to give: the service's refusal says what
    the request can change, and the command line's the flag besides."""
    status, body = post(server, method, request_body)
    assert status == 400 and body["message"].startswith(said), body
    assert "--" not in body["message"]
    path = tmp_path / "position.json"
    path.write_text(request_body["position"]["json"] if "position" in request_body else
                    json.dumps({"game": "patience", "variant": "nope", "tableau": []}))
    done = subprocess.run([sys.executable, "-m", "service.cli", "show", str(path)],
                          capture_output=True, text=True, timeout=120)
    flag = "(or give --rules FILE)" if "variant" in said else ", or give --game"
    assert done.returncode == 2 and flag in done.stderr, done.stderr


def test_play_applies_moves_as_apply_does_and_refuses_an_illegal_one(server):
    moves = ["AS reserve:8 foundation"]
    status, body = post(server, "Play", {"position": {"beleaguered_deal": 2}, "moves": moves})
    local = command_line("apply", "--deal", "2", *moves, "--json")
    assert status == 200
    assert json.loads(body["positionJson"]) == local
    assert "AS reserve:8 foundation" not in body["legalMoves"] and body["legalMoves"]
    status, body = post(server, "Play", {"position": body["position"],
                                         "moves": ["KS tableau:0 tableau:1"]})
    assert (status, body["code"]) == (400, "invalid_argument")
    assert body["message"] == "KS tableau:0 tableau:1: KS is not the top of tableau:0"


def test_hint_then_play_walks_a_deal_to_the_win_with_moves_left_falling_by_one(server):
    _, view = post(server, "Play", {"position": {"beleaguered_deal": 2}, "moves": [
        "AS reserve:8 foundation"]})
    left = None
    while "winner" not in view:
        _, hint = post(server, "Hint", {"position": view["position"]})
        assert left is None or hint["movesLeft"] == left - 1
        left = hint["movesLeft"]
        move = hint["move"]
        _, view = post(server, "Play", {"position": view["position"], "moves": [
            f"{move['card']} {move['source']} {move['target']}"]})
    assert left == 1 and view["winner"] == 0
    assert "legalMoves" not in view  # none: proto3 JSON leaves an empty list out


@pytest.mark.parametrize("game", ["fortress-fight-kingdom", "farbduell"])
def test_a_duel_dealt_from_a_seed_is_played_against_the_bot(server, game):
    status, view = post(server, "Deal", {"game": game, "seed": 11})
    assert status == 200 and view["game"] == game and view["toMove"] == 0
    assert view == post(server, "Deal", {"game": game, "seed": 11})[1]  # the seed decides
    for _ in range(30):  # a turn may take several actions before the bot's comes
        _, hint = post(server, "Hint", {"position": view["position"],
                                        "budget": {"seconds": 20}})
        advice = hint["ffk" if game != "farbduell" else "farbduell"]
        assert advice["action"] in view["legalMoves"]
        view = post(server, "Play", {"position": view["position"],
                                     "moves": [advice["action"]], "replies": True})[1]
        assert view.get("toMove") == 0 or "winner" in view
        if view.get("replies"):
            break
    assert view.get("replies"), "the bot moved"


def test_each_bots_reply_comes_with_the_seat_that_made_it(server):
    """Four seats: the bots at seats 1 to 3 answer the person's draw, each reply with its
    seat (reply_seats), the seat the library has to move before that reply."""
    _, view = post(server, "Deal", {"game": "farbduell", "seed": 3, "players": 4})
    state = new_game(default_tables()["classic"], 4, 3, first=0)
    state = FARBDUELL.play(state, "draw")
    _, view = post(server, "Play", {"position": view["position"], "moves": ["draw"],
                                    "replies": True})
    if FARBDUELL.to_move(state) == 0:  # the card drawn may be kept or played first
        state = FARBDUELL.play(state, "keep")
        _, view = post(server, "Play", {"position": view["position"], "moves": ["keep"],
                                        "replies": True})
    assert len(view["replySeats"]) == len(view["replies"]) >= 3
    for seat, reply in zip(view["replySeats"], view["replies"], strict=True):
        assert seat == FARBDUELL.to_move(state) != 0
        state = FARBDUELL.play(state, reply)
    assert set(view["replySeats"]) == {1, 2, 3}


def test_deal_names_the_game_it_cannot_deal(server):
    status, body = post(server, "Deal", {"game": "chess", "seed": 1})
    assert (status, body["code"]) == (400, "invalid_argument")
    assert "no game is called 'chess'" in body["message"]


def test_streams_arrive_over_the_connect_client(server):
    client = SolverClientSync(f"http://127.0.0.1:{server.http.port}")
    request = pb.SolveBatchRequest(deals=[pb.DealRange(first=1, last=6)], mode=pb.MODE_ANY)
    results = list(client.solve_batch(request))
    assert sorted(result.deal for result in results) == [1, 2, 3, 4, 5, 6]
    info = client.get_server_info(pb.GetServerInfoRequest())
    assert info.limits.workers == 2 and {g.name for g in info.games} >= {GAME.name}


def test_cors_allows_the_configured_origins_only(server):
    def preflight(origin: str) -> tuple[int, dict[str, str]]:
        connection = HTTPConnection("127.0.0.1", server.http.port, timeout=10)
        connection.request("OPTIONS", f"{SOLVER}/Hint", headers={
            "Origin": origin, "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,connect-protocol-version"})
        answer = connection.getresponse()
        answer.read()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}

    status, headers = preflight(ORIGIN)
    assert status == 200 and headers["access-control-allow-origin"] == ORIGIN
    status, headers = preflight("http://elsewhere.example")
    assert status == 400 and "access-control-allow-origin" not in headers
    _, body = post(server, "Hint", {"position": {"beleaguered_deal": 2}}, {"Origin": ORIGIN})
    assert body["status"] == "STATUS_SOLVED"


def test_the_playground_page_is_served_at_the_root(server):
    with urllib.request.urlopen(f"http://127.0.0.1:{server.http.port}/", timeout=10) as page:
        assert page.status == 200 and "text/html" in page.headers["Content-Type"]
        assert b"fortress-solver" in page.read()


# IDA* through a 256-entry table on deal 126 runs for tens of seconds (test_server.py).
LONG_SOLVE = {"position": {"beleaguered_deal": 126}, "budget": {"table_entries": "256"},
              "beleaguered": {"mode": "MODE_OPTIMAL", "algorithm": "ALGORITHM_IDASTAR"}}


@pytest.mark.timing
def test_the_deadline_header_bounds_the_search(server):
    started = time.perf_counter()
    status, body = post(server, "Solve", LONG_SOLVE, {"Connect-Timeout-Ms": "700"})
    assert status == 200 and body["status"] == "STATUS_UNKNOWN"
    assert time.perf_counter() - started < 0.7


@pytest.mark.timing
def test_a_client_that_hangs_up_frees_its_worker():
    """With one worker: a call whose client leaves stops its search, so the next call
    is answered at once rather than after the first one's tens of seconds."""
    with running_server(workers=1, queue=2, http_port=0) as server:
        connection = HTTPConnection("127.0.0.1", server.http.port, timeout=60)
        connection.request("POST", f"{SOLVER}/Solve", body=json.dumps(LONG_SOLVE).encode(),
                           headers={"Content-Type": "application/json"})
        time.sleep(0.5)
        connection.close()  # hang up mid-search
        started = time.perf_counter()
        status, answer = post(server, "Hint", {"position": {"beleaguered_deal": 2}})
        assert status == 200 and answer["status"] == "STATUS_SOLVED"
        assert time.perf_counter() - started < 5


def test_calls_in_parallel_share_the_pool(server):
    answers: list[int] = []

    def ask(number: int) -> None:
        status, _ = post(server, "Hint", {"position": {"beleaguered_deal": number}})
        answers.append(status)

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(20, 26)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200] * 6


def test_deal_and_play_answer_over_grpc_too(server):
    import grpc

    from tests.support.servers import connect, rpc_error

    with connect(server) as stub:
        view = stub.Deal(pb.DealRequest(game="bf", seed=2), timeout=10)
        assert view.game == GAME.name and "AS reserve:8 foundation" in view.legal_moves
        after = stub.Play(pb.PlayRequest(position=view.position,
                                         moves=["AS reserve:8 foundation"]), timeout=10)
        assert len(after.legal_moves) > 0 and not after.HasField("winner")
        error = rpc_error(stub.Play, pb.PlayRequest(position=view.position, moves=["AS"]))
        assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "'AS' is not a move (card source target)" in error.details()
        error = rpc_error(stub.Deal, pb.DealRequest(game="stronghold", seed=1))
        assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert error.details() == "stronghold deals no games: send its position"


def test_play_with_no_moves_shows_any_games_position_as_show_draws_it(server, tmp_path):
    position = {"game": "stronghold", "units": [{"id": "a", "owner": "A1", "might": 2}]}
    (tmp_path / "stronghold.json").write_text(json.dumps(position))
    shown = subprocess.run([sys.executable, "-m", "service.cli", "show",
                            str(tmp_path / "stronghold.json")], capture_output=True, text=True,
                           timeout=60, check=True).stdout
    status, view = post(server, "Play", {"position": {"json": json.dumps(position)}})
    assert status == 200 and view["game"] == "stronghold"
    assert view["picture"] + "\n" == shown
    status, body = post(server, "Play", {"position": {"json": json.dumps(position)},
                                         "moves": ["attack"]})
    assert (status, body["message"]) == (400, "stronghold takes no moves here")
    bad = {**position, "units": [{"id": "a", "owner": "A9", "might": -2}]}
    status, body = post(server, "Play", {"position": {"json": json.dumps(bad)}})
    assert status == 400 and body["code"] == "invalid_argument" and "units[0]" in body["message"]


# ============================================================================ the guard


def raw_exchange(port: int, request: bytes) -> bytes:
    """The server's answer to `request`: its head, and its body of Content-Length bytes
    (or up to the connection's end)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
            head, found, body = answer.partition(b"\r\n\r\n")
            length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
            if found and length and len(body) >= int(length[1]):
                break
        return answer


def status_and_body(answer: bytes) -> tuple[int, bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_a_header_that_is_not_utf8_is_a_400_in_one_line(server):
    assert server.http is not None
    answer = raw_exchange(server.http.port, (
        b"POST /fortress.solver.v1.Solver/GetServerInfo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"X-Name: caf\xe9\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"))
    status, body = status_and_body(answer)
    assert status == 400
    assert json.loads(body) == {"code": "invalid_argument",
                                "message": "header 'x-name' holds bytes that are not UTF-8"}


def test_a_request_line_that_is_not_ascii_is_a_400_in_one_line(server):
    assert server.http is not None
    status, body = status_and_body(raw_exchange(
        server.http.port, b"GET /caf\xe9 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
    assert status == 400 and body.count(b"\n") <= 1 and b"Traceback" not in body


def test_a_grpc_body_on_the_http_face_is_a_415_in_one_line(server):
    assert server.http is not None
    status, body = status_and_body(raw_exchange(server.http.port, (
        b"POST /fortress.solver.v1.Solver/GetServerInfo HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/grpc\r\nContent-Length: 5\r\n\r\n\x00\x00\x00\x00\x00")))
    assert status == 415
    assert body == (b"content type 'application/grpc' is not served here: send "
                    b"application/json or application/proto (Connect), or call the gRPC port\n")


def test_a_host_the_server_does_not_answer_to_is_a_421(server):
    assert server.http is not None
    answer = raw_exchange(server.http.port,
                          b"GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n")
    status, body = status_and_body(answer)
    assert status == 421
    assert body == (b"this server does not answer to the host 'attacker.example' (serve "
                    b"--allowed-host adds one)\n")
    for host in (b"localhost", b"127.0.0.1:8080", b"[::1]:8080"):
        assert status_and_body(raw_exchange(
            server.http.port, b"GET / HTTP/1.1\r\nHost: " + host + b"\r\n\r\n"))[0] == 200


def test_the_page_forbids_framing_and_other_origins_scripts(server):
    assert server.http is not None
    with urllib.request.urlopen(f"http://127.0.0.1:{server.http.port}/", timeout=30) as page:
        assert page.headers["X-Frame-Options"] == "DENY"
        policy = page.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy


def test_a_redirect_sends_no_host_back(server):
    assert server.http is not None
    answer = raw_exchange(server.http.port, b"GET /x/.. HTTP/1.1\r\n"
                                            b"Host: localhost:1\r\nConnection: close\r\n\r\n")
    head = answer.partition(b"\r\n\r\n")[0].decode()
    location = next(line.split(":", 1)[1].strip() for line in head.splitlines()
                    if line.lower().startswith("location:"))
    assert location.startswith("/") and "localhost" not in location


def test_keep_alive_calls_are_answered_on_one_connection(server):
    assert server.http is not None
    connection = HTTPConnection("127.0.0.1", server.http.port, timeout=30)
    try:
        for _ in range(5):
            connection.request("POST", f"{SOLVER}/GetServerInfo", body=b"{}",
                               headers={"Content-Type": "application/json"})
            answer = connection.getresponse()
            assert answer.status == 200 and json.loads(answer.read())["games"]
    finally:
        connection.close()


def test_silent_connections_are_closed_and_the_cap_makes_room_for_new_ones():
    with running_server(workers=1, queue=1, http_port=0, receive_seconds=1,
                        max_connections=4) as small:
        assert small.http is not None
        port = small.http.port
        silent = [socket.create_connection(("127.0.0.1", port), timeout=30) for _ in range(4)]
        try:
            # a fifth connection closes the one that waited longest, and is answered
            status, _ = status_and_body(raw_exchange(
                port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
            assert status == 200
            assert silent[0].recv(1) == b""  # closed for the new one
            # the others are closed once the time for a request has passed
            assert all(connection.recv(1) == b"" for connection in silent[1:])
        finally:
            for connection in silent:
                connection.close()
        counts = small.refusals.counts
        assert counts["connection cap"] == 1 and counts["slow request"] >= 3


def test_a_body_declared_far_larger_than_its_method_takes_is_refused_before_it_is_read(server):
    assert server.http is not None
    for method, size, line in (
            ("SolveBatch", 2_000_000_000, "the request's 2000000000 bytes are larger than "
                                          "this server's limit of 1048576 (--max-request-bytes)"),
            ("Hint", 70_000_000, "the Hint request's 70000000 bytes are larger than a call "
                                 "about one position may send, 65536 (--max-position-bytes)")):
        status, body = status_and_body(raw_exchange(server.http.port, (
            f"POST /fortress.solver.v1.Solver/{method} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n{{").encode()))
        assert status == 413  # the request's fault: not 429, which a proxy would retry
        assert json.loads(body) == {"code": "invalid_argument", "message": line}


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
def test_a_body_over_its_limit_is_counted_as_read_and_the_client_reads_the_413(server, chunked):
    """Chunked or not, the body is counted as it arrives and refused at the method's
    limit; the rest is read and dropped, so the client, done sending, gets the answer."""
    assert server.http is not None
    body = json.dumps({"position": {"json": "x" * 1_200_000}}).encode()
    with socket.create_connection(("127.0.0.1", server.http.port), timeout=30) as connection:
        head = ("POST /fortress.solver.v1.Solver/Hint HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Content-Type: application/json\r\n"
                + ("Transfer-Encoding: chunked\r\n" if chunked
                   else f"Content-Length: {len(body)}\r\n") + "\r\n")
        connection.sendall(head.encode())
        for start in range(0, len(body), 16_384):
            piece = body[start:start + 16_384]
            connection.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
        if chunked:
            connection.sendall(b"0\r\n\r\n")
        answer = b""
        while chunk := connection.recv(65_536):
            answer += chunk
    status, text = status_and_body(answer)
    assert status == 413
    assert json.loads(text) == {"code": "invalid_argument", "message": (
        f"the Hint request's {len(body)} bytes are larger than a call about one position "
        "may send, 65536 (--max-position-bytes)")}


@pytest.mark.parametrize("host", ["[", "\uff03", "[::1"])
def test_a_host_that_cannot_be_read_is_a_400_not_a_fault(server, host):
    assert server.http is not None
    status, body = status_and_body(raw_exchange(server.http.port, (
        f"GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").encode()))
    assert status == 400
    assert body.decode().strip() == f"the Host header {host!r} is not a host name"


# ============================================================================ the rules


def get(server: RunningServer, path: str) -> tuple[int, str, bytes]:
    """(HTTP status, content type, body) of a GET of `path`."""
    assert server.http is not None
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.http.port}{path}",
                                    timeout=30) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read()


def test_each_games_rules_page_is_served_from_docs(server):
    for name in rules_pages():
        status, kind, body = get(server, f"/docs/{name}")
        assert (status, kind) == (200, "text/markdown; charset=utf-8")
        assert body == (ROOT / "docs" / name).read_bytes()


@pytest.mark.parametrize("path", ["/docs/README.md", "/docs/kubernetes.yaml",
                                  "/docs/..%2FREADME.md", "/docs/%2E%2E/pyproject.toml",
                                  "/docs/../pyproject.toml", "/docs/schemas/",
                                  "/docs/farbduell.md%00"])
def test_nothing_but_the_rules_pages_is_served_from_docs(server, path):
    status, _, body = get(server, path)
    assert status == 404
    assert b"[project]" not in body and b"# fortress-solver" not in body


def test_the_card_table_is_the_shipped_one_in_words(server):
    status, kind, body = get(server, "/games/fortress-fight-kingdom/cards.json")
    assert (status, kind) == (200, "application/json")
    table = json.loads(body)
    rules = shipped_cards()
    assert list(table["cards"]) == list(rules.cards)
    for card_id, card in table["cards"].items():
        shipped = rules.card(card_id)
        assert (card["name"], card["type"], card["cost"]) == (shipped.name, shipped.type,
                                                              dict(shipped.cost))
        assert card["effect"]
    assert table["cards"]["flinker_bote"]["effect"] == "gain 2 Z, 2 W, 2 K; play again"
    assert table["cards"]["troja"]["effect"] == "damage 18 to the castle, ignoring the wall"
    assert table["cards"]["doppelzug"]["effect"] == "2 more actions"
    assert table["cards"]["markt"]["producer"] == "markets"
    assert table["surcharge"] == {"step": rules.config.producer_surcharge_step,
                                  "scope": rules.config.producer_surcharge_scope}


# ============================================================================ Farbduell's deal


@pytest.mark.parametrize(("table", "players"), [("belagerung", 3), ("tag_nacht", 6),
                                                ("", 0)])
def test_farbduell_deals_the_table_and_the_seats_asked_for(server, table, players):
    status, body = post(server, "Deal", {"game": "farbduell", "seed": 5, "variant": table,
                                         "players": players})
    assert status == 200
    position = json.loads(body["positionJson"])
    dealt = new_game(default_tables()[table or "classic"], players or 2, 5, first=0)
    assert position == json.loads(json.dumps(FARBDUELL.to_json(dealt)))
    assert position["table"] == (table or "classic")
    assert len(position["hands"]) == (players or 2) and body["toMove"] == 0


def test_farbduell_lists_its_tables_and_refuses_others(server):
    _, info = post(server, "GetServerInfo", {})
    (farbduell,) = [game for game in info["games"] if game["name"] == "farbduell"]
    assert farbduell["variants"] == [{"name": "classic", "title": "Classic"},
                                     {"name": "belagerung", "title": "Belagerung"},
                                     {"name": "tag_nacht", "title": "Tag & Nacht"}]
    status, body = post(server, "Deal", {"game": "farbduell", "seed": 1, "variant": "uno"})
    assert (status, body["message"]) == (400, "Farbduell has no table 'uno' "
                                              "(classic, belagerung, tag_nacht)")
    status, body = post(server, "Deal", {"game": "farbduell", "seed": 1, "players": 7})
    assert (status, body["message"]) == (400, "a table seats 2 to 6 players, not 7")
