"""Combat (docs/stronghold.md C.4) and its test vectors E.1."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.stronghold.combat import kill_set, resolve
from solver.stronghold.position import Unit


def unit(name: str, might: int, **keywords) -> Unit:
    return Unit(name, "X", might, **keywords)


@pytest.mark.parametrize("attackers, defenders, left_a, left_d", [
    ([unit("a", 3), unit("b", 2)], [unit("d", 4)], ["b"], []),           # conquer, the 3 dies
    ([unit("a", 2), unit("b", 2)], [unit("d", 1), unit("e", 3)], [], []),  # 4 = 4: all die
    ([unit("a", 5)], [unit("t", 2, tank=True), unit("d", 4)], [], ["d"]),  # Tank first
    ([unit("a", 3)], [unit("d", 2, shield=2)], [], ["d"]),                 # Shield
    ([unit("a", 3, assault=2)], [unit("d", 4)], ["a"], []),                # Assault
])
def test_spec_e1(attackers, defenders, left_a, left_d):
    fight = resolve(attackers, defenders)
    assert [u.id for u in fight.attackers_left] == left_a
    assert [u.id for u in fight.defenders_left] == left_d


def test_the_casualty_policy_kills_the_most_might_then_the_most_units_then_lowest_ids():
    def killed(mights: dict[str, int], pool: int) -> set[str]:
        return {u.id for u in kill_set([unit(k, m) for k, m in mights.items()], pool,
                                       Unit.defence)}

    assert killed({"a": 4, "b": 1, "c": 1, "d": 1}, 4) == {"a"}        # 4 might, not 3
    assert killed({"a": 3, "b": 1, "c": 2}, 3) == {"b", "c"}           # 3 might in 2 units
    assert killed({"d": 1, "b": 1}, 1) == {"b"}                        # b before d


def test_a_zero_might_unit_still_needs_one_damage():
    assert kill_set([unit("z", 0)], 0, Unit.defence) == frozenset()
    assert kill_set([unit("z", 0)], 1, Unit.defence) == {unit("z", 0)}


mights = st.lists(st.integers(0, 6), min_size=1, max_size=4)


@given(mights, mights)
def test_closed_forms_when_every_value_is_at_least_one(a, d):
    """docs/stronghold.md C.4: A > D conquers, A = D destroys both sides, A < D loses everything."""
    a, d = [m + 1 for m in a], [m + 1 for m in d]
    fight = resolve([unit(f"a{k}", m) for k, m in enumerate(a)],
                    [unit(f"d{k}", m) for k, m in enumerate(d)])
    if sum(a) > sum(d):
        assert fight.attackers_left and not fight.defenders_left
    elif sum(a) == sum(d):
        assert not fight.attackers_left and not fight.defenders_left
    else:
        assert not fight.attackers_left and fight.defenders_left
