"""Games at scale: deals played by players, one Parquet row per deal and seating.

``prefa games`` runs through the same machinery as ``prefa simulate`` (seeds, chunks,
atomic part files, resume, local cores or Dask); only the work of a chunk differs.  Deal
``i`` of the seed has the cards of ``prefa simulate``'s deal ``i``, dealer ``i mod 3``, a
full pot, and the players draw from the deal's own stream.  With ``duplicate`` every deal
is played in the three seatings (the players rotated through the seats), one row each.

The columns are ``prefa_sim.sim.dataset.GAMES_SCHEMA``'s.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from ..bots.base import Player
from ..bots.registry import make_player
from ..bots.table import play_deal, play_game
from ..rules.deal import Answer, Deal
from ..rules.game import Redeal, format_action
from ..rules.settlement import ROLES
from ..rules.variants import DEFAULT_RULES, Rules
from .dataset import GAME_DEAL_CAP, GAMES_SCHEMA

_PLAYERS: dict[tuple[str, int], Player] = {}


def seated(specs: Sequence[str], seating: int) -> list[str]:
    """The player spec in each seat for a seating (player k in seat (k + seating) mod 3)."""
    return [specs[(seat - seating) % 3] for seat in range(3)]


def player_for(spec: str, seat: int) -> Player:
    """The player of ``spec`` in ``seat``, one per spec, seat and process: two seats with
    the same spec hold two instances, and each is kept between deals."""
    if (spec, seat) not in _PLAYERS:
        _PLAYERS[spec, seat] = make_player(spec)
    return _PLAYERS[spec, seat]


def seated_players(specs: Sequence[str], seating: int) -> list[Player]:
    """The players at the table in ``seating``, seat 0 first."""
    return [player_for(spec, seat) for seat, spec in enumerate(seated(specs, seating))]


def deal_row(specs: Sequence[str], seed: int, index: int, seating: int = 0,
             rules: Rules = DEFAULT_RULES) -> dict:
    """Deal ``index`` of ``seed`` played in ``seating`` from a full pot under ``rules``, as
    a ``GAMES_SCHEMA`` record."""
    names = seated(specs, seating)
    deal = play_deal(seated_players(specs, seating), seed, index, dealer=index % 3,
                     rules=rules)
    return _record(deal, names, index, seating, 0)


def game_rows(specs: Sequence[str], seed: int, game: int, seating: int = 0,
              max_deals: int = GAME_DEAL_CAP, rules: Rules = DEFAULT_RULES) -> list[dict]:
    """Game ``game`` of ``seed`` played under ``rules`` to the empty pot (the last contract
    included) in ``seating``: one record per deal, ``deal`` holding the game's index."""
    names = seated(specs, seating)
    return [_record(deal, names, game, seating, state.deals - 1, pot=deal.pot)
            for state, deal in play_game(seated_players(specs, seating), seed, max_deals,
                                         rules=rules, game_index=game)
            if not isinstance(deal, Redeal)]  # cards dealt again: no deal to record


def _record(deal: Deal, names: Sequence[str], index: int, seating: int, number: int,
            pot: int = 1500) -> dict:
    hands = deal.hands_dealt
    record = {"deal": index, "seating": seating, "number": number, "pot": pot,
              "dealer": deal.dealer,
              "hand0": hands[0], "hand1": hands[1], "hand2": hands[2], "widow": deal.widow,
              "player0": names[0], "player1": names[1], "player2": names[2],
              "actions": [format_action(a) for _, a in deal.history],
              "actors": [seat for seat, _ in deal.history], "void": deal.settlement is None,
              "declarer": None, "position": None, "contract": None, "solo": False,
              "aces": False, "discard": None, "declarations": "",
              "claimed": False, "pot_delta": 0}
    for seat in range(3):
        record[f"tricks{seat}"] = 0
        record[f"net{seat}"] = 0
        record[f"result{seat}"] = 0.0
    if deal.settlement is None:
        return record
    record.update(declarer=deal.declarer, position=(deal.declarer - deal.dealer - 1) % 3,
                  contract=str(deal.contract), solo=deal.solo, aces=deal.aces,
                  discard=None if deal.solo else deal.discards,
                  declarations=",".join(deal.declarations),
                  claimed=isinstance(deal.history[-1][1], Answer),  # the last: accepted
                  pot_delta=deal.settlement.pot_delta)
    net, result = deal.settlement.net, deal.settlement.result
    for seat, tricks in enumerate(deal.credited_tricks):
        role = ROLES[(seat - deal.declarer) % 3]
        record[f"tricks{seat}"] = tricks
        record[f"net{seat}"] = net[role]
        record[f"result{seat}"] = float(result[role])
    return record


def games_table(specs: Sequence[str], seed: int, indices: range, duplicate: bool,
                full_games: bool = False, rules: Rules = DEFAULT_RULES) -> pa.Table:
    """The rows of the deals (or with ``full_games`` the whole games) ``indices``, in
    one seating or, with ``duplicate``, in all three, under ``rules``."""
    seatings = (0, 1, 2) if duplicate else (0,)
    if full_games:
        rows = [row for g in indices for s in seatings
                for row in game_rows(specs, seed, g, s, rules=rules)]
    else:
        rows = [deal_row(specs, seed, i, s, rules) for i in indices for s in seatings]
    return pa.Table.from_pylist(rows, schema=GAMES_SCHEMA)
