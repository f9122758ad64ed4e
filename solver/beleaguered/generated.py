"""The --out file of `generate` and `client generate`: one JSON line a deal tried, with its
outcome (found, out of band, unknown), the budget it had, and the settings of its run
(the variant, a user's rules' digest, the mode, the band), so that a run started again
resumes it and a run of other settings is refused in one line before anything starts.

`generate` writes every deal it tries; `client generate` only the deals it is sent (the
server does not say which others it tried). Either resumes either's file.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from solver.beleaguered import Mode, Move, Position
from solver.beleaguered.generation import Band, Outcome, Tried
from solver.beleaguered.notation import line_json
from solver.errors import InvalidInput
from solver.results import Settings, drop_cut_line, whole_lines

GENERATE = "generate"  # the mode an optimal run's lines record (another's: generate_mode)


def generate_mode(mode: Mode) -> str:
    """The mode the lines of a run of `mode` record: an optimal run's as before modes."""
    return GENERATE if mode is Mode.OPTIMAL else f"{GENERATE}-{mode.value}"


_MODES = {generate_mode(mode): mode for mode in Mode}


def record(tried: Tried, settings: Settings, band: Band) -> dict[str, Any]:
    """The line of one try: its budget's seconds are the try's own."""
    had = replace(settings, budget=replace(settings.budget, seconds=max(tried.seconds, 1e-6)))
    return {"deal": tried.deal, "outcome": tried.outcome.value, "length": tried.length,
            "lower_bound": tried.lower_bound, "moves": [m.to_json() for m in tried.moves],
            **had.fields(), "min_length": band.low, "max_length": band.high}


def printed(tried: Tried, position: Position) -> dict[str, Any]:
    """What the commands print of a deal found: its number, position, length and line
    (optimal in optimal mode), each move with the cards it carries."""
    return {"deal": tried.deal, "position": position.to_json(), "length": tried.length,
            "moves": line_json(position, tried.moves)}


def earlier_tries(path: Path, settings: Settings, band: Band) -> list[Tried]:
    """The tries a file holds, in its order (none when it does not exist). A file of
    other settings (all but the budget) or another band is refused, and so is a line
    that is not a try. A last line without its newline (a run killed mid-write) is cut
    from the file: its deal is tried again."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    tries = []
    for number, text in whole_lines(raw):
        line = _line(text)
        tried = None if line is None else _tried(line)
        if line is None or tried is None:
            raise InvalidInput(f"{path} line {number} is not a deal generate tried: "
                               f"{text[:60].decode(errors='replace')!r}")
        _check(path, number, line, settings, band)
        tries.append(tried)
    drop_cut_line(path, raw)
    return tries


def _line(text: bytes) -> dict[str, Any] | None:
    try:
        line = json.loads(text)
    except ValueError:
        return None
    return line if isinstance(line, dict) else None


def _tried(line: dict[str, Any]) -> Tried | None:
    """The try a line records; None when it records none."""
    try:
        deal, found, budget = line["deal"], Outcome(line["outcome"]), line["budget"]
        seconds, length, bound = budget["seconds"], line["length"], line["lower_bound"]
        moves = tuple(Move.from_json(move) for move in line["moves"])
    except (KeyError, TypeError, ValueError):
        return None
    numbers = (deal, length, bound)
    if (type(deal) is not int or not all(n is None or type(n) is int for n in numbers)
            or not isinstance(seconds, int | float) or seconds <= 0):
        return None
    if found is Outcome.FOUND and (length is None or len(moves) != length):
        return None
    return Tried(deal, found, float(seconds), length, bound, moves)


def _check(path: Path, number: int, line: dict[str, Any], settings: Settings,
           band: Band) -> None:
    """Refuse a line of other settings or another band than this run's, in one line."""
    try:
        found = Settings.of_line(line)
    except ValueError as err:
        raise InvalidInput(f"{path} line {number}: {err}") from None
    if found is None or found.mode not in _MODES:
        raise InvalidInput(f"{path} line {number} is not a deal generate tried: use "
                           "another --out")
    lows, highs = line.get("min_length"), line.get("max_length")
    if not all(n is None or type(n) is int for n in (lows, highs)):
        raise InvalidInput(f"{path} line {number}: its band is not whole")
    theirs = Band(lows, highs)
    if not found.alike(settings) or theirs != band:
        raise InvalidInput(f"{path} holds {_kind(found, theirs)} (line {number}); this run "
                           f"asks for {_kind(settings, band)}: use another --out")


def _kind(settings: Settings, band: Band) -> str:
    """"streets-and-alleys deals within 78-84 moves", "any length" for no band, the mode
    named unless optimal."""
    own = "" if settings.rules is None else f" (rules sha256 {settings.rules[:12]})"
    mode = _MODES[settings.mode]
    how = "" if mode is Mode.OPTIMAL else f" found in {mode.value} mode"
    return f"{settings.variant}{own} deals{str(band) or ' of any length'}{how}"
