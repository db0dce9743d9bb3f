"""Random positions and deals for the tests."""

import random

from prefa_sim.game import random_cards as random_deal  # noqa: F401 (used by the tests)
from prefa_sim.position import Position
from prefa_sim.tricks import legal_cards_mask


def random_position(rng: random.Random, tricks: int, active: tuple[int, ...], trump: int,
                    leader: int, declarer: int, played: int) -> Position:
    """A random ending of ``tricks`` tricks, then ``played`` random legal cards of the first."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [0, 0, 0]
    for i, seat in enumerate(active):
        for card in deck[i * tricks:(i + 1) * tricks]:
            hands[seat] |= 1 << card
    # A seat out of play holds some unrelated cards, which must be ignored.
    for seat in range(3):
        if seat not in active:
            for card in deck[len(active) * tricks:len(active) * tricks + tricks]:
                hands[seat] |= 1 << card
    pos = Position(tuple(hands), trump, leader, declarer, active)
    for _ in range(played):
        lead = pos.trick[0] if pos.trick else None
        legal = [c for c in range(32)
                 if legal_cards_mask(pos.hand(pos.to_move), lead, trump) >> c & 1]
        pos, _ = pos.play(rng.choice(legal))
    return pos

