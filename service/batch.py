"""Runs over a range of deal numbers, for any game that numbers its deals: each deal's
line made by a work function (a batch's solve, a census's verdict), in parallel,
resumable, summarised. The work travels to the worker processes by value (a user's
rules file's variant too), so none of them reads a file. The lines of an --out file
carry the run's settings (solver/results.py), and only a run of the same settings
resumes it."""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from queue import SimpleQueue
from typing import Any, TextIO

from service.arguments import progress_bar, worker_pool
from solver.budget import Status
from solver.errors import InvalidInput
from solver.intervals import wilson_interval
from solver.results import Settings, check_resume, drop_cut_line, recorded, whole_lines

Records = Iterator[dict[str, Any]]
Work = Callable[[int], dict[str, Any]]  # a deal number's line: picklable, to go to workers
# The lines of some deals, in order, of those done in about so many seconds (0: all of
# them; the first always): picklable, to go to workers. A game that solves a run of
# deals faster than one deal at a time gives one (Runs.parts: the kernel's gives up a
# deal still searching when the seconds are over, so that a deal decided is written
# within them); else `each_deal` is one.
Part = Callable[[list[int], float], list[dict[str, Any]]]
SLICE = 0.25  # seconds a worker solves before it sends back its lines: what a Ctrl-C loses
PART = 1000  # deals handed to a worker at most at once


def each_deal(numbers: list[int], seconds: float, work: Work) -> list[dict[str, Any]]:
    """`work` of each deal in turn, as a Part: none started once `seconds` have passed."""
    started = time.perf_counter()
    lines: list[dict[str, Any]] = []
    for number in numbers:
        if lines and 0 < seconds <= time.perf_counter() - started:
            break
        lines.append(work(number))
    return lines


def in_pool(work: Work, jobs: int) -> Callable[[list[int]], Records]:
    """`work` (a picklable function of a deal number) over deals in a pool of `jobs`
    processes, lines in the order they finish."""
    return in_parts(partial(each_deal, work=work), jobs)


def in_parts(part: Part, jobs: int) -> Callable[[list[int]], Records]:
    """`part` over deals in a pool of `jobs` processes, lines in the order they finish:
    each worker is handed up to PART deals (fewer for a short run, so that none idles),
    solves them for about SLICE seconds and sends back the lines it has; the deals it did
    not come to are handed out again first."""
    def solve_many(todo: list[int]) -> Records:
        size = max(1, min(PART, len(todo) // (4 * jobs)))
        waiting = deque(todo[start:start + size] for start in range(0, len(todo), size))
        done: SimpleQueue[tuple[list[int], list[dict[str, Any]] | BaseException]] = \
            SimpleQueue()
        with worker_pool(jobs) as pool:
            running = 0
            while waiting or running:
                while waiting and running < jobs:
                    numbers = waiting.popleft()
                    pool.apply_async(part, (numbers, SLICE),
                                     callback=partial(_tell, done, numbers),
                                     error_callback=partial(_tell, done, numbers))
                    running += 1
                numbers, lines = done.get()
                running -= 1
                if isinstance(lines, BaseException):
                    raise lines
                if len(lines) < len(numbers):
                    waiting.appendleft(numbers[len(lines):])
                yield from lines
    return solve_many


def _tell(done: SimpleQueue[tuple[list[int], Any]], numbers: list[int], lines: Any) -> None:
    done.put((numbers, lines))


def runner(work: Work, jobs: int, dask: str | None,
           part: Part | None = None) -> Callable[[list[int]], Records]:
    """`work` over deals (or `part`, when the game gives a faster way: it then runs
    instead) on the Dask cluster `dask` names (`local`, or a scheduler's address:
    service/dask_batch.py, imported only then, since Dask is optional), else in a local
    pool of `jobs` processes."""
    if part is None:
        part = partial(each_deal, work=work)
    if dask is None:
        return in_parts(part, jobs)
    from service.dask_batch import on_dask

    return on_dask(dask, part)


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
    another budget), write a line each, with the run's `settings` (on standard output
    its metric alone), and summarise the deals by their last lines; a bar on stderr when
    it is a terminal or `progress` (--progress) asks for one."""
    for asked, flag in ((retry_unknown, "--retry-unknown"), (retry_unproven, "--retry-unproven")):
        if asked and out_path is None:
            raise InvalidInput(f"{flag} needs --out FILE.jsonl: the file whose deals to redo")
    wanted = list(deals)
    records = done_deals(out_path, settings, retry_unknown or retry_unproven)
    todo = [number for number in wanted
            if _to_run(records.get(number), settings, retry_unknown, retry_unproven)]
    recording = settings.carried(out_path is not None)
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
