"""An operator's files (rules, tables, tokens, certificates) cannot hang, exhaust or
crash a command: what is not a regular file, is over its size, is not UTF-8 or nests too
deeply is refused in one line, by every game's reader, the server's token and TLS files,
and by the real commands that take `--rules FILE`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.tls import ServerTls
from service.tokens import read_tokens
from solver.beleaguered.variant import MAX_RULES_BYTES
from solver.beleaguered.variant import load_variant_file as load_variant
from solver.errors import InvalidInput
from solver.farbduell.data import load_tables
from solver.ffkingdom.data import load_cards
from solver.operator_files import MAX_DEPTH, read_text, toml_of

CLI = Path(sys.executable).parent / "fortress-solver"
DEEP = 500  # levels: tomllib recursed past Python's limit on these

NESTED = {
    "inline tables": "name = " + "{ a = " * DEEP + "1" + " }" * DEEP + "\n",
    "arrays": "name = " + "[" * DEEP + "]" * DEEP + "\n",
    "dotted keys": "a" + ".a" * DEEP + " = 1\n",
    "a table header": "[" + ".".join(["a"] * DEEP) + "]\nb = 1\n",
}


@pytest.mark.parametrize("text", NESTED.values(), ids=NESTED.keys())
def test_toml_nested_too_deeply_is_one_line(text):
    with pytest.raises(InvalidInput) as refused:
        toml_of(text, "deep.toml")
    assert str(refused.value) == f"deep.toml: nested deeper than {MAX_DEPTH} levels"


def test_brackets_in_strings_and_comments_are_not_nesting():
    text = ('a = "[[[[[[[[[[[[[[[[[[[[[[[[" # [[[[[[[[[[[[[[[[[[[[[[[[\n'
            "b = '{{{{{{{{{{{{{{{{{{{{{{{{'\n"
            'c = """\n[[[[[[[[[[[[[[[[[[[[[[[[\n"""\n'
            "d = [[1, 2], [3]]\n")
    assert toml_of(text, "x.toml")["d"] == [[1, 2], [3]]


def test_a_file_of_the_limit_is_read_and_one_byte_more_is_not(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_bytes(b"#" * 99 + b"\n")
    assert read_text(path, 100, "rules file") == "#" * 99 + "\n"
    path.write_bytes(b"#" * 100 + b"\n")
    with pytest.raises(InvalidInput, match=r"rules\.toml: larger than 100 bytes$"):
        read_text(path, 100, "rules file")


def test_bytes_that_are_not_utf8_are_one_line(tmp_path):
    path = tmp_path / "rules.toml"
    path.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(InvalidInput, match=r"rules\.toml: not UTF-8 text \(byte 11 is 0xe9\)$"):
        read_text(path, 100, "rules file")


@pytest.mark.parametrize("load", [load_variant, load_cards, load_tables, read_tokens,
                                  lambda path: ServerTls(path, path).credentials()],
                         ids=["patience rules", "card table", "tables", "tokens", "TLS"])
def test_every_game_refuses_what_is_not_a_regular_file(load, tmp_path):
    for path in (Path("/dev/zero"), tmp_path):
        with pytest.raises(InvalidInput, match="not a regular file$"):
            load(path)


# ---------------------------------------------------------------- the commands


@pytest.fixture
def fifo(tmp_path) -> Path:
    """A FIFO that no one writes: reading it would wait forever."""
    path = tmp_path / "rules.toml"
    os.mkfifo(path)
    return path


def refusal(*argv: str) -> str:
    """The one line a command that must refuse prints; the timeout guards against a
    hang only."""
    done = subprocess.run([str(CLI), *argv], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


@pytest.mark.parametrize("command", [["deal", "2"], ["variants"]])
def test_a_deeply_nested_rules_file_is_one_line(tmp_path, command):
    path = tmp_path / "deep.toml"
    path.write_text(NESTED["inline tables"], encoding="utf-8")
    line = refusal(*command, "--rules", str(path))
    assert f"{path}: nested deeper than {MAX_DEPTH} levels" in line


def test_a_rules_file_one_byte_over_the_limit_is_one_line(tmp_path):
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * MAX_RULES_BYTES + b"\n")
    assert f"{path}: larger than {MAX_RULES_BYTES:,} bytes" in refusal("deal", "2", "--rules",
                                                                       str(path))


def test_dev_zero_as_rules_is_one_line():
    assert "/dev/zero: not a regular file" in refusal("deal", "2", "--rules", "/dev/zero")


@pytest.mark.parametrize("command", [["deal", "2"], ["serve", "--port", "0", "--workers", "1"]])
def test_a_fifo_as_rules_is_one_line_without_waiting_for_a_writer(fifo, command):
    assert f"{fifo}: not a regular file" in refusal(*command, "--rules", str(fifo))
