"""Several solvers on the same deals, side by side: our modes (`any`, `verdict`) and
fc-solve's presets (its default, `-l lg`), as `make bench-freecell` and `make
bench-family` run them.

A deal's record holds one entry a side, under the side's name: a mode's name for ours,
`fc` for fc-solve's default search (the name the benchmarks' JSON always had) and
`fc-NAME` for its preset NAME. Each entry has a `status` (a Status value, or `refused`:
a win claimed whose line our rules refuse) and its `seconds`. In each turn of deals the
sides go in an order rotated by one from the turn before, so that machine noise falls on
every side alike; agreement is counted pair by pair where both decided, and every deal
where two decided differently is listed, not averaged away.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from bench import fcsolve
from bench.bench_beleaguered import nearest_rank
from solver.beleaguered.solve import Mode
from solver.budget import Status

Record = dict[str, Any]
SOLVED, UNSOLVABLE, UNKNOWN = (s.value for s in Status)
REFUSED = "refused"  # fc-solve claimed a win whose line our rules refuse
MODES = (Mode.ANY, Mode.VERDICT)  # the modes a side may be: each decides, fast
PRESETS = (fcsolve.DEFAULT_PRESET, "lg")


def fc_side(preset: str) -> str:
    """The side of fc-solve's `preset`: `fc` for its default search, else `fc-NAME`."""
    return "fc" if preset == fcsolve.DEFAULT_PRESET else f"fc-{preset}"


def title(side: str) -> str:
    """A side as a table names it: `ours any`, `fc-solve`, `fc-solve -l lg`."""
    if side == "fc":
        return "fc-solve"
    if side.startswith("fc-"):
        return f"fc-solve -l {side[3:]}"
    return f"ours {side}"


def is_ours(side: str) -> bool:
    return not (side == "fc" or side.startswith("fc-"))


def mode_list(text: str) -> tuple[Mode, ...]:
    """--modes: our modes to run, of `any` and `verdict`, each once."""
    names = [name.strip() for name in text.split(",")]
    wrong = [name for name in names if name not in MODES]
    if wrong or not names or len(set(names)) < len(names):
        raise argparse.ArgumentTypeError(
            f"modes are {' and '.join(MODES)}, comma-separated, each once: not {text!r}")
    return tuple(Mode(name) for name in names)


def preset_list(text: str) -> tuple[str, ...]:
    """--presets: fc-solve's presets to run (`default`: its own settings; `none`: no
    fc-solve run), each once; whether fc-solve knows each is checked when it is found."""
    if text == "none":
        return ()
    names = [name.strip() for name in text.split(",")]
    if not all(names) or len(set(names)) < len(names):
        raise argparse.ArgumentTypeError(
            f"presets are fc-solve's preset names or `default`, comma-separated, each once, "
            f"or `none`: not {text!r}")
    return tuple(names)


def unknown_presets(presets: Sequence[str], executable: str) -> list[str]:
    """The presets fc-solve does not know (`fc-solve -l NAME` fails)."""
    return [p for p in presets if not fcsolve.preset_exists(p, executable)]


def turn_order(sides: Sequence[str], turn: int) -> list[str]:
    """The sides in the order they go in turn `turn`: rotated by one a turn."""
    k = turn % len(sides)
    return [*sides[k:], *sides[:k]]


def fc_entry(run: fcsolve.Run) -> Record:
    """The common part of an fc-solve side's entry: its verdict, time, timeout, and why
    our rules refused its line when they did."""
    status = REFUSED if run.refused is not None else run.status.value
    return {"status": status, "seconds": run.seconds, "timed_out": run.timed_out,
            **({"refused": run.refused} if run.refused is not None else {})}


def decided(status: str) -> bool:
    return status in (SOLVED, UNSOLVABLE)


def differ(record: Record, a: str, b: str) -> bool:
    """Whether sides `a` and `b` both decided the deal, differently."""
    x, y = record[a]["status"], record[b]["status"]
    return decided(x) and decided(y) and x != y


def counts(records: Sequence[Record], side: str) -> list[int]:
    """How many the side won, proved unwinnable, left undecided, had refused."""
    statuses = [r[side]["status"] for r in records]
    return [statuses.count(s) for s in (SOLVED, UNSOLVABLE, UNKNOWN, REFUSED)]


def agreement(records: Sequence[Record], a: str, b: str) -> Record:
    """Sides `a` and `b`: the deals both decided, how many alike, every other listed."""
    both = [r for r in records if decided(r[a]["status"]) and decided(r[b]["status"])]
    listed = [f"{r['deal']} ({title(a)} {r[a]['status']}, {title(b)} {r[b]['status']}"
              + (f", with -to 01ABCDE {r[b]['atomic']}" if "atomic" in r[b] else "") + ")"
              for r in both if differ(r, a, b)]
    return {"sides": [a, b], "both_decided": len(both), "agree": len(both) - len(listed),
            "disagreements": listed}


def times(records: Sequence[Record], side: str) -> Record:
    """A side's time: total, median, p90 and max of its deals (a timeout at the full
    limit)."""
    seconds = [r[side]["seconds"] for r in records]
    return {"total": sum(seconds), "median": statistics.median(seconds) if seconds else None,
            "p90": nearest_rank(seconds, 90), "max": max(seconds, default=None)}


def summary(records: Sequence[Record], sides: Sequence[str]) -> Record:
    """Every side's verdicts and times, its total time over the first side's, and the
    agreement of every pair of sides; the deals fc-solve's lines were refused on."""
    first = times(records, sides[0])["total"]
    per_side = {}
    for side in sides:
        spent = times(records, side)
        per_side[side] = {"verdicts": counts(records, side), "seconds": spent,
                          "time_over_first": spent["total"] / first if first else None}
        if not is_ours(side):
            per_side[side]["timeouts"] = sum(r[side]["timed_out"] for r in records)
            per_side[side]["refused"] = [f"{r['deal']} ({r[side]['refused']})"
                                         for r in records if "refused" in r[side]]
    return {"sides": per_side,
            "pairs": [agreement(records, a, b) for a, b in combinations(sides, 2)]}


SIDES_HEADER = ["variant", "side", "won/unw/unk", "refused", "s total", "s median", "s p90",
                "s max", "total / first"]
PAIRS_HEADER = ["variant", "side", "beside", "both decided", "agree", "differ"]


def _num(x: float | None, digits: int) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def side_rows(variant: str, summarised: Record) -> list[list[str]]:
    rows = []
    for side, s in summarised["sides"].items():
        won, unwinnable, unknown, refused = s["verdicts"]
        spent = s["seconds"]
        rows.append([variant, title(side), f"{won}/{unwinnable}/{unknown}", str(refused),
                     _num(spent["total"], 1), _num(spent["median"], 4), _num(spent["p90"], 3),
                     _num(spent["max"], 2), _num(s["time_over_first"], 2)])
    return rows


def pair_rows(variant: str, summarised: Record) -> list[list[str]]:
    return [[variant, title(p["sides"][0]), title(p["sides"][1]), str(p["both_decided"]),
             str(p["agree"]), str(len(p["disagreements"]))] for p in summarised["pairs"]]


def findings(variant: str, summarised: Record) -> list[str]:
    """The lines that list what the tables count: deals decided differently, lines our
    rules refused."""
    lines = [f"  {variant}, {title(p['sides'][0])} and {title(p['sides'][1])} differ: "
             f"{', '.join(p['disagreements'])}" for p in summarised["pairs"]
             if p["disagreements"]]
    lines += [f"  {variant}, {title(side)}'s line refused by our rules: {', '.join(s['refused'])}"
              for side, s in summarised["sides"].items() if s.get("refused")]
    return lines
