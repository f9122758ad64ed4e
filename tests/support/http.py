"""Calls to a server's HTTP face (the Connect protocol) as a browser or curl sends them:
plain HTTP/1.1 with a JSON body."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from service.server import RunningServer
from tests.support.serve_process import ServeProcess

SOLVER = "/fortress.solver.v1.Solver"


def post(server: RunningServer | ServeProcess, method: str, body: Any,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    """(HTTP status, JSON body) of one unary call with a JSON body, to a server in the
    test's process or one of its own."""
    if isinstance(server, ServeProcess):
        port = server.http_port
    else:
        assert server.http is not None
        port = server.http.port
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{SOLVER}/{method}", data=data,
        headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
