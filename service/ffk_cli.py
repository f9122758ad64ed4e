"""`fortress-solver ffk ...`: Fortress Fight Kingdom puzzles, hints and self-play.

`fortress-solver client ffk puzzle|hint` reads, checks and prints the same way; only
the search is the server's.
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
from solver.ffkingdom import Rules, State, load, load_rules, new_game
from solver.ffkingdom.bots import BOTS, GameResult, pairing_games, play_game
from solver.ffkingdom.hints import HINT_BUDGET, Hint, Settings, hint
from solver.ffkingdom.puzzles import PuzzleAnswer, check_complete, solve_puzzle

if TYPE_CHECKING:
    from service.client import Client


def add_commands(commands: Any, positive: Any) -> None:
    """The `ffk` command and its subcommands; `positive` reads a number > 0."""
    ffk = commands.add_parser("ffk", help="Fortress Fight Kingdom: puzzles, hints, self-play")
    sub = ffk.add_subparsers(dest="ffk_command", required=True, parser_class=type(ffk))

    deal = sub.add_parser("deal", help="the starting position of a shuffled game, as JSON")
    deal.add_argument("--seed", type=int, default=1)
    deal.add_argument("--first", type=int, choices=(0, 1), help="first player (default: drawn)")
    deal.add_argument("--leaders", default="", metavar="A,B",
                      help="leaders of players 0 and 1, e.g. haendler,festungsherr")

    _add_puzzle(sub, positive)
    _add_hint(sub, positive)

    add_selfplay(sub, positive, BOTS)


def add_client_commands(commands: Any, positive: Any) -> None:
    """`client ffk puzzle|hint`: the local commands' arguments and the server to ask."""
    ffk = commands.add_parser("ffk", help="Fortress Fight Kingdom puzzles and hints")
    sub = ffk.add_subparsers(dest="ffk_command", required=True, parser_class=type(ffk))
    for command in (_add_puzzle(sub, positive), _add_hint(sub, positive)):
        command.add_argument("--server", required=True, metavar="HOST:PORT")


def _add_puzzle(sub: Any, positive: Any) -> argparse.ArgumentParser:
    puzzle = sub.add_parser("puzzle", help="win this turn, or within N turns (exact)")
    puzzle.add_argument("file", help="position JSON file, or - for standard input")
    puzzle.add_argument("--turns", type=positive(int), default=1,
                        help="own turns to win within (above 1 needs the opponent's hand "
                             "and the deck order)")
    puzzle.add_argument("--seconds", type=positive(float), default=60.0)
    puzzle.add_argument("--nodes", type=positive(int))
    puzzle.add_argument("--json", action="store_true")
    return puzzle


def _add_hint(sub: Any, positive: Any) -> argparse.ArgumentParser:
    advice = sub.add_parser("hint", help="the best action from what the player to move sees")
    advice.add_argument("file", help="position JSON file, or - for standard input")
    advice.add_argument("--seconds", type=positive(float), default=HINT_BUDGET.seconds)
    advice.add_argument("--worlds", type=positive(int), default=Settings().worlds,
                        help="samples of the unseen cards (default %(default)s)")
    advice.add_argument("--seed", type=int, default=0)
    advice.add_argument("--json", action="store_true")
    return advice


def run(args: argparse.Namespace) -> None:
    rules = load_rules()
    {"deal": _deal, "puzzle": _puzzle, "hint": _hint,
     "selfplay": _selfplay}[args.ffk_command](args, rules)


def run_remote(args: argparse.Namespace, client: Client) -> None:
    """`client ffk puzzle|hint`: as the local command, with the search done by `client`."""
    {"puzzle": _puzzle, "hint": _hint}[args.ffk_command](args, load_rules(), client)


def _read(path: str) -> Any:
    """The JSON value of a file or standard input (`-`)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text()
    except OSError as err:
        raise InvalidInput(f"cannot read {path}: {err.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise InvalidInput(f"{path} is not JSON: {err}") from None


def _deal(args: argparse.Namespace, rules: Rules) -> None:
    names = [name or None for name in args.leaders.split(",")] if args.leaders else []
    if len(names) not in (0, 2):
        raise InvalidInput("--leaders takes two names separated by a comma (empty for none)")
    unknown = [name for name in names if name is not None and name not in rules.leaders]
    if unknown:
        raise InvalidInput(f"no leader is called {unknown[0]!r} "
                           f"(leaders: {', '.join(rules.leaders)})")
    leaders = (names[0], names[1]) if names else (None, None)
    print(new_game(rules, args.seed, args.first, leaders))


def _puzzle(args: argparse.Namespace, rules: Rules, client: Client | None = None) -> None:
    data = _read(args.file)
    loaded = load(data, rules)
    check_complete(loaded, args.turns, option="--turns")
    budget = Budget(seconds=args.seconds, nodes=args.nodes, table_entries=None)
    if client is None:
        answer = solve_puzzle(loaded.state, args.turns, budget)
    else:
        answer = client.ffk_puzzle(data, args.turns, budget)
    if args.json:
        print(json.dumps(puzzle_json(answer)))
    else:
        print(_puzzle_text(answer, loaded.state, args.turns))


def puzzle_json(answer: PuzzleAnswer) -> dict[str, Any]:
    return {
        "status": answer.status.value, "turns": answer.turns, "optimal": answer.optimal,
        "actions": len(answer.line),
        "line": [{"player": player, "action": str(action)} for player, action in answer.line],
        "nodes": answer.stats.nodes, "seconds": round(answer.stats.seconds, 6),
    }


def _puzzle_text(answer: PuzzleAnswer, state: State, turns: int) -> str:
    me = state.to_move
    stats = f"({answer.stats.nodes} nodes, {answer.stats.seconds:.2f} s)"
    within = "this turn" if turns == 1 else f"within {turns} turns"
    if answer.status is Status.UNSOLVABLE:
        return f"player {me} cannot force a win {within}: proven {stats}"
    if answer.status is Status.UNKNOWN:
        return f"unknown: the budget ran out {stats}"
    lines = [f"player {me} wins in {answer.turns} turn{'s' * (answer.turns != 1)} "
             f"{'(fewest actions) ' if answer.turns == 1 else ''}{stats}"]
    lines += [f"{n:3}. player {player}: {action}"
              for n, (player, action) in enumerate(answer.line, 1)]
    return "\n".join(lines)


def _hint(args: argparse.Namespace, rules: Rules, client: Client | None = None) -> None:
    data = _read(args.file)
    state = load(data, rules).state
    budget = Budget(seconds=args.seconds, nodes=None, table_entries=None)
    if client is None:
        advice = hint(state, budget, Settings(worlds=args.worlds), args.seed)
    elif args.seed < 0:  # the request's seed is unsigned
        raise InvalidInput(f"--seed must be 0 or more for a server, not {args.seed}")
    else:
        advice = client.ffk_hint(data, budget, args.worlds, args.seed)
    if args.json:
        print(json.dumps(hint_json(advice)))
    elif advice.action is None:
        print(f"unknown: the budget ran out ({advice.stats.seconds:.2f} s)")
    else:
        others = ", ".join(f"{action} {value:+.1f}" for action, value in advice.runners_up)
        print(f"{advice.action} (expected {advice.value:+.1f}; this turn: "
              f"{', '.join(map(str, advice.plan))}; {advice.stats.seconds:.2f} s)")
        if others:
            print(f"runners-up: {others}")


def hint_json(advice: Hint) -> dict[str, Any]:
    return {
        "status": advice.status.value,
        "action": None if advice.action is None else str(advice.action),
        "value": None if advice.value is None else round(advice.value, 3),
        "plan": [str(action) for action in advice.plan],
        "runners_up": [{"action": str(action), "value": round(value, 3)}
                       for action, value in advice.runners_up],
        "seconds": round(advice.stats.seconds, 6),
    }


def _selfplay(args: argparse.Namespace, rules: Rules) -> None:
    bots = read_bots(args.bots, BOTS)
    games = pairing_games(bots, args.games, args.seed)
    results = play_all(partial(_play, rules=rules), games, args.jobs)
    report(bots, results, args.seed, args.json, about={})


def _play(game: tuple[tuple[str, str], int], rules: Rules) -> GameResult:
    seats, seed = game
    return play_game(seats, seed, rules)
