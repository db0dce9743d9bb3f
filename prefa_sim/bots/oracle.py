"""The oracle: a player that sees every card and plays double-dummy.

It cheats by design (``sees_all_cards``): it is the upper bound that the other players
are measured against, never a fair opponent.  It bids to the best contract the
widow-aware double-dummy table allows (by trick value, as ``best_contract``), discards
and names as that table says, declares the defence that leaves the declarer least, plays
the card of best double-dummy value, claims when double-dummy play takes every remaining
trick and accepts a claim exactly then.
"""

from __future__ import annotations

import numpy as np

from ..core.position import Position
from ..core.seats import opening_leader, seats_in_play
from ..rules.deal import Action, Answer, Claim, Declare, Discard, Name, Play, Solo
from ..rules.settlement import DEFENCES, declarer_result
from ..solve.solver import Solver
from .base import SolvingPlayer
from .observation import Observation


class OraclePlayer(SolvingPlayer):
    """Double-dummy with every card seen (cheating: an upper bound)."""

    name = "oracle"
    sees_all_cards = True

    def __init__(self, solver: Solver | None = None) -> None:
        super().__init__(solver)
        self._tables: dict[tuple, dict] = {}
        """Widow tables of the deal in play (it sees every card: no chance involved)."""

    def act(self, obs: Observation, rng: np.random.Generator) -> Action:
        return getattr(self, f"_{obs.phase}")(obs)

    def _table(self, obs: Observation, seat: int) -> dict:
        """The widow table of ``seat`` as declarer (both defenders playing), cached per deal."""
        everything = obs.all_cards
        deal = everything.deal
        key = (tuple(deal.hands_dealt), everything.widow, deal.dealer, seat)
        if key not in self._tables:
            if len(self._tables) > 64:
                self._tables.clear()
            leader = opening_leader(deal.dealer, (0, 1, 2))
            self._tables[key] = self.solver.widow_table(list(deal.hands_dealt),
                                                        everything.widow, leader, seat,
                                                        overtrump=deal.rules.overtrump)
        return self._tables[key]

    def _auction(self, obs: Observation) -> Action:
        table = self._table(obs, obs.seat)
        target = obs.rules.best_contract({s: r.best_tricks for s, r in table.items()})
        best = target.step if target is not None else -1
        for call in obs.legal:
            if call.kind == "raise" and call.contract.step <= best:
                return call
        high = max((c.contract.step for _, c in obs.calls if c.kind == "raise"), default=-1)
        for call in obs.legal:
            if call.kind == "hold" and high <= best:
                return call
        return obs.legal[0]  # pass

    def _widow(self, obs: Observation) -> Action:
        contract = self._named(obs)
        if contract is None:
            return Solo()
        result = self._table(obs, obs.seat)[contract.strain]
        return Discard(result.best_discards[0])

    def _named(self, obs: Observation):
        table = self._table(obs, obs.seat)
        return obs.rules.best_contract({s: r.best_tricks for s, r in table.items()},
                                       obs.min_contract)

    def _contract(self, obs: Observation) -> Action:
        contract = self._named(obs)
        if contract is None:  # the discard was made for the solo's alternative
            contract = obs.min_contract
        aces = Name(contract, True)
        return aces if aces in obs.legal else Name(contract)

    def _defence(self, obs: Observation) -> Action:
        deal = obs.all_cards.deal
        said = tuple(obs.declarations)
        best_word, best_cost = None, None
        for sequence, defence in DEFENCES.items():
            if len(sequence) <= len(said) or sequence[:len(said)] != said:
                continue
            tricks = 10
            if defence.players:
                active = seats_in_play(deal.declarer, defence.players)
                tricks = self.solver.solve(Position(
                    tuple(deal.hands), deal.contract.strain, opening_leader(deal.dealer, active),
                    deal.declarer, active, overtrump=deal.rules.overtrump))
            # Results are zero-sum: what leaves the declarer least pays the defence most.
            cost = declarer_result(deal.contract, sequence, tricks, aces=deal.aces,
                                   pot=deal.pot, rules=deal.rules)
            if best_cost is None or cost < best_cost:
                best_word, best_cost = sequence[len(said)], cost
        return Declare(best_word)

    def _play(self, obs: Observation) -> Action:
        position = obs.all_cards.deal.position
        if Claim() in obs.legal and self.solver.solve(position) == position.tricks_left:
            return Claim()
        values = self.solver.card_values(position)
        pick = max if obs.seat == obs.declarer else min
        best = pick(values.values())
        return Play(min(c for c, v in values.items() if v == best))

    def _claim(self, obs: Observation) -> Action:
        position = obs.all_cards.deal.position
        return Answer(self.solver.solve(position) == position.tricks_left)

