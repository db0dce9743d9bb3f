"""A double-dummy position: the hands still to be played, the strain, and the current trick."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import (
    NUM_CARDS,
    SUIT_MASKS,
    Bitboard,
    CardCountError,
    DuplicateCardError,
    Strain,
    card_count,
    card_suit,
    format_card,
    format_hand,
    popcount,
)
from .tricks import beats, legal_cards_mask, play_order_of, trick_winner


class PositionError(ValueError):
    """A position that cannot arise in play."""


SEATS = (0, 1, 2)


@dataclass(frozen=True)
class Position:
    """Hands (card masks by seat), the strain, and who plays.

    ``leader`` is the seat that led (or leads) the current trick and
    ``trick`` the cards already played to it, in play order.  Seats not in
    ``active`` (a defender who passed) are out of play; their hands are ignored.
    ``overtrump``: no under-trumping (docs/rules.md §7.6): a player void in the suit
    led must beat a trump already on the trick when they can.
    """

    hands: tuple[Bitboard, Bitboard, Bitboard]
    trump: Strain
    leader: int
    declarer: int
    active: tuple[int, ...] = SEATS
    trick: tuple[int, ...] = field(default=())
    overtrump: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "trump", Strain(self.trump))
        object.__setattr__(self, "active", tuple(sorted(set(self.active))))
        object.__setattr__(self, "hands", tuple(int(h) for h in self.hands))
        object.__setattr__(self, "trick", tuple(int(c) for c in self.trick))
        self._validate()

    # -- derived facts -------------------------------------------------------------
    @property
    def play_order(self) -> tuple[int, ...]:
        """Active seats in the order they play to the current trick."""
        return play_order_of(self.leader, self.active)

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self.play_order[len(self.trick)]

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the current one included."""
        return popcount(self.hands[self.to_move])

    @property
    def active_mask(self) -> int:
        """Bit ``s`` set for each active seat ``s``."""
        return sum(1 << s for s in self.active)

    def hand(self, seat: int) -> Bitboard:
        """The cards ``seat`` still holds (0 for a seat out of play)."""
        return self.hands[seat] if seat in self.active else 0

    def legal_cards(self) -> Bitboard:
        """The cards the player to move may play, as a mask."""
        if not self.trick:
            return self.hand(self.to_move)
        best = self.winning_card() if self.overtrump else None
        return legal_cards_mask(self.hand(self.to_move), self.trick[0], self.trump, best,
                                self.overtrump)

    def winning_card(self) -> int | None:
        """The card winning the current trick so far (None before the lead)."""
        if not self.trick:
            return None
        best = self.trick[0]
        for card in self.trick[1:]:
            if beats(card, best, self.trump):
                best = card
        return best

    def play(self, card: int) -> tuple[Position, int | None]:
        """The position after the player to move plays ``card``, and the trick's
        winner if the card completed it (else None)."""
        seat = self.to_move
        if not (self.legal_cards() >> card) & 1:
            raise PositionError(f"{format_card(card)} is not a legal card for seat {seat}")
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        trick = (*self.trick, card)
        if len(trick) < len(self.active):
            return self._successor(tuple(hands), self.leader, trick), None
        winner = trick_winner(trick, self.leader, self.trump, self.active)
        return self._successor(tuple(hands), winner, ()), winner

    def _successor(self, hands: tuple[int, int, int], leader: int,
                   trick: tuple[int, ...]) -> Position:
        """The position after a legal play: valid by construction, so not checked again."""
        nxt = object.__new__(Position)
        for name, value in (("hands", hands), ("trump", self.trump), ("leader", leader),
                            ("declarer", self.declarer), ("active", self.active),
                            ("trick", trick), ("overtrump", self.overtrump)):
            object.__setattr__(nxt, name, value)
        return nxt

    # -- validation ----------------------------------------------------------------
    def _validate(self) -> None:
        if len(self.hands) != 3:
            raise PositionError(f"a position has three hands, got {len(self.hands)}")
        if any(s not in SEATS for s in self.active) or len(self.active) not in (2, 3):
            shown = ", ".join(map(str, self.active)) or "none"
            raise PositionError(f"two or three seats must play (of 0, 1, 2), got {shown}")
        for name, seat in (("declarer", self.declarer), ("leader", self.leader)):
            if seat not in self.active:
                active = ", ".join(map(str, self.active))
                raise PositionError(f"the {name}, seat {seat}, is not one of the seats that "
                                    f"play ({active})")
        for seat in SEATS:
            if not 0 <= self.hands[seat] < 1 << NUM_CARDS:
                raise PositionError(f"hand of seat {seat} is not a 32-bit card mask")
        seen = 0
        for seat in self.active:
            if seen & self.hands[seat]:
                dup = (seen & self.hands[seat]).bit_length() - 1
                raise DuplicateCardError(f"card {format_card(dup)} is in two hands")
            seen |= self.hands[seat]
        if len(self.trick) >= len(self.active):
            raise PositionError(f"a trick in progress has fewer than {len(self.active)} cards")
        for card in self.trick:
            if not 0 <= card < NUM_CARDS:
                raise PositionError(f"card index {card} is outside 0..31")
            if seen >> card & 1:
                raise DuplicateCardError(
                    f"card {format_card(card)} is both on the trick and in a hand"
                )
            seen |= 1 << card
        order = self.play_order
        n = popcount(self.hands[order[len(self.trick)]])
        sizes = [popcount(self.hands[s]) for s in order]
        if not self.trick and len(set(sizes)) > 1:
            counts = ", ".join(f"seat {s} holds {k}" for s, k in zip(order, sizes, strict=True))
            raise CardCountError(
                f"at the start of a trick every hand holds as many cards: {counts}"
            )
        for i, seat in enumerate(order):
            want = n - 1 if i < len(self.trick) else n
            have = popcount(self.hands[seat])
            if have != want:
                raise CardCountError(
                    f"seat {seat} holds {card_count(have)} ({format_hand(self.hands[seat])}), "
                    f"expected {want}"
                )
        if n > 10:
            raise CardCountError(f"the player to move holds {card_count(n)}, expected at most 10")
        if self.trick:
            lead_suit = card_suit(self.trick[0])
            for seat, card in zip(order[1:], self.trick[1:], strict=False):
                hand = self.hands[seat]
                if card_suit(card) != lead_suit and hand & SUIT_MASKS[lead_suit]:
                    raise PositionError(
                        f"seat {seat} played {format_card(card)} but still holds the suit led"
                    )
                if (card_suit(card) not in (lead_suit, self.trump) and self.trump != Strain.NT
                        and hand & SUIT_MASKS[self.trump]):
                    raise PositionError(
                        f"seat {seat} discarded {format_card(card)} but still holds a trump"
                    )

