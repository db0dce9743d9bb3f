"""Double-dummy regret in played games: what each decision gave away against the best
choice with every card seen.

The card play (``play_regret``): each deal of a games dataset is replayed from its
action list; before every card the
solver gives the double-dummy value of each legal card (the declarer's tricks with best
play afterwards), and the card played is compared with the best one: the declarer's
regret is the best value less the card's, a defender's the card's value less the best.
Summed over a deal this is the tricks a player's cards threw away against perfect play
with every card seen: an upper bound on what better play could win, since nobody sees
the cards.

The decisions before the play (``decision_regret``): the discard in tricks, the contract
(or the solo) and the defence declarations in kapíkia, each against the best choice
double dummy (``deal_decision_regret``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pandas as pd

from ..core.cards import ACES_MASK, Strain
from ..core.contracts import Contract
from ..core.position import Position
from ..core.seats import opening_leader, seats_in_play
from ..rules.deal import Deal, Play
from ..rules.game import parse_action
from ..rules.settlement import DEFENCES, declarer_result, settle
from ..rules.variants import DEFAULT_RULES, Rules
from ..solve.solver import Solver
from ..stats.bidding import players_of
from ..stats.intervals import Estimate, bootstrap_mean


def deal_regret(row, solver: Solver, rules: Rules = DEFAULT_RULES
                ) -> list[tuple[int, bool, int]]:
    """Per card played in a games-dataset row (played under ``rules``): (seat, is declarer,
    tricks given away)."""
    deal = Deal([int(row["hand0"]), int(row["hand1"]), int(row["hand2"])], int(row["widow"]),
                int(row["dealer"]), pot=int(row["pot"]), rules=rules)
    out = []
    for token in row["actions"]:
        action = parse_action(deal, token)
        if isinstance(action, Play) and deal.phase == "play":
            values = solver.card_values(deal.position)
            seat = deal.current_player()
            declarer = seat == deal.declarer
            best = max(values.values()) if declarer else min(values.values())
            lost = best - values[action.card] if declarer else values[action.card] - best
            out.append((seat, declarer, lost))
        deal.apply(action)
    return out


@dataclass(frozen=True)
class Regret:
    """A player's double-dummy tricks given away per deal in one role."""

    player: str
    role: str
    deals: int
    tricks: Estimate
    """Tricks given away per deal played in this role."""
    error_rate: float
    """The share of this player's cards in this role that gave a trick or more away."""


def play_regret(games: pd.DataFrame, limit: int = 200, solver: Solver | None = None,
                replicates: int = 2000, seed: int = 0,
                rules: Rules = DEFAULT_RULES) -> list[Regret]:
    """The card-play regret of every player, as declarer and as defender, over the first
    ``limit`` played rows of a games frame (with its ``actions``) played under ``rules``."""
    solver = solver or Solver()
    rows = games[~games["void"] & ~games["solo"]]
    rows = rows[rows["declarations"] != "pass,pass"].head(limit)
    per: dict[tuple[int, str], list[int]] = {}
    cards: dict[tuple[int, str], list[int]] = {}
    if rows.empty:
        return []
    labels = players_of(rows)
    for _, row in rows.iterrows():
        seating = int(row["seating"])
        totals: dict[tuple[int, str], int] = {}
        for seat, declarer, lost in deal_regret(row, solver, rules):
            key = ((seat - seating) % 3, "declarer" if declarer else "defender")
            totals[key] = totals.get(key, 0) + lost
            cards.setdefault(key, []).append(lost)
        for key, lost in totals.items():
            per.setdefault(key, []).append(lost)
    return [Regret(labels[k], role, len(per[k, role]),
                   _given_away(per[k, role], replicates, seed),
                   sum(1 for x in cards[k, role] if x > 0) / len(cards[k, role]))
            for k in range(3) for role in ("declarer", "defender") if (k, role) in per]


def _given_away(values: list[float], replicates: int, seed: int) -> Estimate:
    """The mean of what was given away (never below zero, nor its interval: a t interval
    over few deals would reach below)."""
    e = bootstrap_mean(values, replicates, seed)
    return dataclasses.replace(e, low=max(0.0, e.low))


# -- the decisions before the play -------------------------------------------------------

DECISIONS = ("discard", "contract", "defence")
"""The decisions before the play whose regret the double-dummy solver can tell: the
discard (tricks), the contract or the solo (kapíkia), the defence declarations
(kapíkia).  The auction's calls have none: what a call is worth depends on the others'
later calls, which no single solve gives."""


@dataclass(frozen=True)
class DecisionRegret:
    """What one kind of decision of one player gave away per decision against the best
    choice with every card seen."""

    player: str
    decision: str
    unit: str
    """``tricks`` or ``kapíkia``."""
    decisions: int
    value: Estimate
    error_rate: float
    """The share of these decisions that gave anything away."""


class _Layout:
    """One deal's cards after the auction, with double-dummy tricks by strain, kept ten
    cards and seats in play, cached."""

    def __init__(self, deal: Deal, solver: Solver) -> None:
        self.deal, self.solver = deal, solver
        self.declarer = deal.declarer
        self._tricks: dict = {}

    def tricks(self, kept: int, strain: Strain, active: tuple[int, ...]) -> int:
        key = (kept, strain, active)
        if key not in self._tricks:
            hands = list(self.deal.hands)
            hands[self.declarer] = kept
            leader = opening_leader(self.deal.dealer, active)
            self._tricks[key] = self.solver.solve(Position(
                tuple(hands), strain, leader, self.declarer, active,
                overtrump=self.deal.rules.overtrump))
        return self._tricks[key]

    def by_sequence(self, kept: int, contract: Contract, aces: bool) -> dict:
        """The declarer's money (``Settlement.result``) against each declaration
        sequence, the play double-dummy."""
        out = {}
        for sequence, defence in DEFENCES.items():
            tricks = 10
            if defence.players:
                tricks = self.tricks(kept, contract.strain,
                                     seats_in_play(self.declarer, defence.players))
            out[sequence] = float(declarer_result(contract, sequence, tricks, aces=aces,
                                                  pot=self.deal.pot,
                                                  rules=self.deal.rules))
        return out

    def against_best_defence(self, kept: int, contract: Contract, aces: bool) -> float:
        return min(self.by_sequence(kept, contract, aces).values())


def deal_decision_regret(row, solver: Solver, rules: Rules = DEFAULT_RULES
                         ) -> list[tuple[int, str, float]]:
    """Per decision before the play in a games-dataset row: (seat, decision, given away).

    - discard: the declarer's tricks in the named strain (both defenders playing) with
      the best of the 66 discards less with the one laid away;
    - contract: the declarer's money against the best defence with the best contract
      (any allowed, with or without the aces) or the solo, less with the choice made;
    - defence: the declarer's money against the declarations said, less against the best
      defence: charged to both defenders (each said a word of it).
    """
    deal = Deal([int(row["hand0"]), int(row["hand1"]), int(row["hand2"])], int(row["widow"]),
                int(row["dealer"]), pot=int(row["pot"]), rules=rules)
    actions = iter(row["actions"])
    while deal.phase == "auction":
        deal.apply(parse_action(deal, next(actions)))
    if deal.phase != "widow":
        return []  # void
    layout = _Layout(deal, solver)
    declarer = deal.declarer
    twelve = deal.hands[declarer]
    lowest = deal.auction.min_contract
    solo = float(settle(lowest, solo=True, pot=deal.pot,
                        rules=deal.rules).result["declarer"])
    deal.apply(parse_action(deal, next(actions)))
    options = [solo]
    may_aces = twelve & ACES_MASK == ACES_MASK
    out = []
    if deal.solo:
        for strain in Strain:  # each strain with its best discard (both defenders)
            hands = list(deal.hands_dealt)
            best = solver.solve_widow(hands, deal.widow, strain,
                                      opening_leader(deal.dealer, (0, 1, 2)), declarer,
                                      overtrump=deal.rules.overtrump)
            low, high = best.best_discards[0]
            kept = twelve & ~(1 << low | 1 << high)
            options += [layout.against_best_defence(kept, c, aces)
                        for c in deal.rules.ladder[lowest.step:] if c.strain == strain
                        for aces in ((False, True) if may_aces else (False,))]
        out.append((declarer, "contract", max(options) - solo))
        return out
    deal.apply(parse_action(deal, next(actions)))  # the contract
    kept, contract = deal.hands[declarer], deal.contract
    hands = list(deal.hands_dealt)
    best = solver.solve_widow(hands, deal.widow, contract.strain,
                              opening_leader(deal.dealer, (0, 1, 2)), declarer,
                              overtrump=deal.rules.overtrump)
    out.append((declarer, "discard",
                best.best_tricks - layout.tricks(kept, contract.strain, (0, 1, 2))))
    options += [layout.against_best_defence(kept, c, aces) for c in deal.rules.ladder[lowest.step:]
                for aces in ((False, True) if may_aces else (False,))]
    chosen = layout.by_sequence(kept, contract, deal.aces)
    out.append((declarer, "contract", max(options) - min(chosen.values())))
    while deal.phase == "defence":
        deal.apply(parse_action(deal, next(actions)))
    given = chosen[tuple(deal.declarations)] - min(chosen.values())
    out += [((declarer + 1) % 3, "defence", given), ((declarer + 2) % 3, "defence", given)]
    return out


def decision_regret(games: pd.DataFrame, limit: int = 200, solver: Solver | None = None,
                    replicates: int = 2000, seed: int = 0,
                    rules: Rules = DEFAULT_RULES) -> list[DecisionRegret]:
    """The regret of every player's discards, contracts and defence declarations over the
    first ``limit`` rows of a games frame (with its ``actions``) that were not void."""
    solver = solver or Solver()
    rows = games[~games["void"]].head(limit)
    if rows.empty:
        return []
    labels = players_of(rows)
    per: dict[tuple[int, str], list[float]] = {}
    for _, row in rows.iterrows():
        seating = int(row["seating"])
        for seat, decision, lost in deal_decision_regret(row, solver, rules):
            per.setdefault(((seat - seating) % 3, decision), []).append(lost)
    units = {"discard": "tricks", "contract": "kapíkia", "defence": "kapíkia"}
    return [DecisionRegret(labels[k], d, units[d], len(per[k, d]),
                           _given_away(per[k, d], replicates, seed),
                           sum(1 for x in per[k, d] if x > 1e-9) / len(per[k, d]))
            for d in DECISIONS for k in range(3) if (k, d) in per]
