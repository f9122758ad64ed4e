"""`fortress-solver serve` as a real process for the tests that need one of its own (to
send it signals, or to run several): its log in a file, its port read from the first
log line, in a process group of its own (its workers with it), stopped in teardown."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SCRIPT = Path(sys.executable).parent / "fortress-solver"


class ServeProcess:
    """`fortress-solver serve --port 0 --workers 1 ARGS...` (port 0: a free one), with
    at most `files` open files (soft and hard limit) when given."""

    def __init__(self, log: Path, *args: str, files: int | None = None) -> None:
        self.log = log
        command = [str(SCRIPT), "serve", "--port", "0", "--workers", "1", *args]
        if files is not None:  # the shell sets the limit (no preexec_fn: gRPC has threads)
            command = ["sh", "-c", f'ulimit -n {files} && exec "$@"', "sh", *command]
        with log.open("w") as stderr:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr,
                                            start_new_session=True)
        self.port = 0
        self.http_port = 0
        self.metrics_port = 0

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def wait_serving(self) -> None:
        line = self.wait_for(r"serving gRPC on 127\.0\.0\.1:(\d+).*")
        self.port = int(line[1])
        http = re.search(r"HTTP on 127\.0\.0\.1:(\d+)", line[0])
        metrics = re.search(r"metrics on http://127\.0\.0\.1:(\d+)", line[0])
        self.http_port = int(http[1]) if http else 0
        self.metrics_port = int(metrics[1]) if metrics else 0

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        """The first match of `pattern` in the log, once it is there."""
        deadline = time.monotonic() + timeout
        while not (found := re.search(pattern, self.log.read_text())):
            assert self.process.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, f"no {pattern!r} in the log"
            time.sleep(0.02)
        return found

    def calls(self, method: str = "SolveBatch") -> int:
        """The calls of `method` it has finished (and logged)."""
        return sum(json.loads(line)["method"] == method
                   for line in self.log.read_text().splitlines() if line.startswith("{"))

    def send(self, signum: int) -> None:
        self.process.send_signal(signum)

    def kill(self) -> None:
        """SIGKILL, to the server and its worker: no goodbye to the streams in flight."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # anything of it still there
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)


@contextmanager
def serving(log: Path, *args: str) -> Iterator[ServeProcess]:
    """A ServeProcess with `args`, serving, and stopped at the end whatever happened."""
    process = ServeProcess(log, *args)
    try:
        process.wait_serving()
        yield process
    finally:
        process.stop()
