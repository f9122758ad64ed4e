"""Going out in one chain (two players): hand-made positions, and CP-SAT's answers against
a brute force that plays every order of the hand through the engine."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from solver.budget import Budget, Status
from solver.errors import InvalidInput
from solver.farbduell.actions import Play
from solver.farbduell.chains import KEEPERS, Chain, best_chain
from solver.farbduell.data import Table, load_tables
from solver.farbduell.position import Fuse, Position
from solver.farbduell.rules import apply, legal_actions

ALL_TABLES = load_tables()
TABLES = {name: table for name, table in ALL_TABLES.items() if not table.double_faced}
BUDGET = Budget(seconds=5)


def position(*hands: list[str], table: str = "classic", top: str = "red-9",
             tables: dict[str, Table] = TABLES, **fields) -> Position:
    return Position.from_json({"table": table, "hands": list(hands), "discard": [top], **fields},
                              tables)


def replay(state: Position, chain: Chain) -> Position:
    """Play the chain through the engine: every card is legal, every card but the last
    keeps the turn without a BOOM, and a chain that goes out wins."""
    me = state.to_move
    assert chain.cards == len(chain.plays)
    assert chain.points == sum(state.table.points(play.card) for play in chain.plays)
    for k, play in enumerate(chain.plays):
        assert state.to_move == me and state.winner is None
        held = len(state.hands[me])
        state = apply(state, play)
        if k < len(chain.plays) - 1:
            assert state.to_move == me and len(state.hands[me]) == held - 1
    assert (state.winner == me) == chain.goes_out
    return state


def brute_force(state: Position) -> tuple[bool, int, int]:
    """(goes out, most cards, most points) of any chain, trying every order of plays
    with the engine; the memo keys on the hand left and what the last card left behind."""
    me, table = state.to_move, state.table
    memo: dict[tuple, tuple[bool, int, int]] = {}

    def extend(state: Position) -> tuple[bool, int, int]:
        key = (state.hands[me], state.top, state.colour, state.pending, state.fuse, state.drawn)
        if key in memo:
            return memo[key]
        best = (False, 0, 0)
        cards = dict.fromkeys(a.card for a in legal_actions(state) if isinstance(a, Play))
        for card in cards:
            after = apply(state, Play(card, table.config.colours[0] if card.wild else None))
            goes_out, more_cards, more_points = False, 0, 0
            if after.winner == me:
                goes_out = True
            elif after.to_move == me and len(after.hands[me]) == len(state.hands[me]) - 1:
                goes_out, more_cards, more_points = extend(after)
            best = (best[0] or goes_out, max(best[1], 1 + more_cards),
                    max(best[2], table.points(card) + more_points))
        memo[key] = best
        return best

    return extend(state)


def random_position(rng: random.Random) -> Position:
    """A two-player position with 1 to 9 cards to play, often rich in Skips and
    Reverses; sometimes a stack waits, a fuse burns or a drawn card must be decided."""
    table = TABLES[rng.choice(sorted(TABLES))]
    deck = list(table.deck)
    rng.shuffle(deck)
    size, keeper_share = rng.randint(1, 9), rng.choice((0.0, 0.5, 0.8))
    hand = []
    for _ in range(size):
        keepers = [card for card in deck if card.rank in KEEPERS]
        card = rng.choice(keepers) if keepers and rng.random() < keeper_share else deck[0]
        deck.remove(card)
        hand.append(card)
    fields: dict = {}
    top = deck[0]
    roll = rng.random()
    if roll < 0.2:
        kind = rng.choice(("draw2", "draw4"))
        top = next(card for card in deck if card.rank == kind)
        fields |= {"pending": (2 if kind == "draw2" else 4) + 2 * rng.randint(0, 2),
                   "pending_kind": kind}
    elif roll < 0.35 and table.name == "classic":
        fields["fuse"] = {"size": 4, "count": rng.randint(1, 3), "skip_next": rng.random() < 0.5}
    deck.remove(top)
    fields["colour"] = top.colour or rng.choice(table.config.colours)
    opponent, me = deck[:rng.randint(1, 7)], rng.randint(0, 1)
    hands = [[str(card) for card in hand], [str(card) for card in opponent]]
    state = position(*(hands if me == 0 else hands[::-1]), table=table.name, top=str(top),
                     to_move=me, **fields)
    playable_now = [a.card for a in legal_actions(state) if isinstance(a, Play)]
    if not state.pending and playable_now and rng.random() < 0.1:
        state = replace(state, drawn=rng.choice(playable_now))
    return state


def test_cp_sat_agrees_with_the_brute_force_on_500_random_positions():
    rng = random.Random(20240611)
    outs = longer = 0
    for _ in range(500):
        state = random_position(rng)
        goes_out, cards, points = brute_force(state)
        by_cards = best_chain(state, "cards", BUDGET)
        by_points = best_chain(state, "points", BUDGET)
        for chain in (by_cards, by_points):
            assert chain.status is Status.SOLVED and chain.optimal
            assert chain.goes_out == goes_out, state
            replay(state, chain)
        assert by_cards.cards == cards and by_points.points == points, state
        outs += goes_out
        longer += cards > 2
    assert outs > 50 and longer > 50   # the sample holds both kinds of answer


def test_skips_and_reverses_change_colour_by_rank_and_go_out():
    state = position(["red-skip", "blue-skip", "blue-reverse", "green-reverse", "green-7"],
                     ["red-1"])
    chain = best_chain(state, budget=BUDGET)
    assert chain.goes_out and chain.optimal and chain.cards == 5
    assert [str(play) for play in chain.plays] == [
        "play red-skip", "play blue-skip", "play blue-reverse", "play green-reverse",
        "play green-7"]
    assert replay(state, chain).winner == 0


def test_two_numbers_cannot_go_out():
    state = position(["red-1", "red-2"], ["red-3"])
    chain = best_chain(state, "points", BUDGET)
    assert not chain.goes_out and chain.optimal
    assert [str(play) for play in chain.plays] == ["play red-2"] and chain.points == 2
    replay(state, chain)


def test_a_final_wild_names_a_colour_and_goes_out():
    state = position(["red-skip", "draw4"], ["red-3"])
    chain = best_chain(state, budget=BUDGET)
    assert chain.goes_out and chain.plays == (Play(state.table.card("red-skip")),
                                              Play(state.table.card("draw4"), "red"))
    after = replay(state, chain)
    assert after.pending == 0 and len(after.hands[1]) == 1   # the last card has no effect


def test_a_waiting_stack_is_answered_by_the_last_card():
    waiting = {"top": "blue-draw2", "pending": 2, "pending_kind": "draw2"}
    chain = best_chain(position(["red-draw2"], ["red-3"], **waiting), budget=BUDGET)
    assert chain.goes_out and [str(play) for play in chain.plays] == ["play red-draw2"]
    state = position(["red-draw2", "red-skip"], ["red-3"], **waiting)
    chain = best_chain(state, budget=BUDGET)
    assert not chain.goes_out and [str(play) for play in chain.plays] == ["play red-draw2"]
    assert replay(state, chain).to_move == 1


def test_a_shield_cancels_a_belagerung_draw4_stack_as_the_last_card():
    state = position(["green-shield"], ["red-3"], table="belagerung", top="draw4",
                     colour="blue", pending=4, pending_kind="draw4")
    assert best_chain(state, budget=BUDGET).goes_out


def test_nothing_playable_is_an_empty_chain():
    chain = best_chain(position(["blue-1", "green-2"], ["red-3"]), budget=BUDGET)
    assert chain.status is Status.SOLVED and chain.optimal and chain.plays == ()


def test_by_points_fewer_but_dearer_cards_win_when_actions_are_cheap():
    """With the shipped points a longer chain never sheds fewer points (a keeper is worth
    20 and a wild may end any chain); with actions at 1 point the answers part."""
    classic = TABLES["classic"]
    cheap = replace(classic, name="cheap", config=replace(classic.config, action_points=1))
    state = position(["green-9", "blue-skip", "blue-reverse", "blue-0"], ["red-3"],
                     table="cheap", top="blue-9", tables={"cheap": cheap})
    by_cards, by_points = best_chain(state, "cards", BUDGET), best_chain(state, "points", BUDGET)
    assert (by_cards.cards, by_cards.points) == (3, 2)
    assert [str(play) for play in by_points.plays] == ["play green-9"] and by_points.points == 9
    replay(state, by_cards)
    replay(state, by_points)


def test_ties_go_to_the_dearer_final_card_and_to_going_out():
    state = position(["red-skip", "red-1", "red-draw2"], ["red-3"])
    chain = best_chain(state, "cards", BUDGET)
    assert [str(play) for play in chain.plays] == ["play red-skip", "play red-draw2"]
    chain = best_chain(position(["red-skip", "red-0"], ["red-3"]), "points", BUDGET)
    assert chain.goes_out and chain.points == 20


def test_a_burning_fuse_cuts_the_chain_before_the_boom():
    hands = (["red-skip", "red-reverse", "red-1"], ["red-3"])
    fuse = {"size": 4, "count": 2, "skip_next": False}
    state = position(*hands, fuse=fuse)
    chain = best_chain(state, budget=BUDGET)
    assert not chain.goes_out and chain.cards == 2
    assert len(replay(state, chain).hands[0]) == 1 + 4   # the BOOM after the final card
    state = position(*hands, fuse={**fuse, "skip_next": True})
    assert state.fuse == Fuse(4, 2, True) and best_chain(state, budget=BUDGET).goes_out


def test_a_drawn_card_must_start_the_chain():
    hand = ["red-skip", "red-1"]
    assert best_chain(position(hand, ["red-3"]), budget=BUDGET).goes_out
    state = position(hand, ["red-3"], drawn="red-1")
    chain = best_chain(state, budget=BUDGET)
    assert [str(play) for play in chain.plays] == ["play red-1"] and not chain.goes_out


@pytest.mark.parametrize("fields, problem", [
    ({"hands": [["red-1"], ["red-2"], ["red-3"]]}, "two-player"),
    ({"winner": 1}, "game is over"),
    ({"objective": "speed"}, "objective must be"),
    ({"hands": [["red-1/pink-1"], ["red-2/pink-2"]], "table": "tag_nacht",
      "top": "red-9/pink-9", "tables": ALL_TABLES}, "for the one-faced tables"),
])
def test_other_positions_and_objectives_are_refused(fields, problem):
    objective = fields.pop("objective", "cards")
    state = position(*fields.pop("hands", [["red-1"], ["red-2"]]), **fields)
    with pytest.raises(InvalidInput, match=problem):
        best_chain(state, objective, BUDGET)



def test_a_stopped_chain_is_unknown_at_once():
    state = position(["red-skip", "blue-skip", "blue-7"], ["green-1"])
    chain = best_chain(state, budget=Budget(seconds=5, stop=lambda: True))
    assert chain.status is Status.UNKNOWN and chain.plays == () and chain.stats.nodes == 0
    assert chain.to_json()["status"] == "unknown" and not chain.to_json()["optimal"]
