"""The Stronghold format's numbers (docs/stronghold.md B), read from format.toml: the
battlefield rows, the defender's name and each mode's players and targets."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from typing import Any


def _format() -> dict[str, Any]:
    return tomllib.loads(files("solver.stronghold").joinpath("format.toml")
                         .read_text(encoding="utf-8"))


FORMAT = _format()
ROWS: tuple[str, ...] = tuple(FORMAT["rows"])
DEFENDER: str = FORMAT["defender"]
MODES: dict[str, dict[str, int]] = FORMAT["modes"]
