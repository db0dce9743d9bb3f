"""The sampling player: single-dummy decisions from many double-dummy solves.

For each decision it deals the cards it cannot see many times, consistently with what
its seat knows (its own cards, the cards played and who played them, the suits a player
has shown out of, its widow and discard when it declares, the declarer's cards shown
with a claim), solves every sample double-dummy with the engine, and takes the action
with the best average money, not just tricks:

- auction: the widow-aware table of its own hand as declarer in each sample; the value
  of each contract is the declarer's change of result (``Settlement.result``: the pot's
  movement shared in thirds, zero-sum) when the defence either plays or passes, whichever
  leaves the declarer less; it raises or holds while the best contract's average value is
  positive and reachable;
- widow and contract: the same table with the twelve cards known; the contract of best
  average value (a solo when even that is worth less than the solo's price), the discard
  that is best in most samples;
- defence: the declarer's double-dummy tricks against both defenders and against each
  alone in each sample, settled for every declaration sequence still open, the defence
  choosing the word that leaves the declarer least on average (results are zero-sum, so
  this is what pays the defence most);
- play: per-card double-dummy values in each sample, turned into the money the final
  trick count pays the player's side (the declarer, or the two defenders together),
  averaged; claims and answers when every sample agrees.

Every decision is a function of the observation and the generator alone: nothing is kept
between calls, so the same seed gives the same choices in any process.

Known weaknesses of the method (docs/players.md): strategy fusion (each sample is solved
as if the rest of the cards were then known), and double-dummy defenders never err, so a
line that only gains from an error scores nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from ..cards import Strain, card_suit, iter_cards
from ..contracts import LADDER, Contract
from ..deal import Action, Answer, Claim, Declare, Discard, Name, Play, Solo
from ..position import Position
from ..seats import opening_leader
from ..settlement import DEFENCES, settle
from ..solver import Solver
from .base import SolvingPlayer
from .observation import Observation

ALL = (1 << 32) - 1


@dataclass(frozen=True)
class SamplingParams:
    """Samples per decision, by kind of decision."""

    bidding: int = 10
    widow: int = 12
    defence: int = 20
    play: int = 20
    tries: int = 200
    """Attempts to deal one sample that respects every void."""


def sample_hidden(unknown: int, buckets: list[tuple[int, int]], rng: np.random.Generator,
                  tries: int = 200) -> list[int]:
    """Share the ``unknown`` cards among ``buckets`` of (size, void suits mask), at random
    among the ways that respect the voids.

    Cards are placed most constrained first (those of suits the fewest places may hold),
    each at random among the places with room that may hold it, weighted by that room;
    a dead end starts again.  ``SampleError`` when ``tries`` attempts find no way (the
    voids and sizes contradict each other).
    """
    cards = list(iter_cards(unknown))
    sizes = [size for size, _ in buckets]
    if sum(sizes) != len(cards):
        raise SampleError(f"{len(cards)} unknown cards for {sum(sizes)} places")
    allowed_by_suit = [[i for i, (_, voids) in enumerate(buckets) if not voids >> suit & 1]
                       for suit in range(4)]
    for _ in range(tries):
        order = [cards[i] for i in rng.permutation(len(cards))]
        order.sort(key=lambda c: len(allowed_by_suit[card_suit(c)]))
        out = [0] * len(buckets)
        room = list(sizes)
        for card in order:
            allowed = [i for i in allowed_by_suit[card_suit(card)] if room[i]]
            if not allowed:
                break
            weights = np.array([room[i] for i in allowed], dtype=float)
            pick = allowed[int(rng.choice(len(allowed), p=weights / weights.sum()))]
            out[pick] |= 1 << card
            room[pick] -= 1
        else:
            return out
    raise SampleError("no way to deal the unseen cards that respects every void")


class SampleError(ValueError):
    """Unseen cards that cannot be dealt as the seat's knowledge requires."""


def shown_voids(obs: Observation) -> dict[int, int]:
    """The suits each seat has shown out of (a mask of suits 0-3 by seat): it did not
    follow suit, and in a trump contract did not trump either."""
    voids = {0: 0, 1: 0, 2: 0}
    if not obs.played or not obs.active:
        return voids
    size = len(obs.active)
    trump = obs.contract.strain
    cards = obs.played
    for start in range(0, len(cards), size):
        trick = cards[start:start + size]
        led = card_suit(trick[0][1])
        for seat, card in trick[1:]:
            suit = card_suit(card)
            if suit != led:
                voids[seat] |= 1 << led
                if trump != Strain.NT and suit != int(trump):
                    voids[seat] |= 1 << int(trump)
    return voids


class SamplingPlayer(SolvingPlayer):
    """Average money over double-dummy solves of sampled deals (see the module)."""

    name = "sampling"

    def __init__(self, params: SamplingParams | None = None, solver: Solver | None = None):
        super().__init__(solver)
        self.params = params or SamplingParams()

    def act(self, obs: Observation, rng: np.random.Generator) -> Action:
        action = getattr(self, f"_{obs.phase}")(obs, rng)
        return action if action in obs.legal else obs.legal[0]

    # -- money ---------------------------------------------------------------------------
    @staticmethod
    def _declarer_money(obs: Observation, contract: Contract, sequence: tuple[str, ...],
                        tricks: int, aces: bool = False) -> float:
        """The declarer's change of result (``Settlement.result``) when taking ``tricks``
        against ``sequence``; the defence's is its negative (results are zero-sum), and
        the share of the defenders' tricks changes neither."""
        players = DEFENCES[sequence].players
        share = {"declarer": tricks, players[0]: 10 - tricks} if players else None
        return float(settle(contract, sequence, share, aces=aces, pot=obs.pot,
                            last_contract=obs.last_contract).result["declarer"])

    def _declarer_value(self, obs: Observation, contract: Contract, tricks: int,
                        aces: bool = False) -> float:
        """The declarer's money when the defence plays (both) or passes, whichever leaves
        the declarer less."""
        return min(self._declarer_money(obs, contract, seq, tricks, aces)
                   for seq in (("play", "play"), ("pass", "pass")))

    def _contract_values(self, obs: Observation, tables: list[dict], minimum: int,
                         aces: bool = False) -> dict:
        """Average declarer money of each contract from ``minimum`` up, sample by sample."""
        return {contract: sum(self._declarer_value(obs, contract, t[contract.strain], aces)
                              for t in tables) / len(tables)
                for contract in LADDER[minimum:]}

    # -- auction ---------------------------------------------------------------------------
    def _declarer_tables(self, obs: Observation, rng, samples: int) -> list[dict]:
        """Per sample: the best tricks per strain of this seat as declarer (widow-aware,
        both defenders playing), before the widow is seen."""
        others = [s for s in range(3) if s != obs.seat]
        leader = opening_leader(obs.dealer, (0, 1, 2))
        tables = []
        for _ in range(samples):
            a, b, widow = sample_hidden(ALL & ~obs.hand, [(10, 0), (10, 0), (2, 0)], rng,
                                        self.params.tries)
            hands = [0, 0, 0]
            hands[obs.seat], hands[others[0]], hands[others[1]] = obs.hand, a, b
            table = self.solver.widow_table(hands, widow, leader, obs.seat)
            tables.append({s: r.best_tricks for s, r in table.items()})
        return tables

    def _auction(self, obs: Observation, rng) -> Action:
        tables = self._declarer_tables(obs, rng, self.params.bidding)
        values = self._contract_values(obs, tables, 0)
        best, value = max(values.items(), key=lambda kv: (kv[1], kv[0].step))
        if value <= 0:
            return obs.legal[0]  # pass
        for call in obs.legal:
            if call.kind == "raise" and call.contract.step <= best.step:
                return call
        high = max((c.contract.step for _, c in obs.calls if c.kind == "raise"), default=-1)
        for call in obs.legal:
            if call.kind == "hold" and high <= best.step:
                return call
        return obs.legal[0]

    # -- widow and contract ------------------------------------------------------------------
    def _strain_tables(self, obs: Observation, rng, kept: int | None
                       ) -> tuple[list[dict], dict[Strain, Counter]]:
        """Per sample of the other hands: the best tricks per strain, with the best discard
        from the twelve cards (``kept`` None) or with the ten ``kept`` after it."""
        twelve = obs.hand | (obs.discard or 0)
        others = [s for s in range(3) if s != obs.seat]
        leader = opening_leader(obs.dealer, (0, 1, 2))
        tables, discards = [], {s: Counter() for s in Strain}
        for _ in range(self.params.widow):
            a, b = sample_hidden(ALL & ~twelve, [(10, 0), (10, 0)], rng, self.params.tries)
            hands = [0, 0, 0]
            hands[others[0]], hands[others[1]] = a, b
            table = {}
            for strain in Strain:
                if kept is None:
                    hands[obs.seat] = twelve & ~obs.widow
                    result = self.solver.solve_widow(hands, obs.widow, strain, leader,
                                                     obs.seat)
                    table[strain] = result.best_tricks
                    discards[strain].update(result.best_discards)
                else:
                    hands[obs.seat] = kept
                    table[strain] = self.solver.solve(Position(tuple(hands), strain, leader,
                                                               obs.seat))
            tables.append(table)
        return tables, discards

    def _widow(self, obs: Observation, rng) -> Action:
        tables, discards = self._strain_tables(obs, rng, None)
        values = self._contract_values(obs, tables, obs.min_contract.step)
        best, value = max(values.items(), key=lambda kv: (kv[1], kv[0].step))
        solo = float(settle(obs.min_contract, solo=True, pot=obs.pot,
                            last_contract=obs.last_contract).result["declarer"])
        if value < solo:
            return Solo()
        return Discard(discards[best.strain].most_common(1)[0][0])

    def _contract(self, obs: Observation, rng) -> Action:
        tables, _ = self._strain_tables(obs, rng, obs.hand)
        values = self._contract_values(obs, tables, obs.min_contract.step)
        best, value = max(values.items(), key=lambda kv: (kv[1], kv[0].step))
        aces = Name(best, True)
        if aces in obs.legal:
            with_aces = self._contract_values(obs, tables, best.step, aces=True)[best]
            if with_aces > value:
                return aces
        return Name(best)

    # -- defence ----------------------------------------------------------------------------
    def _defence(self, obs: Observation, rng) -> Action:
        said = tuple(obs.declarations)
        declarer = obs.declarer
        partner = 3 - declarer - obs.seat
        unknown = ALL & ~obs.hand
        open_sequences = [seq for seq in DEFENCES
                          if len(seq) > len(said) and seq[:len(said)] == said]
        totals = dict.fromkeys(open_sequences, 0)
        roles = {"first": (declarer + 1) % 3, "second": (declarer + 2) % 3}
        for _ in range(self.params.defence):
            d_hand, p_hand, _discard = sample_hidden(unknown, [(10, 0), (10, 0), (2, 0)], rng,
                                                     self.params.tries)
            hands = [0, 0, 0]
            hands[declarer], hands[partner], hands[obs.seat] = d_hand, p_hand, obs.hand
            tricks: dict[tuple[int, ...], int] = {}
            for sequence in open_sequences:
                players = DEFENCES[sequence].players
                active = tuple(sorted({declarer, *(roles[r] for r in players)}))
                if players and active not in tricks:
                    position = Position(tuple(hands), obs.contract.strain,
                                        opening_leader(obs.dealer, active), declarer, active)
                    tricks[active] = self.solver.solve(position)
                totals[sequence] -= self._declarer_money(obs, obs.contract, sequence,
                                                         tricks.get(active, 10), obs.aces)
        # Each word leads to the sequences after it; the defence's best continuation counts.
        by_word: dict[str, float] = {}
        for sequence, total in totals.items():
            word = sequence[len(said)]
            by_word[word] = max(by_word.get(word, total), total)
        return Declare(max(by_word, key=lambda w: (by_word[w], w)))

    # -- play -------------------------------------------------------------------------------
    def _hidden_buckets(self, obs: Observation) -> tuple[int, list[int], list[tuple[int, int]]]:
        """The cards this seat cannot see, the seats (or -1 for laid-away cards) they lie
        with, and each place's size and known voids."""
        voids = shown_voids(obs)
        played_by = Counter(seat for seat, _ in obs.played)
        places, buckets = [], []
        for seat in range(3):
            if seat == obs.seat:
                continue
            if obs.shown and seat == obs.declarer:
                continue  # the claim showed the declarer's cards
            size = 10 - played_by[seat]
            places.append(seat)
            buckets.append((size, voids[seat]))
        if obs.widow is None or obs.discard is None:  # the discard (or widow) is unseen
            places.append(-1)
            buckets.append((2, 0))
        unknown = ALL & ~obs.seen
        return unknown, places, buckets

    def _sample_positions(self, obs: Observation, rng, samples: int) -> list[Position]:
        unknown, places, buckets = self._hidden_buckets(obs)
        positions = []
        for _ in range(samples):
            try:
                shares = sample_hidden(unknown, buckets, rng, self.params.tries)
            except SampleError:
                continue
            hands = [0, 0, 0]
            hands[obs.seat] = obs.hand
            if obs.shown:
                hands[obs.declarer] = obs.shown
            for place, share in zip(places, shares, strict=True):
                if place >= 0:
                    hands[place] = share
            positions.append(Position(tuple(hands), obs.contract.strain, obs.leader,
                                      obs.declarer, obs.active, obs.trick))
        return positions

    def _money_by_tricks(self, obs: Observation) -> list[int]:
        """This seat's side's money for each final count of the declarer's tricks 0-10:
        the declarer's, or the defence's together."""
        sequence = tuple(obs.declarations)
        sign = 1 if obs.seat == obs.declarer else -1
        return [sign * self._declarer_money(obs, obs.contract, sequence, t, obs.aces)
                for t in range(11)]

    def _play(self, obs: Observation, rng) -> Action:
        cards = [a.card for a in obs.legal if isinstance(a, Play)]
        if len(cards) == 1 and Claim() not in obs.legal:
            return Play(cards[0])
        positions = self._sample_positions(obs, rng, self.params.play)
        if not positions:  # no layout fits what the seat saw: play the lowest card
            return Play(min(cards))
        so_far = obs.tricks[obs.declarer]
        money = self._money_by_tricks(obs)
        if Claim() in obs.legal:
            left = positions[0].tricks_left
            if all(self.solver.solve(p) == left for p in positions):
                return Claim()
        totals = dict.fromkeys(cards, 0)
        for position in positions:
            for card, tricks in self.solver.card_values(position).items():
                totals[card] += money[min(10, so_far + tricks)]
        best = max(totals.values())
        return Play(min(c for c, v in totals.items() if v == best))

    def _claim(self, obs: Observation, rng) -> Action:
        positions = self._sample_positions(obs, rng, self.params.play)
        if not positions:
            return Answer(False)
        left = positions[0].tricks_left
        return Answer(all(self.solver.solve(p) == left for p in positions))

