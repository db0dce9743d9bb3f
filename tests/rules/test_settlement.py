"""Settlement (docs/rules.md §6): every case with the numbers worked by hand."""

import pytest

from prefa_sim.core.contracts import parse_contract
from prefa_sim.rules.settlement import SettlementError, settle
from prefa_sim.rules.variants import Rules

UNBALANCED, FAIR = Rules(last_contract="unbalanced"), Rules(last_contract="fair")

C = parse_contract


def t(declarer, first, second=0):
    return {"declarer": declarer, "first": first, "second": second}


def check(s, pot_delta, transfers):
    assert s.pot_delta == pot_delta
    assert s.transfers == dict(zip(("declarer", "first", "second"), transfers, strict=True))
    assert sum(s.transfers.values()) == 0
    assert sum(s.net.values()) == -pot_delta


def test_made_both_play():
    # 7H, v = 7: the declarer takes 70 from the pot and pays 2 x 7 and 1 x 7.
    s = settle(C("7H"), ["play", "play"], t(7, 2, 1))
    check(s, -70, (-21, 14, 7))
    assert s.net == {"declarer": 49, "first": 14, "second": 7}


def test_made_exactly_with_partner_surplus_is_no_penalty():
    # 7H: second (quota 1) took nothing, first's surplus of one covers it.
    check(settle(C("7H"), ["play", "play"], t(7, 3, 0)), -70, (-21, 21, 0))


def test_declarer_down_one_and_two():
    check(settle(C("7H"), ["play", "play"], t(6, 2, 2)), 70, (-28, 14, 14))
    # Two down: everything doubled, 20 v into the pot, tricks x 2 v.
    check(settle(C("7H"), ["play", "play"], t(5, 3, 2)), 140, (-70, 42, 28))


def test_defence_down_one_defender_short():
    # 7H, declarer 8: second is one short; pays the declarer 8 x 7 and first 2 x 7.
    check(settle(C("7H"), ["play", "play"], t(8, 2, 0)), 0, (56, 14, -70))


def test_defence_down_both_short_one_by_two():
    # 6S (v = 2), declarer 9: first one short pays 9 x 2, second two short pays 9 x 2 x 2.
    check(settle(C("6S"), ["play", "play"], t(9, 1, 0)), 0, (54, -18, -36))


def test_lone_defender():
    # The rules' example: 6S, declarer 8, lone defender 2 (has the lone quota): made.
    check(settle(C("6S"), ["play", "pass", "alone"], t(8, 2)), -20, (-4, 4, 0))
    # 7H, second alone (first passed) with 1 trick: one short, pays 9 x 7.
    check(settle(C("7H"), ["pass", "play", "pass"], {"declarer": 9, "second": 1}), 0,
          (63, 0, -63))
    # Two short: doubled.
    check(settle(C("7H"), ["pass", "play", "pass"], {"declarer": 10, "second": 0}), 0,
          (140, 0, -140))
    # The declarer down against a lone defender pays that defender only.
    check(settle(C("8D"), ["play", "pass", "alone"], t(7, 3)), 80, (-24, 24, 0))


def test_together_redirects_the_partner_result_to_the_caller():
    # First calls together; second is one short: second's payments fall on first,
    # and second's payment to first cancels out.
    check(settle(C("7H"), ["play", "pass", "together"], t(8, 2, 0)), 0, (56, -56, 0))
    # Second calls together (first passed): first's receipts go to second.
    check(settle(C("7H"), ["pass", "together"], t(7, 2, 1)), -70, (-21, 0, 21))
    # The counter-invitation: first bears second's result.
    check(settle(C("7H"), ["pass", "play", "together"], t(6, 2, 2)), 70, (-28, 28, 0))


def test_both_pass_and_aces():
    # 6H (v = 5): the declarer takes 50; with aces each passer pays 25.
    check(settle(C("6H"), ["pass", "pass"]), -50, (0, 0, 0))
    check(settle(C("6H"), ["pass", "pass"], aces=True), -50, (50, -25, -25))
    # Aces at level 7+: 50 each; paid by the declarer when down, never doubled.
    check(settle(C("7H"), ["play", "play"], t(7, 2, 1), aces=True), -70, (79, -36, -43))
    check(settle(C("7H"), ["play", "play"], t(5, 3, 2), aces=True), 140, (-170, 92, 78))
    # Under "together" aces stay personal.
    check(settle(C("7H"), ["play", "pass", "together"], t(8, 2, 0), aces=True), 0,
          (156, -106, -50))


def test_solo_is_paid_as_two_down():
    # 7H solo: credited 5 / 3 / 2, two down: 140 into the pot, 3 x 14 and 2 x 14.
    check(settle(C("7H"), solo=True), 140, (-70, 42, 28))
    check(settle(C("6S"), solo=True), 40, (-24, 12, 12))
    with pytest.raises(SettlementError, match="no aces"):
        settle(C("7H"), solo=True, aces=True)


def test_last_contract_modes():
    # 7H with 69 in the pot: v = 6, a made contract takes 60 and 9 stay.
    check(settle(C("7H"), ["play", "play"], t(7, 2, 1), pot=69), -60, (-18, 12, 6))
    check(settle(C("7H"), ["play", "play"], t(7, 2, 1), pot=69, rules=UNBALANCED),
          -60, (-18, 12, 6))
    check(settle(C("7H"), ["play", "play"], t(7, 2, 1), pot=69, rules=FAIR),
          -70, (-21, 14, 7))
    # Down one: normal keeps the reduced v, unbalanced pays the full v.
    check(settle(C("7H"), ["play", "play"], t(6, 2, 2), pot=69), 60, (-24, 12, 12))
    check(settle(C("7H"), ["play", "play"], t(6, 2, 2), pot=69, rules=UNBALANCED),
          70, (-28, 14, 14))
    # Aces are never reduced.
    check(settle(C("7H"), ["play", "play"], t(7, 2, 1), pot=69, aces=True), -60, (82, -38, -44))


def test_level_ten_defence_plays_for_free():
    check(settle(C("10S"), ["play", "play"], t(10, 0, 0)), -100, (0, 0, 0))
    check(settle(C("10S"), ["play", "play"], t(9, 1, 0)), 100, (-10, 10, 0))


@pytest.mark.parametrize("declarations", [["play"], ["pass", "pass", "pass"],
                                          ["play", "together"], ["pass", "play", "alone"]])
def test_illegal_declarations(declarations):
    with pytest.raises(SettlementError, match="not a legal sequence"):
        settle(C("7H"), declarations, t(7, 2, 1))


def test_bad_tricks():
    with pytest.raises(SettlementError, match="add up to 9"):
        settle(C("7H"), ["play", "play"], t(7, 1, 1))
    with pytest.raises(SettlementError, match="did not play"):
        settle(C("7H"), ["play", "pass", "alone"], t(7, 2, 1))
    with pytest.raises(SettlementError, match="tricks are needed"):
        settle(C("7H"), ["play", "play"])


@pytest.mark.parametrize("contract, pot, transfers", [
    # docs/rules.md §3 solo table, spades: credited tricks (4,3,3) (5,3,2) (6,2,2) (7,2,1) (8,1,1).
    ("6S", 40, (-24, 12, 12)),    # v = 2: 20 v, 3 x 4, 3 x 4
    ("7S", 140, (-70, 42, 28)),   # v = 7
    ("8S", 160, (-64, 32, 32)),   # v = 8
    ("9S", 180, (-54, 36, 18)),   # v = 9
    ("10S", 200, (-40, 20, 20)),  # v = 10
])
def test_solo_table(contract, pot, transfers):
    check(settle(C(contract), solo=True), pot, transfers)


@pytest.mark.parametrize("level, lone_quota", [(6, 2), (7, 2), (8, 1), (9, 1), (10, 0)])
def test_lone_quota_table(level, lone_quota):
    contract = C(f"{level}H")
    v = contract.trick_value
    # The lone defender with exactly the lone quota: paid as made.
    made = settle(contract, ["play", "pass", "alone"], t(10 - lone_quota, lone_quota))
    assert made.pot_delta == -10 * v and made.transfers["first"] == lone_quota * v
    if lone_quota:
        # One trick less: one short, pays the declarer's tricks x v.
        short = settle(contract, ["play", "pass", "alone"], t(11 - lone_quota, lone_quota - 1))
        assert short.pot_delta == 0 and short.transfers["first"] == -(11 - lone_quota) * v


@pytest.mark.parametrize("level, first, second", [(6, 2, 2), (7, 2, 1), (8, 1, 1), (9, 1, 0),
                                                   (10, 0, 0)])
def test_pair_quota_table(level, first, second):
    contract = C(f"{level}S")
    # Each defender with exactly their quota: made, nobody short.
    assert settle(contract, ["play", "play"], t(10 - first - second, first, second)).pot_delta < 0
    if first:
        # The first defender one short (no surplus from the second): defence down.
        s = settle(contract, ["play", "play"], t(11 - first - second, first - 1, second))
        assert s.pot_delta == 0 and s.transfers["first"] < 0
