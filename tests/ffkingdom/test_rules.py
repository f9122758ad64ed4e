"""The rules engine: the test vectors of docs/fortress-fight-kingdom.md §13 and one test
per rule."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import IllegalMove, InvalidInput
from solver.ffkingdom import (
    Discard,
    Play,
    State,
    Timeout,
    apply,
    cost,
    legal_actions,
    new_game,
    why_not_playable,
)
from solver.ffkingdom.drawing import picture
from solver.ffkingdom.position import Position
from solver.ffkingdom.rules import win_reason
from tests.support.ffkingdom import (
    EVERY_STEP,
    RULES,
    act,
    position,
    refused,
    rest_of_deck,
    with_config,
)

FULL_DECK = Counter(RULES.deck())


def stocks(player) -> dict[str, int]:
    return dict(zip("ZWKG", player.stocks, strict=True))


# --- docs/fortress-fight-kingdom.md §13: test vectors ---------------------------------------------

def test_vector_1_katapult_against_a_full_wall():
    state = position({"W": 7, "hand": ["katapult", "festung"]}, {}, actions_left=2)
    after = act(state, "play katapult")
    attacker, defender = after.players
    assert (defender.wall, defender.castle) == (13, 57)
    assert attacker.wall == 26
    assert attacker.stock("W") == 0


def test_vector_2_belagerung_breaks_through_the_wall():
    state = position({"W": 24, "hand": ["belagerung", "festung"]}, {"wall": 13, "castle": 57},
                     actions_left=2)
    attacker, defender = act(state, "play belagerung").players
    assert (defender.wall, defender.castle) == (0, 38)
    assert attacker.wall == 22 + 6


@pytest.mark.parametrize("wall", [0, 13, 80])
def test_vector_3_drache_ignores_the_wall(wall):
    state = position({"K": 22, "hand": ["drache", "festung"]}, {"wall": wall, "castle": 38},
                     actions_left=2)
    attacker, defender = act(state, "play drache").players
    assert defender.castle == 16
    assert (defender.wall, attacker.wall) == (wall, 22)
    assert attacker.stock("K") == 0


def test_vector_4_shield_blocks_the_whole_katapult():
    state = position({"W": 7, "hand": ["katapult", "festung"]}, {"shields": 1}, actions_left=2)
    after = act(state, "play katapult")
    before_attacker, before_defender = state.players
    assert after.players[1] == dataclasses.replace(before_defender, shields=0)
    assert after.players[0] == dataclasses.replace(before_attacker, stocks=(6, 0, 6, 5),
                                                   hand=("festung",))
    assert Counter(after.discard) == {"katapult": 1, "schild": 1}
    assert after.cards() == FULL_DECK


def test_vector_5_spaehschlag_breaks_one_shield_and_still_hits():
    state = position({"W": 5, "hand": ["spaehschlag", "festung"]},
                     {"shields": 2, "wall": 0, "castle": 16}, actions_left=2)
    defender = act(state, "play spaehschlag").players[1]
    assert (defender.shields, defender.castle, defender.wall) == (1, 11, 0)


def test_vector_6_verstaerkung_doubles_the_katapult():
    state = position({"K": 6, "W": 7, "hand": ["verstaerkung", "katapult", "festung"]},
                     {"wall": 5, "castle": 20}, actions_left=3)
    attacker, defender = act(state, "play verstaerkung", "play katapult").players
    assert (defender.castle, defender.wall) == (6, 0)
    assert attacker.wall == 24
    assert attacker.double_next is False
    assert stocks(attacker) == {"Z": 6, "W": 0, "K": 0, "G": 5}


def war_chest_turn(round_number: int, player: dict, rules=RULES):
    """Player 0 starting their turn in round `round_number`."""
    state = position(player, {"hand": ["festung"]}, rules=rules, to_move=1,
                     round=round_number - 1)
    after = act(state, "timeout")
    assert (after.round, after.to_move) == (round_number, 0)
    return after.players[0]


def test_vector_7_war_chest_round_18_tops_up_to_40():
    player = war_chest_turn(18, {"Z": 37, "G": 7})
    assert player.stock("Z") == 40
    assert player.stock("G") == 9


def test_vector_7_war_chest_round_20_gives_3():
    assert RULES.config.war_chest(20) == 3
    player = war_chest_turn(20, {"Z": 10, "W": 20, "K": 30, "G": 7})
    assert stocks(player) == {"Z": 15, "W": 25, "K": 35, "G": 10}


def test_vector_8_producer_surcharge_counts_producers_played():
    state = position({"Z": 14, "hand": ["bauschule", "festung"],
                      "producers_played": {"markets": 1, "soldiers": 1}}, {}, actions_left=2)
    assert cost(state.mover, RULES.cards["bauschule"], RULES) == {"Z": 14}
    player = act(state, "play bauschule").players[0]
    assert player.stock("Z") == 0
    assert player.producers == (3, 2, 2, 0)
    assert player.producers_played == (1, 1, 0, 1)


def test_vector_8_surcharge_makes_the_card_unaffordable():
    state = position({"Z": 13, "hand": ["bauschule"],
                      "producers_played": {"markets": 1, "soldiers": 1}}, {})
    assert why_not_playable(state, "bauschule") == "bauschule costs 14 Z (has 13)"


def test_vector_9_doppelzug_action_counter():
    hand = ["doppelzug", "mauer", "katapult", "angriff", "angriff", "blitz",
            "turm", "turm", "wehrgang"]
    state = position({"Z": 1, "W": 7, "G": 6, "hand": hand}, {})
    counts = []
    for text in ("play doppelzug", "play mauer", "play katapult"):
        state = act(state, text)
        counts.append((state.to_move, state.actions_left))
    assert counts == [(0, 2), (0, 2), (0, 1)]
    deck_before = state.deck
    after = act(state, "discard angriff angriff blitz")
    assert after.to_move == 1
    assert after.actions_left == 1
    assert after.players[0].hand == tuple(sorted(["turm", "turm", "wehrgang",
                                                  *deck_before[:6]]))
    assert after.deck == deck_before[6:]
    assert after.discard == ("doppelzug", "mauer", "katapult", "angriff", "angriff", "blitz")


def test_vector_10_giftnebel_ticks_on_four_of_the_victims_turns():
    state = position({"K": 5, "hand": ["giftnebel"]}, {"castle": 60, "hand": ["festung"]})
    state = act(state, "play giftnebel")
    castles, poison = [], []
    for _ in range(6):
        assert state.to_move == 1
        castles.append(state.players[1].castle)
        poison.append(state.players[1].poison)
        state = act(state, "timeout", "timeout")
    assert castles == [58, 56, 54, 52, 52, 52]
    assert poison == [((2, 3),), ((2, 2),), ((2, 1),), (), (), ()]


def test_vector_10_poison_tick_comes_after_production():
    state = position({"K": 5, "hand": ["giftnebel"]},
                     {"castle": 60, "wall": 5, "Z": 3, "hand": ["festung"]})
    victim = act(state, "play giftnebel").players[1]
    assert (victim.castle, victim.wall, victim.stock("Z")) == (58, 5, 5)


def test_vector_10_every_step_tick_to_zero_wins_at_once():
    state = position({"K": 5, "hand": ["giftnebel"]}, {"castle": 2, "hand": ["turm"]},
                     rules=EVERY_STEP)
    after = act(state, "play giftnebel")
    assert after.winner == 0
    assert after.to_move == 1
    assert after.players[1].castle == 0
    assert legal_actions(after) == []


def test_vector_10_action_end_only_victim_may_save_the_castle():
    state = position({"K": 5, "hand": ["giftnebel"]}, {"castle": 2, "hand": ["turm", "mauer"]})
    after = act(state, "play giftnebel")
    assert (after.winner, after.to_move, after.players[1].castle) == (None, 1, 0)
    saved = act(after, "play turm")
    assert saved.winner is None
    assert saved.players[1].castle == 5


@pytest.mark.parametrize("action", ["discard mauer", "play mauer", "timeout"])
def test_vector_10_action_end_only_opponent_wins_after_the_next_action(action):
    state = position({"K": 5, "hand": ["giftnebel"]}, {"castle": 2, "hand": ["turm", "mauer"]})
    after = act(state, "play giftnebel", action)
    assert after.winner == 0
    assert after.players[1].castle == 0


def test_vector_11_guards_stop_one_theft():
    state = position({"G": 6, "Z": 1, "W": 1, "K": 1,
                      "hand": ["pluendern", "pluendern", "festung"]},
                     {"guards": 1, "Z": 2, "W": 6, "K": 0}, actions_left=3)
    first = act(state, "play pluendern")
    assert first.players[1].guards == 0
    assert first.players[1].stocks == state.players[1].stocks
    assert first.players[0].stocks == (1, 1, 1, 3)
    second = act(first, "play pluendern")
    assert stocks(second.players[1]) == {"Z": 0, "W": 3, "K": 0, "G": 5}
    assert stocks(second.players[0]) == {"Z": 3, "W": 4, "K": 1, "G": 0}


# --- damage -----------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(wall=st.integers(0, 40), castle=st.integers(1, 99))
def test_katapult_damage_follows_the_formula(wall, castle):
    state = position({"W": 7, "hand": ["katapult", "festung"]}, {"wall": wall, "castle": castle},
                     actions_left=2)
    attacker, defender = act(state, "play katapult").players
    absorbed = min(wall, 9)
    assert defender.wall == wall - absorbed
    assert defender.castle == max(0, castle - (9 - absorbed) - absorbed * 35 // 100)
    assert attacker.wall == 22 + absorbed // 2


@pytest.mark.parametrize(("rounding", "castle", "rubble"), [("floor", 38, 6),
                                                            ("round_half_up", 37, 7)])
def test_rounding_of_concussion_and_rubble(rounding, castle, rubble):
    rules = with_config(rounding=rounding)
    state = position({"W": 24, "hand": ["belagerung", "festung"]}, {"wall": 13, "castle": 57},
                     rules=rules, actions_left=2)
    attacker, defender = act(state, "play belagerung").players
    assert defender.castle == castle
    assert attacker.wall == 22 + rubble


@pytest.mark.parametrize(("card", "fields", "castle", "left"), [
    ("troja", {"Z": 10, "W": 14}, 42, (0, 0, 6, 5)),
    ("hoellenmasch", {"Z": 8, "K": 10}, 46, (0, 6, 0, 5)),
])
def test_wall_ignoring_cards(card, fields, castle, left):
    state = position({**fields, "hand": [card, "festung"]}, {"wall": 30}, actions_left=2)
    attacker, defender = act(state, f"play {card}").players
    assert (defender.castle, defender.wall, attacker.wall) == (castle, 30, 22)
    assert attacker.stocks == left


def test_spaehschlag_without_shields_hits_normally():
    state = position({"W": 5, "hand": ["spaehschlag", "festung"]}, {}, actions_left=2)
    attacker, defender = act(state, "play spaehschlag").players
    assert (defender.wall, defender.castle, attacker.wall) == (17, 59, 24)


def test_shields_stack_and_each_blocks_one_card():
    state = position({"W": 14, "hand": ["katapult", "katapult", "festung"]}, {"shields": 2},
                     actions_left=3)
    after = act(state, "play katapult", "play katapult")
    assert after.players[1].shields == 0
    assert (after.players[1].wall, after.players[1].castle) == (22, 60)
    assert Counter(after.discard) == {"katapult": 2, "schild": 2}


def test_shield_blocks_the_poison_card():
    state = position({"K": 5, "hand": ["giftnebel", "festung"]}, {"shields": 1}, actions_left=2)
    defender = act(state, "play giftnebel").players[1]
    assert (defender.shields, defender.poison) == (0, ())


def test_shield_does_not_block_poison_ticks():
    state = position({"hand": ["festung"]}, {"castle": 30, "shields": 1,
                                             "poison": [{"per": 2, "ticks": 2}]})
    victim = act(state, "timeout").players[1]
    assert (victim.castle, victim.shields, victim.poison) == (28, 1, ((2, 1),))


def test_schild_is_played_face_down():
    state = position({"G": 4, "hand": ["schild", "festung"]}, {}, actions_left=2)
    after = act(state, "play schild")
    assert after.players[0].shields == 1
    assert after.players[0].stock("G") == 0
    assert "schild" not in after.discard
    assert after.cards() == FULL_DECK


# --- production, war chest, surcharge ---------------------------------------------------------

def test_production_and_market_gold():
    state = position({"Z": 1, "W": 2, "K": 3, "G": 4, "builders": 3, "soldiers": 1,
                      "mages": 0, "markets": 2}, {"hand": ["festung"]}, to_move=1)
    player = act(state, "timeout").players[0]
    assert stocks(player) == {"Z": 4, "W": 3, "K": 3, "G": 8}


@pytest.mark.parametrize(("round_number", "bonus"), [(15, 0), (16, 1), (17, 1), (18, 2),
                                                     (20, 3)])
def test_war_chest_by_round(round_number, bonus):
    idle = {"builders": 0, "soldiers": 0, "mages": 0, "markets": 0}
    player = war_chest_turn(round_number, {"Z": 10, "W": 39, "K": 45, "G": 50, **idle})
    assert stocks(player) == {"Z": 10 + bonus, "W": min(40, 39 + bonus), "K": 45,
                              "G": 50 + bonus}


def test_war_chest_comes_after_production_and_production_is_uncapped():
    player = war_chest_turn(20, {"Z": 39, "W": 40, "K": 0, "builders": 3})
    assert stocks(player) == {"Z": 42, "W": 42, "K": 5, "G": 8}


def test_surcharge_global_counts_every_producer_kind():
    state = position({"Z": 20, "W": 20, "hand": ["markt", "kaserne", "bauschule"]}, {},
                     actions_left=3)
    bauschule = RULES.cards["bauschule"]
    assert cost(state.mover, bauschule, RULES) == {"Z": 8}
    state = act(state, "play markt")
    assert cost(state.mover, bauschule, RULES) == {"Z": 11}
    state = act(state, "play kaserne")
    assert state.players[0].stock("W") == 20 - 11
    assert cost(state.mover, bauschule, RULES) == {"Z": 14}


def test_surcharge_per_type_counts_only_its_own_kind():
    rules = with_config(producer_surcharge_scope="per_type")
    state = position({"producers_played": {"markets": 1, "soldiers": 1}, "hand": ["festung"]},
                     {}, rules=rules)
    assert cost(state.mover, rules.cards["bauschule"], rules) == {"Z": 8}
    assert cost(state.mover, rules.cards["markt"], rules) == {"Z": 9}
    assert cost(state.mover, rules.cards["kaserne"], rules) == {"W": 11}
    assert cost(state.mover, rules.cards["magierlehre"], rules) == {"K": 8}


def test_surcharge_ignores_starting_and_leader_producers():
    state = new_game(RULES, 3, first_player=0, leaders=("baumeister", None))
    assert state.players[0].producers == (3, 2, 2, 0)
    assert cost(state.players[0], RULES.cards["bauschule"], RULES) == {"Z": 8}


def test_market_card_adds_two_gold_per_turn():
    state = position({"Z": 6, "G": 0, "hand": ["markt"]}, {"hand": ["festung"]})
    state = act(state, "play markt", "timeout")
    assert state.players[0].producers[3] == 1
    assert state.players[0].stock("G") == 2


# --- effects over time ------------------------------------------------------------------------

def test_poison_and_heal_tick_and_expire():
    state = position({"hand": ["drache"]},
                     {"castle": 10, "wall": 5, "poison": [{"per": 2, "ticks": 2},
                                                          {"per": 3, "ticks": 1}],
                      "heal": [{"per": 2, "ticks": 1}, {"per": 1, "ticks": 3}],
                      "hand": ["festung"]})
    seen = []
    for _ in range(4):
        state = act(state, "timeout")
        player = state.players[1]
        seen.append((player.castle, player.wall, player.poison, player.heal))
        state = act(state, "timeout")
    assert seen == [(5, 8, ((2, 1),), ((1, 2),)),
                    (3, 9, (), ((1, 1),)),
                    (3, 10, (), ()),
                    (3, 10, (), ())]


def test_heilkunde_heals_from_the_next_turn_on_and_plays_again():
    state = position({"K": 3, "hand": ["heilkunde", "festung"]}, {"hand": ["drache"]})
    state = act(state, "play heilkunde")
    assert (state.to_move, state.actions_left) == (0, 1)
    assert (state.players[0].wall, state.players[0].heal) == (22, ((2, 3),))
    walls = []
    for _ in range(4):
        state = act(state, "timeout", "timeout")
        walls.append(state.players[0].wall)
    assert walls == [24, 26, 28, 28]


# --- doubler ----------------------------------------------------------------------------------

DOUBLED = [
    # card, (mover castle, wall, Z, W, K, G), (opponent castle, wall, Z, W, K, G)
    ("turm", (70, 22, 15, 20, 30, 10), (60, 22, 20, 20, 20, 20)),
    ("mauer", (60, 28, 19, 20, 30, 10), (60, 22, 20, 20, 20, 20)),
    ("umbau", (76, 14, 17, 20, 30, 10), (60, 22, 20, 20, 20, 20)),
    ("besch_mauer", (60, 52, 20, 20, 20, 10), (60, 22, 20, 20, 20, 20)),
    ("flinker_bote", (60, 22, 24, 24, 34, 9), (60, 22, 20, 20, 20, 20)),
    ("pluendern", (60, 22, 26, 26, 36, 7), (60, 22, 14, 14, 14, 20)),
    ("saboteur", (60, 22, 20, 14, 30, 10), (60, 22, 10, 10, 10, 20)),
    ("pixie", (60, 22, 20, 20, 25, 22), (60, 22, 20, 20, 20, 8)),
    ("blitz", (60, 32, 20, 20, 22, 10), (53, 2, 20, 20, 20, 20)),
    ("drache", (60, 22, 20, 20, 8, 10), (16, 22, 20, 20, 20, 20)),
]


def values(player) -> tuple[int, ...]:
    return (player.castle, player.wall, *player.stocks)


@pytest.mark.parametrize(("card", "mover", "opponent"), DOUBLED)
def test_doubler_doubles_magnitudes_not_costs(card, mover, opponent):
    state = position({"Z": 20, "W": 20, "K": 30, "G": 10, "double_next": True,
                      "hand": [card, "festung"]},
                     {"Z": 20, "W": 20, "K": 20, "G": 20}, actions_left=3)
    after = act(state, f"play {card}")
    assert values(after.players[0]) == mover
    assert values(after.players[1]) == opponent
    assert after.players[0].double_next is False


def test_doubler_doubles_poison_per_tick_not_ticks():
    state = position({"K": 5, "double_next": True, "hand": ["giftnebel", "festung"]}, {},
                     actions_left=2)
    assert act(state, "play giftnebel").players[1].poison == ((4, 4),)


def test_doubler_doubles_heal_per_tick_not_ticks():
    state = position({"K": 3, "double_next": True, "hand": ["heilkunde", "festung"]}, {})
    assert act(state, "play heilkunde").players[0].heal == ((4, 3),)


def test_doubler_does_not_double_counts_or_actions():
    state = position({"G": 9, "double_next": True, "hand": ["doppelzug", "wachen", "festung"]},
                     {})
    state = act(state, "play doppelzug")
    assert state.actions_left == 2
    assert state.players[0].double_next is False
    state = act(state, "play wachen")
    assert state.players[0].guards == 1


def test_doubler_is_consumed_by_a_blocked_card():
    state = position({"W": 14, "double_next": True, "hand": ["katapult", "katapult", "festung"]},
                     {"shields": 1}, actions_left=3)
    state = act(state, "play katapult")
    assert state.players[0].double_next is False
    assert (state.players[1].shields, state.players[1].wall) == (0, 22)
    defender = act(state, "play katapult").players[1]
    assert (defender.wall, defender.castle) == (13, 57)


def test_second_doubler_keeps_times_two():
    state = position({"K": 6, "W": 7, "double_next": True,
                      "hand": ["verstaerkung", "katapult", "festung"]},
                     {"wall": 40}, actions_left=3)
    state = act(state, "play verstaerkung")
    assert state.players[0].double_next is True
    attacker, defender = act(state, "play katapult").players
    assert (defender.wall, defender.castle, attacker.wall) == (22, 54, 31)


def test_doubler_lasts_into_a_later_turn():
    state = position({"K": 6, "W": 7, "hand": ["verstaerkung", "katapult"]},
                     {"hand": ["festung"]})
    state = act(state, "play verstaerkung", "timeout")
    assert (state.to_move, state.players[0].double_next) == (0, True)
    attacker, defender = act(state, "play katapult").players
    assert (defender.wall, defender.castle, attacker.double_next) == (4, 54, False)


# --- blockade, dispel, guards, attrition ------------------------------------------------------

def blockaded(kind: str):
    state = position({"W": 5, "hand": ["blockade"]},
                     {"K": 8, "hand": ["blitz", "giftnebel", "angriff", "mauer"]})
    return act(state, f"play blockade:{kind}")


def test_blockade_locks_the_type_for_the_next_turn():
    state = blockaded("magie")
    assert (state.to_move, state.players[1].locked) == (1, "magie")
    assert why_not_playable(state, "blitz") == "magie cards are locked this turn"
    assert refused(state, "play giftnebel") == "magie cards are locked this turn"
    plays = {a.card for a in legal_actions(state) if isinstance(a, Play)}
    assert plays == {"angriff", "mauer"}


def test_blockade_leaves_discarding_legal():
    state = blockaded("magie")
    discards = [a for a in legal_actions(state) if isinstance(a, Discard)]
    assert len(discards) == 4 + 6 + 4
    assert Discard(("blitz",)) in discards
    assert act(state, "discard blitz giftnebel").to_move == 0


def test_blockade_expires_after_that_turn():
    state = act(blockaded("magie"), "timeout")
    assert state.players[1].locked is None
    state = act(state, "timeout")
    assert state.to_move == 1
    assert why_not_playable(state, "blitz") is None
    assert Play("blitz") in legal_actions(state)


def test_blockade_does_not_lock_its_player():
    state = position({"W": 5, "K": 8, "hand": ["blockade", "blitz", "festung"]}, {},
                     actions_left=2)
    state = act(state, "play blockade:magie")
    assert state.players[0].locked is None
    assert act(state, "play blitz").players[1].wall == 12


def test_blockade_offers_each_type():
    state = position({"W": 5, "hand": ["blockade"]}, {})
    assert [a for a in legal_actions(state) if isinstance(a, Play)] == [
        Play("blockade", kind) for kind in ("bau", "angriff", "magie", "gold")]


def test_bannzauber_clears_the_opponents_bonuses_but_not_poison():
    state = position({"K": 4, "shields": 1, "guards": 1, "heal": [{"per": 2, "ticks": 2}],
                      "hand": ["bannzauber", "festung"]},
                     {"shields": 1, "guards": 1, "double_next": True,
                      "heal": [{"per": 2, "ticks": 3}], "poison": [{"per": 2, "ticks": 3}]},
                     actions_left=2)
    caster, target = act(state, "play bannzauber").players
    assert (target.shields, target.guards, target.heal, target.double_next) == (0, 0, (), False)
    assert target.poison == ((2, 3),)
    assert (caster.shields, caster.guards, caster.heal) == (1, 1, ((2, 2),))


def test_bannzauber_sends_the_shields_to_the_discard_pile():
    state = position({"K": 4, "hand": ["bannzauber", "festung"]}, {"shields": 2},
                     actions_left=2)
    after = act(state, "play bannzauber")
    assert Counter(after.discard) == {"schild": 2, "bannzauber": 1}
    assert after.cards() == FULL_DECK


@pytest.mark.parametrize(("card", "fields"), [("saboteur", {"W": 6}), ("pixie", {"K": 5}),
                                              ("pluendern", {"G": 3})])
def test_guards_stop_each_theft_card(card, fields):
    state = position({**fields, "hand": [card, "festung"]}, {"guards": 2}, actions_left=2)
    after = act(state, f"play {card}")
    assert after.players[1].guards == 1
    assert after.players[1].stocks == (6, 6, 6, 5)
    assert sum(after.players[0].stocks) == sum(state.players[0].stocks) - sum(fields.values())


def test_guards_do_not_stop_damage():
    state = position({"W": 7, "hand": ["katapult", "festung"]}, {"guards": 1}, actions_left=2)
    defender = act(state, "play katapult").players[1]
    assert (defender.guards, defender.wall) == (1, 13)


def test_theft_takes_at_most_what_there_is():
    state = position({"K": 5, "hand": ["pixie", "festung"]}, {"G": 4}, actions_left=2)
    thief, victim = act(state, "play pixie").players
    assert (thief.stock("G"), victim.stock("G")) == (9, 0)


OPP_HAND = ["blitz", "giftnebel", "angriff", "mauer", "turm", "drache", "pixie", "markt",
            "wachen"]


def attrition(seed: int, shields: int = 0):
    state = position({"W": 4, "hand": ["zermuerbung", "festung"]},
                     {"hand": OPP_HAND, "shields": shields}, actions_left=2, seed=seed)
    return act(state, "play zermuerbung")


def test_zermuerbung_discards_two_random_cards_of_the_opponent():
    after = attrition(seed=5)
    victim = after.players[1]
    assert len(victim.hand) == 7
    gone = Counter(OPP_HAND) - Counter(victim.hand)
    assert sum(gone.values()) == 2
    assert Counter(after.discard) == gone + Counter(["zermuerbung"])
    assert after.discard[-1] == "zermuerbung"
    assert after.cards() == FULL_DECK


def test_zermuerbung_is_deterministic_for_a_seed():
    assert attrition(seed=5) == attrition(seed=5)
    assert len({attrition(seed).players[1].hand for seed in range(12)}) > 1


def test_zermuerbung_is_not_blocked_by_a_shield():
    victim = attrition(seed=1, shields=1).players[1]
    assert (victim.shields, len(victim.hand)) == (1, 7)


def test_zermuerbung_against_a_one_card_hand():
    state = position({"W": 4, "hand": ["zermuerbung", "festung"]}, {"hand": ["drache"]},
                     actions_left=2)
    after = act(state, "play zermuerbung")
    assert after.players[1].hand == ()
    assert after.discard[-2:] == ("drache", "zermuerbung")


# --- castle and wall limits, wins -------------------------------------------------------------

def test_umbau_never_takes_the_wall_below_zero():
    state = position({"Z": 3, "wall": 2, "hand": ["umbau", "festung"]}, {}, actions_left=2)
    player = act(state, "play umbau").players[0]
    assert (player.wall, player.castle) == (0, 68)


def test_castle_is_capped_at_100_and_wins():
    state = position({"Z": 5, "castle": 97, "hand": ["turm", "festung"]}, {}, actions_left=2)
    after = act(state, "play turm")
    assert (after.players[0].castle, after.winner) == (100, 0)
    assert legal_actions(after) == []


@pytest.mark.parametrize(("card", "castle"), [("burgfried", 85), ("festung", 70)])
def test_build_win(card, castle):
    state = position({"Z": 30, "castle": castle, "hand": [card, "mauer"]}, {}, actions_left=2)
    after = act(state, f"play {card}")
    assert (after.players[0].castle, after.winner, after.to_move) == (100, 0, 0)


def test_build_win_one_short_is_no_win():
    state = position({"Z": 14, "castle": 84, "hand": ["burgfried", "mauer"]}, {},
                     actions_left=2)
    after = act(state, "play burgfried")
    assert (after.players[0].castle, after.winner) == (99, None)


def test_destruction_win_ignores_the_wall():
    state = position({"K": 22, "hand": ["drache", "festung"]}, {"castle": 22, "wall": 50},
                     actions_left=2)
    after = act(state, "play drache")
    assert (after.players[1].castle, after.players[1].wall, after.winner) == (0, 50, 0)


def test_destruction_win_by_overflow_damage():
    state = position({"W": 4, "hand": ["angriff", "festung"]}, {"castle": 6, "wall": 0},
                     actions_left=2)
    after = act(state, "play angriff")
    assert (after.players[1].castle, after.winner) == (0, 0)


def test_resource_win_even_on_a_play_again_card():
    state = position({"Z": 98, "G": 1, "hand": ["flinker_bote", "festung"]}, {})
    after = act(state, "play flinker_bote")
    assert (after.players[0].stock("Z"), after.winner) == (100, 0)
    assert legal_actions(after) == []


def test_resource_win_disabled_in_the_position():
    state = position({"Z": 98, "G": 1, "hand": ["flinker_bote", "festung"]}, {},
                     resource_win=False)
    after = act(state, "play flinker_bote")
    assert after.resource_win is False
    assert (after.players[0].stock("Z"), after.winner, after.actions_left) == (100, None, 1)


def test_resource_win_disabled_by_config_default():
    rules = with_config(resource_win_enabled=False)
    state = position({"Z": 98, "G": 1, "hand": ["flinker_bote", "festung"]}, {}, rules=rules)
    assert state.resource_win is False
    assert act(state, "play flinker_bote").winner is None


def test_gold_never_wins():
    state = position({"K": 5, "G": 95, "hand": ["pixie", "festung"]}, {"G": 20},
                     actions_left=2)
    after = act(state, "play pixie")
    assert (after.players[0].stock("G"), after.winner) == (101, None)


def test_tie_at_action_end_goes_to_the_active_player():
    state = position({"castle": 0, "K": 22, "hand": ["drache", "festung"]}, {"castle": 22},
                     actions_left=2)
    after = act(state, "play drache")
    assert (after.players[0].castle, after.players[1].castle) == (0, 0)
    assert after.winner == 0


def test_tie_of_resource_wins_goes_to_the_active_player():
    state = position({"Z": 98, "G": 1, "hand": ["flinker_bote", "festung"]}, {"W": 100},
                     to_move=0)
    assert act(state, "play flinker_bote").winner == 0
    other = position({"K": 100}, {"Z": 98, "G": 1, "hand": ["flinker_bote"]}, to_move=1)
    assert act(other, "play flinker_bote").winner == 1


@pytest.mark.parametrize(("mine", "theirs", "action", "reason"), [
    ({"Z": 5, "castle": 97, "hand": ["turm", "festung"]}, {}, "play turm",
     "castle built to 100"),
    ({"W": 4, "hand": ["angriff", "festung"]}, {"castle": 6, "wall": 0}, "play angriff",
     "the opponent's castle destroyed"),
    ({"castle": 0, "K": 22, "hand": ["drache", "festung"]}, {"castle": 22}, "play drache",
     "the opponent's castle destroyed"),  # a tie: the active player's condition
    ({"Z": 98, "G": 1, "hand": ["flinker_bote", "festung"]}, {}, "play flinker_bote",
     "resources: bricks (Z) at 100"),
])
def test_a_won_game_says_why_it_was_won(mine, theirs, action, reason):
    state = position(mine, theirs, actions_left=2)
    assert win_reason(state) is None
    after = act(state, action)
    assert after.winner == 0 and win_reason(after) == reason
    first_line = picture(Position(after, True, True)).splitlines()[0]
    assert first_line.endswith(f"; player 0 has won: {reason}")


def test_every_game_the_greedy_bots_play_out_says_why_it_was_won():
    from solver.ffkingdom.policies import greedy_action

    for seed in range(1, 21):
        state = new_game(RULES, seed)
        for _ in range(10_000):  # a guard: the games end long before
            if state.winner is not None:
                break
            assert win_reason(state) is None
            state = apply(state, greedy_action(state))
        assert state.winner is not None and win_reason(state) is not None, seed


def test_every_step_production_win_ends_the_game_at_turn_start():
    state = position({"hand": ["festung"]}, {"Z": 98, "hand": ["turm"]}, rules=EVERY_STEP)
    after = act(state, "timeout")
    assert (after.winner, after.to_move, after.players[1].stock("Z")) == (1, 1, 100)


def test_action_end_only_production_win_waits_for_the_action():
    state = position({"hand": ["festung"]}, {"Z": 98, "hand": ["turm", "mauer"]})
    after = act(state, "timeout")
    assert (after.winner, after.to_move, after.players[1].stock("Z")) == (None, 1, 100)
    assert act(after, "discard mauer").winner == 1
    spent = act(after, "play turm")
    assert (spent.winner, spent.players[1].stock("Z")) == (None, 95)


def test_every_step_production_win_beats_a_lethal_poison_tick():
    state = position({"hand": ["festung"]},
                     {"Z": 98, "castle": 2, "poison": [{"per": 2, "ticks": 1}],
                      "hand": ["turm"]}, rules=EVERY_STEP)
    assert act(state, "timeout").winner == 1


def test_every_step_win_at_production_ends_the_turn_start_there():
    """The game is over at the production check: no poison or heal tick follows it."""
    state = position({"hand": ["festung"]},
                     {"Z": 98, "castle": 2, "wall": 5, "poison": [{"per": 2, "ticks": 1}],
                      "heal": [{"per": 2, "ticks": 1}], "hand": ["turm"]}, rules=EVERY_STEP)
    winner = act(state, "timeout").players[1]
    assert (winner.castle, winner.poison) == (2, ((2, 1),))
    assert (winner.wall, winner.heal) == (5, ((2, 1),))


def test_every_step_poison_tick_win_for_the_opponent():
    state = position({"hand": ["festung"]},
                     {"castle": 2, "poison": [{"per": 3, "ticks": 2}], "hand": ["turm"]},
                     rules=EVERY_STEP)
    after = act(state, "timeout")
    assert (after.winner, after.players[1].castle) == (0, 0)


def test_action_end_only_poison_tick_to_zero_then_tower_saves():
    state = position({"hand": ["festung"]},
                     {"castle": 2, "poison": [{"per": 3, "ticks": 2}], "hand": ["turm"]})
    after = act(state, "timeout")
    assert (after.winner, after.players[1].castle) == (None, 0)
    saved = act(after, "play turm")
    assert (saved.winner, saved.players[1].castle, saved.to_move) == (None, 5, 0)


# --- turns, hands, refill ---------------------------------------------------------------------

def test_timeout_ends_the_turn_and_refills():
    state = position({"hand": ["katapult", "mauer", "turm"]}, {})
    deck = state.deck
    after = apply(state, Timeout())
    assert (after.to_move, after.actions_left) == (1, 1)
    assert after.players[0].hand == tuple(sorted(["katapult", "mauer", "turm", *deck[:6]]))
    assert after.deck == deck[6:]


def test_no_refill_between_actions():
    state = position({"Z": 1, "hand": ["mauer", "katapult", "turm"]}, {})
    after = act(state, "play mauer")
    assert (after.to_move, after.actions_left) == (0, 1)
    assert after.players[0].hand == ("katapult", "turm")
    assert after.deck == state.deck


def test_hand_emptied_mid_turn_ends_the_turn():
    state = position({"Z": 1, "hand": ["mauer"]}, {})
    after = act(state, "play mauer")
    assert after.to_move == 1
    assert after.players[0].wall == 25
    assert after.players[0].hand == tuple(sorted(state.deck[:9]))


def test_hand_emptied_by_doppelzug_ends_the_turn():
    after = act(position({"G": 6, "hand": ["doppelzug"]}, {}), "play doppelzug")
    assert (after.to_move, len(after.players[0].hand)) == (1, 9)


def test_discard_of_one_to_three_cards_is_one_action():
    state = position({"hand": ["katapult", "mauer", "turm", "drache"]}, {}, actions_left=3)
    state = act(state, "discard turm")
    assert state.actions_left == 2
    state = act(state, "discard drache mauer")
    assert state.actions_left == 1
    assert state.discard == ("turm", "drache", "mauer")
    assert state.players[0].hand == ("katapult",)


def test_refill_reshuffles_the_discard_pile_when_the_deck_runs_out():
    hand, other = ["katapult", "mauer", "turm"], ["drache"]
    rest = rest_of_deck(hand, other)
    state = position({"hand": hand}, {"hand": other}, deck=rest[:3], discard=rest[3:], seed=11)
    after = act(state, "discard katapult")
    player = after.players[0]
    assert len(player.hand) == 9
    assert Counter(player.hand) >= Counter(["mauer", "turm", *rest[:3]])
    assert after.discard == ()
    assert len(after.deck) == len(rest) + 1 - 7
    assert after.cards() == FULL_DECK
    assert after == act(state, "discard katapult")


def test_refill_from_an_empty_deck():
    hand, other = ["katapult", "mauer", "turm"], ["drache"]
    rest = rest_of_deck(hand, other)
    state = position({"hand": hand}, {"hand": other}, deck=[], discard=rest)
    after = act(state, "timeout")
    assert len(after.players[0].hand) == 9
    assert (len(after.deck), after.discard) == (len(rest) - 6, ())
    assert Counter(after.deck) + Counter(after.players[0].hand) == Counter(rest + hand)
    assert list(after.deck) != rest[6:]


def test_round_counts_the_first_players_turns():
    state = position({"hand": ["festung"]}, {"hand": ["drache"]}, first_player=1, to_move=1,
                     round=4)
    state = act(state, "timeout")
    assert (state.round, state.to_move) == (4, 0)
    state = act(state, "timeout")
    assert (state.round, state.to_move) == (5, 1)


def test_new_game_deals_nine_each_and_produces_for_the_first_player():
    state = new_game(RULES, 42, first_player=1)
    assert (state.to_move, state.first_player, state.round, state.actions_left) == (1, 1, 1, 1)
    assert [len(p.hand) for p in state.players] == [9, 9]
    assert len(state.deck) == 54 and state.discard == ()
    assert stocks(state.players[1]) == {"Z": 8, "W": 8, "K": 8, "G": 5}
    assert stocks(state.players[0]) == {"Z": 6, "W": 6, "K": 6, "G": 5}
    assert state.cards() == FULL_DECK


def test_new_game_without_first_turn_production():
    state = new_game(with_config(production_on_first_turn=False), 42, first_player=0)
    assert stocks(state.players[0]) == {"Z": 6, "W": 6, "K": 6, "G": 5}


def test_new_game_is_a_function_of_the_seed():
    assert new_game(RULES, 9) == new_game(RULES, 9)
    assert new_game(RULES, 9).deck != new_game(RULES, 10).deck
    assert {new_game(RULES, seed).first_player for seed in range(20)} == {0, 1}


# --- illegal actions --------------------------------------------------------------------------

HAND = ["katapult", "mauer", "turm", "blockade"]


@pytest.mark.parametrize(("fields", "action", "reason"), [
    ({}, "play drache", "drache is not in the hand"),
    ({}, "play moat", "no card is called 'moat'"),
    ({"W": 6}, "play katapult", "katapult costs 7 W (has 6)"),
    ({"W": 5, "locked": "angriff"}, "play blockade:magie", "angriff cards are locked this turn"),
    ({}, "discard katapult mauer turm blockade", "a discard is 1 to 3 cards, not 4"),
    ({}, "discard drache", "the hand does not hold drache"),
    ({}, "discard mauer mauer", "the hand does not hold mauer"),
    ({"W": 5}, "play blockade", "blockade needs a card type to lock"),
    ({"W": 5}, "play blockade:feuer", "blockade needs a card type to lock"),
    ({"W": 7}, "play katapult:magie", "katapult takes no choice"),
])
def test_illegal_action_is_refused_with_its_reason(fields, action, reason):
    state = position({**fields, "hand": HAND}, {})
    assert refused(state, action).startswith(reason)


def test_mixed_cost_names_every_missing_resource():
    state = position({"Z": 3, "W": 3, "hand": ["ballista"]}, {})
    assert refused(state, "play ballista") == "ballista costs 4 Z (has 3), 4 W (has 3)"


def test_empty_discard_is_refused():
    state = position({"hand": HAND}, {})
    with pytest.raises(IllegalMove, match="a discard is 1 to 3 cards, not 0"):
        apply(state, Discard(()))


def test_no_action_after_the_game_is_over():
    state = position({"W": 7, "hand": HAND}, {}, winner=0)
    assert legal_actions(state) == []
    assert refused(state, "play katapult") == "the game is over: player 0 won"
    assert refused(state, "timeout") == "the game is over: player 0 won"


def test_legal_actions_are_exactly_the_affordable_plays_and_all_discards():
    state = position({"Z": 1, "W": 6, "hand": ["katapult", "mauer", "mauer", "turm"]}, {})
    actions = legal_actions(state)
    assert [a for a in actions if isinstance(a, Play)] == [Play("mauer")]
    assert len([a for a in actions if isinstance(a, Discard)]) == 3 + 4 + 3
    assert len(actions) == len(set(actions))


# --- leaders ----------------------------------------------------------------------------------

LEADERS = {
    "baumeister": {"builders": 3},
    "kriegsherr": {"soldiers": 3},
    "erzmagier": {"mages": 3},
    "festungsherr": {"castle": 75, "wall": 27},
    "haendler": {"Z": 12, "W": 12, "K": 12},
}


def start_values(player) -> dict[str, int]:
    return {"castle": player.castle, "wall": player.wall, **stocks(player),
            **dict(zip(("builders", "soldiers", "mages", "markets"), player.producers,
                       strict=True))}


@pytest.mark.parametrize("leader", sorted(LEADERS))
def test_leader_changes_only_the_start(leader):
    plain = new_game(RULES, 17, first_player=0)
    led = new_game(RULES, 17, first_player=0, leaders=(None, leader))
    assert start_values(led.players[1]) == {**start_values(plain.players[1]), **LEADERS[leader]}
    assert led.players[0] == plain.players[0]
    assert led.players[1].hand == plain.players[1].hand
    assert (led.deck, led.seed, led.to_move) == (plain.deck, plain.seed, plain.to_move)
    assert led.players[1].producers_played == (0, 0, 0, 0)


def test_leader_of_the_first_player_produces_on_turn_one():
    state = new_game(RULES, 17, first_player=0, leaders=("baumeister", "haendler"))
    assert stocks(state.players[0]) == {"Z": 9, "W": 8, "K": 8, "G": 5}
    assert stocks(state.players[1]) == {"Z": 12, "W": 12, "K": 12, "G": 5}


def test_unknown_leader_is_refused():
    with pytest.raises(InvalidInput, match="no leader is called 'koenig'"):
        new_game(RULES, 1, leaders=("koenig", None))


def test_an_action_keeps_every_field_it_does_not_change():
    """apply makes the next State field by field (dataclasses.replace is too slow there):
    the fields no action changes come through, and a field added to State must be added
    to that constructor too (this list says which fields it knows)."""
    rules = with_config(discard_max=2)
    state = new_game(rules, 7, first_player=1, resource_win=False)
    after = apply(state, legal_actions(state)[0])
    assert (after.first_player, after.resource_win, after.rules) == (1, False, rules)
    assert [field.name for field in dataclasses.fields(State)] == [
        "players", "deck", "discard", "to_move", "first_player", "round", "actions_left",
        "resource_win", "winner", "seed", "rules"]
