"""Every ```sh block of README.md and docs/*.md runs as written, and prints what the docs
say it prints.

A block runs under `bash -euo pipefail` in a fresh directory holding a symlink `.venv` to
the repository's venv, with `.venv/bin` first on PATH, so it can rely on no file but
those it makes. A comment line right before a block changes how it is run:

- `<!-- docs: server -->`: a real `fortress-solver serve` is running on free ports; the
  block's `127.0.0.1:50051` (gRPC), `127.0.0.1:8080` (HTTP) and `127.0.0.1:9090`
  (metrics) are rewritten to them, and FORTRESS_SOLVER_SERVER names the gRPC one.
- `<!-- docs: output -->` before a ```text block: that block is the standard output of
  the ```sh block above it, compared with timings masked; a line `...` matches any run
  of lines.
- `<!-- docs: skip (reason) -->`: the block is not run.

Usage synopses belong in ```text blocks, and README.md is a first page.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.serve_process import ServeProcess

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(sys.prefix)  # the venv running the tests
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
MARKER = re.compile(r"^\s*<!-- docs: (server|output|skip)(?: \((.+)\))? -->\s*$")
PORTS = {"grpc": "127.0.0.1:50051", "http": "127.0.0.1:8080", "metrics": "127.0.0.1:9090"}
SECONDS = 120  # only against hangs: a block is expected to take a few seconds at most


@dataclass
class Block:
    """One ```sh block: where it is, its text, and how the docs ask for it to be run."""

    path: Path
    line: int
    text: str
    server: bool = False
    skip: str | None = None
    output: str | None = None

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    def shown(self, script: str | None = None) -> str:
        return f"{self.id}\n```sh\n{script or self.text}```"


def blocks_of(path: Path) -> list[Block]:
    """The ```sh blocks of one file, each with its markers and expected output."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    marker: re.Match[str] | None = None
    number = 0
    while number < len(lines):
        fence = FENCE.match(lines[number])
        if not fence:
            if lines[number].strip():
                marker = MARKER.match(lines[number])
            number += 1
            continue
        indent, language, start = fence[1], fence[2], number
        body = []
        number += 1
        while number < len(lines) and lines[number].strip() != "```":
            body.append(lines[number].removeprefix(indent))
            number += 1
        number += 1
        text = "".join(line + "\n" for line in body)
        kind = marker[1] if marker else None
        if language == "sh":
            found.append(Block(path, start + 1, text, server=kind == "server",
                               skip=(marker[2] or "no reason given") if kind == "skip" else None))
        elif kind == "output":
            assert found, f"{path.name}:{start + 1}: expected output after no ```sh block"
            found[-1].output = text
        marker = None
    return found


BLOCKS = [block for path in DOCS for block in blocks_of(path)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One server for the module's server blocks, started by the first that needs it."""
    serving = ServeProcess(tmp_path_factory.mktemp("docs-server") / "serve.log",
                           "--http-port", "0", "--metrics-port", "0")
    try:
        serving.wait_serving()
        yield serving
    finally:
        serving.stop()


def masked(text: str) -> str:
    """Output with its timings blanked, as they differ from run to run."""
    text = re.sub(r'"(line_)?seconds": [0-9.e-]+', r'"\1seconds": T', text)
    return re.sub(r"\d+(?:\.\d+)?(?= ?(?:s|ms|µs)\b)", "T", text)


def matches(expected: str, actual: str) -> bool:
    """Whether `actual` is `expected` line for line, trailing spaces aside, where a line
    `...` of `expected` stands for any run of lines."""
    pattern = "".join(r"(?:[^\n]*\n)*?" if line.strip() == "..." else re.escape(line) + r"\n"
                      for line in masked(expected).rstrip("\n").split("\n"))
    lines = "".join(line.rstrip() + "\n" for line in masked(actual).rstrip("\n").split("\n"))
    return re.fullmatch(pattern, lines) is not None


@pytest.mark.parametrize("block", BLOCKS, ids=[block.id for block in BLOCKS])
def test_block_runs_as_written(block: Block, tmp_path: Path, request: pytest.FixtureRequest
                               ) -> None:
    if block.skip:
        pytest.skip(block.skip)
    (tmp_path / ".venv").symlink_to(VENV)
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("FORTRESS_SOLVER_")}
    environment["PATH"] = f"{tmp_path / '.venv' / 'bin'}{os.pathsep}{environment['PATH']}"
    script = block.text
    if block.server:
        serving: ServeProcess = request.getfixturevalue("server")
        for face, port in (("grpc", serving.port), ("http", serving.http_port),
                           ("metrics", serving.metrics_port)):
            script = script.replace(PORTS[face], f"127.0.0.1:{port}")
        environment["FORTRESS_SOLVER_SERVER"] = serving.address
    try:
        run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path,
                             env=environment, capture_output=True, text=True,
                             timeout=SECONDS)
    except subprocess.TimeoutExpired as late:
        pytest.fail(f"{block.shown(script)}\nstill running after {SECONDS} s:\n{late.stdout}"
                    f"\n{late.stderr}", pytrace=False)
    said = (f"{block.shown(script)}\nexit {run.returncode}\n"
            f"stdout:\n{run.stdout}\nstderr:\n{run.stderr}")
    if run.returncode != 0:
        pytest.fail(said, pytrace=False)
    if block.output is not None and not matches(block.output, run.stdout):
        pytest.fail(f"{said}\nexpected stdout:\n{block.output}", pytrace=False)


def usage_syntax(text: str) -> list[str]:
    """The lines of a block that read as a synopsis rather than a command: an optional
    `[--flag]`, a placeholder in capitals, or choices as `a|b`. Comments, quoted text and
    heredoc bodies aside."""
    found = []
    heredoc: str | None = None
    for line in text.splitlines():
        if heredoc is not None:
            heredoc = None if line.strip() == heredoc else heredoc
            continue
        command = re.sub(r"'[^']*'|\"[^\"]*\"", "''", line.split(" #")[0])
        if command.lstrip().startswith("#"):
            continue
        if (" [-" in command or re.search(r"\b(FILE|N|A-B|GAME|QUESTION|SECONDS)\b", command)
                or re.search(r"\w\|\w", command)):
            found.append(line)
        if here := re.search(r"<<-?\s*['\"]?(\w+)", line):
            heredoc = here[1]
    return found


def test_no_usage_syntax_in_runnable_blocks() -> None:
    wrong = [f"{block.id}: {line}" for block in BLOCKS for line in usage_syntax(block.text)]
    assert not wrong, "usage syntax belongs in ```text blocks:\n" + "\n".join(wrong)


def test_usage_syntax_is_recognised() -> None:
    assert usage_syntax("fortress-solver solve [--exact] FILE\n") == [
        "fortress-solver solve [--exact] FILE"]
    assert usage_syntax("fortress-solver stronghold clear p.json --defender passive|greedy\n")
    assert usage_syntax("fortress-solver deal 2 --json > p.json  # the deal N\n") == []
    assert usage_syntax("cat > p.json <<'JSON'\n{\"N\": [1|2]}\nJSON\n") == []


def test_readme_is_a_first_page() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines, at most 250"
    wide = [f"README.md:{number}" for number, line in enumerate(lines, 1) if len(line) > 100]
    assert not wide, f"lines over 100 characters: {', '.join(wide)}"


def test_output_matching_masks_timings_and_elides() -> None:
    assert matches("solved in 0.12 s\n...\nend\n", "solved in 3.4 s\na\nb\nend\n")
    assert matches('{"seconds": 0.1}\n', '{"seconds": 2e-05}\n')
    assert matches('{"line_seconds": 0.1}\n', '{"line_seconds": 2e-05}\n')
    assert not matches("wins in 3 turns\n", "wins in 4 turns\n")
