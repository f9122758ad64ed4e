"""make bench-verdict: a whole range of Microsoft FreeCell deals decided by our command line
beside Freecell Solver's range solver, wall clock, in the same run.

It exists to time the question "which of these deals are winnable?" as each solver's user
asks it, start to finish: ours as

    fortress-solver batch --variant freecell --deals A-B --jobs 1 --mode verdict

(the process start, the dealing, the JSON lines written), fc-solve's as

    freecell-solver-range-parallel-solve A B (B-A+1) -l lg

(its range solver deals Microsoft's boards itself; -l lg is its looking-glass preset).
Both run on one core, one after the other, several times, the first of each repetition
alternating (A B, B A, A B, ...) so that machine noise falls on both; the medians and
their ratio are printed. Both outputs are read: ours a JSON line a deal, whose statuses
are counted; fc-solve's names each board it did not solve ("Unsolved Board No. N": its
scan exhausted; "Intractable Board No. N": a limit reached), every other board in the
range solved. The counts of every repetition are printed, and every deal where one
decided otherwise than the other. Before the runs, the first and the last deal of the
range are checked card for card against fc-solve's make-microsoft-freecell-board, so that
both solve the same boards.

    .venv/bin/python -m bench.bench_verdict_range [--deals 100001-132000] [--repeats 3]
        [--seconds S] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from bench import fcsolve
from bench.bench_family import INSTALL_HINT, num, render
from solver.beleaguered.board_text import read_board
from solver.beleaguered.deals import deal
from solver.beleaguered.variant import find_variant
from solver.budget import Status

RANGE_SOLVER = "freecell-solver-range-parallel-solve"
BOARD_MAKER = "make-microsoft-freecell-board"
DEFAULT_DEALS = "100001-132000"
SOLVED, UNSOLVABLE, UNKNOWN = (s.value for s in Status)
_NOT_SOLVED = re.compile(r"^(Unsolved|Intractable) Board No\. (\d+) ", re.MULTILINE)


@dataclass(frozen=True)
class Run:
    """One run of one side: its wall clock and its verdict of every deal."""

    seconds: float
    verdicts: dict[int, str]  # deal -> solved, unsolvable, unknown
    searching: float | None = None  # ours: the searches' own seconds, summed

    def counts(self) -> list[int]:
        found = Counter(self.verdicts.values())
        return [found[SOLVED], found[UNSOLVABLE], found[UNKNOWN]]


def ours_command(executable: str, deals: range, seconds: float | None) -> list[str]:
    return [executable, "batch", "--variant", "freecell", "--deals",
            f"{deals.start}-{deals.stop - 1}", "--jobs", "1", "--mode", "verdict",
            *(["--seconds", f"{seconds:g}"] if seconds is not None else [])]


def theirs_command(executable: str, deals: range) -> list[str]:
    return [executable, str(deals.start), str(deals.stop - 1), str(len(deals)), "-l", "lg"]


def timed(command: list[str]) -> tuple[float, str]:
    """The command's wall clock and standard output; its failure ends the benchmark."""
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"bench-verdict: {shlex.join(command)} failed (exit {done.returncode}): "
                 f"{done.stderr.strip()[-300:]}")
    return seconds, done.stdout


def run_ours(command: list[str], deals: range) -> Run:
    """Our batch: a JSON line a deal, every deal of the range once."""
    seconds, out = timed(command)
    verdicts, searching = {}, 0.0
    for line in out.splitlines():
        found = json.loads(line)
        verdicts[int(found["deal"])] = str(found["status"])
        searching += float(found["seconds"])
    if sorted(verdicts) != list(deals):
        sys.exit(f"bench-verdict: our batch answered {len(verdicts)} deals of {len(deals)}")
    return Run(seconds, verdicts, searching)


def run_theirs(command: list[str], deals: range) -> Run:
    """The range solver: every board it names unsolved or intractable, the rest solved."""
    seconds, out = timed(command)
    verdicts = dict.fromkeys(deals, SOLVED)
    for kind, number in _NOT_SOLVED.findall(out):
        verdicts[int(number)] = UNSOLVABLE if kind == "Unsolved" else UNKNOWN
    return Run(seconds, verdicts)


def same_boards(deals: range, maker: str | None) -> str:
    """Whether our first and last deal of the range are the boards of `maker`
    (make-microsoft-freecell-board): a line to print; a difference ends the benchmark."""
    if maker is None:
        return f"boards not checked: {BOARD_MAKER} is not on PATH"
    rules = find_variant("freecell")
    for number in {deals.start, deals.stop - 1}:
        theirs = subprocess.run([maker, "-t", str(number)], capture_output=True, text=True,
                                check=True).stdout
        if read_board(theirs, rules) != deal(number, rules):
            sys.exit(f"bench-verdict: our FreeCell deal {number} is not {BOARD_MAKER}'s")
    return f"deals {deals.start} and {deals.stop - 1}: the same cards as {BOARD_MAKER}'s"


def disagreements(ours: Run, theirs: Run) -> list[str]:
    """The deals both decided, differently."""
    decided = (SOLVED, UNSOLVABLE)
    return [f"{n} (ours {ours.verdicts[n]}, fc-solve {theirs.verdicts[n]})"
            for n in ours.verdicts
            if ours.verdicts[n] in decided and theirs.verdicts[n] in decided
            and ours.verdicts[n] != theirs.verdicts[n]]


def main(argv: Sequence[str] | None = None) -> None:
    from service.beleaguered.commands import deal_range

    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--deals", type=deal_range, default=deal_range(DEFAULT_DEALS),
                        metavar="A-B", help=f"Microsoft FreeCell deals (default {DEFAULT_DEALS})")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of each side, taking turns going first (default 3)")
    parser.add_argument("--seconds", type=float,
                        help="our batch's --seconds, each deal's budget (default: batch's own)")
    parser.add_argument("--fortress-solver", metavar="PATH",
                        default=str(Path(sys.executable).with_name("fortress-solver")),
                        help="our command (default: the one beside this Python)")
    parser.add_argument("--range-solver", default=RANGE_SOLVER, metavar="PATH",
                        help=f"fc-solve's range solver (default: {RANGE_SOLVER} on PATH)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)
    deals: range = args.deals
    if args.repeats < 1 or (args.seconds is not None and args.seconds <= 0):
        parser.error("--repeats and --seconds must be positive")
    if deals.stop - 1 > 0x7FFFFFFF:
        parser.error("--deals: Microsoft's deals end at 2147483647")
    ours_exe, theirs_exe = shutil.which(args.fortress_solver), shutil.which(args.range_solver)
    if ours_exe is None:
        sys.exit(f"bench-verdict: {args.fortress_solver!r} is not a command")
    if theirs_exe is None:
        sys.exit(f"bench-verdict: {args.range_solver!r} is not on PATH; install it with "
                 f"`{INSTALL_HINT}`")
    checked = same_boards(deals, shutil.which(BOARD_MAKER))
    ours_cmd = ours_command(ours_exe, deals, args.seconds)
    theirs_cmd = theirs_command(theirs_exe, deals)

    started = datetime.now().astimezone()
    runs: dict[str, list[Run]] = {"ours": [], "fc-solve": []}
    for k in range(args.repeats):
        for side in ("ours", "fc-solve") if k % 2 == 0 else ("fc-solve", "ours"):
            runs[side].append(run_ours(ours_cmd, deals) if side == "ours"
                              else run_theirs(theirs_cmd, deals))
            print(f"repetition {k + 1}, {side}: {runs[side][-1].seconds:.2f} s", file=sys.stderr)

    medians = {side: statistics.median(r.seconds for r in found) for side, found in runs.items()}
    command_line = shlex.join(["python", "-m", "bench.bench_verdict_range",
                               *(sys.argv[1:] if argv is None else argv)])
    print(f"{started:%Y-%m-%d %H:%M %Z}: {command_line}")
    print(f"ours:     {shlex.join(ours_cmd)}")
    print(f"fc-solve: {shlex.join(theirs_cmd)} ({fcsolve.version()})")
    print(f"{len(deals):,} deals, {args.repeats} repetitions, the first going first in turn; "
          f"{checked}\n")
    rows = [[str(k + 1), "ours" if k % 2 == 0 else "fc-solve",
             f"{runs['ours'][k].seconds:.2f}", f"{runs['ours'][k].searching or 0:.2f}",
             f"{runs['fc-solve'][k].seconds:.2f}",
             "/".join(map(str, runs["ours"][k].counts())),
             "/".join(map(str, runs["fc-solve"][k].counts()))]
            for k in range(args.repeats)]
    searching = statistics.median(r.searching or 0 for r in runs["ours"])
    rows.append(["median", "", f"{medians['ours']:.2f}", f"{searching:.2f}",
                 f"{medians['fc-solve']:.2f}", "", ""])
    print(render("wall clock (s) and verdicts (won/unwinnable/undecided)",
                 ["repetition", "first", "ours s", "its searches s", "fc-solve s", "ours",
                  "fc-solve"], rows))
    ratio = medians["fc-solve"] / medians["ours"] if medians["ours"] else None
    print(f"fc-solve / ours: {num(ratio, 2)} (medians); deals a second: ours "
          f"{len(deals) / medians['ours']:.0f}, fc-solve {len(deals) / medians['fc-solve']:.0f}")
    print("its searches: the seconds our batch's lines give, summed (the rest is the "
          "command's start, dealing, workers, output);\nfc-solve's unwinnable: its scan "
          "exhausted (Unsolved Board); undecided: a limit reached (Intractable Board)")
    differ = sorted({line for o, t in zip(runs["ours"], runs["fc-solve"], strict=True)
                     for line in disagreements(o, t)})
    varied = [side for side, found in runs.items()
              if any(r.verdicts != found[0].verdicts for r in found)]
    print(f"  verdicts differ: {', '.join(differ)}" if differ else "  verdicts differ on no deal")
    if varied:
        print(f"  verdicts changed between repetitions: {', '.join(varied)}")

    if args.json:
        with open(args.json, "w") as out:
            json.dump({"date": started.isoformat(timespec="seconds"), "command": command_line,
                       "ours": ours_cmd, "fc_solve": theirs_cmd, "medians": medians,
                       "ratio_fc_over_ours": ratio, "disagreements": differ,
                       "runs": {side: [{"seconds": r.seconds, "searching": r.searching,
                                        "counts": r.counts()}
                                       for r in found] for side, found in runs.items()}},
                      out, indent=1)


if __name__ == "__main__":
    main()
