"""The rules as one value (rules/variants.py): the text form, the presets, bad input, and
what each rule changes in the auction, the contract and the settlement."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prefa_sim.core.cards import Strain
from prefa_sim.core.contracts import LADDER, best_contract, parse_contract
from prefa_sim.rules.auction import AuctionError, run_auction
from prefa_sim.rules.deal import Name
from prefa_sim.rules.kasa import KasaGame
from prefa_sim.rules.settlement import SettlementError, settle
from prefa_sim.rules.variants import (
    DEFAULT_RULES,
    PRESETS,
    QUOTAS,
    RULE_NAMES,
    Rules,
    RulesError,
)

C = parse_contract


def t(d, f, s):
    return {"declarer": d, "first": f, "second": s}


@st.composite
def any_rules(draw) -> Rules:
    kasa = draw(st.sampled_from([0, 0, 1, 31, 40]))
    aces = draw(st.sampled_from(["bonus", "raise", "each"]))
    return Rules(
        last_contract="normal" if kasa else draw(st.sampled_from(["normal", "unbalanced",
                                                                  "fair"])),
        kasa=kasa, ten_nt=draw(st.sampled_from(["10", "11", "off"])),
        ten_as_nine=draw(st.booleans()), aces=aces,
        aces_amount=0 if aces == "bonus" else draw(st.integers(1, 100)),
        overtrump=draw(st.booleans()), first_deal=draw(st.sampled_from(["dealer", "7d8d",
                                                                         "7d"])))


@given(any_rules())
def test_the_text_form_round_trips(rules):
    text = str(rules)
    assert Rules.parse(text) == rules
    assert Rules.from_mapping(rules.to_dict()) == rules
    assert (text == "default") == rules.is_default
    # Only what differs from the default is written, in a fixed order.
    names = [] if text == "default" else [part.split("=")[0] for part in text.split(",")]
    assert names == [n for n in RULE_NAMES if n in names]
    assert len(names) == len(DEFAULT_RULES.differences(rules))


def test_presets_and_overrides():
    assert Rules.parse("default") == DEFAULT_RULES == Rules.parse("playelephant")
    guide = Rules.parse("guide")
    assert (guide.kasa, guide.aces, guide.aces_amount) == (40, "each", 40)
    assert Rules.parse("guide,aces=each:25") == Rules(kasa=40, aces="each", aces_amount=25)
    assert Rules.parse(" Ten-NT = 11 ,") == Rules(ten_nt="11")
    assert Rules.from_mapping({"preset": "pagat", "ten_as_nine": True, "ten_nt": 11}) \
        == Rules(kasa=31, ten_as_nine=True, ten_nt="11")
    assert Rules.from_mapping({"ten_nt": False}) == Rules(ten_nt="off")
    assert set(PRESETS) == {"default", "playelephant", "guide", "pagat"}


@pytest.mark.parametrize("text, message", [
    ("tennt=11", "unknown rule 'tennt' (rules: last_contract, kasa, ten_nt, ten_as_nine, "
                 "aces, overtrump, first_deal)"),
    ("first_deal=6c", "rule first_deal cannot be '6c' (valid: dealer, 7d8d, 7d)"),
    ("overtrump=sometimes", "rule overtrump cannot be 'sometimes' (valid: yes, no)"),
    ("ten_nt=12", "rule ten_nt cannot be '12' (valid: 10, 11, off)"),
    ("ten_as_nine=maybe", "rule ten_as_nine cannot be 'maybe' (valid: yes, no)"),
    ("last_contract=half", "rule last_contract cannot be 'half' (valid: normal, "
                           "unbalanced, fair)"),
    ("aces=double", "rule aces cannot be 'double' (valid: bonus, raise, each)"),
    ("aces=each", "aces=each needs a whole number of kapíkia after a colon, e.g. "
                  "aces=each:25"),
    ("aces=raise:0", "aces=raise needs an amount above 0"),
    ("aces=bonus:5", "aces=bonus has no amount"),
    ("aces_amount=5", "give the amount with the aces rule"),
    ("kasa=-3", "rule kasa must be a whole number 0-10000, got -3"),
    ("kasa=lots", "rule kasa must be a whole number 0-10000 (0: the common pot)"),
    ("kasa=31,last_contract=fair", "last_contract=fair contradicts kasa=31"),
    ("ten_nt=11,ten_nt=off", "rule ten_nt is given twice"),
    ("fancy", "unknown preset 'fancy' (presets: default, playelephant, guide, pagat"),
    ("ten_nt", "rule ten_nt needs a value: ten_nt=VALUE"),
    ("guide,aces", "'aces' is not name=value (a preset comes first)"),
    ("", "no rules given"),
])
def test_bad_rules_are_named_with_the_valid_ones(text, message):
    with pytest.raises(RulesError, match=None) as info:
        Rules.parse(text)
    assert message in str(info.value)


def test_ten_nt_off_ends_the_ladder_at_10h():
    rules = Rules(ten_nt="off")
    assert rules.ladder == LADDER[:-1] and not rules.allows(C("10NT"))
    # First and second hand climb to 10H, the dealer having passed: first hand may then
    # only hold or pass, and a hold of 10H ends the auction.
    calls = ["6S", "6C", "pass"]
    for step in LADDER[2:-1]:
        calls += ["hold", str(step)]
    auction = run_auction(calls, rules.ladder)
    assert [str(c) for c in auction.legal_calls()] == ["pass", "hold"]
    auction.apply("hold")
    assert auction.complete and auction.min_contract == C("10H")
    with pytest.raises(AuctionError, match="the auction is over: no call 10NT is possible"):
        run_auction([*calls, "hold", "10NT"], rules.ladder)
    # On the default ladder the hold of 10H leaves second hand the raise to 10NT.
    assert run_auction([*calls, "hold", "10NT"]).min_contract is None
    assert run_auction([*calls, "hold", "10NT", "pass"]).min_contract == C("10NT")
    with pytest.raises(SettlementError, match="10NT is not allowed under these rules"):
        settle(C("10NT"), ["pass", "pass"], rules=rules)


def test_ten_nt_off_is_never_offered_as_a_contract():
    from prefa_sim.core.cards import parse_deal
    from prefa_sim.rules.deal import Deal

    hands, widow = parse_deal("AKQJ.AKQ.AKQ.- T98.JT9.JT9.A 7.87.87.KQJT9 -.-.-.87")
    for rules, has in ((DEFAULT_RULES, True), (Rules(ten_nt="off"), False)):
        deal = Deal(list(hands), widow, 2, rules=rules)
        for call in ("6S", "pass", "pass"):
            deal.apply(deal.legal_actions()[[str(a) for a in deal.legal_actions()].index(call)])
        deal.apply(deal.legal_actions()[0])  # a discard
        names = deal.legal_actions()
        assert (Name(C("10NT")) in names) == has and Name(C("10H")) in names


def test_the_best_contract_under_each_ten_nt_rule():
    ten_everywhere = dict.fromkeys(Strain, 10)
    assert best_contract(ten_everywhere) == C("10NT")
    assert Rules(ten_nt="off").best_contract(ten_everywhere) == C("10H")
    nt_only = {Strain.S: 6, Strain.NT: 10}
    assert Rules(ten_nt="off").best_contract(nt_only) == C("9NT")
    assert Rules(ten_nt="11").best_contract({Strain.H: 10, Strain.NT: 10}) == C("10NT")
    # Worth 11, 10NT is worth more than 10H, not only higher on the ladder.
    assert Rules(ten_nt="11").trick_value(C("10NT")) == 11 > Rules().trick_value(C("10NT"))


def test_ten_nt_worth_11_pays_11_a_trick():
    rules = Rules(ten_nt="11")
    made = settle(C("10NT"), ["play", "play"], t(10, 0, 0), rules=rules)
    assert made.pot_delta == -110
    down = settle(C("10NT"), ["play", "pass", "alone"], t(8, 2, 0), rules=rules)
    assert down.pot_delta == 220 and down.transfers == {"declarer": -44, "first": 44,
                                                        "second": 0}
    assert settle(C("10H"), ["play", "play"], t(10, 0, 0), rules=rules).pot_delta == -100


def test_ten_counted_as_nine():
    """The Russian text's example: a declarer who takes all ten leaves the kása unchanged
    and collects 10 x 10 from the first defender, who is one short; when both pass the
    kása goes down by 10 as usual."""
    rules = Rules(ten_as_nine=True, kasa=31)
    assert rules.quotas(10) == QUOTAS[9] and rules.quotas(9) == QUOTAS[9]
    all_ten = settle(C("10S"), ["play", "play"], t(10, 0, 0), rules=rules)
    assert all_ten.pot_delta == 0 and all_ten.transfers == {"declarer": 100, "first": -100,
                                                           "second": 0}
    kasa = KasaGame([31, 31, 31])
    kasa.record(0, all_ten)
    assert kasa.kasa == [31, 31, 31] and kasa.kapikia == [100, -100, 0]
    passed = settle(C("10S"), ["pass", "pass"], rules=rules)
    kasa.record(0, passed)
    assert kasa.kasa == [21, 31, 31]
    # Nine tricks in a 10 is still one down: only the defenders' quotas change.
    down = settle(C("10D"), ["play", "play"], t(9, 1, 0), rules=rules)
    assert down.pot_delta == 100 and down.transfers == {"declarer": -10, "first": 10,
                                                        "second": 0}
    # Without the rule the defenders of a 10 have no quota: ten tricks is simply made.
    assert settle(C("10S"), ["play", "play"], t(10, 0, 0)).pot_delta == -100


def test_the_aces_variants():
    # A: the contract's value raised by an agreed amount, for every payment of the deal.
    raised = Rules(aces="raise", aces_amount=4)
    made = settle(C("7H"), ["play", "play"], t(7, 2, 1), aces=True, rules=raised)
    assert made.pot_delta == -110 and made.transfers == {"declarer": -33, "first": 22,
                                                        "second": 11}
    plain = settle(C("7H"), ["play", "play"], t(7, 2, 1), rules=raised)
    assert plain.pot_delta == -70  # no aces announced: no raise
    # B: an agreed sum from (or to) every player, whether they defended or not.
    each = Rules(aces="each", aces_amount=40)
    passed = settle(C("6S"), ["pass", "pass"], aces=True, rules=each)
    assert passed.transfers == {"declarer": 80, "first": -40, "second": -40}
    down = settle(C("8D"), ["play", "pass", "alone"], t(6, 4, 0), aces=True, rules=each)
    assert down.transfers == {"declarer": -2 * 4 * 8 - 80, "first": 64 + 40, "second": 40}
    # The default bonus: 25 at level 6, 50 above.
    assert settle(C("6S"), ["pass", "pass"], aces=True).transfers["declarer"] == 50
    with pytest.raises(SettlementError, match="no aces can be announced with a solo"):
        settle(C("7H"), solo=True, aces=True, rules=each)


def test_the_deal_offers_no_under_trump_under_the_rule():
    """The rules engine follows the rule: seat 2, void in hearts after the first defender
    ruffed with the QS, may not keep the KS by under-trumping."""
    from prefa_sim.core.cards import parse_cards, parse_deal
    from prefa_sim.rules.deal import Deal, Play

    # Seat 0 declares 6S on a hand with eight hearts; seats 1 and 2 hold no heart.
    from prefa_sim.rules.game import parse_action

    hands, widow = parse_deal("A.-.A.AKQJT987 QJ.AKQJT.KQJ.- KT987.987.T9.- -.-.87.-")
    heart, queen, king = parse_cards(["7H", "QS", "KS"])
    spades = set(parse_cards(["KS", "TS", "9S", "8S", "7S"]))
    for rules, offered in ((DEFAULT_RULES, spades), (Rules(overtrump=True), {king})):
        deal = Deal(list(hands), widow, 2, rules=rules)
        for token in ("6S", "pass", "pass", "discard 7D 8D", "6S", "play", "play"):
            deal.apply(parse_action(deal, token))
        deal.apply(Play(heart))
        deal.apply(Play(queen))
        assert {a.card for a in deal.legal_actions() if isinstance(a, Play)} == offered
        assert deal.position.overtrump == rules.overtrump
