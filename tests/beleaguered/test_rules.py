"""The rules of Beleaguered Fortress as legal_moves/apply read them, one test per rule of
docs/beleaguered-fortress.md (Moves), plus move notation and a random-play property from
real deals."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.beleaguered.deals import deal
from solver.beleaguered.position import Position
from solver.beleaguered.rules import Location, Move, accepts, apply, legal_moves, replay
from solver.beleaguered.variant import beleaguered_fortress
from solver.cards import FULL_DECK, Card, Rank, Suit
from solver.errors import IllegalMove, InvalidInput

BF = beleaguered_fortress()


def pos(tableau, reserve=(), foundations=None) -> Position:
    data = {"tableau": [p.split() for p in tableau],
            "reserve": [None if c == "-" else c for c in reserve]}
    if foundations is not None:
        data["foundations"] = foundations
    return Position.from_json(data)


def mv(text: str) -> Move:
    return Move.parse(text)


def legal(position: Position, text: str) -> Position:
    """`text` is among legal_moves and apply carries it out."""
    move = mv(text)
    assert move in legal_moves(position), f"{text} should be legal"
    return apply(position, move)


def illegal(position: Position, text: str, reason: str = "") -> IllegalMove:
    """`text` is not among legal_moves and apply refuses it, naming the move and `reason`."""
    move = mv(text)
    assert move not in legal_moves(position), f"{text} should be illegal"
    with pytest.raises(IllegalMove) as info:
        apply(position, move)
    message = str(info.value)
    assert str(move) in message and reason in message
    return info.value


def where(position: Position) -> dict[Card, str]:
    """Each card's place: tableau:<i>, reserve:<slot> or foundation."""
    places: dict[Card, str] = {}
    for i, pile in enumerate(position.tableau):
        for card in pile:
            places[card] = f"tableau:{i}"
    for slot, card in enumerate(position.reserve):
        if card is not None:
            places[card] = f"reserve:{slot}"
    for suit in Suit:
        for rank in range(1, position.foundation_top(suit) + 1):
            places[Card(Rank(rank), suit)] = "foundation"
    return places


# A: clubs and diamonds home, hearts and spades built to 5; three empty piles; slot 10 emptied.
A = pos(["8H", "KH", "TS", "QS", "KS"],
        ["7H", "9H", "7S", "9S", "TH", "8S", "6H", "6S", "JH", "JS", "-", "QH"])
# B: only hearts in play, their foundation empty.
B = pos(["KH AH", "QH 2H", "3H", "4H", "5H", "6H", "7H", "8H"], ["9H", "TH", "JH"])
# C: only 6H..KH in play, hearts built to 5, pile 7 empty, no reserve.
C = pos(["6H", "KH", "QH JH", "TH", "9H", "8H", "7H"])
# D: a small position for the exact legal-move set.
D = pos(["KC TH", "QS JC", "9H", "KH", "TC", "JS", "QH", "KS"], ["-", "QC", "-", "JH"])
# W: won.
W = pos([], [], {"C": 13, "D": 13, "H": 13, "S": 13})


def test_hand_made_positions_are_what_they_say():
    assert A.foundations == (13, 13, 5, 5) and A.tableau[5:] == ((), (), ())
    assert A.reserve[10] is None and len(A.reserve) == 12
    assert B.foundations == (13, 13, 0, 13)
    assert C.foundations == (13, 13, 5, 13) and C.tableau[7] == ()
    assert W.is_won


# --- tableau building -------------------------------------------------------------------------

def test_accepts_same_suit_one_up_or_one_down_only():
    pile = (Card.parse("8H"),)
    assert accepts(pile, Card.parse("7H"), BF) and accepts(pile, Card.parse("9H"), BF)
    for text in ("7S", "9S", "7D", "9C", "8S", "6H", "TH", "8H", "AH", "KH"):
        assert not accepts(pile, Card.parse(text), BF), text
    # only the top counts
    assert accepts((Card.parse("KH"), Card.parse("2C")), Card.parse("AC"), BF)
    assert not accepts((Card.parse("2C"), Card.parse("KH")), Card.parse("AC"), BF)
    assert not accepts((Card.parse("KH"),), Card.parse("AH"), BF)  # no wrap-around K-A


def test_tableau_takes_same_suit_one_up_or_one_down():
    after = legal(A, "7H reserve:0 tableau:0")
    assert after.tableau[0] == (Card.parse("8H"), Card.parse("7H"))
    legal(A, "9H reserve:1 tableau:0")
    legal(A, "QH reserve:11 tableau:1")
    legal(A, "9S reserve:3 tableau:2")
    legal(A, "JS reserve:9 tableau:2")
    legal(A, "JS reserve:9 tableau:3")
    legal(A, "KS tableau:4 tableau:3")
    legal(A, "QS tableau:3 tableau:4")


@pytest.mark.parametrize("text", [
    "7S reserve:2 tableau:0",   # other suit, one down
    "9S reserve:3 tableau:0",   # other suit, one up
    "8S reserve:5 tableau:0",   # same rank
    "TH reserve:4 tableau:0",   # two up
    "6H reserve:6 tableau:0",   # two down
    "JH reserve:8 tableau:1",   # two down from KH
    "TS tableau:2 tableau:1",   # other suit
])
def test_tableau_refuses_anything_else(text):
    illegal(A, text, "does not accept")


def test_empty_pile_accepts_any_card():
    movable = [(str(p[-1]), f"tableau:{i}") for i, p in enumerate(A.tableau) if p]
    movable += [(str(c), f"reserve:{s}") for s, c in enumerate(A.reserve) if c]
    movable += [(c, "foundation") for c in ("KC", "KD", "5H", "5S")]
    assert len(movable) == 5 + 11 + 4
    for card, source in movable:
        for target in ("tableau:5", "tableau:6", "tableau:7"):
            after = legal(A, f"{card} {source} {target}")
            assert after.tableau[int(target[-1])] == (Card.parse(card),)


# --- the reserve ------------------------------------------------------------------------------

@pytest.mark.parametrize("slot", [s for s in range(12) if s != 10])
def test_a_reserve_card_from_any_slot_may_go_to_a_pile(slot):
    card = A.reserve[slot]
    after = legal(A, f"{card} reserve:{slot} tableau:6")
    assert after.tableau[6] == (card,)
    assert after.reserve[slot] is None
    assert len(after.reserve) == 12
    assert [c for s, c in enumerate(after.reserve) if s != slot] == \
           [c for s, c in enumerate(A.reserve) if s != slot]


def test_a_reserve_card_from_a_middle_slot_may_go_to_its_foundation():
    after = legal(A, "6H reserve:6 foundation")
    assert after.foundations == (13, 13, 6, 5)
    assert after.reserve[6] is None
    after = legal(after, "6S reserve:7 foundation")
    assert after.foundations == (13, 13, 6, 6)
    assert after.reserve[7] is None


@pytest.mark.parametrize("text", [
    "7H reserve:0 reserve:10",
    "8H tableau:0 reserve:10",
    "5H foundation reserve:10",
    "QH reserve:11 reserve:11",
])
def test_nothing_may_go_into_the_reserve(text):
    illegal(A, text, "reserve")


def test_no_legal_move_ever_targets_the_reserve():
    for position in (A, B, C, W, deal(1), deal(2), deal(617)):
        assert all(m.target.kind != "reserve" for m in legal_moves(position))


def test_an_emptied_reserve_slot_stays_empty():
    after = legal(A, "7H reserve:0 tableau:0")
    assert after.reserve[0] is None
    illegal(after, "7H reserve:0 tableau:5", "is not in reserve:0")
    illegal(after, "7H tableau:0 reserve:0", "reserve")
    illegal(A, "7H reserve:10 tableau:5", "is not in reserve:10")
    # the card leaves for good: moving it on does not refill the slot
    again = legal(after, "7H tableau:0 tableau:5")
    assert again.reserve[0] is None and len(again.reserve) == 12
    assert all(m.source != Location("reserve", 0) for m in legal_moves(again))


# --- foundations ------------------------------------------------------------------------------

def test_foundation_takes_only_the_next_rank_of_its_suit():
    after = legal(A, "6H reserve:6 foundation")
    assert after.foundation_top(Suit.HEARTS) == 6
    legal(after, "7H reserve:0 foundation")
    for text in ("7H reserve:0 foundation", "8H tableau:0 foundation",
                 "TS tableau:2 foundation", "7S reserve:2 foundation",
                 "QH reserve:11 foundation"):
        illegal(A, text, "does not follow")


def test_an_ace_starts_an_empty_foundation():
    illegal(B, "2H tableau:1 foundation", "does not follow")
    after = legal(B, "AH tableau:0 foundation")
    assert after.foundations == (13, 13, 1, 13)
    after = legal(after, "2H tableau:1 foundation")
    assert after.foundations == (13, 13, 2, 13)


def test_foundation_top_may_go_back_onto_an_accepting_pile():
    after = legal(C, "5H foundation tableau:0")
    assert after.foundations == (13, 13, 4, 13)
    assert after.tableau[0] == (Card.parse("6H"), Card.parse("5H"))
    # the next one down is now the top and may follow
    after = legal(after, "4H foundation tableau:0")
    assert after.foundations == (13, 13, 3, 13)


def test_foundation_top_may_go_onto_an_empty_pile():
    after = legal(C, "5H foundation tableau:7")
    assert after.tableau[7] == (Card.parse("5H"),)
    after = legal(C, "KS foundation tableau:7")
    assert after.foundations == (13, 13, 5, 12)


def test_foundation_cards_refused_where_the_rules_say():
    illegal(C, "5H foundation tableau:1", "does not accept")    # onto KH
    illegal(C, "KS foundation tableau:0", "does not accept")    # onto 6H
    illegal(C, "4H foundation tableau:7", "not the top of its foundation")
    illegal(C, "6H foundation tableau:7", "not the top of its foundation")
    illegal(C, "5H foundation foundation", "does not follow")   # foundation to foundation


def test_foundation_holds_at_most_13():
    moves = legal_moves(W)
    assert all(m.target.kind != "foundation" for m in moves)
    assert set(map(str, moves)) == {
        f"K{s} foundation tableau:{i}" for s in "CDHS" for i in range(8)}
    for s in "CDHS":
        illegal(W, f"K{s} foundation foundation", "does not follow")
    # a king brought back may go home again, and then nothing more goes up
    out = legal(W, "KH foundation tableau:3")
    assert out.foundations == (13, 13, 12, 13)
    assert legal(out, "KH tableau:3 foundation") == W


def test_winning_by_the_last_king():
    last = pos(["KD"], [], {"C": 13, "D": 12, "H": 13, "S": 13})
    assert not last.is_won
    assert legal(last, "KD tableau:0 foundation").is_won


# --- what may not move ------------------------------------------------------------------------

def test_a_covered_card_cannot_move():
    illegal(C, "QH tableau:2 tableau:1", "is not the top of tableau:2")  # KH would take it
    illegal(C, "QH tableau:2 tableau:7", "is not the top of tableau:2")
    illegal(B, "KH tableau:0 tableau:1", "is not the top of tableau:0")
    for position in (B, C, D, deal(1)):
        covered = {c for p in position.tableau for c in p[:-1]}
        assert covered
        assert all(m.card not in covered for m in legal_moves(position))


def test_a_card_cannot_move_onto_its_own_pile():
    # 6H alone in pile 0: once lifted the pile is empty and would take any card
    illegal(C, "6H tableau:0 tableau:0", "is not another tableau pile")
    illegal(C, "JH tableau:2 tableau:2", "is not another tableau pile")
    for position in (A, B, C, W, deal(1)):
        assert all(m.source != m.target for m in legal_moves(position))


def test_a_card_must_be_where_the_move_says():
    illegal(C, "KS tableau:7 tableau:0", "has no card")
    illegal(C, "JH tableau:3 tableau:1", "is not the top of tableau:3")
    illegal(A, "7H reserve:1 tableau:0", "is not in reserve:1")
    illegal(A, "7H reserve:12 tableau:0", "is not in reserve:12")
    illegal(A, "7H tableau:8 tableau:0", "has no card")


# --- legal_moves: an exact set ----------------------------------------------------------------

def test_legal_moves_is_exactly_the_expected_set():
    assert D.foundations == (9, 13, 8, 10)
    expected = {
        # home
        "TC tableau:4 foundation", "9H tableau:2 foundation", "JS tableau:5 foundation",
        # pile to pile
        "TH tableau:0 tableau:2", "JC tableau:1 tableau:4", "9H tableau:2 tableau:0",
        "KH tableau:3 tableau:6", "TC tableau:4 tableau:1", "QH tableau:6 tableau:3",
        # reserve to pile
        "QC reserve:1 tableau:1", "JH reserve:3 tableau:0", "JH reserve:3 tableau:6",
        # foundation to pile
        "9C foundation tableau:4", "8H foundation tableau:2", "TS foundation tableau:5",
    }
    moves = legal_moves(D)
    assert len(moves) == len(set(moves)), "legal_moves repeats a move"
    assert {str(m) for m in moves} == expected
    for move in moves:
        apply(D, move)


@pytest.mark.parametrize(("text", "reason"), [
    ("9H tableau:5 tableau:2", "is not the top of tableau:5"),
    ("TH tableau:3 tableau:2", "is not the top of tableau:3"),
    ("TH tableau:9 tableau:2", "has no card"),
    ("QC reserve:0 tableau:1", "is not in reserve:0"),
    ("QC reserve:3 tableau:1", "is not in reserve:3"),
    ("QC reserve:12 tableau:1", "is not in reserve:12"),
    ("TH foundation tableau:2", "is not the top of its foundation"),
    ("TH tableau:0 foundation", "does not follow its foundation's top"),
    ("9C foundation foundation", "does not follow its foundation's top"),
    ("TH tableau:0 tableau:0", "is not another tableau pile"),
    ("TH tableau:0 tableau:8", "is not another tableau pile"),
    ("TH tableau:0 tableau:3", "does not accept TH"),
    ("TH tableau:0 reserve:0", "nothing may be put into the reserve"),
    ("JS tableau:5 tableau:1", "does not accept JS"),
])
def test_apply_refuses_illegal_moves_with_a_reason(text, reason):
    before = str(D)
    illegal(D, text, reason)
    assert str(D) == before


# --- notation ---------------------------------------------------------------------------------

locations = st.one_of(
    st.builds(Location, st.just("tableau"), st.integers(0, 30)),
    st.builds(Location, st.just("reserve"), st.integers(0, 30)),
    st.just(Location("foundation")),
)
moves = st.builds(Move, st.sampled_from(FULL_DECK), locations, locations)


@given(locations)
def test_location_round_trip(location):
    assert Location.parse(str(location)) == location


@given(moves)
def test_move_round_trips(move):
    assert Move.parse(str(move)) == move
    data = move.to_json()
    assert set(data) == {"card", "from", "to"}
    assert data == {"card": str(move.card), "from": str(move.source), "to": str(move.target)}
    assert Move.from_json(json.loads(json.dumps(data))) == move


def test_move_json_layout():
    move = Move(Card.parse("7H"), Location("tableau", 2), Location("foundation"))
    assert move.to_json() == {"card": "7H", "from": "tableau:2", "to": "foundation"}
    assert str(move) == "7H tableau:2 foundation"
    assert Move.from_json({"card": "7h", "from": "tableau:2", "to": "foundation"}) == move


@pytest.mark.parametrize("text", [
    "tableau", "tableau:", "tableau:x", "pile:2", "reserve:-1", "foundation:1", "",
    "tableau:1:2", "reserve 3", 3, None,
])
def test_location_parse_refuses_junk(text):
    with pytest.raises(InvalidInput, match="not a location"):
        Location.parse(text)


@pytest.mark.parametrize("data", [
    [], None, "7H tableau:2 foundation", 7,
    {"card": "7H", "from": "tableau:2"},
    {"card": "7H", "to": "foundation"},
    {"from": "tableau:2", "to": "foundation"},
    {"card": "ZZ", "from": "tableau:2", "to": "foundation"},
    {"card": 7, "from": "tableau:2", "to": "foundation"},
    {"card": None, "from": "tableau:2", "to": "foundation"},
    {"card": "7H", "from": "tableau:x", "to": "foundation"},
    {"card": "7H", "from": "tableau:2", "to": 3},
    {"card": "7H", "from": "tableau:2", "to": "home"},
])
def test_move_from_json_refuses_bad_shapes(data):
    with pytest.raises(InvalidInput):
        Move.from_json(data)


@pytest.mark.parametrize("text", [
    "7H tableau:2", "7H tableau:2 foundation now", "ZZ tableau:2 foundation",
    "7H pile:2 foundation", "",
])
def test_move_parse_refuses_junk(text):
    with pytest.raises(InvalidInput):
        Move.parse(text)


# --- property: random play from real deals ----------------------------------------------------

def candidate_moves(position: Position) -> list[Move]:
    """Every card at its true place, to every target (legal or not)."""
    targets = [Location("tableau", i) for i in range(8)]
    targets += [Location("foundation"), Location("reserve", 0)]
    sources = [(p[-1], Location("tableau", i)) for i, p in enumerate(position.tableau) if p]
    sources += [(c, Location("reserve", s)) for s, c in enumerate(position.reserve) if c]
    sources += [(Card(Rank(top), suit), Location("foundation"))
                for suit, top in zip(Suit, position.foundations, strict=True) if top]
    return [Move(card, source, target) for card, source in sources for target in targets]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 10**6), st.data())
def test_random_play_keeps_every_card_once_and_replays(number, data):
    start = deal(number)
    position = start
    played = []
    for step in range(data.draw(st.integers(0, 60), label="length")):
        options = legal_moves(position)
        if not options:
            break
        if step % 10 == 0:  # apply and legal_moves agree on every candidate move
            allowed = set(options)
            for move in candidate_moves(position):
                try:
                    apply(position, move)
                    ok = True
                except IllegalMove:
                    ok = False
                assert ok == (move in allowed), str(move)
        move = data.draw(st.sampled_from(options), label="move")
        before = where(position)
        after_position = apply(position, move)
        after = where(after_position)
        # exactly one card moved, to where the move says
        assert after[move.card] == str(move.target)
        assert before[move.card] == str(move.source)
        assert {c: p for c, p in after.items() if c != move.card} == \
               {c: p for c, p in before.items() if c != move.card}
        position = after_position
        played.append(move)
        # the 52 cards, each once
        assert sorted(after) == sorted(FULL_DECK)
        assert sum(len(p) for p in position.tableau) \
            + sum(c is not None for c in position.reserve) + sum(position.foundations) == 52
        assert len(position.reserve) == 12
    assert replay(start, played) == position
    assert replay(start, [Move.from_json(m.to_json()) for m in played]) == position
    assert replay(start, [Move.parse(str(m)) for m in played]) == position
