"""`fortress-solver farbduell ...`: go-out chains, puzzles, hints, deals and self-play.

`fortress-solver client farbduell chain|puzzle|hint` is the same command asking a
server (service/asking.py).
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from typing import Any

from service.arguments import add_server, positive, read_position, seconds_of
from service.asking import Ask, here, remotely
from service.selfplay_cli import add_selfplay, play_all, read_bots, report
from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.farbduell.bots import BOTS, GameResult, play_game
from solver.farbduell.chains import OBJECTIVES, Chain
from solver.farbduell.data import Table, default_tables
from solver.farbduell.game import (
    CHAIN,
    GAME,
    HINT,
    PUZZLE,
    ChainOptions,
    HintOptions,
    PuzzleOptions,
)
from solver.farbduell.hints import HINT_BUDGET, Hint
from solver.farbduell.position import Position
from solver.farbduell.puzzles import PuzzleAnswer
from solver.farbduell.rules import new_game
from solver.selfplay import seatings

_MESSAGES = "service.farbduell.messages"  # how a client asks (imported by those alone)

_DEALT = "fortress-solver farbduell deal --seed 3 | "  # the examples' position, on stdin
_SERVER = "--server 127.0.0.1:50051"


def add_commands(commands: Any) -> None:
    """The `farbduell` command and its subcommands."""
    game = commands.add_parser(
        "farbduell", help="Farbduell: chains, puzzles, hints, self-play",
        description="Farbduell, the colour-and-number shedding game: shuffled starts, "
                    "go-out chains, puzzles, hints and self-play.",
        epilog=f"example:\n  {_DEALT}fortress-solver farbduell chain -")
    sub = game.add_subparsers(dest="farbduell_command", required=True,
                              parser_class=type(game),
                              help="what to do (each has its own --help)")
    tables = sorted(default_tables())

    deal = sub.add_parser(
        "deal", help="the starting position of a shuffled game, as JSON",
        description="Print the starting position of a shuffled game, as JSON.",
        epilog="example:\n  fortress-solver farbduell deal --table belagerung --players 3 "
               "--seed 7")
    deal.add_argument("--table", choices=tables, default="classic", help="the table to deal")
    deal.add_argument("--players", type=positive(int), default=2, help="seats")
    deal.add_argument("--seed", type=int, default=1, help="the shuffle")
    deal.set_defaults(run=_deal)

    chain, puzzle, advice = _add_searches(sub, server=False)
    chain.set_defaults(run=_chain)
    puzzle.set_defaults(run=_puzzle)
    advice.set_defaults(run=_hint)

    selfplay = add_selfplay(sub, positive, BOTS, "fortress-solver farbduell selfplay "
                            "--table classic --bots hint,greedy --games 100 --seed 1")
    selfplay.add_argument("--table", choices=tables, default="classic",
                          help="the table to play on")
    selfplay.add_argument("--players", type=positive(int), default=2, help="seats")
    selfplay.set_defaults(run=_selfplay)


def add_client_commands(commands: Any) -> None:
    """`client farbduell chain|puzzle|hint`: the local commands' arguments and the server
    to ask."""
    game = commands.add_parser(
        "farbduell", help="Farbduell chains, puzzles and hints",
        description="Farbduell chains, puzzles and hints, answered by a server.",
        epilog=f"example:\n  {_DEALT}fortress-solver client farbduell chain - {_SERVER}")
    sub = game.add_subparsers(dest="farbduell_command", required=True,
                              parser_class=type(game),
                              help="what to ask (each has its own --help)")
    chain, puzzle, advice = _add_searches(sub, server=True)
    chain.set_defaults(run_remote=remotely(_chain, _MESSAGES))
    puzzle.set_defaults(run_remote=remotely(_puzzle, _MESSAGES))
    advice.set_defaults(run_remote=remotely(_hint, _MESSAGES))
    for command in (chain, puzzle, advice):
        add_server(command)


def _add_searches(sub: Any, server: bool) -> tuple[argparse.ArgumentParser, ...]:
    """chain, puzzle and hint; each help's example asks about a dealt position, of a
    server when `server`."""
    def add(name: str, summary: str) -> argparse.ArgumentParser:
        asked = f"client farbduell {name} - {_SERVER}" if server else f"farbduell {name} -"
        parser: argparse.ArgumentParser = sub.add_parser(
            name, help=summary, description=f"Farbduell: {summary}.",
            epilog=f"example:\n  {_DEALT}fortress-solver {asked}")
        parser.add_argument("file", help="position JSON file, or - for standard input")
        return parser

    chain = add("chain", CHAIN.summary)
    chain.add_argument("--objective", choices=OBJECTIVES, default="cards",
                       help="what the longest chain maximises when going out is impossible")
    chain.add_argument("--seconds", type=positive(float), default=10.0,
                       help="time budget in seconds")
    chain.add_argument("--json", action="store_true", help="print one JSON object")

    puzzle = add("puzzle", PUZZLE.summary)
    puzzle.add_argument("--turns", type=positive(int), default=1,
                        help="own turns to win within")
    puzzle.add_argument("--seconds", type=positive(float), default=60.0,
                        help="time budget in seconds")
    puzzle.add_argument("--nodes", type=positive(int),
                        help="node budget: the search nodes to stop after (no limit when "
                             "not given)")
    puzzle.add_argument("--json", action="store_true", help="print one JSON object")

    advice = add("hint", HINT.summary)
    advice.add_argument("--seconds", type=positive(float), default=HINT_BUDGET.seconds,
                        help="time budget in seconds")
    advice.add_argument("--worlds", type=positive(int), default=HintOptions().worlds,
                        help="samples of the unseen cards")
    advice.add_argument("--seed", type=int, default=0, help="the samples' seed")
    advice.add_argument("--json", action="store_true", help="print one JSON object")
    return chain, puzzle, advice


def _deal(args: argparse.Namespace) -> None:
    try:
        state = new_game(default_tables()[args.table], args.players, args.seed)
    except ValueError as err:
        raise InvalidInput(str(err)) from None
    print(json.dumps(state.to_json()))


# ---------------------------------------------------------------- chain


def _chain(args: argparse.Namespace, ask: Ask = here) -> None:
    state = read_position(GAME, args.file)
    _print_chain(ask(CHAIN, state, ChainOptions(args.objective), seconds_of(args)), args.json)


def _print_chain(found: Chain, as_json: bool) -> None:
    if as_json:
        print(json.dumps(found.to_json()))
    elif found.status is Status.UNKNOWN:
        print(f"unknown: no chain found within the budget ({found.stats.seconds:.2f} s)")
    else:
        verdict = "goes out" if found.goes_out else "cannot go out; longest chain"
        proof = "optimal" if found.optimal else "not proven optimal"
        print(f"{verdict}: {found.cards} cards, {found.points} points ({proof}, "
              f"{found.stats.seconds:.3f} s)")
        print(", ".join(str(play) for play in found.plays) or "(no card can be played)")


# ---------------------------------------------------------------- puzzle


def _puzzle_budget(args: argparse.Namespace) -> Budget:
    return Budget(seconds=args.seconds, nodes=args.nodes, table_entries=None)


def _puzzle(args: argparse.Namespace, ask: Ask = here) -> None:
    state = read_position(GAME, args.file)
    answer = ask(PUZZLE, state, PuzzleOptions(args.turns), _puzzle_budget(args))
    _print_puzzle(answer, state, args.turns, args.json)


def _print_puzzle(answer: PuzzleAnswer, state: Position, turns: int, as_json: bool) -> None:
    if as_json:
        print(json.dumps(answer.to_json()))
        return
    stats = f"({answer.stats.nodes} nodes, {answer.stats.seconds:.2f} s)"
    if answer.status is Status.UNSOLVABLE:
        print(f"player {state.to_move} cannot force a win within {turns} turns: "
              f"proven {stats}")
    elif answer.status is Status.UNKNOWN:
        print(f"unknown: the budget ran out {stats}")
    else:
        print(f"player {state.to_move} wins in {answer.turns} turns {stats}")
        for n, (seat, action) in enumerate(answer.line, 1):
            print(f"{n:3}. player {seat}: {action}")


# ---------------------------------------------------------------- hint


def _hint(args: argparse.Namespace, ask: Ask = here) -> None:
    state = read_position(GAME, args.file)
    advice = ask(HINT, state, HintOptions(args.worlds, args.seed), seconds_of(args))
    _print_hint(advice, args.json)


def _print_hint(advice: Hint, as_json: bool) -> None:
    if as_json:
        print(json.dumps(advice.to_json()))
    elif advice.action is None:
        print(f"unknown: the budget ran out ({advice.stats.seconds:.2f} s)")
    else:
        if advice.wins:
            value = f" (wins this turn: {', '.join(map(str, advice.chain))})"
        elif advice.value is None:
            value = ""
        else:
            value = f" (chance of winning {advice.value:.2f}, estimated)"
        print(f"{advice.action}{value}")
        if advice.runners_up:
            print("runners-up (chance of winning): " + ", ".join(
                f"{action} (wins)" if action in advice.winning else f"{action} {value:.2f}"
                for action, value in advice.runners_up))


# ---------------------------------------------------------------- self-play


def _selfplay(args: argparse.Namespace) -> None:
    bots = read_bots(args.bots, BOTS)
    table = default_tables()[args.table]
    config = table.config
    if not config.min_players <= args.players <= config.max_players:
        raise InvalidInput(f"--players must be {config.min_players} to {config.max_players}")
    games = seatings(bots, args.games, args.seed, args.players)
    results = play_all(partial(_play, table=table), games, args.jobs, args.progress)
    report(bots, results, args.seed, args.json,
           about={"table": args.table, "players": args.players})


def _play(game: tuple[tuple[str, ...], int], table: Table) -> GameResult:
    seats, seed = game
    return play_game(seats, seed, table)
