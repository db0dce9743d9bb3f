"""A whole game played by three players, as the lines of its score sheet or its recording
(``prefa game --players``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..core.seats import DEFAULT_DEALER
from ..rules.script import deal_line, final_line
from ..rules.variants import DEFAULT_RULES, Rules
from .registry import make_player
from .table import play_game


def game_sheet(specs: Sequence[str], seed: int, max_deals: int = 200,
               rules: Rules = DEFAULT_RULES, dealer: int = DEFAULT_DEALER,
               as_json: bool = False) -> Iterator[str]:
    """Game 0 of ``seed`` played under ``rules`` by the players of ``specs`` (seat
    order), a line per deal as it is played, then the final line; with ``as_json`` the
    recording, which ``prefa game SCRIPT`` replays."""
    players = [make_player(spec) for spec in specs]
    game = None
    for game, deal in play_game(players, seed, max_deals, rules, dealer):
        yield deal_line(game, deal, as_json)
    if game is not None:
        yield final_line(game, as_json)


def whole_game_sheet(*args) -> list[str]:
    """``game_sheet`` as one list (for a worker process of its own)."""
    return list(game_sheet(*args))
