"""`fortress-solver ffk ...`: Fortress Fight Kingdom puzzles, hints and self-play.

`puzzle` and `hint` are the game's questions (service/generic/commands.py), printed
here; `fortress-solver client ffk puzzle|hint` is the same command asking a server.
"""

from __future__ import annotations

import argparse
from typing import Any

from service.arguments import integer, positive
from service.frontends import OWN
from service.generic.commands import Commands
from service.selfplay_cli import add_selfplay, play_all, read_bots, report
from solver.budget import Status
from solver.errors import InvalidInput
from solver.ffkingdom import Position, new_game
from solver.ffkingdom.bots import BOTS, GameResult, pairing_games, play_game
from solver.ffkingdom.data import shipped_cards
from solver.ffkingdom.game import GAME, HINT, PUZZLE, HintOptions, PuzzleOptions


def add_commands(commands: Any) -> None:
    """The `ffk` command: the game's questions, a shuffled start and self-play."""
    sub = QUESTIONS.add_questions(commands, remote=False, name="ffk",
                                  about=OWN[GAME.name].commands["ffk"])
    deal = sub.add_parser(
        "deal", help="the starting position of a shuffled game, as JSON",
        description="Print the starting position of a shuffled game, as JSON.",
        epilog="example:\n  fortress-solver ffk deal --seed 7 --first 0 --leaders haendler,")
    deal.add_argument("--seed", type=integer, default=1, help="the shuffle")
    deal.add_argument("--first", type=integer, choices=(0, 1),
                      help="first player (drawn when not given)")
    deal.add_argument("--leaders", default="", metavar="A,B",
                      help="leaders of players 0 and 1, e.g. haendler,festungsherr; either "
                           "may be left empty")
    deal.set_defaults(run=_deal)
    add_selfplay(sub, positive, BOTS, "fortress-solver ffk selfplay --bots hint,greedy "
                 "--games 100 --seed 1").set_defaults(run=_selfplay)


def add_client_commands(commands: Any) -> None:
    """`client ffk puzzle|hint`: the local commands' arguments and the server to ask."""
    QUESTIONS.add_questions(commands, remote=True, under="client", name="ffk",
                            about="Fortress Fight Kingdom puzzles and hints")


def _deal(args: argparse.Namespace) -> None:
    rules = shipped_cards()
    names = [name or None for name in args.leaders.split(",")] if args.leaders else []
    if len(names) not in (0, 2):
        raise InvalidInput("--leaders takes two names separated by a comma (empty for none)")
    unknown = [name for name in names if name is not None and name not in rules.leaders]
    if unknown:
        raise InvalidInput(f"no leader is called {unknown[0]!r} "
                           f"(leaders: {', '.join(rules.leaders)})")
    leaders = (names[0], names[1]) if names else (None, None)
    print(new_game(rules, args.seed, args.first, leaders))


# ---------------------------------------------------------------- printers


def _print_puzzle(answer: dict[str, Any], position: Position,
                  options: PuzzleOptions, _: argparse.Namespace) -> None:
    me = position.state.to_move
    stats = f"({answer['nodes']} nodes, {answer['seconds']:.2f} s)"
    turns = answer["turns"]
    within = "this turn" if options.turns == 1 else f"within {options.turns} turns"
    if answer["status"] == Status.UNSOLVABLE.value:
        print(f"player {me} cannot force a win {within}: proven {stats}")
    elif answer["status"] == Status.UNKNOWN.value or turns is None:
        print(f"unknown: the budget ran out {stats}")
    else:
        print(f"player {me} wins in {turns} turn{'s' * (turns != 1)} "
              f"{'(fewest actions) ' if turns == 1 else ''}{stats}")
        for n, step in enumerate(answer["line"], 1):
            print(f"{n:3}. player {step['player']}: {step['action']}")


def _print_hint(advice: dict[str, Any], position: Position,
                options: HintOptions, _: argparse.Namespace) -> None:
    seconds = f"{advice['seconds']:.2f} s"
    if advice["action"] is None or advice["win_chance"] is None:
        print(f"unknown: the budget ran out ({seconds})")
        return
    turn = ", ".join(advice["plan"])
    if advice["wins"]:
        print(f"{advice['action']} (wins this turn: {turn}; {seconds})")
    else:
        print(f"{advice['action']} (chance of winning {advice['win_chance']:.2f}, estimated; "
              f"this turn: {turn}; {seconds})")
    others = ", ".join(f"{other['action']} (wins)" if other["wins"]
                       else f"{other['action']} {other['win_chance']:.2f}"
                       for other in advice["runners_up"])
    if others:
        print(f"runners-up (chance of winning): {others}")


QUESTIONS = Commands(GAME, printers={PUZZLE.name: _print_puzzle, HINT.name: _print_hint})


# ---------------------------------------------------------------- self-play


def _selfplay(args: argparse.Namespace) -> None:
    bots = read_bots(args.bots, BOTS)
    games = pairing_games(bots, args.games, args.seed)
    results = play_all(_play, games, args.jobs, args.progress)
    report(bots, results, args.seed, args.json, about={})


def _play(game: tuple[tuple[str, str], int]) -> GameResult:
    """One self-play game, in a worker process (so a module-level function)."""
    seats, seed = game
    return play_game(seats, seed, shipped_cards())
