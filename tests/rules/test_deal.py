"""The deal state machine: scripted deals worked by hand and random legal play-outs."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prefa_sim.core.cards import parse_card, parse_deal
from prefa_sim.core.contracts import parse_contract
from prefa_sim.rules.auction import parse_call
from prefa_sim.rules.deal import (
    Answer,
    Claim,
    Deal,
    Declare,
    Discard,
    IllegalActionError,
    Name,
    Play,
    Solo,
)

from ..helpers import random_deal

EXAMPLE = "QJ7.T8.A.KQJT AKT.AKJ.QJ7.7 8.Q97.KT98.98 9.-.-.A"


def new_deal(dealer=2):
    hands, widow = parse_deal(EXAMPLE)
    return Deal(list(hands), widow, dealer)


def test_auction_to_declarer_and_widow():
    deal = new_deal(dealer=2)  # first hand is seat 0
    assert deal.current_player() == 0
    for call in ("6S", "pass", "pass"):
        deal.apply(parse_call(call))
    assert deal.phase == "widow" and deal.declarer == 0
    assert bin(deal.hands[0]).count("1") == 12
    with pytest.raises(IllegalActionError, match="not legal in the widow phase"):
        deal.apply(Play(parse_card("AH")))
    deal.apply(Discard((parse_card("TC"), parse_card("8C"))))
    assert deal.phase == "contract"
    names = deal.legal_actions()
    assert Name(parse_contract("6S")) in names and all(not n.aces for n in names)
    deal.apply(Name(parse_contract("7H")))
    deal.apply(Declare("play"))
    deal.apply(Declare("play"))
    assert deal.phase == "play" and deal.position.leader == 0  # first active from first hand


def test_void_deal():
    deal = new_deal()
    for _ in range(3):
        deal.apply(parse_call("pass"))
    assert deal.phase == "void" and deal.is_terminal() and deal.legal_actions() == []


def test_solo_is_settled_at_once():
    deal = new_deal()
    deal.apply(parse_call("stay"))
    deal.apply(parse_call("pass"))
    deal.apply(parse_call("pass"))
    deal.apply(Solo())
    assert deal.phase == "settled" and deal.contract == parse_contract("6S")
    assert deal.settlement.pot_delta == 40  # 6S solo: two down, 20 x 2


def test_defence_sequences_and_lone_defender_two_card_tricks():
    deal = new_deal()
    for call in ("6S", "pass", "pass"):
        deal.apply(parse_call(call))
    deal.apply(Discard((parse_card("8C"), parse_card("TC"))))
    deal.apply(Name(parse_contract("7H")))
    assert deal.current_player() == 1
    assert [a.word for a in deal.legal_actions()] == ["pass", "play"]
    deal.apply(Declare("pass"))
    assert [a.word for a in deal.legal_actions()] == ["pass", "play", "together"]
    deal.apply(Declare("play"))
    deal.apply(Declare("pass"))  # second defender plays alone
    assert deal.position.active == (0, 2)
    lead = min(c for c in range(32) if deal.position.legal_cards() >> c & 1)
    deal.apply(Play(lead))
    assert len(deal.position.trick) == 1 and deal.current_player() == 2


def test_claim_accepted_and_rejected():
    deal = new_deal()
    for call in ("6S", "pass", "pass"):
        deal.apply(parse_call(call))
    deal.apply(Discard((parse_card("8C"), parse_card("TC"))))
    deal.apply(Name(parse_contract("7H")))
    deal.apply(Declare("play"))
    deal.apply(Declare("play"))
    assert Claim() in deal.legal_actions()
    deal.apply(Claim())
    deal.apply(Answer(True))
    deal.apply(Answer(False))
    assert deal.phase == "play" and deal.position.tricks_left == 10
    # The refused claim is not put again at the same point: the declarer plays on.
    assert Claim() not in deal.legal_actions()
    for _ in range(3):  # the declarer leads its top card, the others play low
        cards = [c for c in range(32) if deal.position.legal_cards() >> c & 1]
        deal.apply(Play(max(cards) if deal.current_player() == 0 else min(cards)))
    assert deal.tricks == [1, 0, 0] and Claim() in deal.legal_actions()
    deal.apply(Claim())
    deal.apply(Answer(True))
    deal.apply(Answer(True))
    assert deal.phase == "settled" and deal.tricks == [10, 0, 0]
    # Ten tricks against 7H: both defenders short (by 2 and 1), the pot does not move.
    assert deal.settlement.pot_delta == 0
    assert deal.settlement.transfers == {"declarer": 210, "first": -140, "second": -70}


@settings(max_examples=1500, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_legal_playouts(seed):
    rng = random.Random(seed)
    hands, widow = random_deal(rng)
    deal = Deal(hands, widow, rng.randrange(3), pot=rng.choice([1500, 69, 5]))
    steps = 0
    while not deal.is_terminal():
        actions = deal.legal_actions()
        assert actions
        deal.apply(rng.choice(actions))
        steps += 1
        assert steps < 200
    if deal.phase == "void":
        assert deal.settlement is None
        return
    s = deal.settlement
    assert sum(s.transfers.values()) == 0
    assert sum(s.net.values()) == -s.pot_delta
    if deal.position is not None and not deal.solo:
        assert sum(deal.tricks) == 10
    if deal.rules.last_contract == "normal":
        assert deal.pot + s.pot_delta >= 0
