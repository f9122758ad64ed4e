"""`fortress-solver stronghold ...`: the siege planner's questions on a position file in
the docs/stronghold.md C.2 JSON form (comments allowed): the best assignment this turn,
the fewest turns to clear all nine battlefields, and the defender's race.

The three are the game's questions (service/generic/commands.py), printed here;
`fortress-solver client stronghold plan|clear|race` is the same command asking a server.
"""

from __future__ import annotations

import argparse
from typing import Any

from service.frontends import OWN
from service.generic.commands import Commands
from solver.stronghold.drawing import picture
from solver.stronghold.game import CLEAR, GAME, PLAN, RACE, ClearOptions, PlanOptions, started
from solver.stronghold.position import Position


def add_commands(commands: Any) -> None:
    QUESTIONS.add_questions(commands, remote=False, name="stronghold",
                            about=OWN[GAME.name].commands["stronghold"])


def add_client_commands(commands: Any) -> None:
    """`client stronghold plan|clear|race`: the local commands' arguments and the server
    to ask."""
    QUESTIONS.add_questions(commands, remote=True, under="client", name="stronghold",
                            about="Stronghold plans, clears and races")


def _print_plan(answer: dict[str, Any], position: Position,
                options: PlanOptions, _: argparse.Namespace) -> None:
    """The plan of the action step of the turn the position starts, after its hold step."""
    begun = started(position)
    print(picture(begun))
    if answer["objective"] is None:
        print(f"unknown: no plan found within the budget ({answer['seconds']:.2f} s)")
        return
    proof = "optimal" if answer["optimal"] else f"not proven optimal ({answer['cp_status']})"
    what = "against the best reply" if options.exact else "by the conservative threat bound"
    print(f"{begun.player} moves: " + (", ".join(
        f"{unit} -> {to}" for unit, to in sorted(answer["moves"].items())) or "nothing"))
    print(f"guaranteed removals {answer['objective']['removals']} ({what}), {proof}, "
          f"{answer['seconds']:.2f} s")
    for f in answer["battlefields"]:
        print(f"  {f['battlefield']}: {f['controller'] or 'nobody'}, garrison {f['garrison']}"
              + (", secure" if f["secure"] else "") + (", conquerable" if f["conquerable"] else ""))


def _print_clear(outcome: dict[str, Any], position: Position,
                 options: ClearOptions, _: argparse.Namespace) -> None:
    print(picture(position))
    print(_verdict(outcome, "clear"))
    for step in outcome["plan"]:
        if step["moves"]:
            print(f"  turn {step['turn']} {step['player']}: " + ", ".join(
                f"{unit} -> {to}" for unit, to in sorted(step["moves"].items())))


def _print_race(answer: dict[str, Any], position: Position,
                options: ClearOptions, _: argparse.Namespace) -> None:
    print(picture(position))
    print(_verdict(answer, "race"))


def _verdict(outcome: dict[str, Any], question: str) -> str:
    if outcome["winner"] is None:
        how = f"CP-SAT {outcome['cp_status']}" if outcome["cp_status"] else (
            f"{outcome['nodes']} positions searched")
        return (f"unknown: the budget or the turns ran out "
                f"({outcome['seconds']:.2f} s, {how})")
    proof = "not proven" if not outcome["proven"] else (
        "proven minimal" if outcome["winner"] == "attackers" else "proven")
    if outcome["winner"] == "attackers":
        head = ("the attackers clear the Stronghold first" if question == "race"
                else "the attackers clear all nine")
    else:
        head = ("the defender reaches its target first" if question == "race"
                else "the attackers cannot clear it: the defender wins")
    how = f"CP-SAT {outcome['cp_status']}" if outcome["cp_status"] else "exhaustive search"
    return (f"{head} on turn {outcome['turn']} (round {outcome['rounds']}), {proof} "
            f"({how}, {outcome['seconds']:.2f} s)")


QUESTIONS = Commands(GAME, printers={PLAN.name: _print_plan, CLEAR.name: _print_clear,
                                     RACE.name: _print_race})
