"""A plain exhaustive minimax for checking the solver: no pruning, no tables, no shortcuts."""

from __future__ import annotations

from prefa_sim.core.cards import iter_cards
from prefa_sim.core.tricks import beats, legal_cards_mask, next_seat, trick_winner


def minimax(hands: list[int], trump: int, leader: int, declarer: int, active: tuple[int, ...],
            trick: tuple[int, ...] = (), overtrump: bool = False) -> int:
    """The declarer's tricks from here (current trick included) under perfect play;
    ``overtrump``: no under-trumping (a player void in the suit led beats a trump on the
    trick when they can)."""
    seats = sorted(active)
    if len(trick) == len(seats):
        winner = trick_winner(trick, leader, trump, seats)
        won = 1 if winner == declarer else 0
        return won + minimax(hands, trump, winner, declarer, active, (), overtrump)
    seat = leader
    for _ in trick:
        seat = next_seat(seat, seats)
    if not hands[seat]:
        return 0
    lead = trick[0] if trick else None
    best = lead
    for card in trick[1:]:
        if beats(card, best, trump):
            best = card
    results = []
    for card in iter_cards(legal_cards_mask(hands[seat], lead, trump, best, overtrump)):
        hands[seat] ^= 1 << card
        results.append(minimax(hands, trump, leader, declarer, active, (*trick, card),
                               overtrump))
        hands[seat] ^= 1 << card
    return max(results) if seat == declarer else min(results)
