"""The ladder, trick values and the contract to name."""

import pytest

from prefa_sim.core.cards import Strain
from prefa_sim.core.contracts import LADDER, Contract, ContractError, best_contract, parse_contract


def test_ladder_order_and_names():
    assert [str(c) for c in LADDER[:6]] == ["6S", "6C", "6D", "6H", "6NT", "7S"]
    assert str(LADDER[-1]) == "10NT"
    assert all(LADDER[i].step == i for i in range(25))
    assert parse_contract("7h") == Contract(7, Strain.H)
    assert parse_contract("10NT").step == 24


@pytest.mark.parametrize("text", ["5S", "11H", "7X", "", "NT"])
def test_bad_contracts(text):
    with pytest.raises(ContractError):
        parse_contract(text)


def test_trick_values_from_the_rules_table():
    table = {6: [2, 3, 4, 5, 6], 7: [7, 7, 7, 7, 8], 8: [8, 8, 8, 8, 9], 9: [9, 9, 9, 9, 10],
             10: [10, 10, 10, 10, 10]}
    for level, values in table.items():
        assert [Contract(level, s).trick_value for s in Strain] == values


def test_best_contract_prefers_value_then_step():
    # 7 hearts (v=7) beats 6NT (v=6); 7NT (v=8) beats both.
    assert best_contract({Strain.H: 7, Strain.NT: 6}) == Contract(7, Strain.H)
    assert best_contract({Strain.H: 7, Strain.NT: 7}) == Contract(7, Strain.NT)
    # 8S and 8H are both worth 8: the higher step wins.
    assert best_contract({Strain.S: 8, Strain.H: 8}) == Contract(8, Strain.H)
    assert best_contract({Strain.S: 5}) is None
    assert best_contract({Strain.S: 7}, minimum=Contract(7, Strain.D)) is None
    assert best_contract({Strain.S: 11}) == Contract(10, Strain.S)
