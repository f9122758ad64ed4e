"""Mutated positions through every game's commands: how many crash (a Python exception
escaping the command line, instead of an answer or one line naming the fault).

    python -m bench.fuzz_positions --inputs 10000 --seed 1
    python -m bench.fuzz_positions --inputs 2000 --server 127.0.0.1:50051   # the clients

Each input is a real position (from the games' `deal` commands and examples) mutated
a few times: a value replaced by another JSON value (huge, negative, a list where a
card goes, ...), a key dropped or added, a list item dropped or doubled, the whole
nested deep, or the bytes spoiled (not UTF-8, a byte-order mark, truncated). It runs
in-process through `service.cli.main` with small budgets; a crash prints its command,
input and traceback, and the exit status is 1 when any input crashed. With `--server`
the same commands run as `fortress-solver client ...` against that server, whose
answers and refusals must be the command line's.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import random
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from service.arguments import add_progress, progress_bar
from service.cli import main

# The commands of each game, with budgets small enough for thousands of runs.
COMMANDS: dict[str, list[list[str]]] = {
    "beleaguered-fortress": [["solve", "{}", "--seconds", "0.2", "--json"],
                             ["hint", "{}", "--seconds", "0.2"]],
    "fortress-fight-kingdom": [["ffk", "puzzle", "{}", "--seconds", "0.2"],
                               ["ffk", "puzzle", "{}", "--seconds", "0.2", "--turns", "2"],
                               ["ffk", "hint", "{}", "--seconds", "0.2", "--worlds", "2"]],
    "farbduell": [["farbduell", "puzzle", "{}", "--seconds", "0.2"],
                  ["farbduell", "chain", "{}", "--seconds", "0.2"],
                  ["farbduell", "hint", "{}", "--seconds", "0.2", "--worlds", "2"]],
    "stronghold": [["stronghold", "plan", "{}", "--seconds", "0.2"],
                   ["stronghold", "clear", "{}", "--seconds", "0.2", "--max-turns", "6"],
                   ["stronghold", "race", "{}", "--seconds", "0.2", "--max-turns", "6",
                    "--defender", "greedy"]],
}

_STRONGHOLD = {"mode": "1v3", "turn": 1, "units": [
    {"id": "a1", "owner": "A1", "might": 3}, {"id": "a2", "owner": "A2", "might": 2},
    {"id": "a3", "owner": "A3", "might": 2, "assault": 1},
    {"id": "d1", "owner": "D", "might": 2, "loc": "O1"},
    {"id": "d2", "owner": "D", "might": 1, "loc": "O2", "shield": 1}]}


def seeds() -> dict[str, list[Any]]:
    """Real positions of every game, from their own `deal` commands."""
    def dealt(*argv: str) -> Any:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(list(argv)) == 0
        return json.loads(out.getvalue())

    return {
        "beleaguered-fortress": [dealt("deal", str(n), "--json") for n in (1, 2, 617)],
        "fortress-fight-kingdom": [dealt("ffk", "deal", "--seed", str(n)) for n in (1, 2)],
        "farbduell": [dealt("farbduell", "deal", "--seed", str(n), "--table", table)
                      for n, table in ((1, "classic"), (2, "belagerung"), (3, "tag_nacht"))],
        "stronghold": [_STRONGHOLD],
    }


_ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 7, 10**20, -10**20, 1.5, float("1e308"), "", "x", "7H",
    "red-7", "joker", "A1", "D", "O1", "base", [], [1], ["7H"], [["7H"]], {}, {"a": 1},
    {"card": "7H"}, "play katapult", 2**63, 2**64, "\u0000", "ü" * 50,
]


def mutate(value: Any, rng: random.Random) -> Any:
    """One mutation somewhere in `value` (a copy)."""
    value = copy.deepcopy(value)
    path = _random_path(value, rng)
    if not path:
        return rng.choice(_ODD_VALUES + [[value], {"x": value}])
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    action = rng.random()
    if action < 0.45:
        parent[key] = rng.choice(_ODD_VALUES)
    elif action < 0.6:
        parent[key] = _nudge(parent[key], rng)
    elif action < 0.75 and isinstance(parent, dict):
        del parent[key]
    elif action < 0.85 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif action < 0.9 and isinstance(parent, list):
        del parent[key]
    elif action < 0.95 and isinstance(parent, dict):
        parent[rng.choice(["extra", "game", "winner", "seed", "round"])] = rng.choice(_ODD_VALUES)
    else:
        parent[key] = [parent[key]] if rng.random() < 0.5 else {"v": parent[key]}
    return value


def _nudge(item: Any, rng: random.Random) -> Any:
    if isinstance(item, bool):
        return not item
    if isinstance(item, int):
        return item + rng.choice([-2, -1, 1, 2, 100, -100, 10**9])
    if isinstance(item, str) and item:
        return item[:-1] if rng.random() < 0.5 else item + rng.choice("7XS-")
    return item


def _random_path(value: Any, rng: random.Random) -> list[Any]:
    path: list[Any] = []
    while isinstance(value, (dict, list)) and value and rng.random() < 0.8:
        key = rng.choice(list(value) if isinstance(value, dict) else range(len(value)))
        path.append(key)
        value = value[key]
    return path


def spoil(raw: bytes, rng: random.Random) -> bytes:
    """Bytes a file could hold instead of clean JSON."""
    choice = rng.randrange(4)
    if choice == 0:
        return b"\xef\xbb\xbf" + raw
    if choice == 1:
        cut = rng.randrange(len(raw) + 1)
        return raw[:cut] + b"\xff\xfe" + raw[cut:]
    if choice == 2:
        return raw[: rng.randrange(len(raw) + 1)]
    return b"[" * 5000 + raw + b"]" * 5000


def run(argv: list[str]) -> tuple[str, str | None]:
    """('ok' | 'refused' | 'crash', the traceback of a crash)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    except Exception:
        return "crash", traceback.format_exc()
    if code == 2 and len(err.getvalue().strip().splitlines()) != 1:
        return "crash", f"exit 2 with stderr:\n{err.getvalue()}"
    if code == 1:  # a server that failed (INTERNAL, UNKNOWN, ...)
        return "crash", f"exit 1 with stderr:\n{err.getvalue()}"
    return ("ok" if code == 0 else "refused"), None


def main_(arguments: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=2000, help="inputs in all (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="the mutations' seed (default 1)")
    parser.add_argument("--games", default=",".join(COMMANDS),
                        help="comma-separated games (default: all)")
    parser.add_argument("--server", metavar="HOST:PORT",
                        help="run the client commands against this server (default: local)")
    add_progress(parser)
    args = parser.parse_args(arguments)
    rng = random.Random(args.seed)
    games = args.games.split(",")
    positions = seeds()
    tally: Counter[tuple[str, str]] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "position.json"
        for k in progress_bar(range(args.inputs), total=args.inputs, unit="input",
                              forced=args.progress):
            game = games[k % len(games)]
            data = rng.choice(positions[game])
            for _ in range(rng.choice([1, 1, 2, 3])):
                data = mutate(data, rng)
            raw = json.dumps(data).encode()
            if rng.random() < 0.05:
                raw = spoil(raw, rng)
            path.write_bytes(raw)
            command = [part.replace("{}", str(path)) for part in rng.choice(COMMANDS[game])]
            if args.server:
                command = ["client", *command, "--server", args.server]
            outcome, trace = run(command)
            tally[game, outcome] += 1
            if trace is not None:
                print(f"CRASH {' '.join(command)}\n{raw[:2000]!r}\n{trace}", file=sys.stderr)
    print(f"{'game':24} {'ok':>6} {'refused':>8} {'crash':>6}")
    for game in games:
        print(f"{game:24} {tally[game, 'ok']:6} {tally[game, 'refused']:8} "
              f"{tally[game, 'crash']:6}")
    return 1 if any(outcome == "crash" for _, outcome in tally) else 0


if __name__ == "__main__":
    sys.exit(main_())
