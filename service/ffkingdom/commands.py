"""`fortress-solver ffk ...`: Fortress Fight Kingdom puzzles, hints and self-play.

`fortress-solver client ffk puzzle|hint` is the same command asking a server
(service/asking.py).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from service.arguments import add_server, positive, read_position, seconds_of
from service.asking import Ask, here, remotely
from service.selfplay_cli import add_selfplay, play_all, read_bots, report
from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.ffkingdom import Position, new_game
from solver.ffkingdom.bots import BOTS, GameResult, pairing_games, play_game
from solver.ffkingdom.data import shipped_cards
from solver.ffkingdom.game import GAME, HINT, PUZZLE, HintOptions, PuzzleOptions
from solver.ffkingdom.hints import HINT_BUDGET, Hint
from solver.ffkingdom.puzzles import PuzzleAnswer, check_complete

_MESSAGES = "service.ffkingdom.messages"  # how a client asks (imported by those alone)

_DEALT = "fortress-solver ffk deal --seed 7 | "  # the examples' position, on standard input
_SERVER = "--server 127.0.0.1:50051"


def add_commands(commands: Any) -> None:
    """The `ffk` command and its subcommands."""
    ffk = commands.add_parser(
        "ffk", help="Fortress Fight Kingdom: puzzles, hints, self-play",
        description="Fortress Fight Kingdom, the two-player card duel: shuffled starts, "
                    "exact puzzles, hints and self-play.",
        epilog=f"example:\n  {_DEALT}fortress-solver ffk hint -")
    sub = ffk.add_subparsers(dest="ffk_command", required=True, parser_class=type(ffk),
                             help="what to do (each has its own --help)")

    deal = sub.add_parser(
        "deal", help="the starting position of a shuffled game, as JSON",
        description="Print the starting position of a shuffled game, as JSON.",
        epilog="example:\n  fortress-solver ffk deal --seed 7 --first 0 --leaders haendler,")
    deal.add_argument("--seed", type=int, default=1, help="the shuffle")
    deal.add_argument("--first", type=int, choices=(0, 1),
                      help="first player (drawn when not given)")
    deal.add_argument("--leaders", default="", metavar="A,B",
                      help="leaders of players 0 and 1, e.g. haendler,festungsherr; either "
                           "may be left empty")
    deal.set_defaults(run=_deal)

    _add_puzzle(sub, server=False).set_defaults(run=_puzzle)
    _add_hint(sub, server=False).set_defaults(run=_hint)
    add_selfplay(sub, positive, BOTS, "fortress-solver ffk selfplay --bots hint,greedy "
                 "--games 100 --seed 1").set_defaults(run=_selfplay)


def add_client_commands(commands: Any) -> None:
    """`client ffk puzzle|hint`: the local commands' arguments and the server to ask."""
    ffk = commands.add_parser(
        "ffk", help="Fortress Fight Kingdom puzzles and hints",
        description="Fortress Fight Kingdom puzzles and hints, answered by a server.",
        epilog=f"example:\n  {_DEALT}fortress-solver client ffk hint - {_SERVER}")
    sub = ffk.add_subparsers(dest="ffk_command", required=True, parser_class=type(ffk),
                             help="what to ask (each has its own --help)")
    for command, run in ((_add_puzzle(sub, server=True), _puzzle),
                         (_add_hint(sub, server=True), _hint)):
        add_server(command)
        command.set_defaults(run_remote=remotely(run, _MESSAGES))


def _example(command: str, server: bool) -> str:
    """The epilog of `ffk COMMAND` or `client ffk COMMAND`: a dealt position asked about."""
    asked = f"client ffk {command} - {_SERVER}" if server else f"ffk {command} -"
    return f"example:\n  {_DEALT}fortress-solver {asked}"


def _add_puzzle(sub: Any, server: bool) -> argparse.ArgumentParser:
    puzzle: argparse.ArgumentParser = sub.add_parser(
        "puzzle", help="win this turn, or within N turns (exact)",
        description="The fewest actions that win this turn, or a forced win within N own "
                    "turns, searched exactly.",
        epilog=_example("puzzle", server))
    puzzle.add_argument("file", help="position JSON file, or - for standard input")
    puzzle.add_argument("--turns", type=positive(int), default=1,
                        help="own turns to win within (above 1 needs the opponent's hand "
                             "and the deck order)")
    puzzle.add_argument("--seconds", type=positive(float), default=60.0,
                        help="time budget in seconds")
    puzzle.add_argument("--nodes", type=positive(int),
                        help="node budget: the search nodes to stop after (no limit when "
                             "not given)")
    puzzle.add_argument("--json", action="store_true", help="print one JSON object")
    return puzzle


def _add_hint(sub: Any, server: bool) -> argparse.ArgumentParser:
    advice: argparse.ArgumentParser = sub.add_parser(
        "hint", help="the best action from what the player to move sees",
        description="The best action for the player to move, from what that player sees: "
                    "expectimax over samples of the cards it cannot see.",
        epilog=_example("hint", server))
    advice.add_argument("file", help="position JSON file, or - for standard input")
    advice.add_argument("--seconds", type=positive(float), default=HINT_BUDGET.seconds,
                        help="time budget in seconds")
    advice.add_argument("--worlds", type=positive(int), default=HintOptions().worlds,
                        help="samples of the unseen cards")
    advice.add_argument("--seed", type=int, default=0, help="seeds the sampling")
    advice.add_argument("--json", action="store_true", help="print one JSON object")
    return advice


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


# ---------------------------------------------------------------- puzzle


def _read_puzzle(args: argparse.Namespace) -> tuple[Position, PuzzleOptions, Budget]:
    position: Position = read_position(GAME, args.file)
    check_complete(position, args.turns, option="--turns")
    return (position, PuzzleOptions(turns=args.turns),
            Budget(seconds=args.seconds, nodes=args.nodes, table_entries=None))


def _puzzle(args: argparse.Namespace, ask: Ask = here) -> None:
    position, options, budget = _read_puzzle(args)
    _print_puzzle(args, ask(PUZZLE, position, options, budget), position)


def _print_puzzle(args: argparse.Namespace, answer: PuzzleAnswer, position: Position) -> None:
    if args.json:
        print(json.dumps(answer.to_json()))
        return
    me = position.state.to_move
    stats = f"({answer.stats.nodes} nodes, {answer.stats.seconds:.2f} s)"
    within = "this turn" if args.turns == 1 else f"within {args.turns} turns"
    if answer.status is Status.UNSOLVABLE:
        print(f"player {me} cannot force a win {within}: proven {stats}")
    elif answer.status is Status.UNKNOWN or answer.turns is None:
        print(f"unknown: the budget ran out {stats}")
    else:
        print(f"player {me} wins in {answer.turns} turn{'s' * (answer.turns != 1)} "
              f"{'(fewest actions) ' if answer.turns == 1 else ''}{stats}")
        for n, (player, action) in enumerate(answer.line, 1):
            print(f"{n:3}. player {player}: {action}")


# ---------------------------------------------------------------- hint


def _read_hint(args: argparse.Namespace) -> tuple[Position, HintOptions, Budget]:
    position: Position = read_position(GAME, args.file)
    return (position, HintOptions(worlds=args.worlds, seed=args.seed),
            seconds_of(args))


def _hint(args: argparse.Namespace, ask: Ask = here) -> None:
    position, options, budget = _read_hint(args)
    _print_hint(args, ask(HINT, position, options, budget))


def _print_hint(args: argparse.Namespace, advice: Hint) -> None:
    if args.json:
        print(json.dumps(advice.to_json()))
    elif advice.action is None or advice.win_chance is None:
        print(f"unknown: the budget ran out ({advice.stats.seconds:.2f} s)")
    else:
        turn = ", ".join(map(str, advice.plan))
        if advice.wins:
            print(f"{advice.action} (wins this turn: {turn}; {advice.stats.seconds:.2f} s)")
        else:
            print(f"{advice.action} (chance of winning {advice.win_chance:.2f}, estimated; "
                  f"this turn: {turn}; {advice.stats.seconds:.2f} s)")
        others = ", ".join(f"{action} (wins)" if advice.wins else f"{action} {chance:.2f}"
                           for action, chance in advice.runners_up)
        if others:
            print(f"runners-up (chance of winning): {others}")


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
