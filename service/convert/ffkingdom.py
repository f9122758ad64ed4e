"""Fortress Fight Kingdom: protobuf messages <-> solver values, and its RPCs.

A position message becomes the JSON that the command line reads, with exactly the
fields the message sets, and goes through the same reader, so that the reader fills in
the same defaults and bad input gets the same message on both; a repeated field longer
than the reader takes is refused so before any item is converted. Actions travel as
their text and are parsed back.
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
from solver.ffkingdom import Loaded, State, load, parse_action
from solver.ffkingdom.game import GAME, HINT, PUZZLE, HintOptions, PuzzleOptions
from solver.ffkingdom.hints import Hint
from solver.ffkingdom.puzzles import PuzzleAnswer, check_complete
from solver.ffkingdom.rules import PRODUCERS, RESOURCES
from solver.ffkingdom.wire import MAX_CARDS, MAX_EFFECTS, PLAYERS

if TYPE_CHECKING:
    from service.games import Calls

MODES = ("win-this-turn", "forced-win", "hint")

# Fields with presence: left out of the JSON when the message leaves them out.
_STATE_FIELDS = ("deck_size", "round", "to_move", "first_player", "actions_left",
                 "resource_win", "winner", "seed")
# Player fields with presence, by message field: the JSON key.
_PLAYER_FIELDS = {
    "castle": "castle", "wall": "wall",
    **dict(zip(("bricks", "weapons", "crystals", "gold"), RESOURCES, strict=True)),
    **{kind: kind for kind in PRODUCERS},
    "shields": "shields", "guards": "guards", "locked": "locked", "hand_size": "hand_size",
}


# ---------------------------------------------------------------- positions


def position_from_proto(message: pb.FfkPosition) -> Loaded:
    return load(position_to_json(message))


def position_to_json(message: pb.FfkPosition) -> dict[str, Any]:
    """The JSON form of the message, for `load` (InvalidInput for a list longer than it
    takes)."""
    at_most(message.players, PLAYERS, "players")
    at_most(message.discard, MAX_CARDS, "discard")
    at_most(message.deck.cards, MAX_CARDS, "deck")
    data = {name: getattr(message, name) for name in _STATE_FIELDS if message.HasField(name)}
    data["players"] = [_player_to_json(player, k) for k, player in enumerate(message.players)]
    data["discard"] = list(message.discard)
    if message.HasField("deck"):
        data["deck"] = list(message.deck.cards)
    return data


def _player_to_json(message: pb.FfkPlayer, index: int) -> dict[str, Any]:
    for name in ("poison", "heal"):
        at_most(getattr(message, name), MAX_EFFECTS, "players", index, name)
    at_most(message.hand.cards, MAX_CARDS, "players", index, "hand")
    for name in ("opponent_hand", "deck_top"):
        at_most(getattr(message.knows, name), MAX_CARDS, "players", index, "knows", name)
    data = {key: getattr(message, name) for name, key in _PLAYER_FIELDS.items()
            if message.HasField(name)}
    data["producers_played"] = {kind: getattr(message.producers_played, kind)
                                for kind in PRODUCERS}
    data["double_next"] = message.double_next
    data["poison"] = [{"per": t.per, "ticks": t.ticks} for t in message.poison]
    data["heal"] = [{"per": t.per, "ticks": t.ticks} for t in message.heal]
    if message.HasField("hand"):
        data["hand"] = list(message.hand.cards)
    if message.HasField("knows"):
        data["knows"] = {"opponent_hand": list(message.knows.opponent_hand),
                         "deck_top": list(message.knows.deck_top)}
    return data


def position_from_json(data: dict[str, Any]) -> pb.FfkPosition:
    """The message of a position JSON that `load` accepts; a null is left out, as the
    reader reads it (an unknown hand or deck, no winner, nothing locked)."""
    message = pb.FfkPosition(
        players=[_player_from_json(player) for player in data["players"]],
        discard=data.get("discard", []),
        **{name: data[name] for name in _STATE_FIELDS if data.get(name) is not None},
    )
    _set_cards(message.deck, data.get("deck"))
    return message


def _player_from_json(data: dict[str, Any]) -> pb.FfkPlayer:
    message = pb.FfkPlayer(
        producers_played=pb.FfkProducers(**data.get("producers_played", {})),
        double_next=data.get("double_next", False),
        poison=[pb.FfkTicks(**ticks) for ticks in data.get("poison", [])],
        heal=[pb.FfkTicks(**ticks) for ticks in data.get("heal", [])],
        **{name: data[key] for name, key in _PLAYER_FIELDS.items() if data.get(key) is not None},
    )
    _set_cards(message.hand, data.get("hand"))
    knows = data.get("knows")
    if knows is not None:  # present even when it knows nothing, as the JSON said it
        message.knows.SetInParent()
        message.knows.opponent_hand.extend(knows.get("opponent_hand", []))
        message.knows.deck_top.extend(knows.get("deck_top", []))
    return message


def _set_cards(field: pb.FfkCards, cards: list[str] | None) -> None:
    """A known list of cards, even an empty one, is present; an unknown one is absent."""
    if cards is not None:
        field.SetInParent()
        field.cards.extend(cards)


def state_to_proto(state: State) -> pb.FfkPosition:
    return position_from_json(state.to_json())


def position_source(position: Loaded) -> pb.PositionSource:
    """What the position's reader read, unknown parts left unknown: every number is in
    the reader's ranges, so it fits its field."""
    return pb.PositionSource(ffkingdom=position_from_json(position.to_json()))


# ---------------------------------------------------------------- answers


def puzzle_to_proto(answer: PuzzleAnswer) -> pb.SolveResponse:
    response = pb.SolveResponse(
        status=STATUS[answer.status], optimal=answer.optimal,
        ffk_line=[pb.FfkStep(player=player, action=str(action)) for player, action in answer.line],
        stats=stats_to_proto(answer.stats),
    )
    if answer.status is Status.SOLVED:
        response.length = len(answer.line)
    if answer.turns is not None:
        response.turns = answer.turns
    return response


def puzzle_from_proto(message: pb.SolveResponse) -> PuzzleAnswer:
    return PuzzleAnswer(
        STATUS_BACK[message.status], message.turns if message.HasField("turns") else None,
        tuple((step.player, parse_action(step.action)) for step in message.ffk_line),
        message.optimal, stats_from_proto(message.stats))


def hint_to_proto(advice: Hint) -> pb.HintResponse:
    ffk = pb.FfkHint(
        plan=[str(action) for action in advice.plan],
        runners_up=[pb.FfkAlternative(action=str(action), value=value)
                    for action, value in advice.runners_up],
        stats=stats_to_proto(advice.stats),
    )
    if advice.action is not None:
        ffk.action = str(advice.action)
    if advice.value is not None:
        ffk.value = advice.value
    return pb.HintResponse(status=STATUS[advice.status], ffk=ffk)


def hint_from_proto(message: pb.HintResponse) -> Hint:
    ffk = message.ffk
    return Hint(
        STATUS_BACK[message.status],
        parse_action(ffk.action) if ffk.HasField("action") else None,
        ffk.value if ffk.HasField("value") else None,
        tuple(parse_action(action) for action in ffk.plan),
        tuple((parse_action(other.action), other.value) for other in ffk.runners_up),
        stats_from_proto(ffk.stats))


# ---------------------------------------------------------------- requests (the client's)


def solve_request(position: Loaded, options: PuzzleOptions, budget: Budget) -> pb.SolveRequest:
    return pb.SolveRequest(position=position_source(position),
                           ffkingdom=pb.FfkSolveOptions(turns=options.turns),
                           budget=budget_to_proto(budget))


def hint_request(position: Loaded, options: HintOptions, budget: Budget) -> pb.HintRequest:
    return pb.HintRequest(position=position_source(position),
                          ffkingdom=pb.FfkHintOptions(worlds=options.worlds, seed=options.seed),
                          budget=budget_to_proto(budget))


# ---------------------------------------------------------------- the RPCs (the server's)


def _options_of(request: pb.SolveRequest | pb.HintRequest) -> Any:
    """The request's FFK options, or the request itself for a client that sends the
    deprecated flat fields (their names are the same)."""
    return options_of(request, "ffkingdom", GAME.name)


def solve_options(request: pb.SolveRequest) -> PuzzleOptions:
    return PuzzleOptions(turns=_options_of(request).turns or 1)


def hint_options(request: pb.HintRequest) -> HintOptions:
    options = _options_of(request)
    return HintOptions(worlds=worlds(options.worlds, HintOptions().worlds), seed=options.seed)


class _Wire:
    sources: tuple[str, ...] = ("ffkingdom",)

    def info(self) -> pb.GameInfo:
        return pb.GameInfo(name=GAME.name, modes=MODES)

    def source(self, position: Loaded) -> pb.PositionSource:
        return position_source(position)

    def position(self, source: pb.PositionSource) -> Loaded:
        return position_from_proto(source.ffkingdom)

    def solve(self, request: pb.SolveRequest, calls: Calls) -> pb.SolveResponse:
        position = position_from_proto(request.position.ffkingdom)
        options = solve_options(request)
        check_complete(position, options.turns)
        answer: PuzzleAnswer = calls.ask(PUZZLE, position, options, request.budget)
        return puzzle_to_proto(answer)

    def hint(self, request: pb.HintRequest, calls: Calls) -> pb.HintResponse:
        position = position_from_proto(request.position.ffkingdom)
        options = hint_options(request)
        answer: Hint = calls.ask(HINT, position, options, request.budget)
        return hint_to_proto(answer)


WIRE = _Wire()
