"""Farbduell: protobuf messages <-> solver values, and its side of the Solve and Hint RPCs.

A position message becomes the JSON that the command line reads, with exactly the
fields the message sets, so that the reader fills in the same defaults and bad input
gets the same message on both; a repeated field longer than the reader takes is refused
so before any item is converted. Actions travel as their text and are parsed back with
the position's table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.api import fortress_solver_pb2 as pb
from service.convert.common import (
    STATUS,
    STATUS_BACK,
    at_most,
    budget_to_proto,
    options_of,
    stats_from_proto,
    stats_to_proto,
    worlds,
)
from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.farbduell.actions import Action, Choose, Play, parse_action
from solver.farbduell.chains import Chain
from solver.farbduell.game import (
    CHAIN,
    GAME,
    HINT,
    PUZZLE,
    ChainOptions,
    HintOptions,
    PuzzleOptions,
)
from solver.farbduell.hints import Hint
from solver.farbduell.puzzles import PuzzleAnswer
from solver.farbduell.state import State
from solver.farbduell.tables import Table
from solver.farbduell.wire import MAX_CARDS, MAX_SEATS

if TYPE_CHECKING:
    from service.games import Calls

MODES = ("forced-win", "chain", "hint")   # what GetServerInfo lists

# Fields with presence: left out of the JSON when the message leaves them out (colour is
# apart: its empty string is the JSON's null).
_STATE_FIELDS = ("table", "to_move", "direction", "pending", "pending_kind", "drawn",
                 "winner", "seed", "side", "hunt_colour")


def position_from_proto(message: pb.FarbduellPosition) -> State:
    """The position on the shipped tables; InvalidInput names every fault."""
    return GAME.from_json(position_to_json(message))


def position_to_json(message: pb.FarbduellPosition) -> dict[str, Any]:
    """The JSON form of the message, for the reader (InvalidInput for a list longer than
    it takes)."""
    for name in ("hands", "shields", "knows"):
        at_most(getattr(message, name), MAX_SEATS, name)
    for k, hand in enumerate(message.hands):
        at_most(hand.cards, MAX_CARDS, "hands", k)
    at_most(message.discard, MAX_CARDS, "discard")
    at_most(message.draw_pile.cards, MAX_CARDS, "draw_pile")
    data: dict[str, Any] = {name: getattr(message, name) for name in _STATE_FIELDS
                            if message.HasField(name)}
    data["hands"] = [list(hand.cards) for hand in message.hands]
    data["discard"] = list(message.discard)
    if message.HasField("draw_pile"):
        data["draw_pile"] = list(message.draw_pile.cards)
    if message.HasField("colour"):
        data["colour"] = message.colour or None
    if message.shields:
        data["shields"] = list(message.shields)
    if message.HasField("fuse"):
        fuse = message.fuse
        data["fuse"] = {"size": fuse.size, "count": fuse.count, "skip_next": fuse.skip_next}
    if message.HasField("clock"):
        data["clock"] = {"count": message.clock.count, "skip_next": message.clock.skip_next}
    if message.knows:
        data["knows"] = [_knows_to_json(knows, k) for k, knows in enumerate(message.knows)]
    return data


def _knows_to_json(message: pb.FarbduellKnows, index: int) -> dict[str, Any]:
    """One player's knowledge as the JSON writes it: the lists that are not empty beside
    the two always there."""
    for name in ("opponent_hand", "deck_top", "deck_bottom", "own_hand"):
        at_most(getattr(message, name), MAX_CARDS, "knows", index, name)
    at_most(message.hands, MAX_SEATS, "knows", index, "hands")
    for seat, cards in message.hands.items():
        at_most(cards.cards, MAX_CARDS, "knows", index, "hands", str(seat))
    data: dict[str, Any] = {"opponent_hand": list(message.opponent_hand),
                            "deck_top": list(message.deck_top)}
    if message.deck_bottom:
        data["deck_bottom"] = list(message.deck_bottom)
    if message.hands:
        data["hands"] = {str(seat): list(message.hands[seat].cards)
                         for seat in sorted(message.hands)}
    if message.own_hand:
        data["own_hand"] = list(message.own_hand)
    return data


def position_from_json(data: dict[str, Any]) -> pb.FarbduellPosition:
    """The message of a position JSON that the reader accepts; a null is left out, as
    the reader reads it (an unknown draw pile, no stack, no fuse, no winner), but a null
    colour is the empty colour (to be named)."""
    message = pb.FarbduellPosition(
        hands=[pb.FarbduellCards(cards=hand) for hand in data.get("hands") or []],
        discard=data.get("discard") or [],
        shields=data.get("shields") or [],
        **{name: data[name] for name in _STATE_FIELDS if data.get(name) is not None},
    )
    if data.get("draw_pile") is not None:
        message.draw_pile.SetInParent()
        message.draw_pile.cards.extend(data["draw_pile"])
    if "colour" in data:
        message.colour = data["colour"] or ""
    if data.get("fuse") is not None:
        message.fuse.CopyFrom(pb.FarbduellFuse(**data["fuse"]))
    if data.get("clock") is not None:
        message.clock.CopyFrom(pb.FarbduellClock(**data["clock"]))
    for knows in data.get("knows") or []:
        message.knows.append(pb.FarbduellKnows(
            opponent_hand=knows.get("opponent_hand", []), deck_top=knows.get("deck_top", []),
            deck_bottom=knows.get("deck_bottom", []), own_hand=knows.get("own_hand", []),
            hands={int(seat): pb.FarbduellCards(cards=cards)
                   for seat, cards in (knows.get("hands") or {}).items()}))
    return message


def state_to_proto(state: State) -> pb.FarbduellPosition:
    return position_from_json(state.to_json())


def source(state: State) -> pb.PositionSource:
    return pb.PositionSource(farbduell=state_to_proto(state))


# ---------------------------------------------------------------- requests


def solve_request(state: State, options: PuzzleOptions | ChainOptions,
                  budget: Budget) -> pb.SolveRequest:
    """The puzzle, or the go-out chain, of `state`."""
    message = (pb.FarbduellSolveOptions(chain=options.objective)
               if isinstance(options, ChainOptions) else
               pb.FarbduellSolveOptions(turns=options.turns))
    return pb.SolveRequest(position=source(state), farbduell=message,
                           budget=budget_to_proto(budget))


def hint_request(state: State, options: HintOptions, budget: Budget) -> pb.HintRequest:
    """The hint of `state`; the seed must be 0 or more (the message's is unsigned)."""
    return pb.HintRequest(position=source(state), budget=budget_to_proto(budget),
                          farbduell=pb.FarbduellHintOptions(worlds=options.worlds,
                                                            seed=options.seed))


def _solve_options(request: pb.SolveRequest) -> PuzzleOptions | ChainOptions:
    """The request's options message, or else its deprecated flat fields."""
    message = options_of(request, "farbduell", GAME.name)
    if message.chain:
        return ChainOptions(message.chain)
    return PuzzleOptions(message.turns or 1)


def _hint_options(request: pb.HintRequest) -> HintOptions:
    message = options_of(request, "farbduell", GAME.name)
    return HintOptions(worlds(message.worlds, HintOptions().worlds), message.seed)


# ---------------------------------------------------------------- actions


def step_to_proto(player: int, action: Action) -> pb.FarbduellStep:
    step = pb.FarbduellStep(player=player, action=str(action))
    if isinstance(action, Play):
        step.card = str(action.card)
        step.colour = action.colour or ""
    elif isinstance(action, Choose):
        step.colour = action.colour
    return step


# ---------------------------------------------------------------- answers


def chain_to_proto(found: Chain, player: int) -> pb.SolveResponse:
    """The chain of the player to move, `player`."""
    response = pb.SolveResponse(
        status=STATUS[found.status], optimal=found.optimal,
        farbduell_line=[step_to_proto(player, play) for play in found.plays],
        stats=stats_to_proto(found.stats),
    )
    if found.status is Status.SOLVED:
        response.length = found.cards
        response.goes_out = found.goes_out
        response.points = found.points
    return response


def chain_from_proto(message: pb.SolveResponse, table: Table) -> Chain:
    plays = tuple(_play(step.action, table) for step in message.farbduell_line)
    return Chain(STATUS_BACK[message.status], message.goes_out, plays, message.length,
                 message.points, message.optimal, stats_from_proto(message.stats))


def _play(text: str, table: Table) -> Play:
    action = parse_action(text, table)
    if not isinstance(action, Play):
        raise InvalidInput(f"a chain plays cards, not {text!r}")
    return action


def puzzle_to_proto(answer: PuzzleAnswer) -> pb.SolveResponse:
    """`optimal` when solved: the search deepens one turn at a time, so no fewer turns win."""
    response = pb.SolveResponse(
        status=STATUS[answer.status], optimal=answer.status is Status.SOLVED,
        farbduell_line=[step_to_proto(player, action) for player, action in answer.line],
        stats=stats_to_proto(answer.stats),
    )
    if answer.status is Status.SOLVED:
        response.length = len(answer.line)
    if answer.turns is not None:
        response.turns = answer.turns
    return response


def puzzle_from_proto(message: pb.SolveResponse, table: Table) -> PuzzleAnswer:
    return PuzzleAnswer(
        STATUS_BACK[message.status], message.turns if message.HasField("turns") else None,
        tuple((step.player, parse_action(step.action, table)) for step in message.farbduell_line),
        stats_from_proto(message.stats))


def hint_to_proto(advice: Hint) -> pb.HintResponse:
    farbduell = pb.FarbduellHint(
        runners_up=[pb.FarbduellAlternative(action=str(action), value=value)
                    for action, value in advice.runners_up],
        stats=stats_to_proto(advice.stats),
    )
    if advice.action is not None:
        farbduell.action = str(advice.action)
    if advice.value is not None:
        farbduell.value = advice.value
    return pb.HintResponse(status=STATUS[advice.status], farbduell=farbduell)


def hint_from_proto(message: pb.HintResponse, table: Table) -> Hint:
    farbduell = message.farbduell
    return Hint(
        STATUS_BACK[message.status],
        parse_action(farbduell.action, table) if farbduell.HasField("action") else None,
        farbduell.value if farbduell.HasField("value") else None,
        tuple((parse_action(other.action, table), other.value)
              for other in farbduell.runners_up),
        stats_from_proto(farbduell.stats))


# ---------------------------------------------------------------- the RPCs


class _Wire:
    """Farbduell's side of Solve (the puzzle, or the chain when one is asked for) and Hint."""

    sources = ("farbduell",)

    def info(self) -> pb.GameInfo:
        return pb.GameInfo(name=GAME.name, modes=MODES)

    def source(self, state: State) -> pb.PositionSource:
        return source(state)

    def position(self, source: pb.PositionSource) -> State:
        return position_from_proto(source.farbduell)

    def solve(self, request: pb.SolveRequest, calls: Calls) -> pb.SolveResponse:
        state = position_from_proto(request.position.farbduell)
        options = _solve_options(request)
        if isinstance(options, ChainOptions):
            found: Chain = calls.ask(CHAIN, state, options, request.budget)
            return chain_to_proto(found, state.to_move)
        answer: PuzzleAnswer = calls.ask(PUZZLE, state, options, request.budget)
        return puzzle_to_proto(answer)

    def hint(self, request: pb.HintRequest, calls: Calls) -> pb.HintResponse:
        state = position_from_proto(request.position.farbduell)
        advice: Hint = calls.ask(HINT, state, _hint_options(request), request.budget)
        return hint_to_proto(advice)


WIRE = _Wire()
