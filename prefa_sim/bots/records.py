"""Games at scale: deals played by players, one Parquet row per deal and seating.

``prefa games`` runs through the same machinery as ``prefa simulate`` (seeds, chunks,
atomic part files, resume, local cores or Dask); only the work of a chunk differs.  Deal
``i`` of the seed has the cards of ``prefa simulate``'s deal ``i``, dealer ``i mod 3``, a
full pot, and the players draw from the deal's own stream.  With ``duplicate`` every deal
is played in the three seatings (the players rotated through the seats), one row each.

The columns are ``prefa_sim.dataset.GAMES_SCHEMA``'s.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from ..dataset import GAMES_SCHEMA
from ..deal import Answer, Deal
from ..game import format_action
from ..settlement import ROLES
from . import make_player
from .base import Player
from .table import deal_cards, play_out, player_rng

_PLAYERS: dict[str, Player] = {}


def seated(specs: Sequence[str], seating: int) -> list[str]:
    """The player spec in each seat for a seating (player k in seat (k + seating) mod 3)."""
    return [specs[(seat - seating) % 3] for seat in range(3)]


def player_for(spec: str) -> Player:
    """One player per spec and process (a solver keeps its tables between deals)."""
    if spec not in _PLAYERS:
        _PLAYERS[spec] = make_player(spec)
    return _PLAYERS[spec]


def deal_row(specs: Sequence[str], seed: int, index: int, seating: int = 0) -> dict:
    """Deal ``index`` of ``seed`` played in ``seating``, as a ``GAMES_SCHEMA`` record."""
    names = seated(specs, seating)
    hands, widow = deal_cards(seed, index)
    dealer = index % 3
    deal = play_out(Deal(list(hands), widow, dealer), [player_for(n) for n in names],
                    player_rng(seed, index))
    record = {"deal": index, "seating": seating, "dealer": dealer,
              "hand0": hands[0], "hand1": hands[1], "hand2": hands[2], "widow": widow,
              "player0": names[0], "player1": names[1], "player2": names[2],
              "actions": [format_action(a) for _, a in deal.history],
              "actors": [seat for seat, _ in deal.history], "void": deal.settlement is None,
              "declarer": None, "position": None, "contract": None, "solo": False,
              "aces": False, "discard": None, "declarations": "",
              "claimed": False, "pot_delta": 0}
    for seat in range(3):
        record[f"tricks{seat}"] = 0
        record[f"net{seat}"] = 0
    if deal.settlement is None:
        return record
    record.update(declarer=deal.declarer, position=(deal.declarer - dealer - 1) % 3,
                  contract=str(deal.contract), solo=deal.solo, aces=deal.aces,
                  discard=None if deal.solo else deal.discards,
                  declarations=",".join(deal.declarations),
                  claimed=isinstance(deal.history[-1][1], Answer),  # the last: accepted
                  pot_delta=deal.settlement.pot_delta)
    net = deal.settlement.net
    for seat, tricks in enumerate(deal.credited_tricks):
        record[f"tricks{seat}"] = tricks
        record[f"net{seat}"] = net[ROLES[(seat - deal.declarer) % 3]]
    return record


def games_table(specs: Sequence[str], seed: int, indices: range, duplicate: bool) -> pa.Table:
    """The rows of the deals ``indices``: one per deal, or three with ``duplicate``."""
    seatings = (0, 1, 2) if duplicate else (0,)
    rows = [deal_row(specs, seed, i, s) for i in indices for s in seatings]
    return pa.Table.from_pylist(rows, schema=GAMES_SCHEMA)
