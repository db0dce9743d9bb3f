"""Cards, hands and deals as bitboards, with the notations players use.

Bit layout (used everywhere in prefa-sim, including the numba kernels)::

    bit = 8 * suit + rank
    suit:  S=0  C=1  D=2  H=3          (the bidding order)
    rank:  7=0  8=1  9=2  10=3  J=4  Q=5  K=6  A=7

so a hand is a ``uint32`` whose byte ``suit`` holds that suit's ranks, the ace
in the high bit.  ``SUIT_MASKS[s]`` selects one suit.  Card indices are plain
ints ``0..31`` and ``1 << card`` is a card's mask.

Notations:

* card tokens: ``AS KS 10H TH 7c QD`` (rank then suit; ``10`` or ``T``; suit
  letters ``S C D H`` or symbols ``♠ ♣ ♦ ♥``; any case);
* suit-grouped hands in S.C.D.H order: ``AKQ.-.J7.AT98`` (a void as ``-`` or empty);
* a deal: three hands and the widow, suit-grouped, separated by spaces (a hand of
  card tokens is one word: ``AS,KS,QS`` or quoted ``"AS KS QS"``);
* a discard or any short list of cards: tokens in card order, ``8C TC``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from ..util.words import counted

Bitboard = int
"""A set of cards: bit ``8 * suit + rank`` is set for each card held."""

SUIT_LETTERS = "SCDH"
SUIT_SYMBOLS = "♠♣♦♥"
RANK_LETTERS = "789TJQKA"
NUM_CARDS = 32
HAND_SIZE = 10
WIDOW_SIZE = 2

SUIT_SPADES, SUIT_CLUBS, SUIT_DIAMONDS, SUIT_HEARTS = range(4)
RANK_7, RANK_8, RANK_9, RANK_10, RANK_J, RANK_Q, RANK_K, RANK_A = range(8)

SUIT_MASKS: tuple[Bitboard, ...] = tuple(0xFF << (8 * s) for s in range(4))
ALL_CARDS: Bitboard = 0xFFFFFFFF
ACES_MASK: Bitboard = sum(1 << (8 * s + RANK_A) for s in range(4))


class Strain(IntEnum):
    """Trump suit or no trumps, in bidding order (S < C < D < H < NT)."""

    S = 0
    C = 1
    D = 2
    H = 3
    NT = 4

    def __str__(self) -> str:
        return self.name


NO_TRUMP = int(Strain.NT)


class CardError(ValueError):
    """Base class of card, hand and deal notation errors."""


class UnknownCardError(CardError):
    """A token that is not a card."""


class DuplicateCardError(CardError):
    """The same card given twice."""


class CardCountError(CardError):
    """A hand, widow or deal with the wrong number of cards."""


_VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")
_SUIT_BY_CHAR = {c: i for i, c in enumerate(SUIT_LETTERS)}
_SUIT_BY_CHAR.update({c: i for i, c in enumerate(SUIT_SYMBOLS)})
_SUIT_BY_CHAR.update({c: i for i, c in enumerate("♤♧♢♡")})
_RANK_BY_TEXT = {c: i for i, c in enumerate(RANK_LETTERS)}
_RANK_BY_TEXT["10"] = RANK_10


def card_suit(card: int) -> int:
    """The suit (0..3) of card index ``card``."""
    return card >> 3


def card_rank(card: int) -> int:
    """The rank (0 = seven .. 7 = ace) of card index ``card``."""
    return card & 7


def make_card(suit: int, rank: int) -> int:
    """The card index of ``rank`` in ``suit``."""
    return 8 * suit + rank


def parse_card(token: str) -> int:
    """Parse a card token such as ``AS``, ``10h``, ``TH`` or ``Q♦`` into its index."""
    text = token.strip().translate(_VARIATION_SELECTORS).upper()
    if len(text) >= 2 and text[-1] in _SUIT_BY_CHAR and text[:-1] in _RANK_BY_TEXT:
        return make_card(_SUIT_BY_CHAR[text[-1]], _RANK_BY_TEXT[text[:-1]])
    raise UnknownCardError(
        f"unknown card {token!r} (expected rank 7-10/T/J/Q/K/A then suit S/C/D/H)"
    )


def format_card(card: int, *, symbols: bool = False) -> str:
    """Format a card index as a token: ``TS``, or ``T♠`` with ``symbols``."""
    if not 0 <= card < NUM_CARDS:
        raise UnknownCardError(f"card index {card} is outside 0..31")
    suits = SUIT_SYMBOLS if symbols else SUIT_LETTERS
    return RANK_LETTERS[card_rank(card)] + suits[card_suit(card)]


def iter_cards(mask: Bitboard) -> Iterator[int]:
    """The card indices of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_mask(cards: Iterable[int]) -> Bitboard:
    """The mask of card indices, rejecting duplicates."""
    mask = 0
    for card in cards:
        bit = 1 << card
        if mask & bit:
            raise DuplicateCardError(f"card {format_card(card)} is given twice")
        mask |= bit
    return mask


def popcount(mask: Bitboard) -> int:
    """The number of cards in ``mask``."""
    return int(mask).bit_count()


def card_count(n: int) -> str:
    """``n`` with the word "card" or "cards", as messages say it: ``1 card``, ``3 cards``."""
    return counted(n, "card")


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse card tokens, from a space/comma separated string or a list of tokens."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    for token in tokens:
        if not isinstance(token, str):
            raise UnknownCardError(f"a card is text such as \"AS\", got {token!r}")
    cards = [parse_card(t) for t in tokens]
    cards_mask(cards)  # duplicate check
    return cards


def parse_hand(text: str | Iterable[str], size: int | None = None) -> Bitboard:
    """Parse a hand, suit-grouped (``AKQ.-.J7.AT98``) or as card tokens, into a mask.

    ``size`` (optional) is the exact number of cards the hand must hold.
    """
    if isinstance(text, str) and text.strip() == "-":
        mask = 0
    elif isinstance(text, str) and "." in text:
        mask = _parse_grouped(text)
    else:
        mask = cards_mask(parse_cards(text))
    if size is not None and popcount(mask) != size:
        raise CardCountError(
            f"hand {format_hand(mask)} has {card_count(popcount(mask))}, expected {size}"
        )
    return mask


def _parse_grouped(text: str) -> Bitboard:
    groups = text.strip().translate(_VARIATION_SELECTORS).upper().split(".")
    if len(groups) != 4:
        raise UnknownCardError(f"hand {text!r} needs four suit groups S.C.D.H, got {len(groups)}")
    mask = 0
    for suit, group in enumerate(groups):
        ranks = group.replace("10", "T")
        if ranks == "-":
            continue
        for letter in ranks:
            if letter not in RANK_LETTERS:
                raise UnknownCardError(
                    f"unknown rank {letter!r} in suit {SUIT_LETTERS[suit]} of hand {text!r}"
                )
            bit = 1 << make_card(suit, _RANK_BY_TEXT[letter])
            if mask & bit:
                raise DuplicateCardError(
                    f"card {letter}{SUIT_LETTERS[suit]} is given twice in hand {text!r}"
                )
            mask |= bit
    return mask


def format_hand(mask: Bitboard) -> str:
    """Format a mask suit-grouped in S.C.D.H order, highest rank first: ``AKQ.-.J7.AT98``."""
    groups = []
    for suit in range(4):
        ranks = (mask >> (8 * suit)) & 0xFF
        text = "".join(RANK_LETTERS[r] for r in range(7, -1, -1) if ranks >> r & 1)
        groups.append(text or "-")
    return ".".join(groups)


def format_cards(mask: Bitboard, *, symbols: bool = False) -> list[str]:
    """The card tokens of ``mask``, suits in S C D H order, high ranks first."""
    out = []
    for suit in range(4):
        for rank in range(7, -1, -1):
            card = make_card(suit, rank)
            if mask >> card & 1:
                out.append(format_card(card, symbols=symbols))
    return out


def split_hands(parts: str | Iterable[str]) -> list[str]:
    """Hand texts from the words of a deal: a word with a ``.`` holds one or more
    suit-grouped hands separated by spaces; any other word is one hand of card
    tokens (separated by spaces or commas), or ``-`` for a hand with no cards."""
    words = [parts] if isinstance(parts, str) else list(parts)
    out = []
    for word in words:
        if not isinstance(word, str):
            raise CardError(f"a hand is text such as \"AKQ.-.J7.AT98\", got {word!r}")
        if "." in word or set(word.split()) == {"-"}:
            out += word.split()
        elif word.strip():
            out.append(word.strip())
    return out


def parse_deal(text: str | Iterable[str]) -> tuple[list[Bitboard], Bitboard]:
    """Parse a deal, ``"H0 H1 H2 WIDOW"`` or a list of hands, into three 10-card hands
    and a 2-card widow (see ``split_hands``; a hand may also be card tokens).

    The widow may be omitted when the hands hold 30 cards: it is then the two missing cards.
    """
    parts = split_hands(text)
    if len(parts) not in (3, 4):
        raise CardCountError(f"a deal is three hands and a widow, got {len(parts)} parts")
    hands = []
    for seat, part in enumerate(parts[:3]):
        try:
            hands.append(parse_hand(part, HAND_SIZE))
        except CardError as exc:
            raise type(exc)(f"hand of seat {seat}: {exc}") from None
    try:
        widow = parse_hand(parts[3], WIDOW_SIZE) if len(parts) == 4 else None
    except CardError as exc:
        raise type(exc)(f"widow: {exc}") from None
    seen = 0
    for mask in hands + ([widow] if widow is not None else []):
        if seen & mask:
            card = format_card((seen & mask).bit_length() - 1)
            raise DuplicateCardError(f"card {card} is dealt twice")
        seen |= mask
    if widow is None:
        widow = ALL_CARDS & ~seen
    return hands, widow


def format_discard(cards: Bitboard | Iterable[int]) -> str:
    """Cards as tokens in card order, the way discards are written everywhere: ``8C TC``.

    Takes a mask or card indices."""
    indices = iter_cards(cards) if isinstance(cards, int) else sorted(cards)
    return " ".join(format_card(c) for c in indices)


def format_deal(hands: list[Bitboard], widow: Bitboard) -> str:
    """Format a deal as ``"H0 H1 H2 WIDOW"``, each suit-grouped."""
    return " ".join(format_hand(m) for m in [*hands, widow])


def parse_strain(text: str) -> Strain:
    """Parse a strain: ``S C D H NT`` (or ``N``), or a suit symbol; any case."""
    key = text.strip().translate(_VARIATION_SELECTORS).upper()
    if key in ("NT", "N", "BT"):
        return Strain.NT
    if len(key) == 1 and key in _SUIT_BY_CHAR:
        return Strain(_SUIT_BY_CHAR[key])
    raise CardError(f"unknown strain {text!r} (expected S, C, D, H or NT)")
