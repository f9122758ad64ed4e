"""A real `fortress-solver serve` with its HTTP face, and headless Chromium, for the
playground's browser tests and tests/browser/screenshots.py.

Nothing here runs at import: SKIP_REASON says why the browser tests cannot run (no
Chromium at /usr/bin/chromium, or no playwright package), or is None.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
ROOT = Path(__file__).resolve().parents[2]


def _skip_reason() -> str | None:
    if not os.access(CHROMIUM, os.X_OK):
        return (f"browser tests skipped: Chromium not found at {CHROMIUM} "
                "(apt-get install -y chromium, then make test)")
    if importlib.util.find_spec("playwright") is None:
        return ("browser tests skipped: the playwright package is not installed "
                "(pip install -e '.[dev]', then make test)")
    return None


SKIP_REASON = _skip_reason()


def command() -> str:
    """The venv's fortress-solver: beside the running Python, else on PATH."""
    beside = Path(sys.executable).parent / "fortress-solver"
    return str(beside) if beside.exists() else "fortress-solver"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


@contextmanager
def running_server(workers: int = 2, timeout: float = 30, options: tuple[str, ...] = (),
                   env: dict[str, str] | None = None) -> Iterator[str]:
    """`fortress-solver serve` on 127.0.0.1 (gRPC on a free port, HTTP on another), with
    `options` added and `env` added to its environment; yields the page's URL once the
    HTTP port answers, and stops it with SIGTERM. Its log goes to a temporary file (a pipe
    nobody reads could fill and stall it)."""
    with tempfile.TemporaryFile("w+") as log:
        for _attempt in range(3):  # the free port may be taken before the server binds it
            port = free_port()
            process = subprocess.Popen(
                [command(), "serve", "--host", "127.0.0.1", "--port", "0",
                 "--http-port", str(port), "--workers", str(workers), *options],
                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, text=True,
                env=None if env is None else {**os.environ, **env})
            url = f"http://127.0.0.1:{port}/"
            deadline = time.monotonic() + timeout
            while (process.poll() is None and time.monotonic() < deadline
                   and not _answers(url)):
                time.sleep(0.1)
            if process.poll() is None and _answers(url):
                break
            _stop(process)
        else:
            log.seek(0)
            raise RuntimeError(f"fortress-solver serve did not answer on HTTP:\n{log.read()}")
        try:
            yield url
        finally:
            _stop(process)


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def call(url: str, method: str, body: dict[str, Any]) -> dict[str, Any]:
    """One RPC on the page's server, as the page sends it (Connect, JSON): the answer, or
    the refusal's JSON error (its code and message)."""
    request = urllib.request.Request(
        f"{url}fortress.solver.v1.Solver/{method}", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Connect-Protocol-Version": "1"},
        method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            answer: dict[str, Any] = json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        answer = json.loads(error.read() or b"{}")
    return answer


def launch_chromium(playwright: Any) -> Any:
    """Debian's Chromium, headless."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=CHROMIUM_ARGS)
