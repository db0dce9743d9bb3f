"""A whole game (partida) with the common pot: deal after deal until the pot is spent.

Each player stakes 500 kapíkia, so the pot starts at 1,500.  The dealer moves
one seat on after every deal, void deals included.  The game ends when the
pot holds less than 10 (no contract can be paid), or earlier by agreement
(``max_deals``).  A player's result is what they took from the pot, less what
they paid into it and their stake, plus a third of the pot left, plus the
kapíkia won from and less those lost to the others: exact thirds, summing to zero
(docs/rules.md §6).  The first dealer is seat 2 unless another is named, so seat 0
is first hand in the first deal.

``deal_record`` writes a finished deal as a script line that replays it exactly:
the cards and every action, with who took it, what was credited and paid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..core.cards import CardError, format_deal, format_discard, parse_card, parse_cards
from ..core.contracts import ContractError, parse_contract
from ..core.seats import DEFAULT_DEALER
from .auction import AuctionError, parse_call
from .deal import (
    Action,
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
from .kasa import KasaGame
from .settlement import ROLES
from .variants import DEFAULT_RULES, Rules

STAKE = 500
MIN_POT = 10
SEVEN_OF_DIAMONDS, EIGHT_OF_DIAMONDS = parse_card("7D"), parse_card("8D")


def first_dealer(rules: Rules, hands: list[int], widow: int) -> tuple[int | None, str]:
    """The dealer of a game's first deal under ``rules.first_deal`` (docs/rules.md §7.6)
    and why: the holder of the 7 of diamonds speaks first (so the seat before it deals),
    or with ``7d8d`` the holder of the 8 when the 7 is in the widow.  None when the cards
    are dealt again (the reason says why); ``rules.first_deal == "dealer"`` decides
    nothing (None, "")."""
    if rules.first_deal == "dealer":
        return None, ""
    cards = [(SEVEN_OF_DIAMONDS, "7D")]
    if rules.first_deal == "7d8d":
        cards.append((EIGHT_OF_DIAMONDS, "8D"))
    for card, name in cards:
        for seat in range(3):
            if hands[seat] >> card & 1:
                return (seat + 2) % 3, f"seat {seat} holds the {name}"
    if rules.first_deal == "7d8d":
        return None, "the 7 and the 8 of diamonds are both in the widow"
    return None, "the 7 of diamonds is in the widow"


@dataclass(frozen=True)
class Redeal:
    """The cards of a game's first deal dealt again (``first_dealer``): no one plays them."""

    hands: tuple[int, int, int]
    widow: int
    reason: str


def parse_action(deal: Deal, token: str) -> Action:
    """Read an action token in the light of the deal's phase.

    auction: ``pass hold stay 6S …``; widow: ``discard C1 C2`` or ``solo``;
    contract: ``7H`` or ``7H aces``; defence: ``play pass together alone``;
    play: a card such as ``AS``, or ``claim``; claim: ``accept`` or ``reject``.
    """
    text = token.strip()
    words = text.lower().split()
    try:
        if deal.phase == "auction":
            return parse_call(text)
        if deal.phase == "widow":
            if words == ["solo"]:
                return Solo()
            if len(words) == 3 and words[0] == "discard":
                a, b = parse_cards(words[1:])
                return Discard((a, b))
        elif deal.phase == "contract":
            if len(words) in (1, 2) and (len(words) == 1 or words[1] == "aces"):
                return Name(parse_contract(text.split()[0]), aces=len(words) == 2)
        elif deal.phase == "defence":
            if len(words) == 1 and words[0] in ("play", "pass", "together", "alone"):
                return Declare(words[0])  # type: ignore[arg-type]
        elif deal.phase == "play":
            return Claim() if words == ["claim"] else Play(parse_card(text))
        elif deal.phase == "claim" and words in (["accept"], ["reject"]):
            return Answer(words[0] == "accept")
    except (AuctionError, CardError, ContractError, ValueError) as exc:
        raise IllegalActionError(f"{text!r} in the {deal.phase} phase: {exc}") from None
    raise IllegalActionError(f"{text!r} is not an action of the {deal.phase} phase")


def format_action(action: Action) -> str:
    """The token ``parse_action`` reads back as ``action``: ``6S``, ``discard 8C TC``,
    ``7H aces``, ``together``, ``AS``, ``claim``, ``accept``…"""
    if isinstance(action, Name):
        return f"{action.contract}{' aces' if action.aces else ''}"
    return str(action)


@dataclass
class Game:
    """The pot, the accounts and the dealer between deals."""

    pot: int = 3 * STAKE
    dealer: int = DEFAULT_DEALER
    rules: Rules = DEFAULT_RULES
    from_pot: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Kapíkia each seat took from the pot, less what it paid into it."""
    won: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Kapíkia each seat won from the others, less what it lost to them."""
    deals: int = 0
    redeals: int = 0
    """Times the first deal's cards were dealt again (``first_dealer``)."""
    kasa: KasaGame | None = field(init=False)
    """With the personal-kása scoring (docs/rules.md §7, ``rules.kasa``) instead of the
    common pot."""

    def __post_init__(self) -> None:
        self.kasa = KasaGame([self.rules.kasa] * 3) if self.rules.kasa else None

    @property
    def over(self) -> bool:
        """No contract can be paid any more (every kása empty, with the kása scoring)."""
        if self.kasa is not None:
            return self.kasa.over
        return self.pot < MIN_POT

    def redeal(self, hands: list[int], widow: int) -> Redeal | None:
        """These cards dealt again, when they are the game's first and ``first_dealer``
        finds no dealer in them; else None."""
        if self.deals or self.rules.first_deal == "dealer":
            return None
        dealer, reason = first_dealer(self.rules, hands, widow)
        return Redeal(tuple(hands), widow, reason) if dealer is None else None

    def new_deal(self, hands: list[int], widow: int) -> Deal:
        """A deal of these cards by the current dealer, against the current pot; the first
        deal's dealer comes from its cards under ``rules.first_deal`` (``redeal`` first)."""
        if not self.deals and self.rules.first_deal != "dealer":
            dealer, reason = first_dealer(self.rules, hands, widow)
            if dealer is None:
                raise IllegalActionError(f"{reason}: the cards are dealt again "
                                         f"(first_deal={self.rules.first_deal})")
            self.dealer = dealer
        return Deal(list(hands), widow, self.dealer, pot=self.pot, rules=self.rules)

    def accounts(self) -> list[int]:
        """Per seat: kapíkia taken from the pot less paid into it, plus those won from the
        others (with the personal kása, the kapíkia)."""
        if self.kasa is not None:
            return list(self.kasa.kapikia)
        return [self.from_pot[s] + self.won[s] for s in range(3)]

    def record(self, deal: Deal | Redeal) -> None:
        """Book a finished deal and pass the deal to the next dealer (a ``Redeal`` is
        counted apart: the first deal is still to come)."""
        if isinstance(deal, Redeal):
            self.redeals += 1
            return
        if not deal.is_terminal():
            raise IllegalActionError("only a finished deal can be recorded")
        if deal.settlement is not None and self.kasa is not None:
            self.kasa.record(deal.declarer, deal.settlement)
        elif deal.settlement is not None:
            s = deal.settlement
            self.pot += s.pot_delta
            self.from_pot[deal.declarer] -= s.pot_delta
            for role, amount in s.transfers.items():
                self.won[deal.seat_of_role(role)] += amount
        self.dealer = (self.dealer + 1) % 3
        self.deals += 1

    def results(self) -> list[Fraction]:
        """Each seat's result if the game ended now, in kapíkia (sums to exactly zero).

        With the personal kása, units still in the kásas are settled as
        docs/rules.md §7.5 describes for a game ended by agreement.
        """
        if self.kasa is not None:
            return self.kasa.results()
        share = Fraction(self.pot, 3)
        return [self.from_pot[s] - STAKE + share + self.won[s] for s in range(3)]


def thirds(value: Fraction) -> int:
    """A result in thirds of a kapíki, the exact integer encoding of the records."""
    scaled = value * 3
    if scaled.denominator != 1:
        raise ValueError(f"{value} is not a whole number of thirds")
    return int(scaled)


def redeal_record(game: Game, redeal: Redeal) -> dict:
    """A first deal dealt again as a JSON-ready script line: its cards, no action, and why
    (``redeal``)."""
    return {"number": game.deals, **_rules_field(game), "redeal": redeal.reason,
            "deal": format_deal(list(redeal.hands), redeal.widow), "actions": []}


def deal_record(game: Game, deal: Deal) -> dict:
    """A finished, recorded deal as a JSON-ready object that is also a script line.

    ``deal`` (the cards) and ``actions`` replay it exactly through ``prefa game``;
    ``actors`` are the seats that took each action.  ``tricks_played`` are by seat
    as played (claims included), ``tricks_credited`` as the settlement counts them
    (all ten to the declarer when both defenders pass, the solo table for a solo).
    Money is in kapíkia; ``results_thirds`` in thirds of a kapíki (exact).
    """
    record: dict = {"number": game.deals, "dealer": deal.dealer, **_rules_field(game),
                    "deal": format_deal(deal.hands_dealt, deal.widow),
                    "actions": [format_action(a) for _, a in deal.history],
                    "actors": [seat for seat, _ in deal.history],
                    "void": deal.phase == "void"}
    if deal.settlement is not None:
        record.update(
            declarer=deal.declarer, contract=str(deal.contract), solo=deal.solo, aces=deal.aces,
            discard=None if deal.solo else format_discard(deal.discards),
            declarations=list(deal.declarations), tricks_played=list(deal.tricks),
            tricks_credited=deal.credited_tricks, pot_delta=deal.settlement.pot_delta,
            transfers=[deal.settlement.transfers[ROLES[(s - deal.declarer) % 3]]
                       for s in range(3)])
    if game.kasa is not None:
        record.update(kasa=list(game.kasa.kasa), kapikia=list(game.kasa.kapikia))
    else:
        record.update(pot=game.pot, accounts=game.accounts())
    record["results_thirds"] = [thirds(r) for r in game.results()]
    return record


def final_record(game: Game) -> dict:
    """The last line of a recording: how the game ended and the results."""
    if game.over:
        ended = "all kásas empty" if game.kasa is not None else "pot spent"
    else:
        ended = "ended by agreement"
    out = {"final": True, **_rules_field(game), "deals": game.deals, "over": game.over,
           "ended": ended,
           "results_thirds": [thirds(r) for r in game.results()]}
    if game.kasa is not None:
        out["kasa"] = list(game.kasa.kasa)
    else:
        out["pot"] = game.pot
    return out


def _rules_field(game: Game) -> dict:
    """``{"rules": text}`` for a game under other rules than the default, else nothing (a
    recording without it was played under the default rules)."""
    return {} if game.rules.is_default else {"rules": str(game.rules)}


RECORDED = ("number", "deals", "over", "pot", "accounts", "kasa", "kapikia", "results_thirds",
            "redeal")
"""Fields of a recording that its replay must reproduce."""


def replay_difference(recorded: dict, replayed: dict) -> str | None:
    """The first field of a recorded line (``deal_record`` or ``final_record``) that the
    replayed line does not reproduce, or None.  The rules come first: a recording
    replayed under other rules is named as such."""
    if any(key in recorded for key in RECORDED) \
            and recorded.get("rules", "default") != replayed.get("rules", "default"):
        return "rules"
    for key in RECORDED:
        if key not in recorded:
            continue
        if key in replayed and recorded[key] != replayed[key]:
            return key
        if key in ("pot", "kasa", "redeal") and key not in replayed:  # another scoring, or
            return key  # cards that were dealt again and are played here
    return None
