"""The heuristic player: hand evaluation by sure and probable tricks, and simple card play.

How it decides (every threshold is a field of ``HeuristicParams``):

- Auction: it counts its tricks in each strain (``evaluate.declarer_tricks``) plus
  ``widow_bonus`` for the two unseen widow cards, and raises (or holds) while the step
  asked is no higher than the best contract that count reaches; it never says "if they
  stay".
- Widow: for each strain it lays away the two least useful cards (``best_discard``) and
  keeps the strain that counts most; it concedes a solo when even that count falls
  ``solo_below`` tricks short of the lowest contract it may name.
- Contract: the best strain, at the level its count reaches less ``name_margin`` (at
  least the lowest it may name); the aces whenever it may announce them and expects to
  make the contract.
- Defence: it counts its own defensive tricks (``evaluate.defender_tricks``) and plays
  when they reach its share of the quota less ``defend_margin``; "together" and "alone"
  follow the same count against the joint and the lone quota.
- Play: it wins a trick with its cheapest winning card when the partner is not already
  winning it, leads masters (trump masters first as declarer) and otherwise plays low.
  It never claims, and accepts a claim only when the declarer's shown cards are all
  masters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.cards import SUIT_MASKS, Strain, card_suit, iter_cards, popcount
from ..core.contracts import MAX_LEVEL, MIN_LEVEL, Contract
from ..core.tricks import beats, trick_seats
from ..rules.auction import Call
from ..rules.deal import Action, Answer, Declare, Discard, Name, Play, Solo
from ..rules.variants import DEFAULT_RULES, Rules
from .base import Player
from .evaluate import best_discard, declarer_tricks, defender_tricks
from .observation import Observation


@dataclass(frozen=True)
class HeuristicParams:
    """The heuristic player's thresholds, in tricks."""

    widow_bonus: float = 1.0
    """What the two unseen widow cards add to a hand's count in the auction."""
    name_margin: float = 0.8
    """Name the level the count reaches less this."""
    solo_below: float = 2.0
    """Concede a solo when the best count falls this far short of the lowest contract."""
    defend_margin: float = 0.0
    """Defend when the own count reaches the own quota less this."""


class HeuristicPlayer(Player):
    """Sure and probable tricks, as described in the module's docstring."""

    name = "heuristic"

    def __init__(self, params: HeuristicParams | None = None) -> None:
        self.params = params or HeuristicParams()

    def act(self, obs: Observation, rng: np.random.Generator) -> Action:
        return getattr(self, f"_{obs.phase}")(obs)

    # -- auction ---------------------------------------------------------------------
    def _counts(self, hand: int, bonus: float) -> dict[Strain, float]:
        return {s: declarer_tricks(hand, s) + bonus for s in Strain}

    def _auction(self, obs: Observation) -> Action:
        counts = self._counts(obs.hand, self.params.widow_bonus)
        best = max((Contract(min(int(t), MAX_LEVEL), s).step for s, t in counts.items()
                    if t >= MIN_LEVEL), default=-1)
        for call in obs.legal:
            if call.kind == "raise" and call.contract.step <= best:
                return call
        high = max((c.contract.step for _, c in obs.calls if c.kind == "raise"), default=-1)
        hold = Call("hold")
        if hold in obs.legal and high <= best:
            return hold
        return Call("pass")

    # -- widow and contract ----------------------------------------------------------
    def _choice(self, twelve: int) -> tuple[Strain, tuple[int, int], float]:
        options = []
        for strain in Strain:
            pair = best_discard(twelve, strain)
            ten = twelve & ~((1 << pair[0]) | (1 << pair[1]))
            options.append((declarer_tricks(ten, strain), -int(strain), strain, pair))
        count, _, strain, pair = max(options)
        return strain, pair, count

    def _widow(self, obs: Observation) -> Action:
        strain, pair, count = self._choice(obs.hand)
        if count < obs.min_contract.level - self.params.solo_below:
            return Solo()
        return Discard(pair)

    def _contract(self, obs: Observation) -> Action:
        twelve = obs.hand | obs.discard
        strain, _, _ = self._choice(twelve)
        count = declarer_tricks(obs.hand, strain)
        allowed = [c.level for c in obs.rules.ladder[obs.min_contract.step:] if c.strain == strain]
        if not allowed:  # no step of that strain is left: name the lowest allowed
            return Name(obs.min_contract)
        lowest = allowed[0]
        level = max(lowest, min(MAX_LEVEL, int(count - self.params.name_margin)))
        contract = Contract(level, strain)
        aces = Name(contract, True)
        if aces in obs.legal and count >= level:
            return aces
        return Name(contract)

    # -- defence ---------------------------------------------------------------------
    def _defence(self, obs: Observation) -> Action:
        return Declare(defence_word(obs.contract, obs.declarer, obs.seat, obs.hand,
                                    tuple(obs.declarations), self.params.defend_margin,
                                    obs.rules))

    # -- play --------------------------------------------------------------------------
    def _play(self, obs: Observation) -> Action:
        legal = [a.card for a in obs.legal if isinstance(a, Play)]
        trump = int(obs.contract.strain)
        out = self._outstanding(obs)
        if not obs.trick:
            return Play(self._lead(obs, legal, trump, out))
        seats = trick_seats(obs.leader, obs.active)
        best = 0
        for i in range(1, len(obs.trick)):
            if beats(obs.trick[i], obs.trick[best], trump):
                best = i
        winner_seat, winning_card = seats[best], obs.trick[best]
        last = len(obs.trick) == len(obs.active) - 1
        partner_wins = obs.seat != obs.declarer and winner_seat != obs.declarer
        if partner_wins and (last or self._is_master(winning_card, out, trump)):
            return Play(self._lowest(legal, trump))
        winners = [c for c in legal if beats(c, winning_card, trump)]
        if winners:
            cheapest = min(winners, key=lambda c: (card_suit(c) == trump, c))
            if last or self._is_master(cheapest, out, trump):
                return Play(cheapest)
            return Play(max(winners, key=lambda c: (card_suit(c) != trump, c)))
        return Play(self._lowest(legal, trump))

    def _claim(self, obs: Observation) -> Action:
        out = self._outstanding(obs) & ~obs.shown
        trump = int(obs.contract.strain)
        masters = all(self._is_master(c, out, trump) for c in iter_cards(obs.shown))
        trumps_out = trump != Strain.NT and out & SUIT_MASKS[trump]
        return Answer(masters and not trumps_out)

    @staticmethod
    def _outstanding(obs: Observation) -> int:
        """Cards this seat does not see: in the others' hands, or laid away."""
        return ((1 << 32) - 1) & ~obs.seen

    @staticmethod
    def _is_master(card: int, outstanding: int, trump: int) -> bool:
        suit = card_suit(card)
        higher = outstanding & SUIT_MASKS[suit] & ~((2 << card) - 1)
        return not higher

    def _lead(self, obs: Observation, legal: list[int], trump: int, out: int) -> int:
        masters = [c for c in legal if self._is_master(c, out, trump)]
        if obs.seat == obs.declarer and trump != Strain.NT and out & SUIT_MASKS[trump]:
            trump_masters = [c for c in masters if card_suit(c) == trump]
            if trump_masters:
                return max(trump_masters)
        side = [c for c in masters if card_suit(c) != trump]
        if side:
            return max(side, key=lambda c: (popcount(obs.hand & SUIT_MASKS[card_suit(c)]), c))
        longest = max(range(4), key=lambda s: (s != trump, popcount(obs.hand & SUIT_MASKS[s])))
        in_suit = [c for c in legal if card_suit(c) == longest]
        return min(in_suit) if in_suit else min(legal)

    @staticmethod
    def _lowest(legal: list[int], trump: int) -> int:
        """The cheapest card: a low card outside trumps, from the shortest suit."""
        return min(legal, key=lambda c: (card_suit(c) == trump, c % 8))


def defence_word(contract: Contract, declarer: int, seat: int, hand: int,
                 said: tuple[str, ...], margin: float = 0.0,
                 rules: Rules = DEFAULT_RULES) -> str:
    """The heuristic's defence declaration for ``seat`` holding ``hand`` after ``said``:
    it counts its own defensive tricks (``evaluate.defender_tricks``) against its share of
    the quota, the joint quota or the lone quota, less ``margin``."""
    first_quota, second_quota, lone = rules.quotas(contract.level)
    own = first_quota if seat == (declarer + 1) % 3 else second_quota
    count = defender_tricks(hand, contract.strain)
    if said in ((), ("play",)):  # the first defender; the second after "play"
        return "play" if count >= own - margin else "pass"
    if said == ("play", "pass"):  # the first defender again: bring the partner in?
        return "alone" if count >= lone + margin else "together"
    if said == ("pass",):  # the second defender, after pass
        if count >= first_quota + second_quota - margin:
            return "together"
        return "play" if count >= lone - margin else "pass"
    return "pass"  # ("pass", "play"): let the partner play alone
