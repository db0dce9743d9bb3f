"""Players at the table: one deal, or a whole game, driven through the rules engine.

Each decision goes to the player of the seat to act, with that seat's ``Observation``
and the deal's own random stream: deal ``i`` of a seed deals its cards from
``SeedSequence(seed, spawn_key=(i,))`` (the same cards as ``prefa simulate``) and the
players draw from ``SeedSequence(seed, spawn_key=(i, 1))``; deal ``j`` of whole game
``g`` uses ``(g, j, 2)`` and ``(g, j, 3)``.  So the same seed gives the same games
whatever the order or the machine the deals are played on.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from ..core.seats import DEFAULT_DEALER
from ..dealing.scenario import DealSampler, Scenario, deal_rng
from ..rules.deal import Deal, shown_action
from ..rules.exact import exact_match
from ..rules.game import Game, Redeal
from ..rules.variants import DEFAULT_RULES, Rules
from ..util import last_words
from ..util.workers import ctrl_c_ignored
from .base import Player, PlayerError, error_text
from .files import FilePlayer
from .observation import observe


def player_rng(seed: int, index: int) -> np.random.Generator:
    """The players' random stream for deal ``index`` of ``seed``."""
    return _opaque(np.random.SeedSequence(seed, spawn_key=(index, 1)))


def _opaque(stream: np.random.SeedSequence) -> np.random.Generator:
    """A generator seeded with numbers drawn from ``stream``: a player holding it cannot
    read the root seed or the deal's index from it, and so cannot re-deal the cards."""
    return np.random.default_rng(np.random.default_rng(stream).integers(0, 2**63, 4).tolist())


def deal_cards(seed: int, index: int) -> tuple[list[int], int]:
    """The cards of deal ``index`` of ``seed``: the same as ``prefa simulate``'s."""
    return _cards(deal_rng(seed, index))


def _cards(rng: np.random.Generator) -> tuple[list[int], int]:
    row = DealSampler(Scenario()).deal(rng)
    return [int(h) for h in row[:3]], int(row[3])


def game_streams(seed: int, game: int, number: int
                 ) -> tuple[tuple[list[int], int], np.random.Generator]:
    """The cards and the players' stream of deal ``number`` of game ``game`` of ``seed``
    (streams of their own, apart from the independent deals')."""
    cards = _cards(np.random.default_rng(np.random.SeedSequence(seed,
                                                                spawn_key=(game, number, 2))))
    return cards, _opaque(np.random.SeedSequence(seed, spawn_key=(game, number, 3)))


def play_out(deal: Deal, players: Sequence[Player], rng: np.random.Generator,
             where: str = "") -> Deal:
    """Let the players take every decision of ``deal`` until it is settled or void.

    Each action is checked by exact type and value against the legal actions
    (``exact.exact_match``), and the engine's own object is applied.  A
    player that returns anything else, or that fails (raises, or calls ``sys.exit``),
    raises ``PlayerError`` naming the player, the seat, ``where`` (the deal) and the
    action or the error.  Before each decision of a player file the table says who
    decides (``last_words``), so that a player that ends a worker process is named too.
    """
    while not deal.is_terminal():
        seat = deal.current_player()
        player = players[seat]
        legal = deal.legal_actions()
        observation = observe(deal, seat, player.sees_all_cards, legal)
        untrusted = isinstance(player, FilePlayer)  # code that may end its process
        if untrusted:
            last_words.say(f"{_who(player, seat, where)} was deciding in the {deal.phase} "
                           "phase")
        try:
            action = player.act(observation, rng)
            match = exact_match(action, legal)  # a field's own == is the player's code too
        except KeyboardInterrupt:
            if not ctrl_c_ignored():
                raise  # the user's Ctrl-C
            raise PlayerError(f"{_who(player, seat, where)} failed in the {deal.phase} "
                              f"phase: it raised KeyboardInterrupt") from None
        except BaseException as exc:  # a player's own code: one clear line
            raise PlayerError(f"{_who(player, seat, where)} failed in the {deal.phase} "
                              f"phase: {error_text(exc)}") from None if _foreign(exc) else exc
        if match is None:
            raise PlayerError(f"{_who(player, seat, where)} chose {shown_action(action)}, which "
                              f"is not legal in the {deal.phase} phase")
        if untrusted:
            last_words.say("")
        deal.apply(match, legal)
    return deal


def _who(player: Player, seat: int, where: str) -> str:
    return f"player {player.name} in seat {seat}" + (f", {where}," if where else "")


def _foreign(exc: BaseException) -> bool:
    """Is ``exc`` of a type a worker process may fail to hand back (a class of the
    player's file that is no ``Exception``)?  Its text is kept, not the error itself."""
    return not isinstance(exc, Exception | SystemExit)


def play_deal(players: Sequence[Player], seed: int, index: int,
              dealer: int = DEFAULT_DEALER, rules: Rules = DEFAULT_RULES) -> Deal:
    """Deal ``index`` of ``seed`` (the cards and the players' stream) played out under
    ``rules``."""
    hands, widow = deal_cards(seed, index)
    return play_out(Deal(hands, widow, dealer, rules=rules), players, player_rng(seed, index),
                    f"deal {index} of seed {seed}")


def play_game(players: Sequence[Player], seed: int, max_deals: int = 1000,
              rules: Rules = DEFAULT_RULES, dealer: int = DEFAULT_DEALER,
              game_index: int = 0) -> Iterator[tuple[Game, Deal | Redeal]]:
    """Yield ``(game, deal)`` after each deal of a game played by ``players`` (seat
    order) under ``rules`` until the pot is spent (or ``max_deals`` deals); game
    ``game_index`` of ``seed`` (``prefa game --players --seed S`` plays game 0).  Under
    ``first_deal`` rules the first deal's cards may be dealt again: a ``Redeal`` is
    yielded for them, and the deals that follow draw the next cards of the game."""
    game = Game(dealer=dealer, rules=rules)
    while not game.over and game.deals < max_deals:
        (hands, widow), rng = game_streams(seed, game_index, game.deals + game.redeals)
        redeal = game.redeal(hands, widow)
        if redeal is not None:
            game.record(redeal)
            yield game, redeal
            continue
        deal = play_out(game.new_deal(hands, widow), players, rng,
                        f"game {game_index} deal {game.deals} of seed {seed}")
        game.record(deal)
        yield game, deal
