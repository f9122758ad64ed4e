"""`fortress-solver stronghold ...`: the siege planner's questions on a position file in
the spec's JSON form (comments allowed): the best assignment this turn, the fewest turns
to clear all nine battlefields, and the defender's race.

`fortress-solver client stronghold plan|clear|race` reads, checks and prints the same
way; only the search is the server's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import json5

from solver.budget import Budget
from solver.errors import InvalidInput
from solver.stronghold.plan import Plan, best_assignment, best_assignment_exact
from solver.stronghold.policies import POLICIES
from solver.stronghold.position import BASE, FORMAT, ROWS, Position, parse
from solver.stronghold.questions import METHODS, clear, race
from solver.stronghold.search import MAX_TURNS, Outcome
from solver.stronghold.turns import begin_turn

if TYPE_CHECKING:
    from service.client import Client

_MAX_UINT32 = 2**32 - 1  # the request's max_turns


def add_commands(commands: Any, positive: Any) -> None:
    game = commands.add_parser("stronghold", help="Stronghold: plan, clear, race (CP-SAT)")
    sub = game.add_subparsers(dest="stronghold_command", required=True,
                              parser_class=type(game))
    _add_searches(sub, positive)


def add_client_commands(commands: Any, positive: Any) -> None:
    """`client stronghold plan|clear|race`: the local commands' arguments and the server
    to ask."""
    game = commands.add_parser("stronghold", help="Stronghold plans, clears and races")
    sub = game.add_subparsers(dest="stronghold_command", required=True,
                              parser_class=type(game))
    for command in _add_searches(sub, positive):
        command.add_argument("--server", required=True, metavar="HOST:PORT")


def _add_searches(sub: Any, positive: Any) -> list[argparse.ArgumentParser]:
    """plan, clear and race."""
    plan = sub.add_parser("plan", help="the attacker to move: best assignment this turn")
    plan.add_argument("file", help="position JSON file (comments allowed), or -")
    plan.add_argument("--exact", action="store_true",
                      help="guarantee removals against the defender's best reply (D.2)")
    plan.add_argument("--seconds", type=positive(float), default=60.0)
    plan.add_argument("--json", action="store_true")
    commands = [plan]
    for name, text in (("clear", "fewest turns for the attackers to clear all nine"),
                       ("race", "does the defender reach its target first, and when")):
        command = sub.add_parser(name, help=text)
        command.add_argument("file", help="position JSON file (comments allowed), or -")
        command.add_argument("--defender", choices=sorted(POLICIES), default="passive")
        command.add_argument("--method", choices=METHODS, default="cpsat",
                             help="cpsat: the time-expanded model (passive defender; the "
                             "greedy one is always searched); search: exhaustive search")
        command.add_argument("--seconds", type=positive(float), default=60.0)
        command.add_argument("--max-turns", type=positive(int), default=MAX_TURNS)
        command.add_argument("--json", action="store_true")
        commands.append(command)
    return commands


def run(args: argparse.Namespace) -> None:
    {"plan": _plan, "clear": _clear, "race": _race}[args.stronghold_command](args)


def run_remote(args: argparse.Namespace, client: Client) -> None:
    """`client stronghold plan|clear|race`: as the local command, with the search done by
    `client`."""
    {"plan": _plan, "clear": _clear, "race": _race}[args.stronghold_command](args, client)


def _read(path: str) -> tuple[Any, Position]:
    """The position's JSON value and the position, refused when its game is over."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text()
    except OSError as err:
        raise InvalidInput(f"cannot read {path}: {err.strerror}") from None
    try:
        data = json5.loads(text)
    except ValueError as err:
        raise InvalidInput(f"{path} is not JSON: {err}") from None
    position = parse(data)
    if position.winner is not None:
        raise InvalidInput(f"the game is over: the {position.winner} won")
    return data, position


def _budget(args: argparse.Namespace) -> Budget:
    return Budget(seconds=args.seconds, nodes=None, table_entries=None)


def _max_turns_to_send(args: argparse.Namespace) -> int:
    if args.max_turns > _MAX_UINT32:
        raise InvalidInput(f"--max-turns must be at most {_MAX_UINT32} for a server, "
                           f"not {args.max_turns}")
    return args.max_turns


def _plan(args: argparse.Namespace, client: Client | None = None) -> None:
    """Plans the action step of the turn the position starts: after its hold step."""
    data, position = _read(args.file)
    started = begin_turn(position)
    if client is None:
        plan = best_assignment_exact if args.exact else best_assignment
        answer = plan(started, _budget(args))
    else:
        answer = client.stronghold_plan(data, args.exact, _budget(args))
    if args.json:
        print(json.dumps(plan_json(answer)))
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


def plan_json(answer: Plan) -> dict[str, Any]:
    objective = answer.objective
    return {
        "status": str(answer.status), "cp_status": answer.cp_status, "optimal": answer.optimal,
        "moves": answer.moves,
        "battlefields": [{"battlefield": f.battlefield, "controller": f.controller,
                          "garrison": f.garrison, "secure": f.secure,
                          "conquerable": f.conquerable_now} for f in answer.battlefields],
        "conquerable": [f.battlefield for f in answer.battlefields if f.conquerable_now],
        "objective": None if objective is None else objective._asdict(),
        "seconds": round(answer.stats.seconds, 6)}


def _clear(args: argparse.Namespace, client: Client | None = None) -> None:
    data, position = _read(args.file)
    if client is None:
        outcome = clear(position, args.defender, _budget(args), args.max_turns, args.method)
    else:
        outcome = client.stronghold_clear(data, args.defender, _max_turns_to_send(args),
                                          args.method, _budget(args))
    if args.json:
        print(json.dumps(outcome_json(outcome)))
        return
    print(picture(position))
    print(_verdict(outcome, "clear"))
    for step in outcome.plan:
        if step.moves:
            print(f"  turn {step.turn} {step.player}: " + ", ".join(
                f"{unit} -> {to}" for unit, to in sorted(step.moves.items())))


def _race(args: argparse.Namespace, client: Client | None = None) -> None:
    data, position = _read(args.file)
    if client is None:
        answer = race(position, args.defender, _budget(args), args.max_turns, args.method)
    else:
        answer = client.stronghold_race(data, args.defender, _max_turns_to_send(args),
                                        args.method, _budget(args))
    if args.json:
        print(json.dumps({"defender_first": answer.defender_first, "turn": answer.turn,
                          "proven": answer.proven, "cp_status": answer.outcome.cp_status,
                          "seconds": round(answer.outcome.stats.seconds, 6)}))
        return
    print(picture(position))
    print(_verdict(answer.outcome, "race"))


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {"winner": outcome.winner, "turn": outcome.turn, "rounds": outcome.rounds,
            "proven": outcome.proven, "cp_status": outcome.cp_status,
            "plan": [{"turn": s.turn, "player": s.player, "moves": s.moves}
                     for s in outcome.plan],
            "seconds": round(outcome.stats.seconds, 6)}


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


def picture(position: Position) -> str:
    """The grid, the Stronghold row on top: each battlefield's controller and the
    units there with their Might; `--` removed, `??` not yet revealed."""
    width = 22
    lines = [f"turn {position.turn}: {position.player} to move; defender score "
             f"{position.defender_score}/{position.win_target}"]
    for k in reversed(range(len(ROWS))):
        cells = []
        for b in position.grid[k]:
            if b in position.removed:
                cell = f"{b} --"
            elif b not in position.active:
                cell = f"{b} ??"
            else:
                owner = position.controller.get(b, ".")
                units = " ".join(f"{u.id}:{u.might}" for u in position.units_at(b))
                cell = f"{b} {owner} {units}".rstrip()
            cells.append(cell.ljust(width))
        lines.append(f"{FORMAT['row_names'][k]:<15}" + "".join(cells).rstrip())
    bases = [f"{p}: " + " ".join(f"{u.id}:{u.might}{'' if u.ready else '*'}"
                                 for u in position.units_at(BASE, p))
             for p in position.turn_order if position.units_at(BASE, p)]
    if bases:
        lines.append("base (* exhausted)  " + "; ".join(bases))
    return "\n".join(lines)
