"""Every game's hardest questions against one worker: `serve --workers 1
--memory-per-worker MIB` (patience by the Python reference: FORTRESS_SOLVER_ENGINE=python),
asked one after another by `client`, each asking for more memory than the worker has;
for each, the peak resident memory of the server's worker (its VmHWM, reset before each
question through /proc/PID/clear_refs), against the limit.

    .venv/bin/python -m bench.bench_worker_memory [--memory-per-worker 400]
        [--seconds 60] [--only NAME]... [--tree DIR]

--tree runs the server of another checkout (`git worktree add ../COMMIT COMMIT`) with
PYTHONPATH set to it, to set a commit's figures beside this tree's."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

from bench.bench_scale import CLI, free_port, process, wait_for_port
from solver.farbduell.data import load_tables
from solver.farbduell.rules import new_game
from tests.support.memory import family_rss

MIB = 1 << 20

# Two attackers of three units against the greedy defender: thousands of joint moves a
# node for the exhaustive search.
SIEGE = {"mode": "1v2", "units": [
    *({"id": f"{owner.lower()}{k}", "owner": owner, "might": might}
      for owner in ("A1", "A2") for k, might in enumerate((3, 3, 2), 1)),
    *({"id": f"d{k}", "owner": "D", "might": 3, "loc": f"O{k}"} for k in (1, 2, 3))]}


def positions(scratch: Path) -> dict[str, Path]:
    """The positions the questions read, written as JSON files."""
    tables = load_tables()
    made = {f"farbduell-{players}": new_game(tables["classic"], players, 1).to_json()
            for players in (2, 4, 6)}
    made["farbduell-tag-nacht-6"] = new_game(tables["tag_nacht"], 6, 1).to_json()
    made["siege"] = SIEGE
    files = {}
    for name, data in made.items():
        files[name] = scratch / f"{name}.json"
        files[name].write_text(json.dumps(data))
    return files


def questions(files: dict[str, Path]) -> dict[str, list[str]]:
    """Each question's `client` arguments."""
    streets = ["--variant", "streets-and-alleys", "--deal", "77"]
    return {
        "patience A* then greedy": ["solve", *streets],
        "patience IDA*": ["solve", *streets, "--algorithm", "idastar"],
        "ffk puzzle, 8 turns": ["ffk", "puzzle", "--start", "7", "--turns", "8"],
        "ffk hint, 1000 worlds": ["ffk", "hint", "--start", "7", "--worlds", "1000"],
        **{f"farbduell puzzle, {n} players": ["farbduell", "puzzle",
                                              str(files[f"farbduell-{n}"]), "--turns", "12"]
           for n in (2, 4, 6)},
        "farbduell puzzle, Tag & Nacht 6": ["farbduell", "puzzle",
                                            str(files["farbduell-tag-nacht-6"]),
                                            "--turns", "12"],
        "farbduell hint, 6 players": ["farbduell", "hint", str(files["farbduell-6"]),
                                      "--worlds", "1000"],
        "farbduell chain": ["farbduell", "chain", str(files["farbduell-2"])],
        "stronghold clear, search": ["stronghold", "clear", str(files["siege"]),
                                     "--method", "search", "--defender", "greedy"],
        "stronghold clear, CP-SAT": ["stronghold", "clear", str(files["siege"])],
    }


def peaks(pids: list[int]) -> dict[int, int]:
    """Each process's VmHWM in bytes."""
    found = {}
    for pid in pids:
        status = Path(f"/proc/{pid}/status").read_text()
        found[pid] = next(int(line.split()[1]) << 10 for line in status.splitlines()
                          if line.startswith("VmHWM:"))
    return found


def ask(address: str, args: list[str], seconds: float) -> tuple[str, float]:
    """The answer's verdict, and the seconds the call took."""
    started = time.perf_counter()
    done = subprocess.run([*CLI, "client", *args, "--server", address, "--seconds",
                           str(seconds), "--memory", "100000", "--deadline",
                           str(seconds + 60), "--json"],
                          capture_output=True, text=True, check=True)
    answer = json.loads(done.stdout)
    verdict = answer.get("status") or ("proven" if answer.get("proven") else "not proven")
    return str(verdict), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memory-per-worker", type=int, default=400, metavar="MIB")
    parser.add_argument("--seconds", type=float, default=60.0, help="each question's budget")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="a question to ask, by its name as printed (repeatable; all "
                        "when not given)")
    parser.add_argument("--tree", type=Path, help="the checkout whose server to run")
    args = parser.parse_args()
    env = {**os.environ, "FORTRESS_SOLVER_ENGINE": "python"}
    if args.tree is not None:
        env["PYTHONPATH"] = str(args.tree.resolve())
    port = free_port()
    limit = args.memory_per_worker
    print(f"serve --workers 1 --memory-per-worker {limit}"
          f"{f' of {args.tree}' if args.tree else ''}; each question {args.seconds:g} s")
    print("| question | verdict | seconds | worker peak MiB | of the limit |")
    print("|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch, process(
            [*CLI, "serve", "--port", str(port), "--workers", "1",
             "--memory-per-worker", str(limit)], cwd=args.tree, env=env) as server:
        wait_for_port(port)
        address = f"127.0.0.1:{port}"
        ask(address, ["solve", "--deal", "2"], args.seconds)  # the worker is up
        for name, question in questions(positions(Path(scratch))).items():
            if args.only and name not in args.only:
                continue
            others = [pid for pid in family_rss(server.pid) if pid != server.pid]
            for pid in others:
                Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM back to VmRSS
            verdict, seconds = ask(address, question, args.seconds)
            worker = max(peaks(others).values())
            print(f"| {name} | {verdict} | {seconds:.1f} | {worker / MIB:.0f} | "
                  f"{100 * worker / (limit * MIB):.0f} % |", flush=True)


if __name__ == "__main__":
    main()
