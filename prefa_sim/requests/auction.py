"""Auction requests as JSON (``prefa auction``): an auction given as call tokens, checked
and resolved to who declares, what is left to call, or the first illegal call."""

from __future__ import annotations

from collections.abc import Iterable

from ..core.seats import DEFAULT_DEALER, POSITIONS, SeatError, check_dealer, seat_of
from ..rules.auction import Auction, AuctionError
from ..rules.variants import DEFAULT_RULES, Rules, RulesError
from ..util.jsonl import misspelt_field
from .rules import request_rules


def auction_request(obj: object, rules: Rules = DEFAULT_RULES) -> dict:
    """Answer a JSON request ``{"calls": [...], "dealer": 2, "rules": "ten_nt=off"}``
    (``prefa auction --batch``; ``rules`` for a request without its own): the request with
    its ``result`` added."""
    misspelt = misspelt_field(obj, ("calls", "dealer", "rules")) if isinstance(obj, dict) \
        else None
    if misspelt:
        raise AuctionError(misspelt)
    if not isinstance(obj, dict) or not isinstance(obj.get("calls"), list):
        raise AuctionError("a request is an object with a list 'calls'")
    for i, call in enumerate(obj["calls"]):
        if not isinstance(call, str):
            raise AuctionError(f"'calls' holds call tokens such as \"6S\" or \"pass\"; call {i} "
                               f"is {call!r}")
    dealer = obj.get("dealer")
    try:
        dealer = DEFAULT_DEALER if dealer is None else check_dealer(dealer)
    except SeatError as exc:
        raise AuctionError(str(exc)) from None
    try:
        rules = request_rules(obj, rules)
    except RulesError as exc:
        raise AuctionError(str(exc)) from None
    stated = {} if rules.is_default or "rules" in obj else {"rules": str(rules)}
    return {**obj, **stated, "result": auction_result(obj["calls"], dealer, rules)}


def auction_result(tokens: Iterable[str], dealer: int = DEFAULT_DEALER,
                   rules: Rules = DEFAULT_RULES) -> dict:
    """Check and resolve an auction given as call tokens, first hand speaking first.

    ``{"legal": true, "complete": true, "void": false, "declarer": k,
    "declarer_role": "first", "min_contract": "6H"}``, ``{"legal": true,
    "complete": true, "void": true}``, ``{"legal": true, "complete": false,
    "next_player": k, "next_role": "second", "next_legal": [...]}`` or
    ``{"legal": false, "first_illegal_index": i, "error": "..."}``.  Seats are
    absolute for a deal dealt by ``dealer`` (seat 2 by default, so that seat 0
    is first hand).  The ladder is ``rules``' (without 10NT under ``ten_nt=off``).
    """
    auction = Auction(ladder=rules.ladder)
    for i, token in enumerate(tokens):
        try:
            if not isinstance(token, str):
                raise AuctionError(f"a call is a string token, got {token!r}")
            auction.apply(token)
        except AuctionError as exc:
            return {"legal": False, "first_illegal_index": i, "error": str(exc)}
    if not auction.complete:
        return {"legal": True, "complete": False,
                "next_player": seat_of(POSITIONS[auction.to_speak], dealer),
                "next_role": POSITIONS[auction.to_speak],
                "next_legal": sorted(str(c) for c in auction.legal_calls())}
    if auction.void:
        return {"legal": True, "complete": True, "void": True}
    return {"legal": True, "complete": True, "void": False,
            "declarer": seat_of(POSITIONS[auction.declarer], dealer),
            "declarer_role": POSITIONS[auction.declarer],
            "min_contract": str(auction.min_contract)}
