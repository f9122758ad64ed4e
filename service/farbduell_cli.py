"""`fortress-solver farbduell ...`: go-out chains, puzzles, hints and self-play.

`fortress-solver client farbduell chain|puzzle|hint` reads, checks and prints the same
way; only the search is the server's.
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from service.selfplay_cli import add_selfplay, play_all, read_bots, report
from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.farbduell.bots import BOTS, GameResult, play_game
from solver.farbduell.chains import OBJECTIVES, Chain, best_chain
from solver.farbduell.engine import State, load, new_game, to_json
from solver.farbduell.hints import HINT_BUDGET, Hint, Settings, hint
from solver.farbduell.puzzles import PuzzleAnswer, solve_puzzle
from solver.farbduell.tables import Table, load_tables
from solver.selfplay import seatings

if TYPE_CHECKING:
    from service.client import Client


def add_commands(commands: Any, positive: Any) -> None:
    """The `farbduell` command and its subcommands; `positive` reads a number > 0."""
    game = commands.add_parser("farbduell", help="Farbduell: chains, puzzles, hints, self-play")
    sub = game.add_subparsers(dest="farbduell_command", required=True,
                              parser_class=type(game))
    tables = sorted(load_tables())

    deal = sub.add_parser("deal", help="the starting position of a shuffled game, as JSON")
    deal.add_argument("--table", choices=tables, default="classic")
    deal.add_argument("--players", type=positive(int), default=2)
    deal.add_argument("--seed", type=int, default=1)

    _add_searches(sub, positive)

    selfplay = add_selfplay(sub, positive, BOTS)
    selfplay.add_argument("--table", choices=tables, default="classic")
    selfplay.add_argument("--players", type=positive(int), default=2)


def add_client_commands(commands: Any, positive: Any) -> None:
    """`client farbduell chain|puzzle|hint`: the local commands' arguments and the server
    to ask."""
    game = commands.add_parser("farbduell", help="Farbduell chains, puzzles and hints")
    sub = game.add_subparsers(dest="farbduell_command", required=True,
                              parser_class=type(game))
    for command in _add_searches(sub, positive):
        command.add_argument("--server", required=True, metavar="HOST:PORT")


def _add_searches(sub: Any, positive: Any) -> list[argparse.ArgumentParser]:
    """chain, puzzle and hint."""
    chain = sub.add_parser("chain", help="go out before the opponent's turn (CP-SAT)")
    chain.add_argument("file", help="position JSON file, or - for standard input")
    chain.add_argument("--objective", choices=OBJECTIVES, default="cards",
                       help="what the longest chain maximises when going out is impossible")
    chain.add_argument("--seconds", type=positive(float), default=10.0)
    chain.add_argument("--json", action="store_true")

    puzzle = sub.add_parser("puzzle", help="force a win within N own turns (all cards known)")
    puzzle.add_argument("file", help="position JSON file, or - for standard input")
    puzzle.add_argument("--turns", type=positive(int), default=1)
    puzzle.add_argument("--seconds", type=positive(float), default=60.0)
    puzzle.add_argument("--nodes", type=positive(int))
    puzzle.add_argument("--json", action="store_true")

    advice = sub.add_parser("hint", help="the best play from what the player to move sees")
    advice.add_argument("file", help="position JSON file, or - for standard input")
    advice.add_argument("--seconds", type=positive(float), default=HINT_BUDGET.seconds)
    advice.add_argument("--worlds", type=positive(int), default=Settings().worlds)
    advice.add_argument("--seed", type=int, default=0)
    advice.add_argument("--json", action="store_true")
    return [chain, puzzle, advice]


def run(args: argparse.Namespace) -> None:
    tables = load_tables()
    {"deal": _deal, "chain": _chain, "puzzle": _puzzle, "hint": _hint,
     "selfplay": _selfplay}[args.farbduell_command](args, tables)


def run_remote(args: argparse.Namespace, client: Client) -> None:
    """`client farbduell chain|puzzle|hint`: as the local command, with the search done by
    `client`."""
    {"chain": _chain, "puzzle": _puzzle, "hint": _hint}[args.farbduell_command](
        args, load_tables(), client)


def _read(path: str, tables: dict[str, Table]) -> tuple[Any, State]:
    """The position's JSON value and its state."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text()
    except OSError as err:
        raise InvalidInput(f"cannot read {path}: {err.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InvalidInput(f"{path} is not JSON: {err}") from None
    return data, load(data, tables)


def _deal(args: argparse.Namespace, tables: dict[str, Table]) -> None:
    try:
        state = new_game(tables[args.table], args.players, args.seed)
    except ValueError as err:
        raise InvalidInput(str(err)) from None
    print(json.dumps(to_json(state)))


def _chain(args: argparse.Namespace, tables: dict[str, Table],
           client: Client | None = None) -> None:
    data, state = _read(args.file, tables)
    budget = Budget(seconds=args.seconds, nodes=None, table_entries=None)
    if client is None:
        found = best_chain(state, args.objective, budget)
    else:
        found = client.farbduell_chain(data, state.table, args.objective, budget)
    if args.json:
        print(json.dumps(chain_json(found)))
    elif found.status is Status.UNKNOWN:
        print(f"unknown: no chain found within the budget ({found.stats.seconds:.2f} s)")
    else:
        verdict = "goes out" if found.goes_out else "cannot go out; longest chain"
        proof = "optimal" if found.optimal else "not proven optimal"
        print(f"{verdict}: {found.cards} cards, {found.points} points ({proof}, "
              f"{found.stats.seconds:.3f} s)")
        print(", ".join(str(play) for play in found.plays) or "(no card can be played)")


def chain_json(found: Chain) -> dict[str, Any]:
    return {"status": found.status.value, "goes_out": found.goes_out,
            "plays": [str(play) for play in found.plays], "cards": found.cards,
            "points": found.points, "optimal": found.optimal,
            "seconds": round(found.stats.seconds, 6)}


def _puzzle(args: argparse.Namespace, tables: dict[str, Table],
            client: Client | None = None) -> None:
    data, state = _read(args.file, tables)
    budget = Budget(seconds=args.seconds, nodes=args.nodes, table_entries=None)
    if client is None:
        answer = solve_puzzle(state, args.turns, budget)
    else:
        answer = client.farbduell_puzzle(data, state.table, args.turns, budget)
    if args.json:
        print(json.dumps(puzzle_json(answer)))
        return
    stats = f"({answer.stats.nodes} nodes, {answer.stats.seconds:.2f} s)"
    if answer.status is Status.UNSOLVABLE:
        print(f"player {state.to_move} cannot force a win within {args.turns} turns: "
              f"proven {stats}")
    elif answer.status is Status.UNKNOWN:
        print(f"unknown: the budget ran out {stats}")
    else:
        print(f"player {state.to_move} wins in {answer.turns} turns {stats}")
        for n, (seat, action) in enumerate(answer.line, 1):
            print(f"{n:3}. player {seat}: {action}")


def puzzle_json(answer: PuzzleAnswer) -> dict[str, Any]:
    return {"status": answer.status.value, "turns": answer.turns,
            "line": [{"player": seat, "action": str(action)} for seat, action in answer.line],
            "nodes": answer.stats.nodes, "seconds": round(answer.stats.seconds, 6)}


def _hint(args: argparse.Namespace, tables: dict[str, Table],
          client: Client | None = None) -> None:
    data, state = _read(args.file, tables)
    budget = Budget(seconds=args.seconds, nodes=None, table_entries=None)
    if client is None:
        advice = hint(state, budget, Settings(worlds=args.worlds), args.seed)
    elif args.seed < 0:  # the request's seed is unsigned
        raise InvalidInput(f"--seed must be 0 or more for a server, not {args.seed}")
    else:
        advice = client.farbduell_hint(data, state.table, budget, args.worlds, args.seed)
    if args.json:
        print(json.dumps(hint_json(advice)))
    elif advice.action is None:
        print(f"unknown: the budget ran out ({advice.stats.seconds:.2f} s)")
    else:
        value = "" if advice.value is None else f" (chance of winning {advice.value:.2f})"
        print(f"{advice.action}{value}")
        if advice.runners_up:
            print("runners-up: " + ", ".join(f"{action} {value:.2f}"
                                             for action, value in advice.runners_up))


def hint_json(advice: Hint) -> dict[str, Any]:
    return {"status": advice.status.value,
            "action": None if advice.action is None else str(advice.action),
            "value": None if advice.value is None else round(advice.value, 4),
            "runners_up": [{"action": str(action), "value": round(value, 4)}
                           for action, value in advice.runners_up],
            "seconds": round(advice.stats.seconds, 6)}


def _selfplay(args: argparse.Namespace, tables: dict[str, Table]) -> None:
    bots = read_bots(args.bots, BOTS)
    config = tables[args.table].config
    if not config.min_players <= args.players <= config.max_players:
        raise InvalidInput(f"--players must be {config.min_players} to {config.max_players}")
    games = seatings(bots, args.games, args.seed, args.players)
    results = play_all(partial(_play, table=tables[args.table]), games, args.jobs)
    report(bots, results, args.seed, args.json,
           about={"table": args.table, "players": args.players})


def _play(game: tuple[tuple[str, ...], int], table: Table) -> GameResult:
    seats, seed = game
    return play_game(seats, seed, table)
