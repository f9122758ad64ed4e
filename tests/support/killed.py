"""A command killed while it writes its results file: the resuming tests' start."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path


def kill_after_lines(command: list[str], out: Path, lines: int, timeout: float = 60) -> None:
    """Run `command` in a session of its own until `out` holds `lines` lines (or the
    timeout), then SIGKILL it and its workers, mid-write maybe."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + timeout
    while (not out.exists() or len(out.read_bytes().splitlines()) < lines) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
