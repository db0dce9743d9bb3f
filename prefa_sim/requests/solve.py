"""Solve requests: one deal or position as JSON, checked and answered by the solver
(``bulk`` answers batches of them).

A request (every field but ``hands`` optional)::

    {"hands": [h0, h1, h2], "dealer": 2, "declarer": 0, "trump": "H", "leader": 0,
     "active": [0, 1], "widow": ["7D", "8H"], "trick": ["AS"], "cards": true, "line": true,
     "rules": "overtrump=yes"}

Seats are numbers 0-2 or the roles ``first``, ``second``, ``dealer`` (placed by
``dealer``, seat 2 when not given, so seat 0 is first hand).  ``declarer``
defaults to first hand, ``leader`` to the opening-lead rule (the first active
seat from first hand), ``active`` to all three seats; hands are lists of card
tokens or suit-grouped strings, and a seat not in ``active`` may hold anything.

The answer is the request plus, without a widow, ``declarer_tricks``; with
``cards`` the player ``to_move`` and the ``card_values`` of each legal card;
with ``line`` an optimal ``play_line``.  With a widow: ``best_tricks`` and every
discard that reaches them, ``best_discards``.  Without ``trump`` all five strains
are answered under ``strains``, and with a widow the ``contract`` to name.  Under
rules other than the default (``rules``, docs/rules.md §7.6: no under-trumping, the
10NT rules) the answer names them in ``rules``.
A bad line becomes ``{"line": n, "error": "..."}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..core.cards import (
    ALL_CARDS,
    Bitboard,
    CardError,
    Strain,
    card_count,
    format_card,
    format_cards,
    format_hand,
    parse_cards,
    parse_hand,
    parse_strain,
    popcount,
)
from ..core.contracts import Contract
from ..core.position import Position
from ..core.seats import DEFAULT_DEALER, SeatError, check_dealer, opening_leader, seat_of, seats_of
from ..rules.variants import DEFAULT_RULES, Rules, RulesError
from ..solve.solver import Solver, WidowResult
from ..util.jsonl import misspelt_field
from .fields import ANSWER_FIELDS, REQUEST_FIELDS
from .rules import request_rules


class RequestError(ValueError):
    """A request that is not a valid solve request."""


@dataclass(frozen=True)
class Request:
    """One checked request: the deal or position, and what is asked of it."""

    hands: tuple[int, int, int]
    strains: tuple[Strain, ...]
    leader: int
    declarer: int
    active: tuple[int, ...] = (0, 1, 2)
    trick: tuple[int, ...] = ()
    widow: int | None = None
    dealer: int = DEFAULT_DEALER
    cards: bool = False
    line: bool = False
    rules: Rules = DEFAULT_RULES

    def position(self, strain: Strain) -> Position:
        """The position in one strain (before the widow is taken, when there is one)."""
        return Position(self.hands, strain, self.leader, self.declarer, self.active, self.trick,
                        overtrump=self.rules.overtrump)


@dataclass(frozen=True)
class StrainAnswer:
    """The solver's answer in one strain."""

    strain: Strain
    tricks: int
    """The declarer's tricks (the best over the discards with a widow)."""
    widow: WidowResult | None = None
    card_values: dict[int, int] | None = None
    to_move: int | None = None
    play_line: list[tuple[int, int]] | None = None


@dataclass(frozen=True)
class Answer:
    """Every strain asked, and the contract to name when the widow was given."""

    request: Request
    strains: tuple[StrainAnswer, ...]

    @property
    def contract(self) -> Contract | None:
        """The most valuable contract that makes (docs/rules.md §6), from the strains asked,
        among those the request's rules allow."""
        return self.request.rules.best_contract({a.strain: a.tricks for a in self.strains})

    @property
    def contract_discard(self) -> str | None:
        """A best discard for ``contract`` (None without a widow or a contract)."""
        contract = self.contract
        if contract is None or self.request.widow is None:
            return None
        return next(a for a in self.strains
                    if a.strain == contract.strain).widow.discard_names()[0]


def make_request(hands: Iterable[Any], *, trump: Any = None, declarer: Any = "first",
                 leader: Any = None, active: Iterable[Any] | None = None, dealer: Any = None,
                 widow: Any = None, trick: Any = (), cards: bool = False,
                 line: bool = False, rules: Rules | str | dict | None = None,
                 default_rules: Rules = DEFAULT_RULES) -> Request:
    """Check a request given field by field (seats as numbers or roles, cards as text;
    ``rules`` as a ``Rules``, its text form or a mapping, ``default_rules`` when None)."""
    try:
        rules = rules if isinstance(rules, Rules) else request_rules({"rules": rules},
                                                                     default_rules)
    except RulesError as exc:
        raise RequestError(str(exc)) from None
    try:
        dealer = DEFAULT_DEALER if dealer is None else check_dealer(dealer)
        if active is None:
            active = (0, 1, 2)
        else:
            given = _as_list(active, "active")
            active = seats_of(given, dealer)
            if len(active) != len(given):
                raise RequestError(f"'active' names a seat twice: {given!r}")
        declarer = seat_of(declarer, dealer)
        leader = opening_leader(dealer, active) if leader is None else seat_of(leader, dealer)
    except SeatError as exc:
        raise RequestError(str(exc)) from None
    strains = tuple(Strain) if trump is None else (_strain(trump),)
    hands = _as_list(hands, "hands")
    if len(hands) != 3:
        raise RequestError("'hands' must be a list of three hands")
    masks = []
    for seat, hand in enumerate(hands):
        if seat not in active:
            masks.append(0)
            continue
        masks.append(_hand(hand, seat))
    trick_cards = tuple(_card_list(trick, "trick"))
    widow_mask = None
    if widow is not None:
        if trick_cards:
            raise RequestError("a widow is taken before the first trick: no 'trick' with it")
        if not isinstance(widow, list | tuple | str):
            raise RequestError("'widow' must be two cards")
        try:
            widow_mask = parse_hand(widow)
        except CardError as exc:
            raise RequestError(f"widow: {exc}") from None
        if popcount(widow_mask) != 2:
            raise RequestError(f"the widow holds {card_count(popcount(widow_mask))}, expected 2")
    for flag, name in ((cards, "cards"), (line, "line")):
        if not isinstance(flag, bool):
            raise RequestError(f"'{name}' must be true or false")
        if flag and (widow_mask is not None or len(strains) != 1):
            raise RequestError(f"'{name}' needs one trump and no widow")
    if not trick_cards:
        _check_hand_sizes(masks, active, widow_mask)
    request = Request(tuple(masks), strains, leader, declarer, active, trick_cards, widow_mask,
                      dealer, cards, line, rules)
    _check_cards(request)
    return request


def _check_hand_sizes(masks: list[Bitboard], active: tuple[int, ...],
                      widow: Bitboard | None) -> None:
    """Before the first card of a trick every hand in play holds as many cards (ten with
    the widow): a short hand is named with the cards it may lack."""
    sizes = {seat: popcount(masks[seat]) for seat in active}
    most = 10 if widow is not None else max(sizes.values())
    short = [seat for seat in active if sizes[seat] != most]
    if not short:
        return
    seat = short[0]
    held = sizes[seat]
    text = (f"seat {seat}'s hand {format_hand(masks[seat])} holds {card_count(held)}, "
            f"{'each hand is dealt' if widow is not None else 'the others hold'} {most}")
    unseen = ALL_CARDS & ~(masks[0] | masks[1] | masks[2] | (widow or 0))
    if widow is not None and unseen:
        text += f": {' '.join(format_cards(unseen))} in no hand and not in the widow"
    elif widow is None and 0 < popcount(unseen) <= 4 and held < most:
        text += f": the cards in no hand are {' '.join(format_cards(unseen))}"
    raise RequestError(text)


def parse_request(obj: Any, rules: Rules = DEFAULT_RULES) -> Request:
    """Check and convert one decoded JSON request (``rules`` for one without its own)."""
    if not isinstance(obj, dict):
        raise RequestError("a request is a JSON object")
    misspelt = misspelt_field(obj, REQUEST_FIELDS)
    if misspelt:
        raise RequestError(misspelt)
    if not isinstance(obj.get("hands"), list):
        raise RequestError("'hands' must be a list of three hands")
    fields = {k: obj[k] for k in REQUEST_FIELDS & set(obj) if obj[k] is not None}
    if "trump" in fields and not isinstance(fields["trump"], str):
        raise RequestError("'trump' must be one of S, C, D, H, NT")
    return make_request(**fields, default_rules=rules)


def _as_list(value: Any, name: str) -> list:
    if not isinstance(value, list | tuple):
        raise RequestError(f"'{name}' must be a list")
    return list(value)


def _hand(hand: Any, seat: int) -> int:
    if not isinstance(hand, list | str):
        raise RequestError(f"hand {seat} must be a list of cards or a suit-grouped string")
    try:
        return parse_hand(hand)
    except CardError as exc:
        raise RequestError(f"hand of seat {seat}: {exc}") from None


def _strain(value: Any) -> Strain:
    if not isinstance(value, str | Strain):
        raise RequestError("'trump' must be one of S, C, D, H, NT")
    return value if isinstance(value, Strain) else parse_strain(value)


def _card_list(value: Any, name: str) -> list[int]:
    if not isinstance(value, list | tuple | str):
        raise RequestError(f"'{name}' must be a list of cards")
    try:
        return parse_cards(value)
    except CardError as exc:
        raise RequestError(f"{name}: {exc}") from None


def _check_cards(request: Request) -> None:
    """The hands hold what the request needs; the position checks seats, duplicates and
    the trick's legality."""
    if request.position(request.strains[0]).tricks_left == 0:
        raise RequestError("the seats that play hold no cards ('-' is for a seat out of play: "
                           "leave it out of 'active')")
    if request.widow is not None:
        for seat in request.active:
            n = popcount(request.hands[seat])
            if n != 10:
                raise RequestError(f"hand of seat {seat} holds {card_count(n)}; with a widow every "
                                   "playing hand holds 10")


def solve_request(request: Request, solver: Solver) -> Answer:
    """Solve every strain the request asks for."""
    answers = []
    for strain in request.strains:
        if request.widow is not None:
            result = solver.solve_widow(request.hands, request.widow, strain, request.leader,
                                        request.declarer, request.active,
                                        overtrump=request.rules.overtrump)
            answers.append(StrainAnswer(strain, result.best_tricks, widow=result))
            continue
        pos = request.position(strain)
        values = solver.card_values(pos) if request.cards else None
        line = solver.play_line(pos) if request.line and pos.tricks_left else None
        answers.append(StrainAnswer(strain, solver.solve(pos), card_values=values,
                                    to_move=pos.to_move if request.cards else None,
                                    play_line=line))
    return Answer(request, tuple(answers))


def request_fields(request: Request) -> dict:
    """A checked request as the JSON request that asks for it (seats as numbers)."""
    out: dict[str, Any] = {"hands": [format_hand(h) for h in request.hands]}
    if len(request.strains) == 1:
        out["trump"] = request.strains[0].name
    if request.widow is not None:
        out["widow"] = format_hand(request.widow)
    if request.trick:
        out["trick"] = [format_card(c) for c in request.trick]
    for name in ("cards", "line"):
        if getattr(request, name):
            out[name] = True
    if not request.rules.is_default:
        out["rules"] = str(request.rules)
    return out


def answer_fields(answer: Answer) -> dict:
    """The fields a solve answer adds to its request."""
    def fields(a: StrainAnswer) -> dict:
        if a.widow is not None:
            return {"best_tricks": a.tricks, "best_discards": a.widow.discard_names()}
        out: dict[str, Any] = {"declarer_tricks": a.tricks}
        if a.card_values is not None:
            out["to_move"] = a.to_move
            out["card_values"] = {format_card(c): v for c, v in
                                  sorted(a.card_values.items(), key=lambda cv: (cv[0] >> 3,
                                                                                -(cv[0] & 7)))}
        if a.play_line is not None:
            out["play_line"] = [[seat, format_card(card)] for seat, card in a.play_line]
        return out

    request = answer.request
    out: dict[str, Any] = {"dealer": request.dealer, "declarer": request.declarer,
                           "leader": request.leader, "active": list(request.active)}
    if not request.rules.is_default:
        out["rules"] = str(request.rules)
    if len(request.strains) == 1:  # a trump was given
        out.update(fields(answer.strains[0]))
        return out
    out["strains"] = {a.strain.name: fields(a) for a in answer.strains}
    if request.widow is not None:
        contract = answer.contract
        out["contract"] = None if contract is None else str(contract)
        out["contract_discard"] = answer.contract_discard
    return out


def answer(obj: Any, solver: Solver, rules: Rules = DEFAULT_RULES) -> dict:
    """The request ``obj`` with its answer fields added (seats resolved to numbers; the
    rules named when they are not the default)."""
    request = parse_request(obj, rules)
    asked = {k: v for k, v in obj.items() if k not in ANSWER_FIELDS}
    return {**asked, **answer_fields(solve_request(request, solver))}
