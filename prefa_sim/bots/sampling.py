"""The sampling player: single-dummy decisions from many double-dummy solves.

For each decision it deals the cards it cannot see many times, consistently with what
its seat knows (its own cards, the cards played and who played them, the suits a player
has shown out of, its widow and discard when it declares, the declarer's cards shown
with a claim) and with the auction (a defender gives the declarer twelve cards, lays
away the two the declarer would and keeps layouts whose ten count up to the contract;
the declarer keeps layouts whose defenders would have declared as they did),
solves every sample double-dummy with the engine, and takes the action with the best
average money, not just tricks:

- auction: the widow-aware table of its own hand as declarer in each sample; the value
  of each contract is the declarer's change of result (``Settlement.result``: the pot's
  movement shared in thirds, zero-sum) when the defence either plays or passes, whichever
  leaves the declarer less; it raises or holds while the best contract's average value is
  positive and reachable;
- widow and contract: the same table with the twelve cards known; the contract of best
  average value (a solo when even that is worth less than the solo's price), the discard
  that is best in most samples;
- defence: the declarer's double-dummy tricks against both defenders and against each
  alone in each sample, settled for every declaration sequence still open in the seat's
  own money; the partner's later words come from a model of the partner (the heuristic's
  rule on its hand in that sample), the seat's own later word is the best on average over
  the samples that lead to it;
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

from ..core.cards import ACES_MASK, SUIT_MASKS, Strain, card_suit, iter_cards, popcount
from ..core.contracts import Contract
from ..core.position import Position
from ..core.seats import opening_leader, seats_in_play
from ..rules.deal import Action, Answer, Claim, Declare, Discard, Name, Play, Solo
from ..rules.settlement import DEFENCES, declarer_result, settle
from ..solve.solver import Solver
from .base import SolvingPlayer
from .evaluate import best_discard, declarer_tricks, defender_tricks
from .heuristic import defence_word
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
    declarer_slack: float = 0.0
    """A defender's samples give the declarer ten cards (those kept after the discard)
    that count (``evaluate.declarer_tricks``) at least the contract's level less this:
    the declarer won the auction and named the contract, so the hand is strong."""
    partner_margin: float = 0.0
    """The defence margin of the model of the partner's declarations (the heuristic's
    rule, ``heuristic.defence_word``)."""
    fit_tries: int = 40
    """Samples drawn in search of one that fits the auction (or, for the declarer, the
    defenders' declarations) before one that does not is taken."""
    read_declarations: bool = True
    """The declarer keeps layouts in which the defenders' hands would have made the
    declarations they made, by the model of ``partner_margin`` (the heuristic's rule)."""


def sample_hidden(unknown: int, buckets: list[tuple[int, int]], rng: np.random.Generator,
                  tries: int = 200) -> list[int]:
    """Share the ``unknown`` cards among ``buckets`` of (size, void suits mask), at random
    among the ways that respect the voids.

    With no void known the cards are shuffled and cut.  Otherwise they are placed most
    constrained first (those of suits the fewest places may hold), each at random among
    the places with room that may hold it, weighted by that room; a dead end starts
    again.  ``SampleError`` when ``tries`` attempts find no way (the
    voids and sizes contradict each other).
    """
    cards = list(iter_cards(unknown))
    sizes = [size for size, _ in buckets]
    if sum(sizes) != len(cards):
        raise SampleError(f"{len(cards)} unknown cards for {sum(sizes)} places")
    if not any(voids for _, voids in buckets):  # no void known: shuffle and cut
        order = rng.permutation(len(cards)).tolist()
        out, start = [], 0
        for size in sizes:
            out.append(sum(1 << cards[i] for i in order[start:start + size]))
            start += size
        return out
    allowed_by_suit = [[i for i, (_, voids) in enumerate(buckets) if not voids >> suit & 1]
                       for suit in range(4)]
    for _ in range(tries):
        order = [cards[i] for i in rng.permutation(len(cards)).tolist()]
        order.sort(key=lambda c: len(allowed_by_suit[card_suit(c)]))
        out = [0] * len(buckets)
        room = list(sizes)
        for card in order:
            allowed = [i for i in allowed_by_suit[card_suit(card)] if room[i]]
            if not allowed:
                break
            pick = int(rng.integers(sum(room[i] for i in allowed)))
            for place in allowed:  # each place chosen in proportion to its room
                pick -= room[place]
                if pick < 0:
                    break
            out[place] |= 1 << card
            room[place] -= 1
        else:
            return out
    raise SampleError("no way to deal the unseen cards that respects every void")


def _defence_speaker(declarer: int, said: tuple[str, ...]) -> int:
    """The seat that declares after ``said``: the first defender, then the second, then
    the first again (docs/rules.md §4.3)."""
    return (declarer + (1 if len(said) != 1 else 2)) % 3


def _layout(obs: Observation, places: list[int], shares: list[int]) -> list[int]:
    """The cards each seat holds: the seat's own, the declarer's shown with a claim, and
    each share of the unseen cards dealt to its place (-1: the cards laid away)."""
    hands = [0, 0, 0]
    hands[obs.seat] = obs.hand
    if obs.shown:
        hands[obs.declarer] = obs.shown
    for place, share in zip(places, shares, strict=True):
        if place >= 0:
            hands[place] = share
    return hands


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
        return getattr(self, f"_{obs.phase}")(obs, rng)

    # -- money ---------------------------------------------------------------------------
    @staticmethod
    def _declarer_money(obs: Observation, contract: Contract, sequence: tuple[str, ...],
                        tricks: int, aces: bool = False) -> float:
        """The declarer's change of result when taking ``tricks`` against ``sequence``;
        the defence's is its negative (results are zero-sum)."""
        return float(declarer_result(contract, sequence, tricks, aces=aces, pot=obs.pot,
                                     rules=obs.rules))

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
                for contract in obs.rules.ladder[minimum:]}

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
            table = self.solver.widow_table(hands, widow, leader, obs.seat,
                                            overtrump=obs.rules.overtrump)
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
                                                     obs.seat, overtrump=obs.rules.overtrump)
                    table[strain] = result.best_tricks
                    discards[strain].update(result.best_discards)
                else:
                    hands[obs.seat] = kept
                    table[strain] = self.solver.solve(Position(
                        tuple(hands), strain, leader, obs.seat,
                        overtrump=obs.rules.overtrump))
            tables.append(table)
        return tables, discards

    def _widow(self, obs: Observation, rng) -> Action:
        tables, discards = self._strain_tables(obs, rng, None)
        values = self._contract_values(obs, tables, obs.min_contract.step)
        best, value = max(values.items(), key=lambda kv: (kv[1], kv[0].step))
        solo = float(settle(obs.min_contract, solo=True, pot=obs.pot,
                            rules=obs.rules).result["declarer"])
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
        roles = {(declarer + 1) % 3: "first", (declarer + 2) % 3: "second"}
        sequences = [q for q in DEFENCES if len(q) > len(said) and q[:len(said)] == said]
        samples = []  # per sample: (own money by sequence, the partner's hand)
        for _ in range(self.params.defence):
            hands = self._sample_hands(obs, rng)
            tricks: dict[tuple[int, ...], int] = {}
            money = {}
            for sequence in sequences:
                players = DEFENCES[sequence].players
                active = seats_in_play(declarer, players)
                if players and active not in tricks:
                    position = Position(tuple(hands), obs.contract.strain,
                                        opening_leader(obs.dealer, active), declarer, active,
                                        overtrump=obs.rules.overtrump)
                    tricks[active] = self.solver.solve(position)
                share = self._defence_share(obs, hands, players, tricks.get(active, 10))
                money[sequence] = float(settle(
                    obs.contract, sequence, share, aces=obs.aces, pot=obs.pot,
                    rules=obs.rules).result[roles[obs.seat]])
            samples.append((money, hands[partner]))
        words = self._defence_values(obs, said, samples, partner)
        return Declare(max(words, key=lambda w: (words[w], w)))

    @staticmethod
    def _defence_share(obs: Observation, hands: list[int], players: tuple[str, ...],
                       declarer_tricks: int) -> dict[str, int] | None:
        """Tricks by role for settling: the defence's tricks go to the one playing, or are
        shared between two in proportion to their defensive counts."""
        if not players:
            return None
        rest = 10 - declarer_tricks
        if len(players) == 1:
            return {"declarer": declarer_tricks, players[0]: rest}
        first = hands[(obs.declarer + 1) % 3]
        second = hands[(obs.declarer + 2) % 3]
        a = defender_tricks(first, obs.contract.strain)
        b = defender_tricks(second, obs.contract.strain)
        mine = round(rest * a / (a + b)) if a + b > 0 else rest // 2
        return {"declarer": declarer_tricks, "first": mine, "second": rest - mine}

    def _defence_values(self, obs: Observation, said: tuple[str, ...], samples: list,
                        partner: int) -> dict[str, float]:
        """The average own money of each word this seat may say now.  Later words are
        played out: the partner's by the heuristic's rule on its hand in each sample (a
        model of a partner who sees only its own cards), this seat's own by the word of
        best average over the samples that lead to it."""
        def value(prefix: tuple[str, ...], chosen: list[int]) -> float:
            """Total own money over the samples ``chosen`` from ``prefix`` on."""
            if prefix in DEFENCES:
                return sum(samples[i][0][prefix] for i in chosen)
            words = {q[len(prefix)] for q in DEFENCES if q[:len(prefix)] == prefix
                     and len(q) > len(prefix)}
            if _defence_speaker(obs.declarer, prefix) == obs.seat:
                return max(value(prefix + (w,), chosen) for w in words)
            by_word: dict[str, list[int]] = {}
            for i in chosen:
                w = defence_word(obs.contract, obs.declarer, partner, samples[i][1], prefix,
                                 self.params.partner_margin, obs.rules)
                by_word.setdefault(w if w in words else min(words), []).append(i)
            return sum(value(prefix + (w,), group) for w, group in by_word.items())

        everyone = list(range(len(samples)))
        return {w: value(said + (w,), everyone) / len(samples)
                for w in {q[len(said)] for q in DEFENCES
                          if len(q) > len(said) and q[:len(said)] == said}}

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

    def _sample_hands(self, obs: Observation, rng) -> list[int]:
        """The cards each seat holds now in one layout of the unseen cards that fits what
        this seat knows (``SampleError`` when none does).

        A defender deals the declarer twelve cards less those already played (its hand and
        the discard together; every unseen ace among them when the aces were announced),
        lays away the two the declarer would (``best_discard`` for the contract's strain)
        and keeps the layout when the ten kept count at least the contract's level less
        ``declarer_slack`` (``evaluate.declarer_tricks``) and respect the declarer's shown
        voids; after ``fit_tries`` layouts it takes the one whose declarer counts most.

        The declarer, once the defenders have declared, keeps the layout in which the
        heuristic's rule (``defence_word``) on each defender's ten cards says what that
        defender said; after ``fit_tries`` layouts it takes the one that agrees with the
        most of their words."""
        unknown, places, buckets = self._hidden_buckets(obs)
        if obs.seat == obs.declarer and obs.declarations and self.params.read_declarations:
            return self._declared_layout(obs, unknown, places, buckets, rng)
        model = obs.seat != obs.declarer and obs.declarer in places and -1 in places
        if model:  # the declarer's hand and the discard, dealt as one
            where, gone = places.index(obs.declarer), places.index(-1)
            voids = buckets[where][1]
            aces = ACES_MASK & unknown if obs.aces else 0  # announced: all with the declarer
            unknown &= ~aces
            buckets = list(buckets)
            buckets[where] = (buckets[where][0] + 2 - popcount(aces), 0)
            del buckets[gone]
            del places[gone]
            played = sum(1 << card for seat, card in obs.played if seat == obs.declarer)
            need = obs.contract.level - self.params.declarer_slack - 1e-9  # sums of tenths
        best, best_count = None, None
        for _ in range(self.params.fit_tries if model else 1):
            hands = _layout(obs, places, sample_hidden(unknown, buckets, rng, self.params.tries))
            if not model:
                return hands
            held = hands[obs.declarer] | aces
            low, high = best_discard(held | played, obs.contract.strain, held)
            hands[obs.declarer] = held & ~(1 << low | 1 << high)
            if any(voids >> suit & 1 and hands[obs.declarer] & SUIT_MASKS[suit]
                   for suit in range(4)):
                continue
            count = declarer_tricks(hands[obs.declarer] | played, obs.contract.strain)
            if count >= need:
                return hands
            if best_count is None or count > best_count:
                best, best_count = hands, count
        if best is None:
            raise SampleError("no layout of the unseen cards respects the declarer's voids")
        return best

    def _declared_layout(self, obs: Observation, unknown: int, places: list[int],
                         buckets: list[tuple[int, int]], rng) -> list[int]:
        """The declarer's layout of the unseen cards that fits the defenders' words
        (``_sample_hands``)."""
        said = tuple(obs.declarations)
        played = [0, 0, 0]
        for seat, card in obs.played:
            played[seat] |= 1 << card
        best, best_agree = None, -1
        for _ in range(self.params.fit_tries):
            hands = _layout(obs, places, sample_hidden(unknown, buckets, rng, self.params.tries))
            agree = 0
            for k, word in enumerate(said):
                speaker = _defence_speaker(obs.declarer, said[:k])
                agree += word == defence_word(obs.contract, obs.declarer, speaker,
                                              hands[speaker] | played[speaker], said[:k],
                                              self.params.partner_margin, obs.rules)
            if agree == len(said):
                return hands
            if agree > best_agree:
                best, best_agree = hands, agree
        return best

    def _sample_positions(self, obs: Observation, rng, samples: int) -> list[Position]:
        positions = []
        for _ in range(samples):
            try:
                hands = self._sample_hands(obs, rng)
            except SampleError:
                continue
            positions.append(Position(tuple(hands), obs.contract.strain, obs.leader,
                                      obs.declarer, obs.active, obs.trick,
                                      overtrump=obs.rules.overtrump))
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

