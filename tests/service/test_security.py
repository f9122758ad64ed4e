"""A server fit to run off loopback: TLS (and mutual TLS) with certificates the tests make,
bearer tokens (missing, wrong, right, reloaded on SIGHUP), the per-token limit, and
plaintext refused off loopback unless asked for. Every server is real, on 127.0.0.1."""

from __future__ import annotations

import json
import signal
import ssl
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.api import fortress_solver_pb2 as pb
from service.api import fortress_solver_pb2_grpc as pb_grpc
from service.server import RunningServer
from service.tls import ClientTls, ServerTls, is_loopback
from service.tokens import bearer
from solver.errors import InvalidInput
from tests.support.certificates import Certificates, make_certificates
from tests.support.serve_process import SCRIPT, ServeProcess
from tests.support.servers import deal_source, running_server

IDASTAR = pb.BeleagueredSolveOptions(mode=pb.MODE_OPTIMAL, algorithm=pb.ALGORITHM_IDASTAR)
HINT = pb.HintRequest(position=deal_source(2))
# about 2 s of IDA* that ends UNKNOWN at its budget: a call still running when asked
LONG_SOLVE = pb.SolveRequest(position=deal_source(126), beleaguered=IDASTAR,
                             budget=pb.Budget(seconds=2, table_entries=256))


@pytest.fixture(scope="module")
def certs(tmp_path_factory) -> Certificates:
    return make_certificates(tmp_path_factory.mktemp("certs"))


@pytest.fixture(scope="module")
def other_ca(tmp_path_factory) -> Certificates:
    """A second CA, whose certificates the first one's server does not trust."""
    return make_certificates(tmp_path_factory.mktemp("other"), "another CA")


@contextmanager
def secure_stub(server: RunningServer, tls: ClientTls) -> Iterator[pb_grpc.SolverStub]:
    with grpc.secure_channel(f"127.0.0.1:{server.port}", tls.credentials()) as channel:
        yield pb_grpc.SolverStub(channel)


def tokens_file(path: Path, *tokens: str) -> Path:
    path.write_text("# who may call\n" + "".join(f"{token}\n" for token in tokens))
    return path


def code_of(call, request, **kwargs) -> tuple[grpc.StatusCode, str]:
    try:
        call(request, timeout=30, **kwargs)
    except grpc.RpcError as error:
        return error.code(), error.details() or ""
    return grpc.StatusCode.OK, ""


# TLS

@pytest.fixture(scope="module")
def tls_server(certs) -> Iterator[RunningServer]:
    tls = ServerTls(certs.server_cert, certs.server_key)
    with running_server(ClientTls(certs.ca), workers=1, tls=tls, http_port=0,
                        metrics_port=0) as server:
        yield server


def test_a_tls_server_answers_a_client_that_trusts_its_ca(tls_server, certs):
    with secure_stub(tls_server, ClientTls(certs.ca)) as stub:
        assert stub.Hint(HINT, timeout=30).moves_left == 66


def test_a_tls_server_is_not_spoken_to_in_plaintext(tls_server):
    with grpc.insecure_channel(f"127.0.0.1:{tls_server.port}") as channel:
        code, _ = code_of(pb_grpc.SolverStub(channel).Hint, HINT)
    assert code is grpc.StatusCode.UNAVAILABLE


def test_a_client_that_trusts_another_ca_does_not_connect(tls_server, other_ca):
    with secure_stub(tls_server, ClientTls(other_ca.ca)) as stub:
        code, _ = code_of(stub.Hint, HINT)
    assert code is grpc.StatusCode.UNAVAILABLE


def test_the_http_face_speaks_https_with_the_same_certificate(tls_server, certs):
    context = ssl.create_default_context(cafile=certs.ca)
    request = urllib.request.Request(
        f"https://127.0.0.1:{tls_server.http.port}/fortress.solver.v1.Solver/Hint",
        data=json.dumps({"position": {"beleaguered_deal": 2}}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30, context=context) as response:
        assert json.loads(response.read())["movesLeft"] == 66


def test_the_metrics_are_served_over_https_too(tls_server, certs):
    context = ssl.create_default_context(cafile=certs.ca)
    url = f"https://127.0.0.1:{tls_server.metrics_port}/metrics"
    with urllib.request.urlopen(url, timeout=30, context=context) as response:
        assert b"fortress_solver_calls_total" in response.read()
    with pytest.raises(OSError):  # plaintext: no answer (a reset, or a refusal)
        urllib.request.urlopen(url.replace("https:", "http:"), timeout=30)


def test_the_client_command_speaks_tls_with_its_ca(tls_server, certs):
    done = subprocess.run([str(SCRIPT), "client", "hint", "--server",
                           f"127.0.0.1:{tls_server.port}", "--tls-ca", str(certs.ca),
                           "--deal", "2", "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["moves_left"] == 66


def test_mutual_tls_refuses_a_client_without_a_certificate(certs, other_ca):
    tls = ServerTls(certs.server_cert, certs.server_key, client_ca=certs.ca)
    client = ClientTls(certs.ca, certs.client_cert, certs.client_key)
    with running_server(client, workers=1, tls=tls) as server:
        with secure_stub(server, ClientTls(certs.ca)) as stub:
            code, _ = code_of(stub.Hint, HINT)
        assert code is grpc.StatusCode.UNAVAILABLE
        stranger = ClientTls(certs.ca, other_ca.client_cert, other_ca.client_key)
        with secure_stub(server, stranger) as stub:
            code, _ = code_of(stub.Hint, HINT)
        assert code is grpc.StatusCode.UNAVAILABLE
        with secure_stub(server, client) as stub:
            assert stub.Hint(HINT, timeout=30).moves_left == 66


def test_a_key_that_is_not_its_certificates_is_one_line(certs, other_ca):
    with pytest.raises(InvalidInput, match="--tls-cert .* and --tls-key .* are not a PEM "
                                           "certificate and its key"):
        ServerTls(certs.server_cert, other_ca.server_key)
    with pytest.raises(InvalidInput, match="cannot read --tls-key 'nowhere.pem'"):
        ServerTls(certs.server_cert, Path("nowhere.pem"))
    with pytest.raises(InvalidInput, match="--tls-ca .* holds no PEM certificate"):
        ClientTls(certs.server_key)


def test_serve_with_half_a_tls_pair_is_a_usage_error(certs):
    done = subprocess.run([str(SCRIPT), "serve", "--port", "0", "--tls-cert",
                           str(certs.server_cert)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "fortress-solver: --tls-cert and --tls-key go together\n"


# plaintext off loopback

def test_loopback_is_told_from_other_addresses():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.1")


def test_plaintext_off_loopback_needs_insecure(tmp_path):
    done = subprocess.run([str(SCRIPT), "serve", "--host", "0.0.0.0", "--port", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == ("fortress-solver: 0.0.0.0 is reachable from other machines: serve "
                           "it with --tls-cert and --tls-key, or in plaintext with "
                           "--insecure\n")
    server = ServeProcess(tmp_path / "serve.log", "--host", "0.0.0.0", "--insecure")
    try:
        server.wait_for(r"serving gRPC on 0\.0\.0\.0:\d+")
        assert "serving plaintext on 0.0.0.0 (--insecure)" in server.log.read_text()
    finally:
        server.stop()


# tokens

@pytest.fixture(scope="module")
def token_server(tmp_path_factory) -> Iterator[RunningServer]:
    path = tokens_file(tmp_path_factory.mktemp("tokens") / "tokens", "alpha-1", "beta-2")
    with running_server(token="alpha-1", workers=2, token_file=path, max_calls_per_token=1,
                        http_port=0) as server:
        yield server


def test_a_call_without_a_token_is_unauthenticated(token_server):
    with grpc.insecure_channel(f"127.0.0.1:{token_server.port}") as channel:
        code, message = code_of(pb_grpc.SolverStub(channel).Hint, HINT)
    assert code is grpc.StatusCode.UNAUTHENTICATED
    assert message.startswith("this server needs a token")


def test_a_wrong_or_malformed_token_is_unauthenticated(token_server):
    with grpc.insecure_channel(f"127.0.0.1:{token_server.port}") as channel:
        stub = pb_grpc.SolverStub(channel)
        assert code_of(stub.Hint, HINT, metadata=bearer("alpha-2")) == (
            grpc.StatusCode.UNAUTHENTICATED, "the token is not one this server accepts")
        assert code_of(stub.Hint, HINT, metadata=(("authorization", "alpha-1"),)) == (
            grpc.StatusCode.UNAUTHENTICATED, "authorization is not 'Bearer TOKEN'")


def test_a_right_token_is_answered_and_probes_need_none(token_server):
    with grpc.insecure_channel(f"127.0.0.1:{token_server.port}") as channel:
        stub = pb_grpc.SolverStub(channel)
        assert stub.Hint(HINT, timeout=30, metadata=bearer("beta-2")).moves_left == 66
        health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(),
                                                           timeout=10)
        assert health.status == health_pb2.HealthCheckResponse.SERVING


def test_the_http_face_asks_for_the_token_too(token_server):
    url = f"http://127.0.0.1:{token_server.http.port}/fortress.solver.v1.Solver/Hint"
    body = json.dumps({"position": {"beleaguered_deal": 2}}).encode()
    headers = {"Content-Type": "application/json"}
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=30)
    assert refused.value.code == 401
    assert json.loads(refused.value.read())["code"] == "unauthenticated"
    headers["Authorization"] = "Bearer alpha-1"
    with urllib.request.urlopen(urllib.request.Request(url, body, headers),
                                timeout=30) as answered:
        assert json.loads(answered.read())["movesLeft"] == 66


def test_the_http_face_checks_the_token_before_it_reads_the_body(token_server):
    """A body that is not JSON at all, sent without a token, is refused for the token:
    nothing of it was decoded (a client with no token costs the server no parsing)."""
    url = f"http://127.0.0.1:{token_server.http.port}/fortress.solver.v1.Solver/Hint"
    before = token_server.refusals.counts.get("unauthenticated", 0)
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(urllib.request.Request(
            url, b"{" * 50_000, {"Content-Type": "application/json"}), timeout=30)
    assert refused.value.code == 401
    assert json.loads(refused.value.read()) == {
        "code": "unauthenticated",
        "message": "this server needs a token: send 'authorization: Bearer TOKEN' (the client "
                   "commands' --token-file, or FORTRESS_SOLVER_TOKEN)"}
    assert token_server.refusals.counts["unauthenticated"] == before + 1


def test_a_token_past_its_calls_is_refused_saying_which_limit(token_server):
    with grpc.insecure_channel(f"127.0.0.1:{token_server.port}") as channel:
        stub = pb_grpc.SolverStub(channel)
        running = stub.Solve.future(LONG_SOLVE, timeout=30, metadata=bearer("alpha-1"))
        try:
            _wait_running(token_server)
            code, message = code_of(stub.Hint, HINT, metadata=bearer("alpha-1"))
            assert code is grpc.StatusCode.RESOURCE_EXHAUSTED
            assert message == ("this token already has 1 calls running, the most one token "
                               "may (--max-calls-per-token)")
            # another token is not held back by the first one's calls
            assert stub.Hint(HINT, timeout=30, metadata=bearer("beta-2")).moves_left == 66
        finally:
            assert running.result().status == pb.STATUS_UNKNOWN
        assert stub.Hint(HINT, timeout=30, metadata=bearer("alpha-1")).moves_left == 66


def _wait_running(server: RunningServer) -> None:
    """Until the server has a call in flight."""
    ready = threading.Event()
    while not ready.wait(0.02):
        with server.servicer._in_flight:
            if server.servicer._running:
                ready.set()


def test_the_client_command_sends_the_token_of_its_file_or_environment(token_server, tmp_path):
    mine = tokens_file(tmp_path / "mine", "beta-2")
    command = [str(SCRIPT), "client", "hint", "--server", f"127.0.0.1:{token_server.port}",
               "--deal", "2", "--json"]
    done = subprocess.run([*command, "--token-file", str(mine)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["moves_left"] == 66
    done = subprocess.run(command, capture_output=True, text=True, timeout=60,
                          env={"FORTRESS_SOLVER_TOKEN": "alpha-1", "PATH": "/usr/bin"})
    assert done.returncode == 0, done.stderr
    done = subprocess.run(command, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin"})
    assert done.returncode == 1
    assert done.stderr.startswith(f"fortress-solver: 127.0.0.1:{token_server.port}: "
                                  "UNAUTHENTICATED: this server needs a token")


def test_tokens_are_reloaded_on_sighup(tmp_path):
    path = tokens_file(tmp_path / "tokens", "old-token")
    server = ServeProcess(tmp_path / "serve.log", "--token-file", str(path))
    try:
        server.wait_serving()
        with grpc.insecure_channel(server.address) as channel:
            stub = pb_grpc.SolverStub(channel)
            assert code_of(stub.Hint, HINT, metadata=bearer("old-token"))[0] is grpc.StatusCode.OK
            tokens_file(path, "new-token")
            server.send(signal.SIGHUP)
            server.wait_for("tokens reloaded from .*: 1")
            assert code_of(stub.Hint, HINT, metadata=bearer("new-token"))[0] is grpc.StatusCode.OK
            assert code_of(stub.Hint, HINT, metadata=bearer("old-token"))[0] is \
                grpc.StatusCode.UNAUTHENTICATED
            path.write_text("# nobody\n")  # a file with no token keeps the ones before
            server.send(signal.SIGHUP)
            server.wait_for("tokens not reloaded, the 1 before kept: .* holds no token")
            assert code_of(stub.Hint, HINT, metadata=bearer("new-token"))[0] is grpc.StatusCode.OK
    finally:
        server.stop()


@pytest.mark.parametrize("text, fault", [
    ("", "holds no token: no one could call"),
    ("# only a comment\n\n", "holds no token"),
    ("good\nbad token\n", "line 2 is not a token"),
])
def test_a_token_file_that_cannot_serve_is_one_line(tmp_path, text, fault):
    path = tmp_path / "tokens"
    path.write_text(text)
    done = subprocess.run([str(SCRIPT), "serve", "--port", "0", "--token-file", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert fault in done.stderr and done.stderr.count("\n") == 1


def test_a_per_token_limit_without_tokens_is_refused():
    done = subprocess.run([str(SCRIPT), "serve", "--port", "0", "--max-calls-per-token", "2"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == ("fortress-solver: --max-calls-per-token needs --token-file: "
                           "without tokens there is no one to count calls for\n")
