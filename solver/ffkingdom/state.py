"""A Fortress Fight Kingdom position as an immutable value, with its JSON form.

A state always sits where the player to move chooses an action (or the game is over).
Cards are named by their id in cards.toml; hands are kept sorted (order carries no
meaning), the deck top first, the discard pile oldest first. Face-down shields are
counted per player: each is a Schild card, out of the deck until it is used up.

A position read from JSON may leave the opponent's hand or the deck order out (a
player's view of a real game): the unseen cards are then filled in a fixed order and
`Loaded` says which parts were known.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from solver.errors import InvalidInput
from solver.ffkingdom.rules import CARD_TYPES, PRODUCERS, RESOURCES, Rules

GAME = "fortress-fight-kingdom"
SHIELD_CARD = "schild"

_PLAYER_KEYS = {"castle", "wall", *RESOURCES, *PRODUCERS, "producers_played", "shields",
                "guards", "double_next", "poison", "heal", "locked", "hand", "hand_size"}
_STATE_KEYS = {"game", "round", "to_move", "first_player", "actions_left", "resource_win",
               "winner", "seed", "players", "deck", "deck_size", "discard"}


@dataclass(frozen=True)
class Player:
    castle: int
    wall: int
    stocks: tuple[int, int, int, int]        # Z W K G
    producers: tuple[int, int, int, int]     # builders soldiers mages markets
    producers_played: tuple[int, int, int, int] = (0, 0, 0, 0)  # producer cards played, per kind
    shields: int = 0
    guards: int = 0
    double_next: bool = False
    poison: tuple[tuple[int, int], ...] = ()  # (per tick, ticks left) on this player
    heal: tuple[tuple[int, int], ...] = ()    # (wall per tick, ticks left) for this player
    locked: str | None = None                 # card type this player may not play this turn
    hand: tuple[str, ...] = ()

    def stock(self, resource: str) -> int:
        return self.stocks[RESOURCES.index(resource)]

    def to_json(self) -> dict[str, Any]:
        return {
            "castle": self.castle, "wall": self.wall,
            **dict(zip(RESOURCES, self.stocks, strict=True)),
            **dict(zip(PRODUCERS, self.producers, strict=True)),
            "producers_played": dict(zip(PRODUCERS, self.producers_played, strict=True)),
            "shields": self.shields, "guards": self.guards, "double_next": self.double_next,
            "poison": [{"per": per, "ticks": ticks} for per, ticks in self.poison],
            "heal": [{"per": per, "ticks": ticks} for per, ticks in self.heal],
            "locked": self.locked, "hand": list(self.hand),
        }


@dataclass(frozen=True)
class State:
    players: tuple[Player, Player]
    deck: tuple[str, ...]                 # top first
    discard: tuple[str, ...] = ()         # oldest first
    to_move: int = 0
    first_player: int = 0
    round: int = 1
    actions_left: int = 1
    resource_win: bool = True
    winner: int | None = None
    seed: int = 0                         # drives reshuffles and random discards
    # The rules are not part of the position's identity.
    rules: Rules = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    @property
    def mover(self) -> Player:
        return self.players[self.to_move]

    @property
    def opponent(self) -> Player:
        return self.players[1 - self.to_move]

    def with_player(self, index: int, player: Player) -> State:
        players = (player, self.players[1]) if index == 0 else (self.players[0], player)
        return replace(self, players=players)

    def cards(self) -> Counter[str]:
        """Every card of the game wherever it is: deck, hands, discard pile, shields."""
        counts = Counter(self.deck) + Counter(self.discard)
        for player in self.players:
            counts.update(player.hand)
            counts[SHIELD_CARD] += player.shields
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "game": GAME, "round": self.round, "to_move": self.to_move,
            "first_player": self.first_player, "actions_left": self.actions_left,
            "resource_win": self.resource_win, "winner": self.winner, "seed": self.seed,
            "players": [player.to_json() for player in self.players],
            "deck": list(self.deck), "discard": list(self.discard),
        }

    def __str__(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Loaded:
    """A state read from JSON, and whether the hidden parts were given or filled in."""

    state: State
    opponent_hand_known: bool
    deck_known: bool

    @property
    def complete(self) -> bool:
        return self.opponent_hand_known and self.deck_known


def parse(text: str, rules: Rules) -> State:
    """Read back the text form that str(state) writes: every card must be placed."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidInput(f"position is not JSON: {error}") from None
    loaded = load(data, rules)
    if not loaded.complete:
        raise InvalidInput("position leaves the opponent's hand or the deck unknown")
    return loaded.state


def load(data: Any, rules: Rules) -> Loaded:
    """A position from its JSON value; every fault is named, all at once."""
    if not isinstance(data, dict):
        raise InvalidInput("position must be a JSON object")
    problems: list[str] = []
    if data.get("game", GAME) != GAME:
        problems.append(f"position is of game {data['game']!r}, not {GAME!r}")
    problems.extend(f"position has an unknown field {key!r}" for key in data.keys() - _STATE_KEYS)
    to_move = _int(data, "to_move", 0, problems, "position", high=1)
    players_data = data.get("players")
    if not isinstance(players_data, list) or len(players_data) != 2:
        raise InvalidInput(problems + ["position needs \"players\": a list of two players"])
    known_hands: list[tuple[str, ...] | None] = []
    players = []
    for index, value in enumerate(players_data):
        player, hand = _player(value, index, rules, problems)
        players.append(player)
        known_hands.append(hand)
    mover_data = players_data[to_move]
    if not isinstance(mover_data, dict) or mover_data.get("hand") is None:
        problems.append(f"player {to_move} is to move, so their \"hand\" must be given")
    deck = _cards(data.get("deck"), "deck", rules, problems)
    if deck is not None and data.get("deck_size", len(deck)) != len(deck):
        problems.append(f"deck_size is {data['deck_size']} but the deck lists {len(deck)} cards")
    discard = _cards(data.get("discard", []), "discard", rules, problems) or ()
    config = rules.config
    state_values = {
        "round": _int(data, "round", 1, problems, "position", low=1),
        "first_player": _int(data, "first_player", 0, problems, "position", high=1),
        "actions_left": _int(data, "actions_left", 1, problems, "position"),
        "seed": _int(data, "seed", 0, problems, "position"),
    }
    resource_win = data.get("resource_win", config.resource_win_enabled)
    if not isinstance(resource_win, bool):
        problems.append("position resource_win must be true or false")
    winner = data.get("winner")
    if winner not in (None, 0, 1):
        problems.append(f"position winner must be 0, 1 or null, got {winner!r}")
    if problems:
        raise InvalidInput(problems)

    # Place the unseen cards: what the full deck holds beyond everything visible.
    unseen = Counter(rules.deck())
    seen = Counter(discard) + Counter({"schild": sum(p.shields for p in players)})
    for hand in known_hands:
        seen.update(hand or ())
    seen.update(deck or ())
    too_many = [f"{card} {seen[card]} times (the deck has {unseen[card]})"
                for card in sorted(seen) if seen[card] > unseen[card]]
    if too_many:
        raise InvalidInput(f"position holds {', '.join(too_many)}")
    pool = sorted((unseen - seen).elements(), key=list(rules.cards).index)
    hands = []
    for index, hand in enumerate(known_hands):
        if hand is None:
            size = _int(players_data[index], "hand_size", config.hand_size, problems,
                        f"player {index}", high=config.hand_size)
            hand, pool = tuple(pool[:size]), pool[size:]
            if len(hand) < size:
                problems.append(f"player {index}'s hand_size {size} is more than the unseen cards")
        hands.append(hand)
    if deck is None:
        deck_size = data.get("deck_size", len(pool))
        if deck_size != len(pool):
            problems.append(f"deck_size is {deck_size} but {len(pool)} cards are unplaced")
        deck, pool = tuple(pool), []
    if pool:
        problems.append(f"position places {rules.config.deck_size - len(pool)} of "
                        f"{rules.config.deck_size} cards; missing: {', '.join(pool)}")
    if problems:
        raise InvalidInput(problems)
    players = [replace(p, hand=tuple(sorted(h))) for p, h in zip(players, hands, strict=True)]
    state = State(players=(players[0], players[1]), deck=deck, discard=discard,
                  to_move=to_move, resource_win=resource_win, winner=winner, rules=rules,
                  **state_values)
    return Loaded(state, opponent_hand_known=known_hands[1 - to_move] is not None,
                  deck_known=data.get("deck") is not None)


def _player(value: Any, index: int, rules: Rules,
            problems: list[str]) -> tuple[Player, tuple[str, ...] | None]:
    what = f"player {index}"
    if not isinstance(value, dict):
        problems.append(f"{what} must be a JSON object")
        value = {}
    problems.extend(f"{what} has an unknown field {key!r}" for key in value.keys() - _PLAYER_KEYS)
    start = rules.start
    numbers = {key: _int(value, key, start[key], problems, what)
               for key in ("castle", "wall", *RESOURCES, *PRODUCERS)}
    if numbers["castle"] > rules.config.castle_win:
        problems.append(f"{what} castle {numbers['castle']} is above {rules.config.castle_win}")
    played = value.get("producers_played", {})
    if not isinstance(played, dict):
        problems.append(f"{what} producers_played must map producer kinds to counts")
        played = {}
    problems.extend(f"{what} producers_played has an unknown kind {key!r}"
                    for key in played.keys() - set(PRODUCERS))
    locked = value.get("locked")
    if locked is not None and locked not in CARD_TYPES:
        problems.append(f"{what} locked must be one of {', '.join(CARD_TYPES)} or null")
    double_next = value.get("double_next", False)
    if not isinstance(double_next, bool):
        problems.append(f"{what} double_next must be true or false")
    hand = value.get("hand")
    if hand is not None:
        hand = _cards(hand, f"{what} hand", rules, problems)
        if hand is not None and len(hand) > rules.config.hand_size:
            problems.append(f"{what} holds {len(hand)} cards, more than {rules.config.hand_size}")
        if hand is not None and value.get("hand_size", len(hand)) != len(hand):
            problems.append(f"{what} hand_size is {value['hand_size']} but the hand lists "
                            f"{len(hand)} cards")
    player = Player(
        castle=numbers["castle"], wall=numbers["wall"],
        stocks=tuple(numbers[r] for r in RESOURCES),  # type: ignore[arg-type]
        producers=tuple(numbers[p] for p in PRODUCERS),  # type: ignore[arg-type]
        producers_played=tuple(_int(played, p, 0, problems, f"{what} producers_played")
                               for p in PRODUCERS),  # type: ignore[arg-type]
        shields=_int(value, "shields", 0, problems, what),
        guards=_int(value, "guards", 0, problems, what),
        double_next=double_next is True, locked=locked,
        poison=_ticks(value.get("poison", []), f"{what} poison", problems),
        heal=_ticks(value.get("heal", []), f"{what} heal", problems),
    )
    return player, hand


def _int(data: dict[str, Any], key: str, default: int, problems: list[str], what: str,
         low: int = 0, high: int | None = None) -> int:
    value = data.get(key, default)
    if type(value) is not int or value < low or (high is not None and value > high):
        limit = f"{low}..{high}" if high is not None else f">= {low}"
        problems.append(f"{what} {key} must be a whole number {limit}, got {value!r}")
        return default
    return value


def _cards(value: Any, what: str, rules: Rules, problems: list[str]) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        problems.append(f"{what} must be a list of card ids")
        return None
    unknown = [card for card in value if card not in rules.cards]
    if unknown:
        problems.append(f"{what} holds {', '.join(map(repr, unknown))}, which no card is called")
        return None
    return tuple(value)


def _ticks(value: Any, what: str, problems: list[str]) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, list):
        problems.append(f"{what} must be a list of {{\"per\": n, \"ticks\": t}}")
        return ()
    result = []
    for item in value:
        if (not isinstance(item, dict) or set(item) != {"per", "ticks"}
                or any(type(v) is not int or v < 1 for v in item.values())):
            problems.append(f"{what} entry {item!r} must be {{\"per\": n, \"ticks\": t}} "
                            "with whole numbers >= 1")
            continue
        result.append((item["per"], item["ticks"]))
    return tuple(result)
