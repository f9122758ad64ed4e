"""`fortress-solver farbduell ...`: go-out chains, puzzles, hints, deals and self-play.

`chain`, `puzzle` and `hint` are the game's questions (service/generic/commands.py),
printed here; `fortress-solver client farbduell chain|puzzle|hint` is the same command
asking a server.
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from typing import Any

from service.arguments import integer, positive
from service.frontends import OWN
from service.generic.commands import Commands
from service.selfplay_cli import add_selfplay, play_all, read_bots, report
from solver.budget import Status
from solver.errors import InvalidInput
from solver.farbduell.bots import BOTS, GameResult, play_game
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
from solver.farbduell.position import Position
from solver.farbduell.rules import new_game
from solver.selfplay import seatings


def add_commands(commands: Any) -> None:
    """The `farbduell` command: the game's questions, a shuffled start and self-play."""
    sub = QUESTIONS.add_questions(commands, remote=False, name="farbduell",
                                  about=OWN[GAME.name].commands["farbduell"])
    tables = sorted(default_tables())
    deal = sub.add_parser(
        "deal", help="the starting position of a shuffled game, as JSON",
        description="Print the starting position of a shuffled game, as JSON.",
        epilog="example:\n  fortress-solver farbduell deal --table belagerung --players 3 "
               "--seed 7")
    deal.add_argument("--table", choices=tables, default="classic", help="the table to deal")
    deal.add_argument("--players", type=positive(int), default=2, help="seats")
    deal.add_argument("--seed", type=integer, default=1, help="the shuffle")
    deal.set_defaults(run=_deal)

    selfplay = add_selfplay(sub, positive, BOTS, "fortress-solver farbduell selfplay "
                            "--table classic --bots hint,greedy --games 100 --seed 1")
    selfplay.add_argument("--table", choices=tables, default="classic",
                          help="the table to play on")
    selfplay.add_argument("--players", type=positive(int), default=2, help="seats")
    selfplay.set_defaults(run=_selfplay)


def add_client_commands(commands: Any) -> None:
    """`client farbduell chain|puzzle|hint`: the local commands' arguments and the server
    to ask."""
    QUESTIONS.add_questions(commands, remote=True, under="client", name="farbduell",
                            about="Farbduell chains, puzzles and hints")


def _deal(args: argparse.Namespace) -> None:
    try:
        state = new_game(default_tables()[args.table], args.players, args.seed)
    except ValueError as err:
        raise InvalidInput(str(err)) from None
    print(json.dumps(state.to_json()))


# ---------------------------------------------------------------- printers


def _print_chain(found: dict[str, Any], state: Position,
                 options: ChainOptions, _: argparse.Namespace) -> None:
    if found["status"] == Status.UNKNOWN.value:
        print(f"unknown: no chain found within the budget ({found['seconds']:.2f} s)")
        return
    verdict = "goes out" if found["goes_out"] else "cannot go out; longest chain"
    proof = "optimal" if found["optimal"] else "not proven optimal"
    print(f"{verdict}: {found['cards']} cards, {found['points']} points ({proof}, "
          f"{found['seconds']:.3f} s)")
    print(", ".join(found["plays"]) or "(no card can be played)")


def _print_puzzle(answer: dict[str, Any], state: Position,
                  options: PuzzleOptions, _: argparse.Namespace) -> None:
    stats = f"({answer['nodes']} nodes, {answer['seconds']:.2f} s)"
    if answer["status"] == Status.UNSOLVABLE.value:
        print(f"player {state.to_move} cannot force a win within {options.turns} turns: "
              f"proven {stats}")
    elif answer["status"] == Status.UNKNOWN.value:
        print(f"unknown: the budget ran out {stats}")
    else:
        print(f"player {state.to_move} wins in {answer['turns']} turns {stats}")
        for n, step in enumerate(answer["line"], 1):
            print(f"{n:3}. player {step['player']}: {step['action']}")


def _print_hint(advice: dict[str, Any], state: Position,
                options: HintOptions, _: argparse.Namespace) -> None:
    if advice["action"] is None:
        print(f"unknown: the budget ran out ({advice['seconds']:.2f} s)")
        return
    if advice["wins"]:
        value = f" (wins this turn: {', '.join(advice['chain'])})"
    elif advice["value"] is None:
        value = ""
    else:
        value = f" (chance of winning {advice['value']:.2f}, estimated)"
    print(f"{advice['action']}{value}")
    if advice["runners_up"]:
        print("runners-up (chance of winning): " + ", ".join(
            f"{other['action']} (wins)" if other["wins"]
            else f"{other['action']} {other['value']:.2f}" for other in advice["runners_up"]))


QUESTIONS = Commands(GAME, printers={CHAIN.name: _print_chain, PUZZLE.name: _print_puzzle,
                                     HINT.name: _print_hint})


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
