"""Reading a Fortress Fight Kingdom position's JSON: the wire schema (solver/ffkingdom/
schema.py: every type and range), then the card table's checks, every fault named at
once with the path of its field; unseen cards are filled in around what the players
know (solver/ffkingdom/position.py says how).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from solver.errors import InvalidInput
from solver.ffkingdom.data import CardTable, shipped_cards
from solver.ffkingdom.position import NOTHING, SHIELD_CARD, Knowledge, Player, Position, State
from solver.ffkingdom.schema import PlayerSchema, PositionSchema
from solver.json_text import json_of
from solver.reading import check


def parse(text: str, rules: CardTable) -> State:
    """Read back the text form that str(state) writes: every card must be placed."""
    return State.from_json(json_of(text.encode(), "position"), rules)


def load(data: Any, rules: CardTable | None = None) -> Position:
    """A position from its JSON value (read by the shipped card table unless `rules`
    says otherwise); every fault is named, all at once."""
    rules = rules or shipped_cards()
    wire = check(PositionSchema, data)
    config = rules.config
    problems: list[str] = []
    players = [_player(value, k, rules, problems) for k, value in enumerate(wire.players)]
    known_hands = [value.hand for value in wire.players]
    if known_hands[wire.to_move] is None:
        problems.append(f"players[{wire.to_move}].hand: must be given, as player "
                        f"{wire.to_move} is to move")
    _known_cards(wire.deck, "deck", rules, problems)
    _known_cards(wire.discard, "discard", rules, problems)
    if wire.deck is not None and wire.deck_size not in (None, len(wire.deck)):
        problems.append(f"deck_size: is {wire.deck_size}, but the deck lists "
                        f"{len(wire.deck)} cards")
    knows = [_knowledge(wire, k, rules, problems) for k in (0, 1)]
    top, teller = _deck_top(wire, knows, problems)
    if problems:
        raise InvalidInput(problems)

    # Place the unseen cards: what the full deck holds beyond everything visible, the
    # cards the players know to be in an unknown hand or on the deck's top first.
    unseen = Counter(rules.deck())
    seen = Counter(wire.discard) + Counter({SHIELD_CARD: sum(p.shields for p in players)})
    for hand in known_hands:
        seen.update(hand or ())
    seen.update(wire.deck or ())
    too_many = [f"{card} {seen[card]} times (the deck has {unseen[card]})"
                for card in sorted(seen) if seen[card] > unseen[card]]
    if too_many:
        raise InvalidInput(f"position holds {', '.join(too_many)}")
    rest = unseen - seen
    placed: list[tuple[str, tuple[str, ...]]] = [
        (f"players[{k}].knows.opponent_hand", knows[k].opponent_hand)
        for k in (0, 1) if known_hands[1 - k] is None]
    if wire.deck is None:
        placed.append((f"players[{teller}].knows.deck_top", tuple(top)))
    for what, cards in placed:
        wanted = Counter(cards)
        if wanted - rest:
            problems.append(f"{what}: holds more than the cards unseen (in no given hand "
                            f"or pile): {_over(wanted, rest, 'unseen')}")
        rest -= wanted
    pool = sorted(rest.elements(), key=list(rules.cards).index)
    hands = []
    for k, hand in enumerate(known_hands):
        if hand is None:
            given = wire.players[k].hand_size
            size = config.hand_size if given is None else given
            sure = knows[1 - k].opponent_hand
            if size < len(sure):
                problems.append(f"players[{1 - k}].knows.opponent_hand: holds {len(sure)} "
                                f"cards, more than the {size} in players[{k}]'s hand")
            elif size - len(sure) > len(pool):
                problems.append(f"players[{k}].hand_size: {size} is more than the "
                                f"{len(pool) + len(sure)} cards unseen")
            free = max(0, size - len(sure))
            hand, pool = [*sure, *pool[:free]], pool[free:]
        hands.append(tuple(sorted(hand)))
    deck = wire.deck
    if deck is None:
        if wire.deck_size not in (None, len(top) + len(pool)):
            problems.append(f"deck_size: is {wire.deck_size}, but {len(top) + len(pool)} "
                            "cards are unplaced")
        deck, pool = [*top, *pool], []
    if pool:
        problems.append(f"position places {config.deck_size - len(pool)} of "
                        f"{config.deck_size} cards; missing: {', '.join(pool)}")
    if problems:
        raise InvalidInput(problems)
    first, second = (replace(p, hand=h, knows=k)
                     for p, h, k in zip(players, hands, knows, strict=True))
    resource_win = (wire.resource_win if "resource_win" in wire.model_fields_set
                    else config.resource_win_enabled)
    state = State(players=(first, second), deck=tuple(deck), discard=tuple(wire.discard),
                  to_move=wire.to_move, first_player=wire.first_player, round=wire.round,
                  actions_left=wire.actions_left, resource_win=resource_win,
                  winner=wire.winner, seed=wire.seed, rules=rules)
    return Position(state, opponent_hand_known=known_hands[1 - wire.to_move] is not None,
                    deck_known=wire.deck is not None)


def _knowledge(wire: PositionSchema, index: int, rules: CardTable,
               problems: list[str]) -> Knowledge:
    """What player `index` knows, with the checks against what the position gives: the
    cards it knows in a given opponent's hand must be there, the known top must be the
    given deck's top."""
    what = f"players[{index}].knows"
    knows = wire.players[index].knows
    before = len(problems)
    _known_cards(knows.opponent_hand, f"{what}.opponent_hand", rules, problems)
    _known_cards(knows.deck_top, f"{what}.deck_top", rules, problems)
    if len(problems) > before:
        return NOTHING
    hand = wire.players[1 - index].hand
    if hand is not None:
        sure, held = Counter(knows.opponent_hand), Counter(hand)
        if sure - held:
            problems.append(f"{what}.opponent_hand: holds more than players[{1 - index}]."
                            f"hand: {_over(sure, held, 'it holds')}")
    if wire.deck is not None:
        top = knows.deck_top
        if len(top) > len(wire.deck):
            problems.append(f"{what}.deck_top: lists {len(top)} cards, more than the "
                            f"deck's {len(wire.deck)}")
        elif list(top) != wire.deck[:len(top)]:
            at = next(n for n, card in enumerate(top) if card != wire.deck[n])
            problems.append(f"{what}.deck_top: is not the deck's top: card {at} is "
                            f"{top[at]}, the deck's is {wire.deck[at]}")
    return Knowledge(tuple(sorted(knows.opponent_hand)), tuple(knows.deck_top))


def _deck_top(wire: PositionSchema, knows: list[Knowledge],
              problems: list[str]) -> tuple[list[str], int]:
    """The deck's top as far as either player knows it (both know the same deck), and
    the player who knows the longer top."""
    first, second = knows[0].deck_top, knows[1].deck_top
    clash = next((n for n, (a, b) in enumerate(zip(first, second, strict=False)) if a != b),
                 None)
    if clash is not None:
        problems.append(f"players[1].knows.deck_top: card {clash} is {second[clash]}, but "
                        f"players[0].knows.deck_top has {first[clash]} there")
    if wire.deck is None and wire.deck_size is not None:
        for k, top in enumerate((first, second)):
            if len(top) > wire.deck_size:
                problems.append(f"players[{k}].knows.deck_top: lists {len(top)} cards, "
                                f"more than the deck_size {wire.deck_size}")
    teller = int(len(second) > len(first))
    return list(knows[teller].deck_top), teller


def _over(cards: Counter[str], limit: Counter[str], label: str) -> str:
    """The cards of which there are more than `limit` allows, each with the limit."""
    return ", ".join(f"{card}{'' if n == 1 else f' {n} times'} ({label} {limit[card]})"
                     for card, n in sorted(cards.items()) if n > limit[card])


def _player(wire: PlayerSchema, index: int, rules: CardTable, problems: list[str]) -> Player:
    """The player's numbers (the rules' starting values where left out) and the checks
    that need the card table; the hand is placed later."""
    what = f"players[{index}]"

    def number(key: str) -> int:
        value: int = getattr(wire, key)
        return value if key in wire.model_fields_set else rules.start[key]

    config = rules.config
    castle = number("castle")
    if castle > config.castle_win:
        problems.append(f"{what}.castle: must be at most {config.castle_win}, the castle "
                        f"that wins, not {castle}")
    if wire.hand is None:
        if wire.hand_size is not None and wire.hand_size > config.hand_size:
            problems.append(f"{what}.hand_size: must be at most {config.hand_size}, a full "
                            f"hand, not {wire.hand_size}")
    else:
        _known_cards(wire.hand, f"{what}.hand", rules, problems)
        if len(wire.hand) > config.hand_size:
            problems.append(f"{what}.hand: holds {len(wire.hand)} cards, more than "
                            f"{config.hand_size}")
        if wire.hand_size not in (None, len(wire.hand)):
            problems.append(f"{what}.hand_size: is {wire.hand_size}, but the hand lists "
                            f"{len(wire.hand)} cards")
    played = wire.producers_played
    return Player(
        castle=castle, wall=number("wall"),
        stocks=(number("Z"), number("W"), number("K"), number("G")),
        producers=(number("builders"), number("soldiers"), number("mages"),
                   number("markets")),
        producers_played=(played.builders, played.soldiers, played.mages, played.markets),
        shields=wire.shields, guards=wire.guards, double_next=wire.double_next,
        poison=tuple((t.per, t.ticks) for t in wire.poison),
        heal=tuple((t.per, t.ticks) for t in wire.heal),
        locked=wire.locked,
    )


def _known_cards(cards: list[str] | None, what: str, rules: CardTable,
                 problems: list[str]) -> None:
    unknown = [card for card in cards or () if card not in rules.cards]
    if unknown:
        problems.append(f"{what}: holds {', '.join(map(repr, unknown))}, which no card "
                        "is called")
