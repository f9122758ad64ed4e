"""Runs over a range of deal numbers, for any game that numbers its deals: each deal's
line made by a work function (a batch's solve, a census's verdict), in parallel,
resumable, summarised. The work travels to the worker processes by value (a user's
rules file's variant too), so none of them reads a file. The lines of an --out file
carry the run's settings (solver/results.py), and only a run of the same settings
resumes it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from service.arguments import progress_bar, worker_pool
from solver.budget import Status
from solver.errors import InvalidInput
from solver.intervals import wilson_interval
from solver.results import Settings, check_resume, drop_cut_line, recorded, whole_lines

Records = Iterator[dict[str, Any]]
Work = Callable[[int], dict[str, Any]]  # a deal number's line: picklable, to go to workers


def in_pool(work: Work, jobs: int) -> Callable[[list[int]], Records]:
    """`work` (a picklable function of a deal number) over deals in a pool of `jobs`
    processes, lines in the order they finish."""
    def solve_many(todo: list[int]) -> Records:
        with worker_pool(jobs) as pool:
            yield from pool.imap_unordered(work, todo, chunksize=4)
    return solve_many


def runner(work: Work, jobs: int, dask: str | None) -> Callable[[list[int]], Records]:
    """`work` over deals on the Dask cluster `dask` names (`local`, or a scheduler's
    address: service/dask_batch.py, imported only then, since Dask is optional), else in
    a local pool of `jobs` processes."""
    if dask is None:
        return in_pool(work, jobs)
    from service.dask_batch import on_dask

    return on_dask(dask, work)


def done_deals(path: Path | None, settings: Settings,
               retrying: bool = False) -> dict[int, dict[str, Any]]:
    """Lines already in the output file, by deal (a deal's last line), so a rerun skips
    them; a file of other settings is refused (check_resume). A last line without its
    newline (a run killed mid-write) is cut from the file: its deal is run again, and the
    lines appended start on a line of their own."""
    if path is None or not path.exists():
        return {}
    raw = path.read_bytes()
    lines = []
    for number, line in whole_lines(raw):
        record = _result(line)
        if record is None:  # not a file of ours: refused before anything is cut
            raise InvalidInput(f"{path} line {number} is not a batch result: "
                               f"{line[:60].decode(errors='replace')!r}")
        lines.append((number, record))
    if lines:
        check_resume(path, recorded(path, lines), settings, retrying)
    drop_cut_line(path, raw)
    return {record["deal"]: record for _, record in lines}


def _to_run(record: dict[str, Any] | None, settings: Settings, retry_unknown: bool,
            retry_unproven: bool) -> bool:
    """Whether a deal is run: one without a line; with --retry-unknown one whose line is
    `unknown`, with --retry-unproven one won without its optimal length proven, each
    within another budget (within this one it would come out the same)."""
    if record is None:
        return True
    unknown = record["status"] == Status.UNKNOWN.value
    unproven = record["status"] == Status.SOLVED.value and not record.get("optimal")
    if not (retry_unknown and unknown or retry_unproven and unproven):
        return False
    found = Settings.of_line(record)
    return found is not None and found.budget != settings.budget


def _result(line: bytes) -> dict[str, Any] | None:
    """The record of one line of the output file, None when it holds none."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if isinstance(record, dict) and type(record.get("deal")) is int and "status" in record:
        return record
    return None


@dataclass(frozen=True)
class Summary:
    total: int
    solvable: int
    unsolvable: int
    unknown: int
    seconds: float
    processed: int

    def wilson_interval(self) -> tuple[float, float]:
        """95 % interval of the solvable share among decided deals."""
        return wilson_interval(self.solvable, self.solvable + self.unsolvable)

    def __str__(self) -> str:
        decided = self.solvable + self.unsolvable
        low, high = self.wilson_interval()
        share = self.solvable / decided if decided else 0.0
        rate = self.processed / self.seconds if self.seconds > 0 else 0.0
        return (
            f"{self.total} deals: {self.solvable} solvable, {self.unsolvable} unsolvable, "
            f"{self.unknown} unknown; solvable share {share:.1%} "
            f"(95 % interval {low:.1%}-{high:.1%}); "
            f"{self.processed} run in {self.seconds:.1f} s ({rate:.1f} deals/s)"
        )


def run_batch(
    deals: Iterable[int],
    solve_many: Callable[[list[int]], Records],
    settings: Settings,
    out: TextIO,
    out_path: Path | None = None,
    progress: bool = False,
    retry_unknown: bool = False,
    retry_unproven: bool = False,
) -> Summary:
    """Solve the deals not yet in `out_path` (and with `retry_unknown` those it has as
    `unknown`, with `retry_unproven` those won without a proven optimal length, within
    another budget), write a line each, with the run's `settings` when it goes to
    `out_path`, and summarise the deals by their last lines; a bar on stderr when it is a
    terminal or `progress` (--progress) asks for one."""
    for asked, flag in ((retry_unknown, "--retry-unknown"), (retry_unproven, "--retry-unproven")):
        if asked and out_path is None:
            raise InvalidInput(f"{flag} needs --out FILE.jsonl: the file whose deals to redo")
    wanted = list(deals)
    records = done_deals(out_path, settings, retry_unknown or retry_unproven)
    todo = [number for number in wanted
            if _to_run(records.get(number), settings, retry_unknown, retry_unproven)]
    recording = {} if out_path is None else settings.fields()
    started = time.perf_counter()
    with progress_bar(total=len(todo), unit="deal", forced=progress) as bar:
        for found in solve_many(todo):
            line = found | recording
            out.write(json.dumps(line) + "\n")
            out.flush()
            records[line["deal"]] = line
            bar.update()
    statuses = [records[number]["status"] for number in wanted]
    return Summary(
        total=len(wanted),
        solvable=statuses.count("solved"),
        unsolvable=statuses.count("unsolvable"),
        unknown=statuses.count("unknown"),
        seconds=time.perf_counter() - started,
        processed=len(todo),
    )
