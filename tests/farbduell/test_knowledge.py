"""What each Farbduell player knows: kept by every rule that shows or implies a card, true
of the real cards all along a game, read and written with the position (a fault named
at once), and the only thing beside the public state the hints' worlds keep: every
world a hint samples agrees with it, and a position without it is hinted as before."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import InvalidInput
from solver.farbduell import hints
from solver.farbduell.actions import Draw, Keep, Play
from solver.farbduell.data import NUMBERS, other_side
from solver.farbduell.hints import Settings, hint, sample_world
from solver.farbduell.policies import greedy_action
from solver.farbduell.position import Knows, Position
from solver.farbduell.puzzles import solve_puzzle
from solver.farbduell.rules import apply, legal_actions, new_game
from tests.support.farbduell import TABLES

FAST = Settings(worlds=3)


def read(data: dict[str, Any]) -> Position:
    return Position.from_json(data, TABLES)


def low_pile(data: dict[str, Any], left: int) -> dict[str, Any]:
    """The position with all but `left` cards of its draw pile under its discard top."""
    full = read(data).to_json()
    full["discard"] = full["draw_pile"][:-left or None] + full["discard"]
    full["draw_pile"] = full["draw_pile"][len(full["draw_pile"]) - left:]
    return full


def no_knowledge(players: int) -> list[dict[str, Any]]:
    return [{} for _ in range(players)]


def cards(state: Position, *texts: str) -> tuple:
    return tuple(sorted(state.table.card(text) for text in texts))


# ============================================================================ the rules


def test_the_cards_turned_up_before_the_start_card_are_known_at_the_bottom():
    turned = 0
    for seed in range(30):
        state = new_game(TABLES["classic"], 3, seed)
        bottom = state.knows[0].deck_bottom
        assert all(known == state.knows[0] for known in state.knows)   # seen by all
        assert not state.knows[0].hands[1] and not state.knows[0].deck_top
        assert bottom == state.draw_pile[len(state.draw_pile) - len(bottom):]
        assert all(card.rank not in NUMBERS for card in bottom)
        pile = state.draw_pile[:len(state.draw_pile) - len(bottom)]
        turned += bool(bottom)
        # nothing else was turned up: the start card was the first number card
        assert state.top.rank in NUMBERS and (not bottom or pile)
    assert turned > 3


def test_a_card_drawn_from_the_known_bottom_is_known_in_the_drawers_hand():
    data = low_pile({"hands": [["red-1", "blue-2"], ["green-3", "yellow-4"]],
                     "discard": ["red-9"]}, left=2)
    bottom = data["draw_pile"]
    data["knows"] = [{"deck_bottom": bottom}, {"deck_bottom": bottom}]
    state = apply(read(data), Play(TABLES["classic"].card("red-1")))
    drawn = apply(state, Draw())   # seat 1 draws the first of the two known cards
    seen = TABLES["classic"].card(bottom[0])
    assert drawn.knows[0].hands[1] == (seen,)
    assert drawn.knows[0].deck_bottom == drawn.knows[1].deck_bottom == (drawn.draw_pile[0],)
    assert drawn.to_json()["knows"][0] == {"opponent_hand": [bottom[0]], "deck_top": [],
                                           "deck_bottom": [bottom[1]]}


def test_an_empty_draw_pile_shows_the_opponents_hand_and_the_reshuffle_keeps_it():
    data = low_pile({"hands": [["red-1", "blue-2"], ["green-3", "yellow-4"]],
                     "discard": ["red-9"]}, left=1)
    data["knows"] = no_knowledge(2)
    state = apply(read(data), Play(TABLES["classic"].card("red-1")))
    emptied = apply(state, Draw())   # seat 1 draws the last card
    if emptied.drawn is not None:
        emptied = apply(emptied, Keep())
    assert not emptied.draw_pile
    assert emptied.knows[0].hands[1] == emptied.hands[1]   # all seat 0 does not see
    assert emptied.knows[1].hands[0] == emptied.hands[0]
    assert emptied.to_json()["knows"][0]["opponent_hand"] == [str(c) for c in emptied.hands[1]]
    # seat 0 draws from the reshuffled discard pile: seat 1 still knows what it held
    before = emptied.hands[0]
    assert emptied.to_move == 0
    reshuffled = apply(emptied, Draw())
    if reshuffled.drawn is not None:
        reshuffled = apply(reshuffled, Keep())
    assert len(reshuffled.draw_pile) == len(emptied.discard) - 2
    assert reshuffled.knows[1].hands[0] == before
    assert reshuffled.knows[0].hands[1] == emptied.hands[1]
    # seat 1's worlds: seat 0 holds what seat 1 knows, plus one card of the new pile
    pile = Counter(reshuffled.draw_pile) + Counter(set(reshuffled.hands[0]) - set(before))
    for seed in range(20):
        world = sample_world(reshuffled, random.Random(seed))
        extra = Counter(world.hands[0]) - Counter(before)
        assert sum(extra.values()) == 1 and not extra - pile


def test_with_three_players_an_empty_pile_pools_the_opponents_cards():
    data = low_pile({"hands": [["red-1", "blue-2"], ["green-3", "red-4"], ["red-5", "blue-6"]],
                     "discard": ["red-9"]}, left=1)
    data["knows"] = no_knowledge(3)
    state = apply(read(data), Draw())   # seat 0 draws the last card
    if state.drawn is not None:
        state = apply(state, Keep())
    assert not state.draw_pile and state.to_move == 1
    assert state.knows[0].pooled == tuple(sorted(state.hands[1] + state.hands[2]))
    assert state.to_json()["knows"][0]["opponent_hand"] == [str(c) for c in state.knows[0].pooled]
    assert "hands" not in state.to_json()["knows"][0]
    played = apply(state, Play(TABLES["classic"].card("red-4")))   # face up: out of the pool
    assert played.knows[0].pooled == tuple(sorted(played.hands[1] + played.hands[2]))
    assert played.knows[2].pooled == tuple(sorted(played.hands[0] + played.hands[1]))
    for seed in range(10):   # seat 2's worlds deal the pooled cards to seats 0 and 1
        world = sample_world(played, random.Random(seed))
        assert Counter(world.hands[0] + world.hands[1]) == \
            Counter(played.hands[0] + played.hands[1])


def test_a_known_card_played_leaves_the_knowledge_of_its_hand():
    data = {"hands": [["red-1", "blue-2"], ["red-3", "red-3", "yellow-4"]],
            "discard": ["red-9"], "to_move": 1,
            "knows": [{"opponent_hand": ["red-3", "yellow-4"]}, {}]}
    state = apply(read(data), Play(TABLES["classic"].card("red-3")))
    assert state.knows[0].hands[1] == cards(state, "yellow-4")


def test_tag_nacht_a_drawer_sees_both_faces_of_the_card_drawn_the_others_one():
    data = {"table": "tag_nacht", "hands": [["red-1/pink-1", "blue-2/teal-2"],
                                            ["green-3/orange-3"]],
            "discard": ["yellow-5/purple-5"], "knows": no_knowledge(2)}
    card = read(data).draw_pile[0]
    state = apply(read(data), Draw())
    assert state.knows[0].hands[0] == (card,)    # own_hand
    assert state.knows[1].hands[0] == ()         # the night face only: seen at a glance
    assert state.to_json()["knows"][0]["own_hand"] == [str(card)]


def test_tag_nacht_a_flip_shows_both_faces_of_every_hand_and_of_the_piles_top():
    data = {"table": "tag_nacht",
            "hands": [["red-flip/pink-4", "red-1/pink-1", "blue-2/teal-2"],
                      ["green-3/orange-3", "green-4/orange-9"], ["blue-5/teal-5"]],
            "discard": ["red-9/purple-9"], "knows": no_knowledge(3)}
    state = read(data)
    flipped = apply(state, Play(TABLES["tag_nacht"].card("red-flip/pink-4")))
    assert flipped.side == "night"
    for known in flipped.knows:
        assert known.hands == flipped.hands and known.deck_top == flipped.draw_pile[:1]
    assert flipped.to_json()["knows"][1]["hands"] == {
        "0": ["blue-2/teal-2", "red-1/pink-1"], "2": ["blue-5/teal-5"]}


def test_tag_nacht_worlds_keep_whether_ones_own_tischwende_turns_onto_a_wild():
    table = TABLES["tag_nacht"]
    for night in ("joker", "pink-4"):
        data = {"table": "tag_nacht",
                "hands": [[f"red-flip/{night}", "red-1/pink-1"], ["green-3/orange-3"]],
                "discard": ["red-9/purple-9"], "knows": no_knowledge(2)}
        state = read(data)
        for seed in range(10):
            world = sample_world(state, random.Random(seed))
            flip = next(c for c in world.hands[0] if c.rank == "flip")
            assert flip.face("night").wild is (night == "joker")
        answer = hint(state, settings=FAST)
        assert answer.action in legal_actions(state)
        assert (Play(table.card(f"red-flip/{night}"), "teal") in legal_actions(state)) is \
            (night == "joker")


# ============================================================================ reading


def test_a_position_without_knows_is_read_written_and_hinted_as_before():
    state = new_game(TABLES["classic"], 2, 11)
    for _ in range(30):
        state = apply(state, greedy_action(state))
    data = state.to_json()
    del data["knows"]
    plain = read(data)
    assert plain.knows is None and "knows" not in plain.to_json()
    for seed in range(5):
        assert sample_world(plain, random.Random(seed)) == _old_world(plain, random.Random(seed))
    blind = hint(plain, settings=replace(FAST, knowing=False), seed=4)
    knowing = hint(plain, settings=FAST, seed=4)
    assert (knowing.action, knowing.value, knowing.runners_up) == \
        (blind.action, blind.value, blind.runners_up)
    later = apply(plain, greedy_action(plain))
    assert later.knows is None   # not kept unless the position carries it


def _old_world(state: Position, rng: random.Random) -> Position:
    """The worlds of the hint before it read what the mover knows."""
    me = state.to_move
    unseen = [card for seat, hand in enumerate(state.hands) if seat != me for card in hand]
    unseen = sorted([*unseen, *state.draw_pile])
    rng.shuffle(unseen)
    hands = list(state.hands)
    for seat, hand in enumerate(state.hands):
        if seat != me:
            hands[seat], unseen = tuple(sorted(unseen[:len(hand)])), unseen[len(hand):]
    return replace(state, hands=tuple(hands), draw_pile=tuple(unseen),
                   seed=rng.getrandbits(62))


def test_knowledge_is_part_of_the_state_and_its_json():
    data = {"hands": [["red-1"], ["blue-2", "blue-3"]], "discard": ["red-9"],
            "knows": [{"opponent_hand": ["blue-3"]}, {}]}
    state = read(data)
    assert state.knows == (Knows(hands=((), cards(state, "blue-3"))), Knows(hands=((), ())))
    assert state != replace(state, knows=None) != replace(state, knows=(Knows.nothing(2),) * 2)
    assert read(state.to_json()) == state
    assert state.to_json()["knows"] == [{"opponent_hand": ["blue-3"], "deck_top": []},
                                        {"opponent_hand": [], "deck_top": []}]


BAD = [
    ({"knows": [{}]}, "knows must hold one entry per seat (2), not 1"),
    ({"knows": [{"opponent_hand": ["green-5"]}, {}]},
     "knows[0].opponent_hand: green-5 is known once, but seat 1 does not hold it"),
    ({"knows": [{}, {"opponent_hand": ["red-1", "red-1", "red-1"]}]},
     "knows[1].opponent_hand: red-1 is known 3 times, but seat 0 holds it twice"),
    ({"knows": [{"opponent_hand": ["purple-3"]}, {}]},
     "knows[0].opponent_hand[0]: 'purple-3' is not a card"),
    ({"knows": [{"deck_top": ["red-9"]}, {}]},
     "knows[0].deck_top must be the top of the draw pile: red-0"),
    ({"knows": [{"deck_bottom": ["red-0"]}, {}]},
     "knows[0].deck_bottom must be the bottom of the draw pile: draw4"),
    ({"knows": [{"hands": {"1": []}}, {}]}, "knows[0].hands is for more than two players"),
    ({"knows": [{"own_hand": []}, {}]}, "knows[0].own_hand is for double-faced cards"),
    ({"knows": [{"opponent_hand": "blue-2"}, {}]}, "knows[0].opponent_hand: must be a list"),
    ({"knows": [{"hand": []}, {}]}, "knows[0].hand: is not a field of this position"),
]


@pytest.mark.parametrize(("fields", "fault"), BAD)
def test_bad_knowledge_is_refused_naming_the_fault(fields, fault):
    data = {"hands": [["red-1", "red-1"], ["blue-2", "blue-3"]], "discard": ["red-9"]}
    with pytest.raises(InvalidInput, match="^(.*; )?" + _escaped(fault)):
        read(data | fields)


def test_every_fault_of_the_knowledge_is_named_at_once():
    data = {"hands": [["red-1"], ["blue-2"], ["green-3"]], "discard": ["red-9"],
            "knows": [{"hands": {"1": ["blue-2"], "0": [], "x": []},
                       "opponent_hand": ["blue-2", "green-3"]},
                      {"opponent_hand": ["red-1", "red-1"]}, {"deck_top": ["joker"] * 200}]}
    with pytest.raises(InvalidInput) as caught:
        read(data)
    faults = str(caught.value).split("; ")
    assert faults == [
        "knows[0].hands: '0' must be the seat of an opponent (1, 2)",
        "knows[0].hands: 'x' must be the seat of an opponent (1, 2)",
        "knows[0].opponent_hand: blue-2 is known once, but the opponents (beside the cards "
        "known by seat) do not hold it",
        "knows[1].opponent_hand: red-1 is known twice, but the opponents (beside the cards "
        "known by seat) hold it once",
        "knows[2]: deck_top and deck_bottom name 200 cards, more than the draw pile's 108",
    ]


def test_tag_nacht_knowledge_names_whole_cards():
    data = {"table": "tag_nacht", "hands": [["red-1/pink-1"], ["blue-2/teal-2"]],
            "discard": ["red-3/pink-3"],
            "knows": [{"own_hand": ["red-1/pink-1"], "opponent_hand": ["blue-2/teal-3"]},
                      {"opponent_hand": ["red-1"]}]}
    with pytest.raises(InvalidInput) as caught:
        read(data)
    assert "knows[0].opponent_hand: blue-2/teal-3 is known once, but seat 1 does not " \
           "hold it" in str(caught.value)
    assert "knows[1].opponent_hand[0]: the tag_nacht table's cards have two faces" \
           in str(caught.value)
    three = {**data, "hands": [*data["hands"], ["blue-3/teal-3"]],
             "knows": [{"opponent_hand": ["blue-2/teal-2"]}, {}, {}]}
    with pytest.raises(InvalidInput, match=r"^knows\[0\]\.opponent_hand: on tag_nacht with "
                                           "more than two players every opponent's card shows "
                                           "its other face"):
        read(three)


def _escaped(text: str) -> str:
    import re

    return re.escape(text)


def test_the_puzzle_is_the_same_whatever_is_known():
    state = read({"hands": [["red-skip", "blue-skip", "blue-7"], ["green-1"]],
                  "discard": ["red-9"], "knows": [{"opponent_hand": ["green-1"]}, {}]})
    assert solve_puzzle(state).line == solve_puzzle(replace(state, knows=None)).line


# ============================================================================ self-play


def _self_play(seed: int, steps: int, table: str, players: int) -> list[Position]:
    """The positions of a game between random and greedy seats (random ones draw often,
    so the pile runs out and is reshuffled)."""
    rng = random.Random(seed)
    greedy = {seat for seat in range(players) if rng.random() < 0.5}
    state = new_game(TABLES[table], players, seed)
    found = [state]
    for _ in range(steps):
        if state.winner is not None:
            break
        action = greedy_action(state) if state.to_move in greedy else \
            rng.choice(legal_actions(state))
        state = apply(state, action)
        found.append(state)
    return found


def assert_true_of_the_cards(state: Position) -> None:
    """What every player knows is so: a sub-multiset of the hand it is known in (the
    pooled cards of the opponents' hands beside those), the pile's own top and bottom."""
    pile = state.draw_pile
    for player, known in enumerate(state.knows):
        for seat, hand in enumerate(state.hands):
            assert not Counter(known.hands[seat]) - Counter(hand), (player, seat)
        rest = Counter(c for seat, hand in enumerate(state.hands) if seat != player
                       for c in hand)
        rest.subtract(c for seat in range(state.players) if seat != player
                      for c in known.hands[seat])
        assert not Counter(known.pooled) - +rest
        assert known.deck_top == pile[:len(known.deck_top)]
        assert known.deck_bottom == pile[len(pile) - len(known.deck_bottom):]
        assert len(known.deck_top) + len(known.deck_bottom) <= len(pile)
        if not state.table.double_faced and not pile:   # all unseen is in their hands
            assert Counter(known.pooled) == +rest


def assert_agrees(world: Position, state: Position) -> None:
    """A world the mover cannot tell from the position: every card they know where they
    know it, every face they see as they see it, the public state the same."""
    me, known, table = state.to_move, state.knows[state.to_move], state.table
    assert world.discard == state.discard and world.side == state.side
    assert [len(hand) for hand in world.hands] == [len(hand) for hand in state.hands]
    assert len(world.draw_pile) == len(state.draw_pile)
    for seat in range(state.players):
        if seat != me or table.double_faced:
            assert not Counter(known.hands[seat]) - Counter(world.hands[seat])
    others = Counter(c for seat, hand in enumerate(world.hands) if seat != me for c in hand)
    assert not Counter(known.pooled) - others
    assert world.draw_pile[:len(known.deck_top)] == known.deck_top
    assert world.draw_pile[len(world.draw_pile) - len(known.deck_bottom):] == known.deck_bottom
    if not table.double_faced:
        assert world.hands[me] == state.hands[me] and world.drawn == state.drawn
        assert _everything(world) == _everything(state)
        return
    side, other = state.side, other_side(state.side)
    assert _faces(world.hands[me], side) == _faces(state.hands[me], side)
    for seat in range(state.players):
        if seat != me:
            assert _faces(world.hands[seat], other) == _faces(state.hands[seat], other)
    if state.draw_pile:
        assert world.draw_pile[0].face(other) == state.draw_pile[0].face(other)
    for name in ("day", "night"):
        assert _faces(_everything(world).elements(), name) == sorted(table.faces(name))
    if state.drawn is not None:
        assert world.drawn in world.hands[me]
        assert world.face(world.drawn) == state.face(state.drawn)


def _everything(state: Position) -> Counter:
    found = Counter(state.draw_pile) + Counter(state.discard)
    for hand in state.hands:
        found.update(hand)
    return found


def _faces(cards, side: str) -> list:
    return sorted(card.face(side) for card in cards)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 600),
       table=st.sampled_from(sorted(TABLES)), players=st.integers(2, 4))
def test_knowledge_stays_true_along_self_play(seed, steps, table, players):
    for state in _self_play(seed, steps, table, players):
        assert_true_of_the_cards(state)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 400),
       table=st.sampled_from(sorted(TABLES)), players=st.integers(2, 4),
       pick=st.floats(0, 1))
def test_every_world_a_hint_samples_agrees_with_the_movers_knowledge(seed, steps, table,
                                                                     players, pick):
    positions = [s for s in _self_play(seed, steps, table, players) if s.winner is None]
    state = positions[int(pick * (len(positions) - 1))]
    dealt: list[Position] = []

    def recorded(*args: Any) -> Any:
        world = deal(*args)
        dealt.append(world[0])
        return world

    deal = hints.deal
    with mock.patch.object(hints, "deal", recorded):
        answer = hint(state, settings=FAST, seed=seed)
    assert answer.action in legal_actions(state)
    assert len(dealt) == (FAST.worlds if len(legal_actions(state)) > 1 else 0)
    for world in dealt:
        assert_agrees(world, state)


def test_self_play_reaches_positions_where_the_mover_knows_an_opponents_card():
    knowing = 0
    for seed in range(6):
        for state in _self_play(seed, 600, "classic", 2):
            known = state.knows[state.to_move]
            knowing += bool(known.hands[1 - state.to_move])
    assert knowing > 0
