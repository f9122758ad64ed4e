"""`fortress-solver stronghold ...`: the siege planner's questions on a position file in
the docs/stronghold.md C.2 JSON form (comments allowed): the best assignment this turn,
the fewest turns to clear all nine battlefields, and the defender's race.

`fortress-solver client stronghold plan|clear|race` is the same command asking a
server (service/asking.py).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from service.arguments import add_server, positive, read_position, seconds_of
from service.asking import Ask, here, remotely
from solver.errors import InvalidInput
from solver.stronghold.answers import Outcome, Plan, Race
from solver.stronghold.drawing import picture
from solver.stronghold.game import CLEAR, GAME, PLAN, RACE, ClearOptions, PlanOptions, started
from solver.stronghold.policies import POLICIES
from solver.stronghold.position import Position
from solver.stronghold.questions import METHODS
from solver.stronghold.schema import EXAMPLE
from solver.stronghold.search import MAX_TURNS

_MESSAGES = "service.stronghold.messages"  # how a client asks (imported by those alone)

# The examples' siege, on standard input: three attackers in base, one defender unit.
_SIEGE = f"echo '{json.dumps(EXAMPLE)}' | "
_SERVER = "--server 127.0.0.1:50051"


def add_commands(commands: Any) -> None:
    game = commands.add_parser(
        "stronghold", help="Stronghold: plan, clear, race (CP-SAT)",
        description="Stronghold, the 3-4 player siege: the attacker's best assignment this "
                    "turn, the fewest turns to clear all nine battlefields, and the "
                    "defender's race.",
        epilog=f"example:\n  {_SIEGE}fortress-solver stronghold clear -")
    sub = game.add_subparsers(dest="stronghold_command", required=True,
                              parser_class=type(game),
                              help="what to ask (each has its own --help)")
    plan, clear, race = _add_searches(sub, server=False)
    plan.set_defaults(run=_plan)
    clear.set_defaults(run=_clear)
    race.set_defaults(run=_race)


def add_client_commands(commands: Any) -> None:
    """`client stronghold plan|clear|race`: the local commands' arguments and the server
    to ask."""
    game = commands.add_parser(
        "stronghold", help="Stronghold plans, clears and races",
        description="Stronghold plans, clears and races, answered by a server.",
        epilog=f"example:\n  {_SIEGE}fortress-solver client stronghold clear - {_SERVER}")
    sub = game.add_subparsers(dest="stronghold_command", required=True,
                              parser_class=type(game),
                              help="what to ask (each has its own --help)")
    plan, clear, race = _add_searches(sub, server=True)
    for command, run in ((plan, _plan), (clear, _clear), (race, _race)):
        add_server(command)
        command.set_defaults(run_remote=remotely(run, _MESSAGES))


def _add_searches(sub: Any, server: bool) -> list[argparse.ArgumentParser]:
    """plan, clear and race; each help's example asks about a siege, of a server when
    `server`."""
    def add(name: str, summary: str) -> argparse.ArgumentParser:
        asked = f"client stronghold {name} - {_SERVER}" if server else f"stronghold {name} -"
        parser: argparse.ArgumentParser = sub.add_parser(
            name, help=summary, description=f"Stronghold: {summary}.",
            epilog=f"example:\n  {_SIEGE}fortress-solver {asked}")
        parser.add_argument("file", help="position JSON file (comments allowed), or -")
        return parser

    plan = add("plan", "the attacker to move: best assignment this turn")
    plan.add_argument("--exact", action="store_true",
                      help="guarantee removals against the defender's best reply (D.2)")
    plan.add_argument("--seconds", type=positive(float), default=60.0,
                      help="time budget in seconds")
    plan.add_argument("--json", action="store_true", help="print the answer as JSON")
    commands = [plan]
    for name, text in (("clear", "fewest turns for the attackers to clear all nine"),
                       ("race", "does the defender reach its target first, and when")):
        command = add(name, text)
        command.add_argument("--defender", choices=sorted(POLICIES), default="passive",
                             help="the defender's policy")
        command.add_argument("--method", choices=METHODS, default="cpsat",
                             help="cpsat: the time-expanded model (passive defender; the "
                             "greedy one is always searched); search: exhaustive search")
        command.add_argument("--seconds", type=positive(float), default=60.0,
                             help="time budget in seconds")
        command.add_argument("--max-turns", type=positive(int), default=MAX_TURNS,
                             help="global turns to look at")
        command.add_argument("--json", action="store_true", help="print the answer as JSON")
        commands.append(command)
    return commands


def _read(path: str) -> Position:
    """The position, refused when its game is over."""
    position: Position = read_position(GAME, path)
    if position.winner is not None:
        raise InvalidInput(f"the game is over: the {position.winner} won")
    return position


def _clear_options(args: argparse.Namespace) -> ClearOptions:
    return ClearOptions(args.defender, args.max_turns, args.method)


def _plan(args: argparse.Namespace, ask: Ask = here) -> None:
    """Plans the action step of the turn the position starts: after its hold step."""
    position = _read(args.file)
    answer: Plan = ask(PLAN, position, PlanOptions(args.exact), seconds_of(args))
    _print_plan(args, started(position), answer)


def _print_plan(args: argparse.Namespace, started: Position, answer: Plan) -> None:
    if args.json:
        print(json.dumps(answer.to_json()))
        return
    print(picture(started))
    if answer.objective is None:
        print(f"unknown: no plan found within the budget ({answer.stats.seconds:.2f} s)")
        return
    proof = "optimal" if answer.optimal else f"not proven optimal ({answer.cp_status})"
    what = "against the best reply" if args.exact else "by the conservative threat bound"
    print(f"{started.player} moves: " + (", ".join(
        f"{unit} -> {to}" for unit, to in sorted(answer.moves.items())) or "nothing"))
    print(f"guaranteed removals {answer.objective.removals} ({what}), {proof}, "
          f"{answer.stats.seconds:.2f} s")
    for f in answer.battlefields:
        print(f"  {f.battlefield}: {f.controller or 'nobody'}, garrison {f.garrison}"
              + (", secure" if f.secure else "") + (", conquerable" if f.conquerable_now else ""))


def _clear(args: argparse.Namespace, ask: Ask = here) -> None:
    position = _read(args.file)
    _print_clear(args, position, ask(CLEAR, position, _clear_options(args), seconds_of(args)))


def _print_clear(args: argparse.Namespace, position: Position, outcome: Outcome) -> None:
    if args.json:
        print(json.dumps(outcome.to_json()))
        return
    print(picture(position))
    print(_verdict(outcome, "clear"))
    for step in outcome.plan:
        if step.moves:
            print(f"  turn {step.turn} {step.player}: " + ", ".join(
                f"{unit} -> {to}" for unit, to in sorted(step.moves.items())))


def _race(args: argparse.Namespace, ask: Ask = here) -> None:
    position = _read(args.file)
    _print_race(args, position, ask(RACE, position, _clear_options(args), seconds_of(args)))


def _print_race(args: argparse.Namespace, position: Position, answer: Race) -> None:
    if args.json:
        print(json.dumps(answer.to_json()))
        return
    print(picture(position))
    print(_verdict(answer.outcome, "race"))


def _verdict(outcome: Outcome, question: str) -> str:
    if outcome.winner is None:
        how = f"CP-SAT {outcome.cp_status}" if outcome.cp_status else (
            f"{outcome.stats.nodes} positions searched")
        return (f"unknown: the budget or the turns ran out "
                f"({outcome.stats.seconds:.2f} s, {how})")
    proof = "not proven" if not outcome.proven else (
        "proven minimal" if outcome.winner == "attackers" else "proven")
    if outcome.winner == "attackers":
        head = ("the attackers clear the Stronghold first" if question == "race"
                else "the attackers clear all nine")
    else:
        head = ("the defender reaches its target first" if question == "race"
                else "the attackers cannot clear it: the defender wins")
    how = f"CP-SAT {outcome.cp_status}" if outcome.cp_status else "exhaustive search"
    return (f"{head} on turn {outcome.turn} (round {outcome.rounds}), {proof} "
            f"({how}, {outcome.stats.seconds:.2f} s)")
