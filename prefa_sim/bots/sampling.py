"""The sampling player: single-dummy decisions from many double-dummy solves.

For each decision it deals the cards it cannot see many times, consistently with what
its seat knows (its own cards, the cards played and who played them, the suits a player
has shown out of, its widow and discard when it declares, the declarer's cards shown
with a claim), solves every sample double-dummy with the engine, and takes the action
with the best average money, not just tricks:

- auction: the widow-aware table of its own hand as declarer in each sample; the value
  of each contract is what the declarer nets when the defence either plays or passes,
  whichever costs the declarer more; it raises or holds while the best contract's
  average value is positive and reachable;
- widow and contract: the same table with the twelve cards known; the contract of best
  average value (a solo when even that is worth less than the solo's price), the discard
  that is best in most samples;
- defence: the declarer's double-dummy tricks against both defenders and against each
  alone in each sample, settled for every declaration sequence still open, the defence
  choosing the word that costs the declarer most on average;
- play: per-card double-dummy values in each sample, turned into the money the final
  trick count pays, averaged; claims and answers when every sample agrees.

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
from .base import Player
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
    """Attempts to deal one sample that respects every void before voids are ignored."""


def sample_hidden(unknown: int, buckets: list[tuple[int, int]], rng: np.random.Generator,
                  tries: int = 200) -> list[int]:
    """Share the ``unknown`` cards among ``buckets`` of (size, void suits mask), at random
    among the ways that respect the voids (the last resort ignores them)."""
    cards = np.array(list(iter_cards(unknown)), dtype=np.int64)
    sizes = [size for size, _ in buckets]
    if sum(sizes) != len(cards):
        raise ValueError(f"{len(cards)} unknown cards for {sum(sizes)} places")
    for attempt in range(tries + 1):
        order = rng.permutation(cards)
        out = [0] * len(buckets)
        room = list(sizes)
        ok = True
        for card in order.tolist():
            suit_bit = 1 << card_suit(card)
            allowed = [i for i, (_, voids) in enumerate(buckets)
                       if room[i] and (attempt == tries or not voids & suit_bit)]
            if not allowed:
                ok = False
                break
            weights = np.array([room[i] for i in allowed], dtype=float)
            pick = allowed[int(rng.choice(len(allowed), p=weights / weights.sum()))]
            out[pick] |= 1 << card
            room[pick] -= 1
        if ok:
            return out
    raise AssertionError("unreachable: the last attempt ignores the voids")


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


class SamplingPlayer(Player):
    """Average money over double-dummy solves of sampled deals (see the module)."""

    name = "sampling"

    def __init__(self, params: SamplingParams | None = None, solver: Solver | None = None):
        self.params = params or SamplingParams()
        self._solver = solver
        self._cache: dict = {}

    @property
    def solver(self) -> Solver:
        if self._solver is None:
            self._solver = Solver()
        return self._solver

    def act(self, obs: Observation, rng: np.random.Generator) -> Action:
        action = getattr(self, f"_{obs.phase}")(obs, rng)
        return action if action in obs.legal else obs.legal[0]

    # -- money ---------------------------------------------------------------------------
    @staticmethod
    def _declarer_money(contract: Contract, sequence: tuple[str, ...], tricks: int,
                        pot: int) -> int:
        """What the declarer nets with ``tricks`` against ``sequence`` (the share of the
        defenders' tricks does not matter to the declarer)."""
        players = DEFENCES[sequence].players
        share = {"declarer": tricks, players[0]: 10 - tricks} if players else None
        return settle(contract, sequence, share, pot=pot).net["declarer"]

    def _contract_values(self, tables: list[dict], minimum: int, pot: int) -> dict:
        """Average declarer money of each contract from ``minimum`` up, the defence either
        playing (both) or passing, whichever costs the declarer more, sample by sample."""
        values = {}
        for contract in LADDER[minimum:]:
            total = 0
            for table in tables:
                t = table[contract.strain]
                total += min(self._declarer_money(contract, ("play", "play"), t, pot),
                             self._declarer_money(contract, ("pass", "pass"), t, pot))
            values[contract] = total / len(tables)
        return values

    # -- auction ---------------------------------------------------------------------------
    def _declarer_tables(self, obs: Observation, rng, samples: int) -> list[dict]:
        """Per sample: the best tricks per strain of this seat as declarer (widow-aware,
        both defenders playing), before the widow is seen."""
        key = ("auction", obs.seat, obs.hand, obs.dealer)
        if key in self._cache:
            return self._cache[key]
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
        self._remember(key, tables)
        return tables

    def _auction(self, obs: Observation, rng) -> Action:
        tables = self._declarer_tables(obs, rng, self.params.bidding)
        values = self._contract_values(tables, 0, obs.pot)
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
    def _widow_plan(self, obs: Observation, rng) -> tuple[Contract | None, tuple[int, int]]:
        """The contract to name (None: concede a solo) and the discard, from the twelve."""
        twelve = obs.hand | (obs.discard or 0)
        key = ("widow", obs.seat, twelve, obs.dealer, obs.min_contract)
        if key in self._cache:
            return self._cache[key]
        others = [s for s in range(3) if s != obs.seat]
        leader = opening_leader(obs.dealer, (0, 1, 2))
        tables, discards = [], {s: Counter() for s in Strain}
        for _ in range(self.params.widow):
            a, b = sample_hidden(ALL & ~twelve, [(10, 0), (10, 0)], rng, self.params.tries)
            hands = [0, 0, 0]
            hands[obs.seat], hands[others[0]], hands[others[1]] = twelve & ~obs.widow, a, b
            table = {}
            for strain in Strain:
                result = self.solver.solve_widow(hands, obs.widow, strain, leader, obs.seat)
                table[strain] = result.best_tricks
                discards[strain].update(result.best_discards)
            tables.append(table)
        values = self._contract_values(tables, obs.min_contract.step, obs.pot)
        best, value = max(values.items(), key=lambda kv: (kv[1], kv[0].step))
        solo = settle(obs.min_contract, solo=True, pot=obs.pot).net["declarer"]
        plan = (None if value < solo else best,
                discards[best.strain].most_common(1)[0][0])
        self._remember(key, plan)
        return plan

    def _widow(self, obs: Observation, rng) -> Action:
        contract, pair = self._widow_plan(obs, rng)
        return Solo() if contract is None else Discard(pair)

    def _contract(self, obs: Observation, rng) -> Action:
        contract, _ = self._widow_plan(obs, rng)
        contract = contract or obs.min_contract
        aces = Name(contract, True)
        return aces if aces in obs.legal else Name(contract)

    def _remember(self, key, value) -> None:
        if len(self._cache) > 256:
            self._cache.clear()
        self._cache[key] = value

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
                totals[sequence] += self._declarer_money(obs.contract, sequence,
                                                         tricks.get(active, 10), obs.pot)
        # Each word leads to the sequences after it; the defence's best continuation counts.
        by_word: dict[str, float] = {}
        for sequence, total in totals.items():
            word = sequence[len(said)]
            by_word[word] = min(by_word.get(word, total), total)
        return Declare(min(by_word, key=lambda w: (by_word[w], w)))

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
            shares = sample_hidden(unknown, buckets, rng, self.params.tries)
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
        """The declarer's money for each final trick count 0-10."""
        sequence = tuple(obs.declarations)
        return [self._declarer_money(obs.contract, sequence, t, obs.pot) for t in range(11)]

    def _play(self, obs: Observation, rng) -> Action:
        cards = [a.card for a in obs.legal if isinstance(a, Play)]
        if len(cards) == 1 and Claim() not in obs.legal:
            return Play(cards[0])
        positions = self._sample_positions(obs, rng, self.params.play)
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
        pick = max if obs.seat == obs.declarer else min
        best = pick(totals.values())
        return Play(min(c for c, v in totals.items() if v == best))

    def _claim(self, obs: Observation, rng) -> Action:
        positions = self._sample_positions(obs, rng, self.params.play)
        left = positions[0].tricks_left
        return Answer(all(self.solver.solve(p) == left for p in positions))

