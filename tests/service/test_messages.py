"""The position messages of every game against their readers and their JSON: a position
sent as its message comes back the same, JSON a client writes reads as its message reads,
a message comes back from its JSON, and every list and map too long is refused with its
path before anything in it is converted.

Positions are the games' own: new games and random playouts of Fortress Fight Kingdom
(whole, and as the player to move sees them), of Farbduell on every table with two to
four seats, and of the Stronghold cases of docs/stronghold.md E.3; made-up messages are
theirs with fields cleared, set to odd values, lists shortened, lengthened and doubled.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from google.protobuf.message import Message

from service.api import fortress_solver_pb2 as pb
from service.farbduell import messages as farbduell
from service.ffkingdom import messages as ffkingdom
from service.position_messages import Positions
from service.stronghold import messages as stronghold
from solver.errors import InvalidInput
from solver.farbduell.data import default_tables
from solver.farbduell.position import Position as FarbduellPosition
from solver.farbduell.rules import apply as farbduell_apply
from solver.farbduell.rules import legal_actions as farbduell_moves
from solver.farbduell.rules import new_game as farbduell_game
from solver.ffkingdom import Position as FfkPosition
from solver.ffkingdom import apply, legal_actions, load, load_cards, new_game
from solver.reading import path_of
from solver.stronghold.position import Position
from solver.stronghold.rules import act, begin_turn, destinations
from tests.support.stronghold import E3

RULES = load_cards()
TABLES = default_tables()


# ============================================================================ positions


def _ffk_positions() -> list[FfkPosition]:
    """New games and playouts, whole and as the player to move sees them (its opponent's
    hand, the deck, or both unknown)."""
    found = []
    for seed in range(12):
        rng = random.Random(seed)
        state = new_game(RULES, seed, resource_win=seed % 3 == 0 or None)
        for step in range(120):
            if step % 9 == 0 or state.players[0].knows != state.players[1].knows:
                known = step % 4
                found.append(FfkPosition(state, opponent_hand_known=known & 1 == 0,
                                         deck_known=known & 2 == 0))
            if state.winner is not None:
                break
            state = apply(state, rng.choice(legal_actions(state)))
        found.append(FfkPosition(state, True, True))
    return [load(each.to_json()) for each in found]


def _farbduell_positions() -> list[FarbduellPosition]:
    """New games on every table and playouts, two to four seats: among them a colour to
    name, a waiting hunt, a burning fuse and a wound clock."""
    found = []
    for table in TABLES.values():
        for seed in range(6):
            rng = random.Random(seed)
            state = farbduell_game(table, min(2 + seed % 3, table.config.max_players), seed)
            for step in range(400):
                rare = not state.colour or state.hunt_colour or state.fuse or state.clock
                if step % 15 == 0 or rare:
                    found.append(state)
                if state.winner is not None:
                    break
                state = farbduell_apply(state, rng.choice(farbduell_moves(state)))
            found.append(state)
    return found


# Every part of a Stronghold position set: schedules, burn-outs, counters, consolations.
RICH = {
    "mode": "1v2", "turn": 5, "win_target": 7, "defender_score": 3,
    "removed": ["O1", "O2", "O3"], "control": {"I1": "A1", "I3": "D"},
    "units": [{"id": "s", "owner": "A1", "might": 3, "loc": "I1", "assault": 1, "shield": 2,
               "tank": True, "ganking": True, "ready": False},
              {"id": "g", "owner": "D", "might": 4, "loc": "I3", "ganking": True},
              {"id": "h", "owner": "A2", "might": 0}],
    "reinforcements": {"D": [{"turn": 7, "might": 2, "shield": 1}],
                       "A2": [{"turn": 6, "might": 1, "tank": True}]},
    "burnouts": {"D": [9, 12]},
    "counters": {"defender_bonus": 1, "consolation": {"I2": 2}},
    "consoled": [["O2", 1]],
}


def _stronghold_positions() -> list[Position]:
    """docs/stronghold.md E.3's cases and a position with every part set, and random
    playouts of them: units moved, battlefields conquered and removed, scores."""
    found = []
    starts = [start for _, (start, _, _) in sorted(E3.items())] + [Position.from_json(RICH)]
    for seed, position in enumerate(starts):
        rng = random.Random(seed)
        for _ in range(30):
            found.append(position)
            started = begin_turn(position)
            if started.winner is not None:
                found.append(started)
                break
            moves = {}
            for unit in started.units:
                places = destinations(started, unit)
                if places and rng.random() < 0.7:
                    moves[unit.id] = rng.choice(places)
            position = act(started, moves)
    return found


FFK = _ffk_positions()
FARBDUELL = _farbduell_positions()
STRONGHOLD = _stronghold_positions()


class _Game:
    """One game's converters (its `Positions`), and how its reader reads."""

    def __init__(self, name: str, positions: list[Any], messages: Positions[Any, Any]) -> None:
        self.name, self.positions, self.read = name, positions, messages.reader
        self.to_proto, self.to_json = messages.write, messages.json
        self.from_json, self.from_proto = messages.message, messages.read

    def __repr__(self) -> str:
        return self.name


GAMES = [_Game("ffkingdom", FFK, ffkingdom.POSITIONS),
         _Game("farbduell", FARBDUELL, farbduell.POSITIONS),
         _Game("stronghold", STRONGHOLD, stronghold.POSITIONS)]


def _outcome(read: Callable[[Any], Any], *args: Any) -> Any:
    """What a reader makes of its input: the value, or the faults it is refused for."""
    try:
        return read(*args)
    except InvalidInput as error:
        return ("refused", error.problems)


# ============================================================================ made-up messages


_ODD = {"int": [-2, -1, 0, 1, 2, 3, 7, 12, 101, 1000, 2**31, 2**32 - 1],
        "uint": [0, 1, 2, 3, 9, 12, 13, 101, 201, 10_001, 2**32 - 1],
        "str": ["", "x", "base", "hunt", "day", "night", "1v2", "bau", "red", "joker"]}
_GROWN = [13, 65, 201, 501]  # more than some list allows


def _seen(message: Message, found: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Every scalar of a message (map keys too) by its field's full name: what made-up
    messages draw most of their values from."""
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            key, entry = (field.message_type.fields_by_name[name] for name in ("key", "value"))
            found.setdefault(key.full_name, []).extend(value)
            for each in value.values():
                if entry.message_type is None:
                    found.setdefault(entry.full_name, []).append(each)
                else:
                    _seen(each, found)
        elif field.message_type is not None:
            for each in value if field.is_repeated else [value]:
                _seen(each, found)
        else:
            found.setdefault(field.full_name, []).extend(value if field.is_repeated else [value])
    return found


def _value(field: Any, rng: random.Random, seen: dict[str, list[Any]]) -> Any:
    """A value for a scalar field: mostly one a real message holds there, else an odd one
    of its type."""
    if seen.get(field.full_name) and rng.random() < 0.7:
        return rng.choice(seen[field.full_name])
    if field.cpp_type == field.CPPTYPE_BOOL:
        return rng.random() < 0.5
    if field.cpp_type == field.CPPTYPE_STRING:
        return rng.choice(_ODD["str"])
    if field.cpp_type == field.CPPTYPE_INT32:
        return rng.choice(_ODD["int"][:8])
    odd = rng.choice(_ODD["uint"])
    return 2**64 - 1 if field.cpp_type == field.CPPTYPE_UINT64 and rng.random() < 0.2 else odd


def _within(message: Message) -> list[Message]:
    """The messages held in a message's fields: its singular ones set, every item and
    map value."""
    found: list[Message] = []
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        if field.message_type.GetOptions().map_entry:
            found += [each for each in value.values() if isinstance(each, Message)]
        else:
            found += list(value) if field.is_repeated else [value]
    return found


def _made_up(message: Message, rng: random.Random, seen: dict[str, list[Any]]) -> None:
    """Change one field of `message` where it stands, or of a message within it: cleared,
    set, a list or map item dropped, doubled or added, now and then many added."""
    within = _within(message)
    if within and rng.random() < 0.5:
        _made_up(rng.choice(within), rng, seen)
        return
    field = rng.choice(message.DESCRIPTOR.fields)
    value = getattr(message, field.name)
    change = rng.random()
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        key, entry = (field.message_type.fields_by_name[name] for name in ("key", "value"))
        if change < 0.2:
            message.ClearField(field.name)
        elif change < 0.4 and value:
            del value[rng.choice(sorted(value))]
        else:
            for _ in range(rng.choice(_GROWN) if change > 0.95 else 1):
                added = _value(key, rng, seen) if change <= 0.95 else rng.randrange(10**6)
                added = str(added) if key.cpp_type == key.CPPTYPE_STRING else added
                if entry.message_type is None:
                    value[added] = _value(entry, rng, seen)
                else:
                    value[added].SetInParent()
    elif field.is_repeated:
        if field.message_type is None:
            items = list(value)
        else:
            items = [type(each).FromString(each.SerializeToString()) for each in value]
        if change < 0.15:
            items = []
        elif change < 0.45 and items:
            del items[rng.randrange(len(items))]
        elif change < 0.7 and items:
            items.insert(rng.randrange(len(items)), items[rng.randrange(len(items))])
        else:
            many = rng.choice(_GROWN) if change > 0.95 else 1
            if field.message_type is None:
                items += [_value(field, rng, seen) for _ in range(many)]
            else:
                items += [items[0] if items and rng.random() < 0.7 else None] * many
        message.ClearField(field.name)
        for item in items:
            if field.message_type is None:
                value.append(item)
            elif item is None:
                value.add()
            else:
                value.add().CopyFrom(item)
    elif field.message_type is not None:
        if change < 0.5:
            message.ClearField(field.name)
        else:
            value.SetInParent()
    elif field.has_presence and change < 0.3:
        message.ClearField(field.name)
    else:
        setattr(message, field.name, _value(field, rng, seen))


def _messages(game: _Game, count: int, seed: int) -> Iterator[Message]:
    """`count` messages a client might send: a real position's with one to three changes."""
    rng = random.Random(seed)
    sent = [game.to_proto(position) for position in game.positions]
    seen: dict[str, list[Any]] = {}
    for message in sent:
        _seen(message, seen)
    for _ in range(count):
        message = type(sent[0])()
        message.CopyFrom(rng.choice(sent))
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            _made_up(message, rng, seen)
        yield message


# ============================================================================ the properties


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_a_position_comes_back_from_its_message(game):
    """Position -> message -> position, and the message's JSON is what the reader reads
    as that position."""
    for position in game.positions:
        message = type(game.to_proto(position)).FromString(
            game.to_proto(position).SerializeToString())
        assert game.from_proto(message) == position
        assert game.read(game.to_json(message)) == position


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_json_with_fields_left_out_or_null_reads_as_its_message(game):
    rng = random.Random(7)
    for position in game.positions:
        data = position.to_json()
        for key in list(data):
            if rng.random() < 0.3:
                del data[key]
            elif rng.random() < 0.2:
                data[key] = None
        read = _outcome(game.read, data)
        if not isinstance(read, tuple):
            assert game.from_proto(game.from_json(data)) == read


@pytest.mark.parametrize("game", GAMES, ids=repr)
@pytest.mark.parametrize("seed", range(2))
def test_a_made_up_message_comes_back_from_its_json(game, seed):
    """Message -> JSON -> message loses nothing: what is set and what is not, an empty
    list that is there, a colour to be named."""
    for message in _messages(game, 400, seed):
        try:
            data = game.to_json(message)
        except InvalidInput as error:
            assert "items, at most" in str(error)
            continue
        assert game.from_json(data) == message
        assert _outcome(game.from_proto, message) == _outcome(game.read, data)


def _containers(message: Message, path: tuple[int | str, ...] = ()
                ) -> Iterator[tuple[Any, Any, tuple[int | str, ...]]]:
    """Every repeated field and map of a message and of the messages within it, with its
    field and its path in the JSON (a message of one repeated field is that list)."""
    fields = message.DESCRIPTOR.fields
    wrapper = len(fields) == 1 and fields[0].is_repeated
    for field in fields:
        value = getattr(message, field.name)
        where = path if wrapper else (*path, field.name)
        if field.is_repeated:
            yield field, value, where
        if field.message_type is None:
            continue
        if field.message_type.GetOptions().map_entry:
            for key, entry in sorted(value.items()):
                if isinstance(entry, Message):
                    yield from _containers(entry, (*where, str(key)))
        elif field.is_repeated:
            for k, item in enumerate(value):
                yield from _containers(item, (*where, k))
        elif message.HasField(field.name):
            yield from _containers(value, where)


def _grown(field: Any, container: Any, size: int) -> None:
    """A list or map grown to `size` items: empty messages, zero values, new keys."""
    more = size - len(container)
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        key, entry = (field.message_type.fields_by_name[name] for name in ("key", "value"))
        for k in range(more):
            name = f"k{k}" if key.cpp_type == key.CPPTYPE_STRING else 1000 + k
            if entry.message_type is None:
                container[name] = entry.default_value
            else:
                container[name].SetInParent()
    elif field.message_type is not None:
        for _ in range(more):
            container.add()
    else:
        container.extend(["" if field.cpp_type == field.CPPTYPE_STRING else 0] * more)


@pytest.mark.parametrize("game", GAMES, ids=repr)
def test_every_list_too_long_is_refused_with_its_path(game):
    """Any list or map of a real message, at any depth, grown past every limit: refused
    by its length alone, named by its path in the JSON."""
    for position in game.positions[::25]:
        sent = game.to_proto(position)
        for k in range(sum(1 for _ in _containers(sent))):
            message = type(sent)()
            message.CopyFrom(sent)
            field, container, path = list(_containers(message))[k]
            _grown(field, container, 10_001)
            refused = _outcome(game.from_proto, message)
            assert refused[0] == "refused" and len(refused[1]) == 1
            assert refused[1][0].startswith(f"{path_of(path)}: has 10001 items, at most ")


_CARDS = ["mauer"] * 201


@pytest.mark.parametrize(("read", "message", "fault"), [
    (ffkingdom.POSITIONS.read,
     pb.FfkPosition(players=[pb.FfkPlayer(hand=pb.FfkCards(cards=_CARDS))] * 3),
     "players: has 3 items, at most 2"),
    (ffkingdom.POSITIONS.read,
     pb.FfkPosition(players=[pb.FfkPlayer(hand=pb.FfkCards(cards=_CARDS))] * 2, discard=_CARDS),
     "discard: has 201 items, at most 200"),
    (farbduell.POSITIONS.read,
     pb.FarbduellPosition(knows=[pb.FarbduellKnows(
         hands={seat: pb.FarbduellCards(cards=["red-1"] * 501) for seat in range(13)})]),
     "knows[0].hands: has 13 items, at most 12"),
    (farbduell.POSITIONS.read,
     pb.FarbduellPosition(hands=[pb.FarbduellCards(), pb.FarbduellCards(cards=["red-1"] * 501),
                                 pb.FarbduellCards(cards=["red-1"] * 502)]),
     "hands[1]: has 501 items, at most 500"),
    (stronghold.POSITIONS.read,
     pb.StrongholdPosition(reinforcements={"A1": pb.StrongholdReinforcements(
         entries=[pb.StrongholdReinforcement()] * 33)}, removed=["O1"] * 10),
     "removed: has 10 items, at most 9"),
], ids=["players-before-hands", "discard-before-hands", "map-before-values",
        "items-before-items", "removed-before-schedules"])
def test_a_list_is_measured_before_anything_in_it(read, message, fault):
    """A message's lists and maps are all measured before any of them is converted, and a
    list's items' lists before any item: the first too long is named, not one within."""
    with pytest.raises(InvalidInput) as caught:
        read(message)
    assert str(caught.value) == fault


def test_a_number_no_field_can_hold_is_refused_with_its_path():
    """A client's JSON with a number too large for its proto field (a bool given 2**64)
    is refused by name, not with protobuf's OverflowError."""
    data = {"game": "farbduell", "table": "belagerung", "hands": [["red-1"], ["red-2"]],
            "discard": ["red-3"], "fuse": {"size": 2, "count": 1, "skip_next": 2**64}}
    with pytest.raises(InvalidInput, match=r"^position cannot be sent to a server: fuse"):
        farbduell.POSITIONS.message(data)


def test_search_stats_say_when_the_line_was_found_and_nothing_without_one():
    from service.messages import stats_from_proto, stats_to_proto
    from solver.budget import SearchStats

    found = SearchStats(10, 0.5, 3, 100, line_seconds=0.25)
    assert stats_from_proto(stats_to_proto(found)) == found
    none = SearchStats(10, 0.5, 3, 100)
    assert not stats_to_proto(none).HasField("line_seconds")
    assert stats_from_proto(stats_to_proto(none)) == none
