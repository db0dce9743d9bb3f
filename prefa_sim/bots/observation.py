"""What one seat may know at a decision point: an ``Observation``, never the deal itself.

``observe(deal, seat)`` copies out of the state only what the rules let that seat see:
its own cards; the calls; the contract and the declarations; every card played, in order;
the widow and the discard when the seat is the declarer; the declarer's cards when they
are shown with a claim.  The other hands are left out, so a player cannot peek by
accident.  A player that is meant to see everything (the ``oracle``, labelled as
cheating) gets ``all_cards`` filled in, and only that player.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import Bitboard, Strain
from ..core.contracts import Contract
from ..rules.auction import Call
from ..rules.deal import Action, Deal, Phase
from ..rules.variants import DEFAULT_RULES, Rules


@dataclass(frozen=True)
class AllCards:
    """Every card of the deal, for a player allowed to see them (the oracle)."""

    hands: tuple[Bitboard, Bitboard, Bitboard]
    """The cards each seat holds now (after the widow, the discard and the play so far)."""
    widow: Bitboard
    deal: Deal
    """The state itself; the oracle reads positions from it."""


@dataclass(frozen=True)
class Observation:
    """One seat's view of the deal when it is that seat's turn."""

    seat: int
    dealer: int
    phase: Phase
    hand: Bitboard
    """The cards the seat holds now."""
    legal: tuple[Action, ...]
    """The actions allowed now; a player must choose one of them."""
    calls: tuple[tuple[int, Call], ...] = ()
    """The auction so far: (seat, call)."""
    declarer: int | None = None
    min_contract: Contract | None = None
    """The lowest contract the declarer may name (known once the auction is over)."""
    widow: Bitboard | None = None
    """The widow, for the declarer once taken."""
    discard: Bitboard | None = None
    """The declarer's discard, for the declarer."""
    contract: Contract | None = None
    aces: bool = False
    solo: bool = False
    declarations: tuple[str, ...] = ()
    active: tuple[int, ...] = ()
    """The seats in play (known once the declarations are over)."""
    played: tuple[tuple[int, int], ...] = ()
    """Every card played so far, in order: (seat, card)."""
    trick: tuple[int, ...] = ()
    """The cards of the current trick, in play order."""
    leader: int | None = None
    """The seat that led (or leads) the current trick."""
    tricks: tuple[int, int, int] = (0, 0, 0)
    """Tricks won so far, by seat."""
    shown: Bitboard = 0
    """The declarer's cards, shown with a claim (to the defenders in play, from the claim
    on, refused or not)."""
    pot: int = 1500
    rules: Rules = DEFAULT_RULES
    """The rules of the table (docs/rules.md §7.6): known to every player."""
    all_cards: AllCards | None = None

    @property
    def last_contract(self) -> str:
        """How a pot smaller than the contract pays (docs/rules.md §6.11)."""
        return self.rules.last_contract

    @property
    def trump(self) -> Strain | None:
        return None if self.contract is None else self.contract.strain

    @property
    def seen(self) -> Bitboard:
        """Every card this seat knows the place of: its hand, the cards played, and the
        widow and discard when it is the declarer."""
        mask = self.hand | (self.widow or 0) | (self.discard or 0) | self.shown
        for _, card in self.played:
            mask |= 1 << card
        return mask


def observe(deal: Deal, seat: int, all_cards: bool = False,
            legal: list[Action] | None = None) -> Observation:
    """``seat``'s view of ``deal`` (``all_cards`` for a player allowed to see everything);
    ``legal``: the deal's ``legal_actions()`` when the caller has them already."""
    position = deal.position
    hand = position.hands[seat] if position is not None else deal.hands[seat]
    declarer = deal.declarer
    is_declarer = declarer is not None and seat == declarer
    played = tuple(deal.played)
    shown = 0
    claimed = deal.phase == "claim" or deal.claim_refused_after is not None
    if claimed and seat != declarer and position is not None and seat in position.active:
        shown = position.hands[declarer]  # shown with the claim, and known ever after
    everything = None
    if all_cards:
        hands = tuple(position.hands) if position is not None else tuple(deal.hands)
        everything = AllCards(hands, deal.widow, deal)
    return Observation(
        seat=seat, dealer=deal.dealer, phase=deal.phase, hand=hand,
        legal=(tuple(deal.legal_actions() if legal is None else legal)
               if deal.current_player() == seat else ()),
        calls=tuple(((deal.first_hand + s) % 3, c) for s, c in deal.auction.calls),
        declarer=declarer,
        min_contract=deal.auction.min_contract if declarer is not None else None,
        widow=deal.widow if is_declarer else None,
        discard=deal.discards if is_declarer and deal.discards else None,
        contract=deal.contract, aces=deal.aces, solo=deal.solo,
        declarations=tuple(deal.declarations),
        active=tuple(position.active) if position is not None else (),
        played=played, trick=tuple(position.trick) if position is not None else (),
        leader=position.leader if position is not None else None,
        tricks=tuple(deal.tricks), shown=shown, pot=deal.pot,
        rules=deal.rules, all_cards=everything)
