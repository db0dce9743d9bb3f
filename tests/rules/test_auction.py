"""The auction of docs/rules.md §2, worked by hand, and random legal auctions."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prefa_sim.requests.auction import auction_result
from prefa_sim.rules.auction import Auction, AuctionError, run_auction


def test_the_rules_example():
    # A 6S, B 6C, C 6D, A hold, B pass, C 6H, A hold, C pass: A declares, minimum 6H.
    calls = ["6S", "6C", "6D", "hold", "pass", "6H", "hold", "pass"]
    assert auction_result(calls) == {"legal": True, "complete": True, "void": False,
                                     "declarer": 0, "declarer_role": "first",
                                     "min_contract": "6H"}
    # Seats follow the dealer: with seat 0 dealing, first hand is seat 1.
    assert auction_result(calls, dealer=0)["declarer"] == 1
    assert auction_result(calls, dealer=1)["declarer"] == 2


def test_all_pass_is_void_and_dealer_may_still_bid_after_two_passes():
    assert auction_result(["pass", "pass", "pass"]) == {"legal": True, "complete": True,
                                                        "void": True}
    assert auction_result(["pass", "pass"]) == {"legal": True, "complete": False,
                                                "next_player": 2, "next_role": "dealer",
                                                "next_legal": ["6S", "pass"]}
    assert auction_result(["pass", "pass"], dealer=1)["next_player"] == 1
    assert auction_result(["pass", "pass", "6S"])["declarer"] == 2


def test_if_they_stay():
    # First hand stays, the others pass: first hand declares at 6S.
    assert auction_result(["stay", "pass", "pass"]) == {
        "legal": True, "complete": True, "void": False, "declarer": 0, "declarer_role": "first",
        "min_contract": "6S"}
    # Second hand may stay after first hand passed; the dealer cannot.
    assert auction_result(["pass", "stay", "pass"])["declarer"] == 1
    assert auction_result(["pass", "pass", "stay"])["legal"] is False
    # A bid of 6S turns the stay into a pass, and the auction goes on without it.
    result = auction_result(["stay", "6S"])
    assert result == {"legal": True, "complete": False, "next_player": 2, "next_role": "dealer",
                      "next_legal": ["6C", "pass"]}
    assert auction_result(["stay", "6S", "pass"])["declarer"] == 1
    assert auction_result(["pass", "stay", "6S"])["declarer"] == 2
    # First hand's stay turns into a pass, second hand passed: the dealer declares at once.
    assert auction_result(["stay", "pass", "6S"])["declarer"] == 2
    assert auction_result(["stay", "6S", "6C"])["next_legal"] == ["hold", "pass"]


def test_first_three_declarations_only_raise_then_raise_and_hold_alternate():
    assert auction_result(["6S", "hold"])["first_illegal_index"] == 1
    assert auction_result(["6S", "6C", "hold"])["first_illegal_index"] == 2
    assert auction_result(["6S", "pass", "6C"])["next_legal"] == ["hold", "pass"]
    # Passes do not change the kind of call due: still hold after the raise.
    assert auction_result(["6S", "6C", "6D", "pass"])["next_legal"] == ["hold", "pass"]
    assert auction_result(["6S", "6C", "6D", "hold"])["next_legal"] == ["6H", "pass"]
    # Two holds in a row never happen, and a raise is always exactly the next step.
    assert auction_result(["6S", "6C", "6D", "hold", "hold"])["first_illegal_index"] == 4
    assert auction_result(["6C"])["first_illegal_index"] == 0
    assert auction_result(["6S", "6D"])["first_illegal_index"] == 1


def test_hold_of_the_top_step_ends_at_once():
    calls = ["6S", "6C", "6D"]
    while calls[-1] != "10NT":
        calls.append("hold")
        calls.append(parse_next(calls))
    assert auction_result(calls)["next_legal"] == ["hold", "pass"]
    calls.append("hold")
    result = auction_result(calls)
    assert result["complete"] and result["min_contract"] == "10NT"
    assert result["declarer"] == run_auction(calls).calls[-1][0]
    assert auction_result([*calls, "pass"])["legal"] is False


def parse_next(calls):
    auction = run_auction(calls)
    (raise_call,) = [c for c in auction.legal_calls() if c.kind == "raise"]
    return str(raise_call)


def test_errors_name_the_call_and_leave_the_state_unchanged():
    auction = run_auction(["6S", "6C"])
    before = (list(auction.calls), set(auction.passed), auction.high_step, auction.to_speak)
    with pytest.raises(AuctionError, match="hold is not legal for dealer"):
        auction.apply("hold")
    with pytest.raises(AuctionError, match="unknown call 'bid'"):
        auction.apply("bid")
    assert (list(auction.calls), set(auction.passed), auction.high_step,
            auction.to_speak) == before
    with pytest.raises(AuctionError, match=r"call 2 \(7S\)"):
        run_auction(["6S", "6C", "7S"])


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_legal_auctions_end_with_the_last_bidder(seed):
    rng = random.Random(seed)
    auction = Auction()
    for _ in range(100):
        if auction.complete:
            break
        legal = auction.legal_calls()
        assert legal and legal[0].kind == "pass"
        auction.apply(rng.choice(legal))
    assert auction.complete
    speakers = [(s, c) for s, c in auction.calls if c.kind != "pass"]
    if auction.void:
        assert all(c.kind == "pass" for _, c in auction.calls)
    else:
        seat, call = speakers[-1]
        assert auction.declarer == seat
        if call.kind == "stay":
            assert str(auction.min_contract) == "6S"
        # Every other seat passed (or its stay was turned into a pass).
        assert auction.passed == {0, 1, 2} - {seat}
    # Raises climb one step at a time; holds never follow holds.
    kinds = [c.kind for _, c in auction.calls if c.kind in ("raise", "hold")]
    assert all(not (a == b == "hold") for a, b in zip(kinds, kinds[1:], strict=False))
