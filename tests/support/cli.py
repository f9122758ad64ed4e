"""Running the fortress-solver command in-process, for the command-line tests."""

from __future__ import annotations

import json
import re

from service.cli import main


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


def timeless(text: str) -> str:
    """Output with its timings blanked: they differ from run to run."""
    text = re.sub(r'"(line_)?seconds": [0-9.e-]+', r'"\1seconds": S', text)
    return re.sub(r"\d+\.\d+ s\b", "S s", text)


def assert_client_prints_what_local_prints(capsys, server: str, game: str, command: str,
                                           path: str, *options: str) -> None:
    """`fortress-solver client GAME COMMAND` against `server` prints what the local
    command prints, timings aside, with the same exit code (0, or 2 for bad input)."""
    local = run(capsys, game, command, path, *options)
    remote = run(capsys, "client", game, command, path, "--server", server, *options)
    assert local[0] in (0, 2)
    assert (remote[0], timeless(remote[1]), remote[2]) == \
        (local[0], timeless(local[1]), local[2])
