"""The personal kása variant, with the worked examples of greek-prefa-pagat-ru.txt."""

import pytest

from prefa_sim.core.contracts import parse_contract
from prefa_sim.rules.kasa import KasaGame
from prefa_sim.rules.settlement import settle
from prefa_sim.rules.variants import Rules

KASA = Rules(kasa=40)  # a personal kása: trick values never reduced

# Examples 1-14: contract, declarations, tricks (declarer, A = first defender, B),
# then the declarer's kása change in units and each role's kapíkia.
EXAMPLES = [
    ("6S", ["play", "play"], (6, 1, 3), -2, (-2 * 4, 2 * 1, 2 * 3)),
    ("6S", ["play", "play"], (6, 0, 4), -2, (-2 * 4, 0, 2 * 4)),
    ("6D", ["play", "play"], (5, 3, 2), +4, (-4 * 5, 4 * 3, 4 * 2)),
    ("6D", ["play", "play"], (4, 4, 2), +8, (-4 * 6 * 2, 4 * 4 * 2, 4 * 2 * 2)),
    ("6H", ["play", "play"], (7, 1, 2), 0, (5 * 7, -5 * 9, 5 * 2)),
    ("6H", ["play", "play"], (7, 0, 3), 0, (5 * 7, -5 * 10, 5 * 3)),
    ("7H", ["play", "play"], (10, 0, 0), 0, (7 * 10 * 2 + 7 * 10, -7 * 10 * 2, -7 * 10)),
    # 8-11: B passes and A invites ("together"): A bears B's result.
    ("7S", ["play", "pass", "together"], (7, 2, 1), -7, (-7 * 3, 7 * 3, 0)),
    ("7D", ["play", "pass", "together"], (6, 3, 1), +7, (-7 * 4, 7 * 4, 0)),
    ("7H", ["play", "pass", "together"], (8, 1, 1), 0, (7 * 8, -7 * 8, 0)),
    ("7H", ["play", "pass", "together"], (10, 0, 0), 0, (7 * 10 * 3, -7 * 10 * 3, 0)),
    # 12-14: B passes and is not invited: A plays alone.
    ("8S", ["play", "pass", "alone"], (9, 1, 0), -8, (-8 * 1, 8 * 1, 0)),
    ("8D", ["play", "pass", "alone"], (7, 3, 0), +8, (-8 * 3, 8 * 3, 0)),
    ("8H", ["play", "pass", "alone"], (10, 0, 0), 0, (8 * 10, -8 * 10, 0)),
]


@pytest.mark.parametrize("number", range(1, 15))
def test_worked_examples(number):
    contract, declarations, (d, a, b), kasa_change, kapikia = EXAMPLES[number - 1]
    s = settle(parse_contract(contract), declarations,
               {"declarer": d, "first": a, "second": b}, rules=KASA)
    game = KasaGame()
    game.record(0, s)
    assert game.kasa == [31 + kasa_change, 31, 31]
    assert tuple(game.kapikia) == kapikia


def test_score_sheet_example():
    # Kásas of 31; players A, B, C are seats 0, 1, 2.  Deal 1: C declares 6S, takes 6,
    # A and B two each.  Deal 2: A declares 7H, takes 8; C (first defender) 2, B 0.
    game = KasaGame()
    game.record(2, settle(parse_contract("6S"), ["play", "play"],
                          {"declarer": 6, "first": 2, "second": 2}, rules=KASA))
    assert game.kasa == [31, 31, 29] and game.kapikia == [4, 4, -8]
    game.record(0, settle(parse_contract("7H"), ["play", "play"],
                          {"declarer": 8, "first": 0, "second": 2}, rules=KASA))
    # B is one short: A's kása stays, B pays 7 x 8 = 56 to A and 7 x 2 = 14 to C.
    assert game.kasa == [31, 31, 29] and game.kapikia == [4 + 56, 4 - 70, -8 + 14]


def test_excess_is_struck_from_the_fullest_kasa():
    # The rule's own examples: a declarer with 4 units subtracting 9 strikes 5 off the
    # fullest other kása, paid 50; kásas 2, 4, 3 subtracting 7: 4 off the second (40),
    # then 1 off the third (10), leaving it 2.
    game = KasaGame(kasa=[4, 10, 6])
    game.strike(0, 9)
    assert game.kasa == [0, 5, 6] and game.kapikia == [50, -50, 0]
    game = KasaGame(kasa=[2, 4, 3])
    game.strike(0, 7)
    assert game.kasa == [0, 0, 2] and game.kapikia == [50, -40, -10]
    # Both others empty: half the remaining units' kapíkia from each.
    game = KasaGame(kasa=[1, 0, 0])
    game.strike(0, 6)
    assert game.kasa == [0, 0, 0] and game.kapikia == [50, -25, -25] and game.over
    # A tie goes to the declarer's right-hand neighbour.
    game = KasaGame(kasa=[3, 3, 0])
    game.strike(2, 2)
    assert game.kasa == [1, 3, 0] and game.kapikia == [-20, 0, 20]


def test_greek_guide_examples():
    # prefa-guide-el.txt, kása of 40.  Players No1, No2, No3 are seats 0, 1, 2.
    # No3 declares 7H and makes 7; No1 takes 2, No2 one: kása 40 -> 33, No1 +14, No2 +7.
    game = KasaGame(kasa=[40, 40, 40])
    game.record(2, settle(parse_contract("7H"), ["play", "play"],
                          {"declarer": 7, "first": 2, "second": 1}, rules=KASA))
    assert game.kasa == [40, 40, 33] and game.kapikia == [14, 7, -21]
    # No2 declares diamonds (6D, value 4) and takes 5; No3 four, No1 one: one down,
    # kása +4, pays 16 to No3 and 4 to No1.
    game = KasaGame(kasa=[40, 40, 40])
    game.record(1, settle(parse_contract("6D"), ["play", "play"],
                          {"declarer": 5, "first": 4, "second": 1}, rules=KASA))
    assert game.kasa == [40, 44, 40] and game.kapikia == [4, -20, 16]
    # The same with 4 / 4 / 2: two down ("solo mésa"), kása +8, everything doubled.
    game = KasaGame(kasa=[40, 40, 40])
    game.record(1, settle(parse_contract("6D"), ["play", "play"],
                          {"declarer": 4, "first": 4, "second": 2}, rules=KASA))
    assert game.kasa == [40, 48, 40] and game.kapikia == [16, -48, 32]
    # A declarer with an empty kása who makes diamonds strikes 4 off the largest kása
    # and takes 40 kapíkia from its owner (both defenders passed here).
    game = KasaGame(kasa=[12, 0, 30])
    game.record(1, settle(parse_contract("6D"), ["pass", "pass"], rules=KASA))
    assert game.kasa == [12, 0, 26] and game.kapikia == [0, 40, -40]
