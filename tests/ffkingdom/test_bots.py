"""Self-play: deterministic games, fair pairings, win counts per bot."""

from __future__ import annotations

import pytest

from solver.ffkingdom.bots import BOTS, GameResult, pairing_games, play_game, tally
from tests.support.ffkingdom import RULES


def result(seats: tuple[str, str], winner: int | None) -> GameResult:
    return GameResult(seats, winner, rounds=20, hints=0, hint_seconds=0.0)


def test_the_bots_are_random_greedy_hint_and_the_blind_hint():
    assert BOTS == ("random", "greedy", "hint", "hint-blind")


@pytest.mark.parametrize("seats", [("greedy", "random"), ("random", "random"),
                                   ("greedy", "greedy")])
def test_play_game_is_a_function_of_the_seed(seats):
    assert play_game(seats, 7, RULES) == play_game(seats, 7, RULES)


def test_play_game_reports_the_seats_and_no_hints_without_the_hint_bot():
    game = play_game(("greedy", "random"), 3, RULES)
    assert game.seats == ("greedy", "random")
    assert game.winner in (0, 1)
    assert 1 <= game.rounds <= 300
    assert (game.hints, game.hint_seconds) == (0, 0.0)


def test_pairing_games_alternate_seats_and_play_each_deal_from_both_seats():
    assert pairing_games(("hint", "greedy"), 5, 40) == [
        (("hint", "greedy"), 40),
        (("greedy", "hint"), 40),
        (("hint", "greedy"), 41),
        (("greedy", "hint"), 41),
        (("hint", "greedy"), 42),
    ]


def test_pairing_games_of_one_game_is_the_first_bot_in_seat_zero():
    assert pairing_games(("random", "greedy"), 1, 0) == [(("random", "greedy"), 0)]


def test_tally_counts_wins_per_bot_from_seats_that_alternate():
    results = [result(("greedy", "random"), 0), result(("random", "greedy"), 1),
               result(("greedy", "random"), 1), result(("random", "greedy"), 0),
               result(("greedy", "random"), None), result(("random", "greedy"), 1)]
    assert tally(results, ("greedy", "random")) == {"greedy": 3, "random": 2}


def test_tally_names_a_mirror_match_name_and_name_2():
    results = [result(("greedy", "greedy"), 0), result(("greedy", "greedy"), 0),
               result(("greedy", "greedy"), 0)]
    assert tally(results, ("greedy", "greedy")) == {"greedy": 2, "greedy-2": 1}


def test_tally_of_no_games_is_zero_for_both():
    assert tally([], ("hint", "random")) == {"hint": 0, "random": 0}


def test_greedy_beats_random_in_every_game_of_ten_seeded_deals_from_both_seats():
    games = pairing_games(("greedy", "random"), 10, 0)
    results = [play_game(seats, seed, RULES) for seats, seed in games]
    assert [r.winner for r in results] == [0, 1] * 5
    assert tally(results, ("greedy", "random")) == {"greedy": 10, "random": 0}


def test_an_unknown_bot_is_refused():
    with pytest.raises(ValueError, match="no bot is called 'nobody' "
                                         r"\(bots: random, greedy, hint, hint-blind\)"):
        play_game(("greedy", "nobody"), 1, RULES)
