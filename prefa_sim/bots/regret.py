"""Double-dummy regret of the card play in played games: the tricks each card gave away.

Each deal of a games dataset is replayed from its action list; before every card the
solver gives the double-dummy value of each legal card (the declarer's tricks with best
play afterwards), and the card played is compared with the best one: the declarer's
regret is the best value less the card's, a defender's the card's value less the best.
Summed over a deal this is the tricks a player's cards threw away against perfect play
with every card seen: an upper bound on what better play could win, since nobody sees
the cards.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..deal import Deal, Play
from ..game import parse_action
from ..solver import Solver
from ..stats.bidding import players_of
from ..stats.intervals import Estimate, bootstrap_mean


def deal_regret(row, solver: Solver) -> list[tuple[int, bool, int]]:
    """Per card played in a games-dataset row: (seat, is declarer, tricks given away)."""
    deal = Deal([int(row["hand0"]), int(row["hand1"]), int(row["hand2"])], int(row["widow"]),
                int(row["dealer"]), pot=int(row["pot"]))
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
                replicates: int = 2000, seed: int = 0) -> list[Regret]:
    """The card-play regret of every player, as declarer and as defender, over the first
    ``limit`` played rows of a games frame (with its ``actions``)."""
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
        for seat, declarer, lost in deal_regret(row, solver):
            key = ((seat - seating) % 3, "declarer" if declarer else "defender")
            totals[key] = totals.get(key, 0) + lost
            cards.setdefault(key, []).append(lost)
        for key, lost in totals.items():
            per.setdefault(key, []).append(lost)
    return [Regret(labels[k], role, len(per[k, role]),
                   bootstrap_mean(per[k, role], replicates, seed),
                   sum(1 for x in cards[k, role] if x > 0) / len(cards[k, role]))
            for k in range(3) for role in ("declarer", "defender") if (k, role) in per]
