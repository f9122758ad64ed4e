"""The rules of Fortress Fight Kingdom: a new game, the legal actions, and applying one.

`apply` returns the next state at the next decision: when an action ends the turn, the
hand is refilled, the other player's turn starts (production, war chest, poison, heal)
and the state waits for that player's first action. All randomness (reshuffles, random
discards) comes from the state's seed, so a game is a function of its seed and actions.
What each player knows of the hidden cards is kept as the rules show them (Kundschafter,
Spitzel, cards leaving a hand, draws from a known deck top, a deck that runs out):
solver/ffkingdom/knowledge.py says how.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from solver.errors import IllegalMove, InvalidInput
from solver.ffkingdom.actions import Action, Discard, Play, Timeout
from solver.ffkingdom.data import (
    CARD_TYPES,
    CORE,
    PRODUCERS,
    PRODUCTION,
    RESOURCES,
    Card,
    CardTable,
    Config,
    Terms,
)
from solver.ffkingdom.knowledge import drawn, left_hand, revealed_top, saw_hand, saw_top
from solver.ffkingdom.position import SHIELD_CARD, Knowledge, Player, State


def new_game(rules: CardTable, seed: int, first_player: int | None = None,
             leaders: tuple[str | None, str | None] = (None, None),
             resource_win: bool | None = None) -> State:
    """Shuffle, deal nine each (alternately, the first player first) and start turn one."""
    rng = random.Random(seed)
    first = rng.randrange(2) if first_player is None else first_player
    deck = list(rules.deck())
    rng.shuffle(deck)
    hands: tuple[list[str], list[str]] = ([], [])
    for k in range(2 * rules.config.hand_size):
        hands[(first + k) % 2].append(deck[k])
    players = tuple(_starting_player(rules, leader, hand)
                    for leader, hand in zip(leaders, hands, strict=True))
    state = State(players=players, deck=tuple(deck[2 * rules.config.hand_size:]),  # type: ignore[arg-type]
                  to_move=first, first_player=first,
                  resource_win=(rules.config.resource_win_enabled if resource_win is None
                                else resource_win),
                  seed=rng.getrandbits(62), rules=rules)
    game = _Game(state)
    game.start_turn()
    return game.freeze()


def _starting_player(rules: CardTable, leader: str | None, hand: list[str]) -> Player:
    values = dict(rules.start)
    if leader is not None:
        if leader not in rules.leaders:
            raise InvalidInput(f"no leader is called {leader!r} "
                              f"(leaders: {', '.join(rules.leaders)})")
        for key, bonus in rules.leaders[leader].items():
            values[key] += bonus
    return Player(castle=values["castle"], wall=values["wall"],
                  stocks=tuple(values[r] for r in RESOURCES),  # type: ignore[arg-type]
                  producers=tuple(values[p] for p in PRODUCERS),  # type: ignore[arg-type]
                  hand=tuple(sorted(hand)))


def cost(player: Player, card: Card, rules: CardTable) -> dict[str, int]:
    """What the card costs this player now: producers cost more for each one played."""
    extra = surcharge(player, rules.terms[card.id], rules.config)
    return {resource: amount + extra for resource, amount in card.cost.items()}


def surcharge(player: Player, terms: Terms, config: Config) -> int:
    """What each resource of a producer's cost goes up by: the step for every producer
    card played (of any kind, or of its own kind: the config's scope)."""
    kind = terms.surcharge_kind
    if kind is None:
        return 0
    played = player.producers_played
    count = sum(played) if config.producer_surcharge_scope == "global" else played[kind]
    return config.producer_surcharge_step * count


def _playable(player: Player, terms: Terms, config: Config) -> bool:
    """The rule for a card in the hand: its type is not locked and every stock covers its
    cost. `plays` asks this alone; `why_not_playable` asks it first and explains a no."""
    if player.locked == terms.type:
        return False
    extra = surcharge(player, terms, config)
    stocks = player.stocks
    for k, amount in terms.cost:
        if stocks[k] < amount + extra:
            return False
    return True


def why_not_playable(state: State, card_id: str) -> str | None:
    """The reason the player to move may not play this card now, or None."""
    rules = state.rules
    player = state.mover
    if card_id not in rules.cards:
        return f"no card is called {card_id!r}"
    if card_id not in player.hand:
        return f"{card_id} is not in the hand"
    if _playable(player, rules.terms[card_id], rules.config):
        return None
    card = rules.cards[card_id]
    if player.locked == card.type:
        return f"{card.type} cards are locked this turn"
    short = [f"{amount} {resource} (has {player.stock(resource)})"
             for resource, amount in cost(player, card, rules).items()
             if player.stock(resource) < amount]
    return f"{card_id} costs " + ", ".join(short)


def legal_actions(state: State) -> list[Action]:
    """Every play (each Blockade choice apart) and every distinct discard of 1..3 cards;
    a player who holds no cards can only let the timer run out."""
    return [*plays(state), *discards(state), *waits(state)]


def plays(state: State) -> list[Play]:
    if state.winner is not None:
        return []
    player, terms, config = state.mover, state.rules.terms, state.rules.config
    result: list[Play] = []
    for card_id in dict.fromkeys(player.hand):
        card = terms.get(card_id)  # None: no card of this table, never playable
        if card is not None and _playable(player, card, config):
            for choice in card.choices:  # each Blockade lock apart
                result.append(Play(card_id, choice))
    return result


def discards(state: State) -> list[Discard]:
    if state.winner is not None:
        return []
    hand, made = state.mover.hand, _DISCARDS.__getitem__
    result: list[Discard] = []
    for size in range(1, state.rules.config.discard_max + 1):
        result.extend(map(made, dict.fromkeys(combinations(hand, size))))
    return result


class _Discards(dict[tuple[str, ...], Discard]):
    """The Discard of each set of cards, made the first time it is asked for. Actions are
    values, so one serves every position: making a hundred afresh for each position was
    most of a random playout's time. There are only so many sets of up to discard_max of a
    card table's cards."""

    def __missing__(self, cards: tuple[str, ...]) -> Discard:
        discard = self[cards] = Discard(cards)
        return discard


_DISCARDS = _Discards()


def waits(state: State) -> list[Timeout]:
    """The timeout, when it is all the player to move can do: an empty hand (a position
    may give one; the hand is refilled when the turn ends)."""
    if state.winner is not None or state.mover.hand:
        return []
    return [Timeout()]


def apply(state: State, action: Action) -> State:
    """The state after the player to move takes this action; IllegalMove names why not."""
    if state.winner is not None:
        raise IllegalMove(f"the game is over: player {state.winner} won")
    game = _Game(state)
    match action:
        case Play():
            game.play(action)
        case Discard():
            game.discard(action.cards)
        case Timeout():
            game.actions_left = 0
        case _:
            raise IllegalMove(f"{action!r} is not an action")
    game.check_wins()
    if game.winner is None and (game.actions_left <= 0 or not game.me.hand):
        game.end_turn()
    return game.freeze()


def win_reason(state: State) -> str | None:
    """Why the winner won (§9), for a person: their castle built up, the other castle
    destroyed, or one of their core stocks filled; None while the game goes on (or for a
    position given a winner that meets none of them)."""
    if state.winner is None:
        return None
    config = state.rules.config
    me, them = state.players[state.winner], state.players[1 - state.winner]
    if me.castle >= config.castle_win:
        return f"castle built to {me.castle}"
    if them.castle <= 0:
        return "the opponent's castle destroyed"
    full = [f"{name} ({key}) at {amount}" for key, name, amount
            in zip(CORE, ("bricks", "weapons", "crystals"), me.stocks, strict=False)
            if amount >= config.resource_win]
    return f"resources: {full[0]}" if state.resource_win and full else None


# ---------------------------------------------------------------- the working copy


@dataclass(slots=True)
class _Side:
    castle: int
    wall: int
    stocks: list[int]
    producers: list[int]
    producers_played: list[int]
    shields: int
    guards: int
    double_next: bool
    poison: list[tuple[int, int]]
    heal: list[tuple[int, int]]
    locked: str | None
    hand: list[str]
    knows: Knowledge

    @staticmethod
    def of(p: Player) -> _Side:
        return _Side(p.castle, p.wall, list(p.stocks), list(p.producers),
                     list(p.producers_played), p.shields, p.guards, p.double_next,
                     list(p.poison), list(p.heal), p.locked, list(p.hand), p.knows)

    def freeze(self) -> Player:
        return Player(castle=self.castle, wall=self.wall, stocks=_four(self.stocks),
                      producers=_four(self.producers),
                      producers_played=_four(self.producers_played), shields=self.shields,
                      guards=self.guards, double_next=self.double_next,
                      poison=tuple(self.poison), heal=tuple(self.heal), locked=self.locked,
                      hand=tuple(sorted(self.hand)), knows=self.knows)


def _four(values: list[int]) -> tuple[int, int, int, int]:
    """One number per resource or producer kind."""
    first, second, third, fourth = values
    return first, second, third, fourth


class _Game:
    """A mutable copy of a state for the length of one action."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.rules = state.rules
        self.config = state.rules.config
        self.sides = [_Side.of(p) for p in state.players]
        self.deck = list(state.deck)
        self.discard_pile = list(state.discard)
        self.to_move = state.to_move
        self.round = state.round
        self.actions_left = state.actions_left
        self.winner = state.winner
        self.seed = state.seed

    @property
    def me(self) -> _Side:
        return self.sides[self.to_move]

    @property
    def them(self) -> _Side:
        return self.sides[1 - self.to_move]

    def freeze(self) -> State:
        self.deduce()
        state = self.state  # made directly: dataclasses.replace costs a fifth of an apply
        return State(players=(self.sides[0].freeze(), self.sides[1].freeze()),
                     deck=tuple(self.deck), discard=tuple(self.discard_pile),
                     to_move=self.to_move, first_player=state.first_player, round=self.round,
                     actions_left=self.actions_left, resource_win=state.resource_win,
                     winner=self.winner, seed=self.seed, rules=state.rules)

    def rng(self) -> random.Random:
        rng = random.Random(self.seed)
        self.seed = rng.getrandbits(62)
        return rng

    # ------------------------------------------------------------ actions

    def play(self, action: Play) -> None:
        reason = why_not_playable(self.state, action.card)
        if reason is not None:
            raise IllegalMove(reason)
        card = self.rules.cards[action.card]
        if "lock_type" in card.effect and action.choice not in CARD_TYPES:
            raise IllegalMove(f"{card.id} needs a card type to lock: play {card.id}:TYPE with "
                              f"TYPE one of {', '.join(CARD_TYPES)}")
        if "lock_type" not in card.effect and action.choice is not None:
            raise IllegalMove(f"{card.id} takes no choice")
        me = self.me
        for resource, amount in cost(self.state.mover, card, self.rules).items():
            me.stocks[RESOURCES.index(resource)] -= amount
        me.hand.remove(card.id)
        self.seen_leave(self.to_move, (card.id,))  # face up; a Schild is known by its play
        self.actions_left -= 1
        factor = 2 if me.double_next else 1
        me.double_next = False
        self.resolve(card, factor, action.choice)
        if card.hidden_play:
            me.shields += 1
        else:
            self.discard_pile.append(card.id)
        self.actions_left += card.extra_actions

    def discard(self, cards: tuple[str, ...]) -> None:
        limit = self.config.discard_max
        if not 1 <= len(cards) <= limit:
            raise IllegalMove(f"a discard is 1 to {limit} cards, not {len(cards)}")
        missing = Counter(cards) - Counter(self.me.hand)
        if missing:
            raise IllegalMove(f"the hand does not hold {', '.join(missing.elements())}")
        for card_id in cards:
            self.me.hand.remove(card_id)
            self.discard_pile.append(card_id)
        self.seen_leave(self.to_move, cards)
        self.actions_left -= 1

    # ------------------------------------------------------------ effects

    def resolve(self, card: Card, factor: int, choice: str | None) -> None:
        effect = card.effect
        me, them = self.me, self.them
        blocked = card.damage_card and them.shields > 0 and not card.unblockable
        if blocked:
            self.lose_shield(them)
        if not blocked:
            if "shatter" in effect and them.shields > 0:
                self.lose_shield(them)
            if "dmg" in effect:
                self.damage(effect["dmg"] * factor)
            if "direct" in effect:
                them.castle = max(0, them.castle - effect["direct"] * factor)
            if "poison" in effect:
                them.poison.append((effect["poison"]["per"] * factor, effect["poison"]["ticks"]))
            if card.theft_card:
                self.theft(effect, factor)
            if "dispel" in effect:
                self.discard_pile.extend([SHIELD_CARD] * them.shields)
                them.shields = them.guards = 0
                them.heal.clear()
                them.double_next = False
            if "lock_type" in effect:
                them.locked = choice
            if "opp_discard_random" in effect:
                rng = self.rng()
                for _ in range(min(effect["opp_discard_random"], len(them.hand))):
                    self.discard_pile.append(them.hand.pop(rng.randrange(len(them.hand))))
                    self.seen_leave(1 - self.to_move, self.discard_pile[-1:])
        if "wall" in effect:
            me.wall = max(0, me.wall + effect["wall"] * factor)
        if "castle" in effect:
            me.castle = min(self.config.castle_win, max(0, me.castle + effect["castle"] * factor))
        for resource, amount in effect.get("gain", {}).items():
            me.stocks[RESOURCES.index(resource)] += amount * factor
        if "producer" in effect:
            kind = PRODUCERS.index(effect["producer"])
            me.producers[kind] += 1
            me.producers_played[kind] += 1
        me.guards += effect.get("guard", 0)
        if "heal" in effect:
            me.heal.append((effect["heal"]["per"] * factor, effect["heal"]["ticks"]))
        if effect.get("double_next"):
            me.double_next = True
        if "reveal" in effect:
            self.reveal(effect["reveal"])

    # ------------------------------------------------------------ knowledge
    # (solver/ffkingdom/knowledge.py: what each rule shows a player)

    def reveal(self, what: str) -> None:
        """Kundschafter shows the mover the opponent's hand, Spitzel the deck's top cards."""
        count = revealed_top(what)
        if count:
            self.me.knows = saw_top(self.me.knows, self.deck, count)
        else:
            self.me.knows = saw_hand(self.me.knows, self.them.hand)

    def seen_leave(self, owner: int, cards: tuple[str, ...] | list[str]) -> None:
        """Cards left the owner's hand face up: the other player no longer knows them there."""
        watcher = self.sides[1 - owner]
        if watcher.knows.opponent_hand:
            watcher.knows = left_hand(watcher.knows, cards)

    def draw(self) -> None:
        """The mover draws the deck's top card: off both players' known tops, and known to
        the opponent when it knew that card."""
        card = self.deck.pop(0)
        me, them = self.me, self.them
        me.hand.append(card)
        if me.knows.deck_top:
            me.knows = drawn(me.knows, card, by_opponent=False)
        if them.knows.deck_top:
            them.knows = drawn(them.knows, card, by_opponent=True)

    def deduce(self) -> None:
        """A player who knows every card of the deck (an empty one above all) knows the
        opponent's whole hand: everything else it cannot see is there."""
        first, second = self.sides
        size = len(self.deck)
        if len(first.knows.deck_top) == size and len(first.knows.opponent_hand) < len(second.hand):
            first.knows = saw_hand(first.knows, second.hand)
        if len(second.knows.deck_top) == size and len(second.knows.opponent_hand) < len(first.hand):
            second.knows = saw_hand(second.knows, first.hand)

    # ------------------------------------------------------------ damage

    def lose_shield(self, side: _Side) -> None:
        side.shields -= 1
        self.discard_pile.append(SHIELD_CARD)

    def damage(self, amount: int) -> None:
        """Wall first; 35 % of what the wall swallows shakes the castle, and half of the
        wall destroyed lands on the attacker's wall."""
        me, them = self.me, self.them
        absorbed = min(them.wall, amount)
        them.wall -= absorbed
        concussion = self.config.percent(absorbed, self.config.concussion_pct)
        them.castle = max(0, them.castle - (amount - absorbed) - concussion)
        me.wall += self.config.percent(absorbed, self.config.rubble_pct)

    def theft(self, effect: Mapping[str, Any], factor: int) -> None:
        me, them = self.me, self.them
        if them.guards > 0:
            them.guards -= 1
            return
        for name, thief_gains in (("steal", True), ("destroy", False)):
            for resource, amount in effect.get(name, {}).items():
                k = RESOURCES.index(resource)
                taken = min(them.stocks[k], amount * factor)
                them.stocks[k] -= taken
                if thief_gains:
                    me.stocks[k] += taken

    # ------------------------------------------------------------ turns

    def check_wins(self) -> None:
        if self.winner is not None:
            return
        winners = [k for k in (0, 1) if self._has_won(k)]
        if winners:
            self.winner = self.to_move if len(winners) == 2 else winners[0]

    def _has_won(self, k: int) -> bool:
        me, them = self.sides[k], self.sides[1 - k]
        return (me.castle >= self.config.castle_win or them.castle <= 0
                or (self.state.resource_win
                    and max(me.stocks[:len(CORE)]) >= self.config.resource_win))

    def end_turn(self) -> None:
        me = self.me
        while len(me.hand) < self.config.hand_size:
            if not self.deck:
                if not self.discard_pile:
                    break
                self.deduce()  # before the discard pile becomes the deck (knowledge.py)
                self.deck = self.discard_pile
                self.discard_pile = []
                self.rng().shuffle(self.deck)
            self.draw()
        me.locked = None
        self.to_move = 1 - self.to_move
        if self.to_move == self.state.first_player:
            self.round += 1
        self.start_turn()

    def start_turn(self) -> None:
        """Production and war chest, then poison and heal; every_step checks wins between."""
        me, config = self.me, self.config
        every_step = config.win_check == "every_step"
        self.actions_left = 1
        if self.round > 1 or config.production_on_first_turn:
            for kind, made, gold in PRODUCTION:
                per_unit = config.market_gold_per_turn if gold else 1
                me.stocks[made] += per_unit * me.producers[kind]
        bonus = config.war_chest(self.round)
        for k, resource in enumerate(RESOURCES):
            room = bonus if resource == "G" else max(0, config.war_chest_core_cap - me.stocks[k])
            me.stocks[k] += min(bonus, room)
        if every_step:
            self.check_wins()
            if self.winner is not None:
                return
        for per, _ in me.poison:
            me.castle = max(0, me.castle - per)
        me.poison = [(per, ticks - 1) for per, ticks in me.poison if ticks > 1]
        if every_step:
            self.check_wins()
            if self.winner is not None:
                return
        for per, _ in me.heal:
            me.wall += per
        me.heal = [(per, ticks - 1) for per, ticks in me.heal if ticks > 1]
