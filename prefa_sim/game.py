"""A whole game (partida) with the common pot: deal after deal until the pot is spent.

Each player stakes 500 kapíkia, so the pot starts at 1,500.  The dealer moves
one seat on after every deal, void deals included.  The game ends when the
pot holds less than 10 (no contract can be paid), or earlier by agreement
(``max_deals``).  A player's result is what they took from the pot, less what
they paid into it and their stake, plus a third of the pot left, plus the
kapíkia won from and less those lost to the others: exact thirds, summing to zero.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from .auction import AuctionError, parse_call
from .cards import CardError, parse_card, parse_cards
from .contracts import ContractError, parse_contract
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
from .settlement import LastContractMode

STAKE = 500
MIN_POT = 10


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
                return Name(parse_contract(words[0]), aces=len(words) == 2)
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


@dataclass
class Game:
    """The pot, the accounts and the dealer between deals."""

    pot: int = 3 * STAKE
    dealer: int = 0
    last_contract: LastContractMode = "normal"
    from_pot: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Kapíkia each seat took from the pot, less what it paid into it."""
    won: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Kapíkia each seat won from the others, less what it lost to them."""
    deals: int = 0
    kasa: KasaGame | None = None
    """With the personal-kása scoring (RULES §7) instead of the common pot."""

    def __post_init__(self) -> None:
        if self.kasa is not None:
            self.last_contract = "fair"  # no common pot: trick values are never reduced

    @property
    def over(self) -> bool:
        """No contract can be paid any more (every kása empty, with the kása scoring)."""
        if self.kasa is not None:
            return self.kasa.over
        return self.pot < MIN_POT

    def new_deal(self, hands: list[int], widow: int) -> Deal:
        """A deal of these cards by the current dealer, against the current pot."""
        return Deal(list(hands), widow, self.dealer, pot=self.pot,
                    last_contract=self.last_contract)

    def record(self, deal: Deal) -> None:
        """Book a finished deal and pass the deal to the next dealer."""
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
        """Each seat's result so far if the game ended now (sums to exactly zero)."""
        if self.kasa is not None:
            return [Fraction(k) for k in self.kasa.kapikia]
        share = Fraction(self.pot, 3)
        return [self.from_pot[s] - STAKE + share + self.won[s] for s in range(3)]


def random_cards(rng: random.Random) -> tuple[list[int], int]:
    """Three shuffled 10-card hands and the widow."""
    deck = list(range(32))
    rng.shuffle(deck)
    return [sum(1 << c for c in deck[10 * s:10 * s + 10]) for s in range(3)], (
        (1 << deck[30]) | (1 << deck[31]))


def play_random_game(seed: int, max_deals: int = 1000,
                     last_contract: LastContractMode = "normal", dealer: int = 0,
                     kasa: int | None = None):
    """Yield ``(game, deal)`` after each deal of a game of random legal actions
    (with ``kasa`` units each, the personal-kása scoring)."""
    rng = random.Random(seed)
    game = Game(dealer=dealer, last_contract=last_contract,
                kasa=KasaGame([kasa] * 3) if kasa else None)
    while not game.over and game.deals < max_deals:
        deal = game.new_deal(*random_cards(rng))
        while not deal.is_terminal():
            deal.apply(rng.choice(deal.legal_actions()))
        game.record(deal)
        yield game, deal
