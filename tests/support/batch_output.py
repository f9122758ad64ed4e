"""What `fortress-solver batch` writes: its JSON lines, and the summary line it ends
with on stderr, checked against the lines."""

from __future__ import annotations

import json
import re

import pytest

SUMMARY = re.compile(
    r"^(\d+) deals: (\d+) solvable, (\d+) unsolvable, (\d+) unknown; "
    r"solvable share ([\d.]+)% \(95 % interval ([\d.]+)%-([\d.]+)%\); "
    r"(\d+) run in [\d.]+ s \([\d.]+ deals/s\)$"
)


def batch_records(text: str) -> list[dict]:
    """The JSON lines of a batch's output."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def batch_summary(err: str) -> re.Match:
    """The summary, the last line of a batch's stderr, matched."""
    last = err.rstrip("\n").splitlines()[-1]
    assert "solvable share" in last and "95 % interval" in last and "unknown" in last, last
    match = SUMMARY.match(last)
    assert match, last
    return match


def check_summary(match: re.Match, records: list[dict], processed: int) -> None:
    """The summary counts the lines' statuses, its share and interval agree with them,
    and `processed` deals were run."""
    total, solvable, unsolvable, unknown = (int(match.group(i)) for i in range(1, 5))
    statuses = [r["status"] for r in records]
    assert total == len(records)
    assert solvable == statuses.count("solved")
    assert unsolvable == statuses.count("unsolvable")
    assert unknown == statuses.count("unknown")
    share, low, high = (float(match.group(i)) for i in range(5, 8))
    decided = solvable + unsolvable
    assert share == pytest.approx(100 * solvable / decided, abs=0.05)
    assert low <= share <= high
    assert 0 <= low and high <= 100
    assert int(match.group(8)) == processed
