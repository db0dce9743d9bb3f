"""The widow search against solving every one of the 66 discards one by one."""

import random
from itertools import combinations

import pytest

from prefa_sim.core.cards import Strain, iter_cards
from prefa_sim.core.position import Position
from prefa_sim.solve.solver import recommended_contract

from ..helpers import random_deal


def all_discards(solver, hands, widow, trump, leader, declarer, active):
    hand12 = hands[declarer] | widow
    values = {}
    for a, b in combinations(iter_cards(hand12), 2):
        trial = list(hands)
        trial[declarer] = hand12 & ~(1 << a) & ~(1 << b)
        values[(a, b)] = solver.solve(Position(tuple(trial), trump, leader, declarer, active))
    return values


@pytest.mark.parametrize("seed", range(24))
def test_widow_search_matches_all_66_discards(solver, seed):
    rng = random.Random(seed)
    hands, widow = random_deal(rng)
    active = rng.choice([(0, 1, 2), (0, 1, 2), (0, 1), (0, 2), (1, 2)])
    declarer = rng.choice(active)
    leader = rng.choice(active)
    trump = Strain(rng.randrange(5))
    result = solver.solve_widow(hands, widow, trump, leader, declarer, active)
    values = all_discards(solver, hands, widow, trump, leader, declarer, active)
    best = max(values.values())
    assert result.best_tricks == best
    assert sorted(result.best_discards) == sorted(k for k, v in values.items() if v == best)


def test_widow_table_and_contract(solver):
    rng = random.Random(99)
    hands, widow = random_deal(rng)
    table = solver.widow_table(hands, widow, 0, 1)
    assert set(table) == set(Strain)
    contract = recommended_contract(table)
    makeable = {s: r.best_tricks for s, r in table.items() if r.best_tricks >= 6}
    if not makeable:
        assert contract is None
    else:
        assert contract is not None
        assert table[contract.strain].best_tricks >= contract.level


def test_widow_errors_name_the_problem(solver):
    rng = random.Random(3)
    hands, widow = random_deal(rng)
    with pytest.raises(ValueError, match="widow card"):
        clash = (widow & (widow - 1)) | (hands[1] & -hands[1])
        solver.solve_widow(hands, clash, Strain.H, 0, 0)
    with pytest.raises(ValueError, match="11 cards"):
        solver.solve_widow([hands[0] | widow & -widow, hands[1], hands[2]], widow, Strain.H, 0, 0)
    with pytest.raises(ValueError, match="the widow holds 1 card, expected 2"):
        solver.solve_widow(hands, widow & -widow, Strain.H, 0, 0)
