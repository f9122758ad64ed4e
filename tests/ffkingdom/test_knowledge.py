"""What each player knows of the hidden cards: shown by Kundschafter and Spitzel, deduced
after a reshuffle, kept as cards are played and drawn, read and written with positions,
and the only thing besides the public state that the hints' worlds are dealt around."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.ffkingdom import Play, Position, State, apply, legal_actions, load, new_game
from solver.ffkingdom import hints as hints_module
from solver.ffkingdom.bots import play_game
from solver.ffkingdom.hints import Settings, hint, sample_world
from solver.ffkingdom.knowledge import NOTHING, Knowledge, forget, known, unseen
from solver.ffkingdom.policies import greedy_action
from tests.support.ffkingdom import RULES, act, has, playout, position, problems_of, rest_of_deck

FAST = Settings(worlds=2, shortlist=3)
BLIND = Settings(knowing=False)
SCOUTS = {card.id for card in RULES.cards.values() if "reveal" in card.effect}
seeds = st.integers(0, 2**32)

THEIRS = ["angriff", "bollwerk", "drache", "katapult", "mauer", "mauer", "turm", "turm",
          "wehrgang"]
DECK = ["blitz", "blitz", "markt", "markt", "umbau", "umbau", "festung", "burgfried",
        "burgfried", "wachen", "wachen", "pixie", "pixie", "giftnebel"]


def whole(mine: list[str], theirs: list[str], deck: list[str], **fields) -> State:
    """A complete position: player 0 holds `mine`, player 1 `theirs`, the deck `deck`
    (top first) and the rest of the cards are in the discard pile."""
    first, second = fields.pop("players", ({}, {}))
    discard = rest_of_deck(mine, theirs, deck)
    return position({**first, "hand": mine}, {**second, "hand": theirs}, deck=deck,
                    discard=discard, **fields)


def assert_consistent(state: State) -> None:
    """What each player knows is true: its known cards are in the opponent's hand, its
    known top is the deck's top."""
    for k, player in enumerate(state.players):
        knows, other = player.knows, state.players[1 - k]
        assert not Counter(knows.opponent_hand) - Counter(other.hand), (k, knows, other.hand)
        assert list(knows.opponent_hand) == sorted(knows.opponent_hand)
        assert state.deck[:len(knows.deck_top)] == knows.deck_top, (k, knows, state.deck)


def assert_agrees(world: State, state: State) -> None:
    """A sampled world keeps what the mover sees and knows: its hand, the board, the
    discard pile, the known cards in the opponent's hand and the known deck top."""
    knows = known(state)
    me, them = state.to_move, 1 - state.to_move
    assert replace(world.players[me], knows=NOTHING) == replace(state.players[me],
                                                                knows=NOTHING)
    assert world.players[me].knows == knows
    opponent, real = world.players[them], state.players[them]
    assert replace(opponent, hand=(), knows=NOTHING) == replace(real, hand=(), knows=NOTHING)
    assert opponent.knows.opponent_hand == real.knows.opponent_hand
    assert len(opponent.knows.deck_top) == len(real.knows.deck_top)
    assert len(opponent.hand) == len(real.hand) and len(world.deck) == len(state.deck)
    assert not Counter(knows.opponent_hand) - Counter(opponent.hand)
    assert world.deck[:len(knows.deck_top)] == knows.deck_top
    assert Counter(opponent.hand) + Counter(world.deck) == unseen(state)
    assert world.discard == state.discard
    assert_consistent(world)


# ---------------------------------------------------------------- the rules that show cards


def test_kundschafter_shows_the_opponents_hand_and_it_stays_known_until_played():
    state = whole(["kundschafter", "mauer", "turm"], THEIRS, DECK,
                  players=({"G": 1}, {"K": 30}))
    shown = act(state, "play kundschafter")
    assert shown.to_move == 0 and shown.actions_left == 1  # it plays again
    assert shown.players[0].knows.opponent_hand == shown.players[1].hand == tuple(THEIRS)
    assert shown.players[1].knows == NOTHING
    assert_consistent(shown)
    # remembered past the end of the turn; the opponent plays one card and draws one
    theirs = act(shown, "discard mauer")
    assert theirs.to_move == 1
    assert known(theirs) == NOTHING  # player 1 saw nothing
    back = act(theirs, "play drache")
    assert back.to_move == 0
    hand = Counter(THEIRS) - Counter(["drache"])
    assert back.players[0].knows.opponent_hand == tuple(sorted(hand.elements()))
    assert known(back).opponent_hand == tuple(sorted(hand.elements()))
    assert len(back.players[1].hand) == 9  # the card drawn is not known
    assert_consistent(back)


def test_spitzel_shows_the_top_three_and_they_stay_known_as_they_are_drawn():
    deck = ["blitz", "festung", "markt", "burgfried", "wachen", "umbau"]
    state = whole(["spitzel", "mauer", "mauer", "turm", "wehrgang", "wehrgang", "bollwerk",
                   "pixie", "umbau"], THEIRS, deck, players=({"G": 2}, {}))
    shown = act(state, "play spitzel")
    assert shown.players[0].knows.deck_top == ("blitz", "festung", "markt")
    assert shown.players[0].knows.opponent_hand == ()
    # the mover ends its turn with 7 cards and draws the first two it knows
    drawn = act(shown, "discard mauer")
    assert drawn.to_move == 1
    assert {"blitz", "festung"} <= set(drawn.players[0].hand)
    assert drawn.players[0].knows.deck_top == ("markt",) == drawn.deck[:1]
    # the opponent draws the last card it knew: now known to be in the opponent's hand
    after = act(drawn, "discard angriff")
    assert after.to_move == 0
    assert after.players[0].knows == Knowledge(opponent_hand=("markt",))
    assert "markt" in after.players[1].hand
    for step in (shown, drawn, after):
        assert_consistent(step)


def test_a_longer_known_top_is_kept_and_a_short_deck_is_shown_whole():
    state = whole(["spitzel", "mauer"], THEIRS, ["blitz", "markt"], players=({"G": 2}, {}))
    shown = act(state, "play spitzel")
    assert shown.players[0].knows.deck_top == ("blitz", "markt")
    # a deck it knows whole: every other card it cannot see is in the opponent's hand
    assert shown.players[0].knows.opponent_hand == tuple(THEIRS)


def test_after_a_reshuffle_the_opponents_hand_is_known():
    mine = ["mauer", "mauer", "turm", "wehrgang", "wehrgang", "bollwerk", "umbau", "umbau",
            "burgfried"]
    state = whole(mine, THEIRS, ["festung"])
    drawn = act(state, "discard bollwerk burgfried umbau")
    assert drawn.to_move == 1
    kept = Counter(mine) - Counter(["bollwerk", "burgfried", "umbau"])
    new = Counter(drawn.players[0].hand) - kept - Counter(["festung"])
    assert sum(new.values()) == 2  # drawn from the new deck, after the reshuffle
    # the drawer saw the deck run out: everything it did not see was player 1's hand
    assert drawn.players[0].knows.opponent_hand == tuple(THEIRS)
    # player 1 knows player 0's hand but the two cards drawn from the shuffled deck
    assert drawn.players[1].knows.opponent_hand == tuple(sorted((kept + Counter(
        ["festung"])).elements()))
    assert known(drawn) == drawn.players[1].knows
    assert_consistent(drawn)


def test_an_empty_deck_tells_the_whole_opponent_hand_even_to_a_reader():
    view = load({"players": [{"hand": ["mauer"]}, {"hand_size": 9}], "deck_size": 0,
                 "discard": rest_of_deck(["mauer"], THEIRS)}, RULES).state
    assert view.players[0].knows == NOTHING
    assert known(view).opponent_hand == tuple(THEIRS)


def test_zermuerbung_discards_are_seen_leaving_the_hand():
    state = whole(["zermuerbung", "kundschafter", "mauer"], THEIRS, DECK,
                  players=({"G": 1, "W": 4}, {}))
    shown = act(state, "play kundschafter", "play zermuerbung")
    assert shown.to_move == 1 and len(shown.players[1].hand) == 7
    thrown = Counter(shown.discard[-3:-1])  # then the Zermuerbung itself
    assert shown.players[0].knows.opponent_hand == tuple(sorted(
        (Counter(THEIRS) - thrown).elements()))
    assert_consistent(shown)


def test_the_schild_played_face_down_is_known_to_have_left_the_hand():
    state = whole(["mauer"], ["schild", "mauer", "turm"], DECK,
                  players=({"hand": ["mauer"], "knows": {"opponent_hand": ["schild", "turm"]}},
                           {"G": 4}), to_move=1)
    after = act(state, "play schild")
    assert after.players[1].shields == 1
    assert after.players[0].knows.opponent_hand == ("turm",)


@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_what_a_player_knows_is_always_true_in_random_games(seed):
    for state in playout(new_game(RULES, seed), seed, limit=3000) + scouting_playout(seed):
        assert_consistent(state)
        knows = known(state)
        assert not Counter(knows.opponent_hand) - Counter(state.opponent.hand)


def test_what_a_player_knows_is_always_true_in_greedy_games():
    knowing = 0
    for seed in range(3):
        state = new_game(RULES, seed)
        while state.winner is None and state.round < 300:
            assert_consistent(state)
            state = apply(state, greedy_action(state))
            knowing += bool(known(state))
    assert knowing


# ---------------------------------------------------------------- worlds and hints


def scouting_playout(seed: int, limit: int = 600) -> list[State]:
    """A game of random legal actions in which a scouting card is played whenever it can
    be (so that the positions know a deck top or a hand often)."""
    rng = random.Random(seed)
    state = new_game(RULES, seed)
    states = [state]
    while state.winner is None and len(states) <= limit:
        actions = legal_actions(state)
        scouts = [a for a in actions if isinstance(a, Play) and a.card in SCOUTS]
        state = apply(state, scouts[0] if scouts else rng.choice(actions))
        states.append(state)
    return states


def _real_positions(seed: int, pick: int) -> State:
    """A position of a random game (random actions, or scouting ones), preferably one in
    which the player to move knows something."""
    games = playout(new_game(RULES, seed), seed, limit=600) + scouting_playout(seed)
    states = [s for s in games if s.winner is None]
    knowing = [s for s in states if known(s)]
    return (knowing or states)[pick % len(knowing or states)]


def test_scouting_playouts_know_hands_and_deck_tops():
    states = [s for seed in range(5) for s in scouting_playout(seed)]
    assert any(known(s).deck_top for s in states)
    assert any(len(known(s).opponent_hand) == len(s.opponent.hand) > 0 for s in states)
    for state in states:
        assert_consistent(state)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, pick=st.integers(0, 10**6), world_seed=st.integers(0, 2**32))
def test_every_sampled_world_agrees_with_what_the_mover_knows(seed, pick, world_seed):
    state = _real_positions(seed, pick)
    assert_agrees(sample_world(state, random.Random(world_seed)), state)


@settings(max_examples=8, deadline=None)
@given(seed=seeds, pick=st.integers(0, 10**6), hint_seed=st.integers(0, 2**32))
def test_every_world_a_hint_samples_agrees_with_what_its_mover_knows(seed, pick, hint_seed):
    state = _real_positions(seed, pick)
    sampled: list[tuple[State, State, object]] = []
    original = hints_module.sample_world

    def spy(asked, rng, knows=None):
        world = original(asked, rng, knows)
        sampled.append((world, asked, knows))
        return world

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hints_module, "sample_world", spy)
        hint(state, settings=FAST, seed=hint_seed)
    assert sampled
    assert any(asked is state for _, asked, _ in sampled)
    for world, asked, knows in sampled:
        assert knows in (None, known(asked))
        assert_agrees(world, asked)


def test_the_blind_world_forgets_what_the_mover_knows():
    state = act(whole(["kundschafter", "mauer"], THEIRS, DECK,
                      players=({"G": 1}, {})), "play kundschafter")
    assert known(state).opponent_hand == tuple(THEIRS)
    blind = sample_world(state, random.Random(3), NOTHING)
    assert blind == sample_world(forget(state), random.Random(3), NOTHING)
    assert blind.mover.knows == NOTHING
    seeing = [sample_world(state, random.Random(k)) for k in range(20)]
    assert all(world.opponent.hand == tuple(THEIRS) for world in seeing)
    blinds = [sample_world(state, random.Random(k), NOTHING) for k in range(20)]
    assert any(world.opponent.hand != tuple(THEIRS) for world in blinds)


def test_the_blind_hint_is_the_hint_of_a_player_who_remembers_nothing():
    state = act(whole(["kundschafter", "katapult", "schild", "mauer"], THEIRS, DECK,
                      players=({"G": 5, "W": 7}, {})), "play kundschafter")
    blind = hint(state, settings=BLIND)
    assert (blind.plan, blind.value) == (hint(forget(state), settings=BLIND).plan,
                                         hint(forget(state), settings=BLIND).value)
    assert (blind.plan, blind.value) == (hint(forget(state)).plan, hint(forget(state)).value)
    assert hint(state).value != blind.value


# A hand-made position: player 0 (castle 20, no wall) may attack with the Katapult or put
# up a Schild; player 1 has the crystals for the Drache (22 over the wall), which the 14
# cards player 0 cannot see hold. Blind, the Drache is in player 1's hand in most worlds.
SAFE = ["mauer", "mauer", "mauer", "mauer", "wehrgang", "wehrgang", "wehrgang", "bollwerk",
        "bollwerk"]
REST = ["umbau", "umbau", "markt", "markt", "festung", "turm", "turm", "turm", "burgfried",
        "burgfried", "wachen", "wachen", "angriff", "angriff"]
BOARD = ({"castle": 20, "wall": 0, "Z": 2, "W": 7, "K": 4, "G": 5},
         {"castle": 30, "wall": 0, "Z": 0, "W": 0, "K": 22, "G": 0, "builders": 0,
          "soldiers": 0})


def duel(mine: list[str], theirs: list[str], deck: list[str], knows: list[str]) -> State:
    me, them = BOARD
    return whole(mine, theirs, deck, players=({**me, "knows": {"opponent_hand": knows}}, them))


def test_knowing_the_opponent_holds_no_threat_changes_the_hint_from_defence_to_attack():
    mine = ["katapult", "schild", "angriff", "angriff", "blitz", "blitz", "turm", "turm",
            "burgfried"]
    deck = ["drache", "umbau", "umbau", "markt", "markt", "festung"]
    theirs = SAFE
    state = duel(mine, theirs, deck, knows=theirs)  # e.g. seen by an earlier Kundschafter
    assert known(state).opponent_hand == tuple(sorted(theirs))
    assert hint(state).action == Play("katapult")
    assert hint(state, settings=BLIND).action == Play("schild")
    assert hint(forget(state)).action == Play("schild")


@pytest.mark.parametrize(("theirs", "then"), [
    (SAFE, Play("katapult")),
    (["drache", *SAFE[1:]], Play("schild")),
], ids=["no-threat", "drache"])
def test_a_kundschafter_is_played_when_what_it_shows_decides_the_turn(theirs, then):
    mine = ["katapult", "schild", "kundschafter"]
    deck = [*(["drache"] if "drache" not in theirs else ["mauer"]), *REST]
    state = duel(mine, theirs, deck, knows=[])
    answer = hint(state)
    assert answer.action == Play("kundschafter")
    assert hint(state, settings=BLIND).action == Play("schild")
    shown = apply(state, answer.action)
    assert shown.mover.knows.opponent_hand == tuple(sorted(theirs))
    assert hint(shown).action == then


def test_the_reveal_is_valued_above_the_same_plans_played_blind():
    mine = ["katapult", "schild", "kundschafter"]
    state = duel(mine, SAFE, ["drache", *REST], knows=[])
    for seed in range(4):
        assert hint(state, seed=seed).value > hint(state, settings=BLIND, seed=seed).value


def test_the_hint_and_the_blind_hint_meet_in_self_play():
    game = play_game(("hint", "hint-blind"), 3, RULES)
    assert game.winner in (0, 1) and game.hints > 0


# ---------------------------------------------------------------- positions


def test_knowledge_is_written_and_read_back():
    state = act(whole(["spitzel", "kundschafter", "mauer"], THEIRS, ["blitz", "markt",
                                                                      "turm", "umbau"],
                      players=({"G": 3}, {})), "play kundschafter", "play spitzel")
    data = json.loads(json.dumps(state.to_json()))
    assert data["players"][0]["knows"] == {"opponent_hand": THEIRS,
                                           "deck_top": ["blitz", "markt", "turm"]}
    assert data["players"][1]["knows"] == {"opponent_hand": [], "deck_top": []}
    assert load(data, RULES).state == state


def test_a_position_without_knows_knows_nothing():
    state = position({"hand": ["mauer"]}, {})
    assert state.players[0].knows == state.players[1].knows == NOTHING


def test_a_view_places_the_known_cards_where_they_are_known():
    view = {"players": [{"hand": ["mauer"], "knows": {"opponent_hand": ["drache", "festung"],
                                                      "deck_top": ["troja", "belagerung"]}},
                        {"hand_size": 5}]}
    loaded = load(view, RULES)
    state = loaded.state
    assert {"drache", "festung"} <= set(state.players[1].hand)
    assert len(state.players[1].hand) == 5
    assert state.deck[:2] == ("troja", "belagerung")
    assert known(state).opponent_hand == ("drache", "festung")
    assert Position.from_json(loaded.to_json()).state == state


@pytest.mark.parametrize(("data", "fragments"), [
    ({"players": [{"hand": ["mauer"], "knows": {"opponent_hand": ["drache"]}},
                  {"hand": ["turm"]}]},
     ("players[0].knows.opponent_hand", "more than players[1].hand", "drache (it holds 0)")),
    ({"players": [{"hand": ["drache"]}, {"hand": ["turm"], "knows": {
        "opponent_hand": ["drache", "drache"]}}]},
     ("players[1].knows.opponent_hand", "more than players[0].hand",
      "drache 2 times (it holds 1)")),
    ({"players": [{"hand": ["mauer"], "knows": {"opponent_hand": ["drache", "drache"]}}, {}]},
     ("players[0].knows.opponent_hand", "unseen", "drache 2 times (unseen 1)")),
    ({"players": [{"hand": ["mauer"], "knows": {"opponent_hand": ["turm"] * 3}},
                  {"hand_size": 2}]},
     ("players[0].knows.opponent_hand", "3 cards", "more than the 2")),
    ({"players": [{"hand": ["mauer"], "knows": {"deck_top": ["turm"]}}, {}],
      "deck": ["drache"], "discard": []},
     ("players[0].knows.deck_top", "not the deck's top", "turm", "drache")),
    ({"players": [{"hand": ["mauer"], "knows": {"deck_top": ["turm", "turm"]}}, {}],
      "deck": ["turm"]},
     ("players[0].knows.deck_top", "2 cards", "deck's 1")),
    ({"players": [{"hand": ["mauer"], "knows": {"deck_top": ["turm", "drache"]}},
                  {"knows": {"deck_top": ["turm", "festung"]}}]},
     ("players[1].knows.deck_top", "card 1 is festung", "drache")),
    ({"players": [{"hand": ["mauer"], "knows": {"deck_top": ["mauer"] * 4}}, {}]},
     ("players[0].knows.deck_top", "unseen", "mauer 4 times (unseen 3)")),
    ({"players": [{"hand": ["mauer"], "knows": {"deck_top": ["turm", "turm"]}}, {}],
      "deck_size": 1},
     ("players[0].knows.deck_top", "2 cards", "deck_size 1")),
    ({"players": [{"hand": ["mauer"], "knows": {"opponent_hand": ["gold"]}}, {}]},
     ("players[0].knows.opponent_hand", "'gold'", "no card")),
], ids=["not-in-the-hand", "too-many-of-the-hand", "more-than-unseen", "more-than-the-hand",
        "not-the-top", "longer-than-the-deck", "tops-disagree", "top-more-than-unseen",
        "top-over-deck-size", "unknown-card"])
def test_knowledge_the_position_contradicts_is_named(data, fragments):
    problems = problems_of(data)
    assert has(problems, *fragments), problems


def test_every_knowledge_fault_is_named_at_once():
    problems = problems_of({"players": [
        {"hand": ["mauer"], "knows": {"opponent_hand": ["drache"], "deck_top": ["turm"]}},
        {"hand": ["turm"], "knows": {"opponent_hand": ["festung"]}}], "deck": ["umbau"]})
    assert has(problems, "players[0].knows.opponent_hand", "drache")
    assert has(problems, "players[0].knows.deck_top", "turm")
    assert has(problems, "players[1].knows.opponent_hand", "festung")


def test_knows_is_in_the_schema():
    from solver.ffkingdom.schema import position_schema

    schema = json.dumps(position_schema())
    assert "opponent_hand" in schema and "deck_top" in schema
