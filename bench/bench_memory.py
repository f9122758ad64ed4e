"""A server's memory under hard optimal solves: `serve --workers 2 --memory-per-worker
MIB`, then as many `client solve` calls at once as --deals lists (hard Streets and Alleys
deals, each filling any table), the resident memory of the server and its workers read
from /proc every 20 ms. Prints each process's peak and the peak of their sum, against
the manifest's limit (docs/kubernetes.yaml: 1 GiB for 2 workers of 400 MiB)."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.support.memory import family_rss

SCRIPT = Path(sys.executable).parent / "fortress-solver"
MIB = 1 << 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memory-per-worker", type=int, default=400, metavar="MIB")
    parser.add_argument("--variant", default="streets-and-alleys")
    parser.add_argument("--deals", default="77,186,29,36",
                        help="the deals solved at once, comma-separated")
    parser.add_argument("--seconds", type=float, default=60.0, help="each solve's budget")
    parser.add_argument("--port", type=int, default=50071)
    args = parser.parse_args()
    log = Path("/tmp/bench-memory-serve.log")
    with log.open("w") as stderr:
        server = subprocess.Popen(
            [str(SCRIPT), "serve", "--port", str(args.port), "--workers", "2",
             "--memory-per-worker", str(args.memory_per_worker),
             "--max-workers-per-client", "2"],  # the calls all come from one address
            stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
    try:
        while not re.search(r"serving gRPC", log.read_text()):
            time.sleep(0.05)
        time.sleep(5)  # the workers import what searches need
        before = family_rss(server.pid)
        peaks: dict[int, int] = {}
        peak_sum = 0
        done = threading.Event()

        def watch() -> None:
            nonlocal peak_sum
            while not done.is_set():
                now = family_rss(server.pid)
                peak_sum = max(peak_sum, sum(now.values()))
                for pid, rss in now.items():
                    peaks[pid] = max(peaks.get(pid, 0), rss)
                time.sleep(0.02)

        answers: dict[int, dict[str, object]] = {}

        def solve(number: int) -> None:
            done_call = subprocess.run(
                [str(SCRIPT), "client", "solve", "--server", f"127.0.0.1:{args.port}",
                 "--variant", args.variant, "--deal", str(number), "--seconds",
                 str(args.seconds), "--memory", "100000", "--json",
                 # room to wait for a worker: each call searches its whole budget
                 "--deadline", str(3 * args.seconds)],
                capture_output=True, text=True, check=True)
            answers[number] = json.loads(done_call.stdout)

        watcher = threading.Thread(target=watch)
        watcher.start()
        started = time.perf_counter()
        calls = [threading.Thread(target=solve, args=(int(n),)) for n in args.deals.split(",")]
        for call in calls:
            call.start()
        for call in calls:
            call.join()
        wall = time.perf_counter() - started
        done.set()
        watcher.join()
    finally:
        server.terminate()
        server.wait(timeout=60)
    print(f"serve --workers 2 --memory-per-worker {args.memory_per_worker}; "
          f"{len(answers)} optimal solves at once of {args.variant} deals {args.deals}, "
          f"{args.seconds:g} s each, {wall:.0f} s in all")
    print(f"before: {sum(before.values()) / MIB:.0f} MiB in all "
          f"({', '.join(f'{rss / MIB:.0f}' for rss in before.values())})")
    print(f"peak: {peak_sum / MIB:.0f} MiB in all; per process "
          f"{', '.join(f'{rss / MIB:.0f}' for rss in sorted(peaks.values()))} MiB")
    for number, answer in sorted(answers.items()):
        stats = answer["stats"]
        assert isinstance(stats, dict)
        print(f"deal {number}: {answer['status']}, optimal {answer['optimal']}, length "
              f"{answer['length']}, lower bound {answer['lower_bound']}, tables at most "
              f"{stats['table_bytes'] / MIB:.0f} MiB, {stats['nodes']:,} nodes")


if __name__ == "__main__":
    main()
