"""The CP-SAT clear model (docs/stronghold.md D.3) against a PASSIVE defender: the six
cases of its E.3, seeded random positions where its answer must equal the exhaustive
search's, every plan replayed through the simulator to the claimed win, and budgets kept."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from solver.budget import Budget
from solver.errors import InvalidInput
from solver.stronghold.clear_driver import ClearPlan, fewest_turns_cpsat
from solver.stronghold.data import DEFENDER
from solver.stronghold.position import Position
from solver.stronghold.rules import act, begin_turn, destinations, play_turn
from solver.stronghold.search import fewest_turns
from tests.support.long_runs import sampled
from tests.support.stronghold import E3

BUDGET = Budget(seconds=600)  # a guard: the proofs take seconds, more on a busy machine
MAX_TURNS = 30


def siege(mode: str, attackers: dict[str, list[int]],
          defenders: list[tuple[str, int]], **fields) -> Position:
    """Turn order D, A1, A2(, A3); attacker units ready in base; defender units where
    stated."""
    units = [{"id": f"{owner.lower()}{k}", "owner": owner, "might": might}
             for owner, mights in attackers.items() for k, might in enumerate(mights)]
    units += [{"id": f"d{k}", "owner": DEFENDER, "might": might, "loc": where}
              for k, (where, might) in enumerate(defenders)]
    return Position.from_json({"mode": mode, "units": units, **fields})


RECRUITS_3 = [("O1", 3), ("O2", 3)]


def replay(position: Position, answer: ClearPlan) -> Position:
    """Play the plan through the simulator (the defender passive: no moves) until
    somebody wins; the plan names every attacker turn before the win, in order."""
    moves = {step.turn: step for step in answer.plan}
    picks = dict(answer.burn_picks)
    p = position
    while p.winner is None:
        assert p.turn <= answer.turn, "the plan runs past its win"
        step = moves.get(p.turn)
        if p.player == DEFENDER or p.turn == answer.turn:   # the win comes before moves
            assert step is None
        else:
            assert step is not None and step.player == p.player
        p = play_turn(p, step.moves if step else {}, picks.get(p.turn))
    return p


def check_replay(position: Position, answer: ClearPlan) -> None:
    if answer.winner is None:
        assert answer.turn is None and answer.plan == () and not answer.proven
        return
    end = replay(position, answer)
    assert (end.winner, end.turn) == (answer.winner, answer.turn)
    assert answer.rounds == -(-answer.turn // len(position.turn_order))


@pytest.mark.parametrize("case", sorted(E3))
def test_spec_e3(case: int) -> None:
    position, winner, turn = E3[case]
    answer = fewest_turns_cpsat(position, BUDGET)
    assert (answer.winner, answer.turn) == (winner, turn)
    assert answer.proven and answer.cp_status == "OPTIMAL"
    assert answer.rounds == -(-turn // len(position.turn_order))
    check_replay(position, answer)


def test_case_1_plan_has_every_attacker_turn() -> None:
    position, _, _ = E3[1]
    answer = fewest_turns_cpsat(position, BUDGET)
    attacker_turns = [t for t in range(1, 20) if (t - 1) % 4]
    assert [step.turn for step in answer.plan] == attacker_turns
    assert all(to != "base" for step in answer.plan for to in step.moves.values())


# ---------------------------------------------------------------- against the search


def random_position(rng: random.Random) -> Position:
    """1v2 or 1v3; up to 3 attacker units in all (each attacker has one) and 1 to 3
    defender units on Outer battlefields, small mights; now and then Assault, Shield,
    Tank, an attacker's burn-out or reinforcement."""
    mode = rng.choice(("1v2", "1v3"))
    attackers = [f"A{k}" for k in range(1, (2 if mode == "1v2" else 3) + 1)]
    owners = attackers + [rng.choice(attackers)
                          for _ in range(rng.randint(len(attackers), 3) - len(attackers))]
    units = [{"id": f"u{k}", "owner": owner, "might": rng.randint(1, 3),
              "assault": int(rng.random() < 0.1)} for k, owner in enumerate(owners)]
    units += [{"id": f"d{k}", "owner": DEFENDER, "might": rng.randint(1, 5),
               "loc": rng.choice(("O1", "O2", "O3")), "shield": int(rng.random() < 0.15),
               "tank": rng.random() < 0.15} for k in range(rng.randint(1, 3))]
    data = {"mode": mode, "units": units}
    order = [DEFENDER, *attackers]

    def own_turn(player: str) -> int:
        return rng.choice([t for t in range(2, 16) if order[(t - 1) % len(order)] == player])

    if rng.random() < 0.25:
        a = rng.choice(attackers)
        data["burnouts"] = {a: [own_turn(a)]}
    if rng.random() < 0.2:
        a = rng.choice(attackers)
        data["reinforcements"] = {a: [{"turn": own_turn(a), "might": rng.randint(1, 3)}]}
    return Position.from_json(data)


def advance(position: Position, rng: random.Random, turns: int) -> Position:
    """A position some turns into a game of random attacker moves (passive defender):
    units on battlefields, exhausted units, removed battlefields, a score."""
    p = position
    for _ in range(turns):
        started = begin_turn(p)
        if started.winner is not None:
            return p
        moves = {}
        if started.player != DEFENDER:
            for u in started.units:
                places = destinations(started, u)
                if places and rng.random() < 0.5:
                    moves[u.id] = rng.choice(places)
        p = act(started, moves)
    return p


def agree(position: Position) -> ClearPlan:
    exact = fewest_turns(position, budget=BUDGET, max_turns=MAX_TURNS)
    answer = fewest_turns_cpsat(position, BUDGET, max_turns=MAX_TURNS)
    assert exact.proven or exact.winner is None
    assert (answer.winner, answer.turn, answer.rounds, answer.proven) == (
        exact.winner, exact.turn, exact.rounds, exact.proven)
    check_replay(position, answer)
    return answer


FRESH = [random_position(random.Random(seed)) for seed in range(sampled(6, 12))]


@pytest.mark.parametrize("k", range(len(FRESH)))
def test_random_positions_agree_with_search(k: int) -> None:
    agree(FRESH[k])


def _midgame(seed: int) -> Position:
    rng = random.Random(1000 + seed)
    while True:
        p = advance(random_position(rng), rng, rng.randint(1, 12))
        if p.winner is None and begin_turn(p).winner is None:
            return p


MIDGAME = [_midgame(seed) for seed in range(sampled(8, 20))]


@pytest.mark.parametrize("k", range(len(MIDGAME)))
def test_midgame_positions_agree_with_search(k: int) -> None:
    agree(MIDGAME[k])


# ---------------------------------------------------------------- particular rules


def test_failed_attacks_are_needed() -> None:
    """Might 3 against Might 3 never conquers, so the second removal of the Outer row needs
    a trade (both sides die) that empties a battlefield for the next attacker."""
    position = siege("1v3", {"A1": [3], "A2": [3], "A3": [3]}, RECRUITS_3)
    answer = agree(position)
    assert (answer.winner, answer.turn) == ("attackers", 24)
    end = replay(position, answer)
    assert len([u for u in end.units if u.owner != DEFENDER]) < 3   # someone traded


def test_attacker_burnouts_give_the_defender_points() -> None:
    position, _, _ = E3[3]     # the defender wins on turn 9 (3 points on turns 5 and 9)
    burnt = replace(position, burnouts=(("A1", (6,)), ("A2", (3,)), ("A3", (4,))))
    answer = agree(burnt)
    assert (answer.winner, answer.turn) == ("defender", 6)    # 1, 2, 5 on turn 5, 6


def test_defender_burnout_pick_is_the_attackers_choice() -> None:
    position = siege("1v3", {"A1": [2], "A2": [2], "A3": [2]},
                     [("O1", 5), ("O2", 1)], burnouts={DEFENDER: [1, 5]})
    answer = fewest_turns_cpsat(position, BUDGET)
    exact = fewest_turns(position, budget=BUDGET)
    assert answer.winner == "attackers" and answer.proven
    assert exact.winner == "attackers" and answer.turn <= exact.turn
    assert [t for t, _ in answer.burn_picks] == [t for t in (1, 5) if t <= answer.turn]
    check_replay(position, answer)


def test_reinforcements_enter_exhausted_and_move_next_turn() -> None:
    position = siege("1v2", {"A1": [1], "A2": [1]}, RECRUITS_3,
                     reinforcements={"A1": [{"turn": 5, "might": 4}]})
    answer = agree(position)
    assert (answer.winner, answer.turn) == ("attackers", 20)
    moves = [step for step in answer.plan if "A1-t5-1" in step.moves]
    assert moves and min(step.turn for step in moves) == 8     # A1's first turn after 5


def test_four_units_per_attacker() -> None:
    """Too big for the exhaustive search; the plan must still replay to its win."""
    position = siege("1v3", {a: [2, 2, 1, 1] for a in ("A1", "A2", "A3")},
                     [("O1", 3), ("O2", 3), ("O3", 3)])
    answer = fewest_turns_cpsat(position, BUDGET)
    assert (answer.winner, answer.turn, answer.proven) == ("attackers", 15, True)
    check_replay(position, answer)


# ---------------------------------------------------------------- limits and refusals


def test_horizon_too_short_is_unknown_like_the_search() -> None:
    position, _, _ = E3[6]
    answer = fewest_turns_cpsat(position, BUDGET, max_turns=12)
    exact = fewest_turns(position, budget=BUDGET, max_turns=12)
    assert exact.winner is None
    assert (answer.winner, answer.turn, answer.proven, answer.cp_status) == (
        None, None, False, "INFEASIBLE")


def test_defender_win_found_inside_a_short_horizon() -> None:
    position, _, _ = E3[3]
    answer = fewest_turns_cpsat(position, BUDGET, max_turns=9)
    assert (answer.winner, answer.turn, answer.proven) == ("defender", 9, True)
    assert fewest_turns_cpsat(position, BUDGET, max_turns=8).winner is None


def test_tiny_budget_is_honest() -> None:
    position, _, _ = E3[2]
    answer = fewest_turns_cpsat(position, Budget(seconds=0.001))
    assert not answer.proven
    if answer.winner is None:
        assert answer.cp_status == "UNKNOWN"
    else:
        check_replay(position, answer)


def test_refusals_name_the_reason() -> None:
    position, _, _ = E3[1]
    with pytest.raises(InvalidInput, match="game is over"):
        fewest_turns_cpsat(replace(position, winner="defender"))
    with pytest.raises(InvalidInput, match="already reaches its target"):
        fewest_turns_cpsat(replace(position, defender_score=6))
    crowd = siege("1v2", {"A1": [1] * 9, "A2": [1]}, RECRUITS_3)
    with pytest.raises(InvalidInput, match="A1 has 9 units"):
        fewest_turns_cpsat(crowd)


def test_a_cancelled_clear_stops_within_its_solve() -> None:
    """CP-SAT's solves end when the budget says stop (`solver.cpsat`): UNKNOWN, long
    before the budget's ten minutes (the bound only tells a stop from the budget's end)."""
    position = siege("1v3", {a: [2, 2, 1, 1] for a in ("A1", "A2", "A3")},
                     [("O1", 3), ("O2", 3), ("O3", 3)])
    cancel_at = time.perf_counter() + 0.3
    answer = fewest_turns_cpsat(position, Budget(seconds=600,
                                                 stop=lambda: time.perf_counter() > cancel_at))
    assert answer.winner is None and answer.cp_status == "UNKNOWN"
    assert time.perf_counter() - cancel_at < 60


@pytest.mark.timing
def test_big_combat_tables_keep_to_the_budget() -> None:
    position = siege("1v2", {"A1": [1] * 8, "A2": [1] * 8},
                     [("O1", 1)] * 6 + [("O2", 1)] * 6)
    started = time.perf_counter()
    answer = fewest_turns_cpsat(position, Budget(seconds=0.2))
    assert answer.winner is None and time.perf_counter() - started < 1.0
