"""Running the fortress-solver command in-process, for the command-line tests."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator

import pytest

from service.cli import main


@pytest.fixture(autouse=True)
def keep_sigpipe() -> Iterator[None]:
    """main() sets SIGPIPE to its default; give the test process its own handler back."""
    before = signal.getsignal(signal.SIGPIPE)
    yield
    signal.signal(signal.SIGPIPE, before)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr). Argument errors leave main() through argparse's
    SystemExit rather than a return value, so both ways out become an exit code."""
    capsys.readouterr()  # drop anything printed before
    try:
        code = main(list(argv))
    except SystemExit as stop:
        code = stop.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    assert len(out.splitlines()) == 1, out
    return json.loads(out)


def assert_one_line_error(code: int, out: str, err: str, *fragments: str) -> None:
    assert code == 2
    assert out == ""
    lines = err.strip("\n").splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
