"""Card, hand and deal notation: exact round trips and errors that name the culprit."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prefa_sim.core.cards import (
    ACES_MASK,
    SUIT_MASKS,
    CardCountError,
    DuplicateCardError,
    Strain,
    UnknownCardError,
    format_card,
    format_cards,
    format_deal,
    format_hand,
    parse_card,
    parse_cards,
    parse_deal,
    parse_hand,
    parse_strain,
)

masks = st.integers(0, 2**32 - 1)


def test_bit_layout():
    assert parse_card("7S") == 0
    assert parse_card("AS") == 7
    assert parse_card("7C") == 8
    assert parse_card("AH") == 31
    assert SUIT_MASKS[3] == 0xFF000000
    assert ACES_MASK == 0x80808080


@pytest.mark.parametrize("token, name", [
    ("AS", "AS"), ("ks", "KS"), ("10H", "TH"), ("TH", "TH"), ("7c", "7C"), ("Q♦", "QD"),
    ("j♥", "JH"), ("9\u2663\ufe0f", "9C"), ("8♤", "8S"),
])
def test_card_tokens(token, name):
    assert format_card(parse_card(token)) == name


@pytest.mark.parametrize("token", ["1S", "AX", "", "10", "S", "AKS", "11H"])
def test_unknown_card_names_the_token(token):
    with pytest.raises(UnknownCardError, match="unknown card"):
        parse_card(token)


@given(masks)
def test_grouped_hand_round_trip(mask):
    assert parse_hand(format_hand(mask)) == mask


@given(masks)
def test_token_round_trip(mask):
    assert parse_hand(format_cards(mask)) == mask
    assert parse_hand(" ".join(format_cards(mask, symbols=True))) == mask


def test_grouped_hand_forms():
    mask = parse_hand("AKQ.-.J7.AT98")
    assert format_hand(mask) == "AKQ.-.J7.AT98"
    assert parse_hand("AKQ..J7.A1098") == mask
    assert parse_hand("akq.-.j7.at98") == mask
    assert format_hand(0) == "-.-.-.-"


def test_hand_errors():
    with pytest.raises(DuplicateCardError, match="AS"):
        parse_hand("AKA.-.-.-")
    with pytest.raises(DuplicateCardError, match="KH"):
        parse_hand("KH 7S KH")
    with pytest.raises(UnknownCardError, match="'X'"):
        parse_hand("AKX.-.-.-")
    with pytest.raises(UnknownCardError, match="four suit groups"):
        parse_hand("AK.Q.J")
    with pytest.raises(CardCountError, match="3 cards, expected 10"):
        parse_hand("AKQ.-.-.-", 10)
    with pytest.raises(CardCountError, match="has 1 card, expected 10"):
        parse_hand("A.-.-.-", 10)


def test_deal_round_trip_and_errors():
    deck = list(range(32))
    hands = [sum(1 << c for c in deck[i::3][:10]) for i in range(3)]
    widow = ((1 << 32) - 1) & ~(hands[0] | hands[1] | hands[2])
    assert bin(widow).count("1") == 2
    assert parse_deal(format_deal(hands, widow)) == (hands, widow)
    # The widow may be left out: it is the two missing cards.
    assert parse_deal(" ".join(format_hand(h) for h in hands)) == (hands, widow)
    clash = format_deal(hands, widow).split()
    clash[1] = clash[0]
    with pytest.raises(DuplicateCardError, match="dealt twice"):
        parse_deal(" ".join(clash))
    with pytest.raises(CardCountError):
        parse_deal("AKQ.-.-.- T87.AK.KQ.QJ7")


def test_parse_cards_rejects_duplicates():
    assert parse_cards("AS, KS 10H") == [7, 6, 27]
    with pytest.raises(DuplicateCardError, match="AS"):
        parse_cards(["AS", "as"])


@pytest.mark.parametrize("text, strain", [("s", Strain.S), ("NT", Strain.NT), ("n", Strain.NT),
                                          ("♥", Strain.H), ("D", Strain.D)])
def test_strains(text, strain):
    assert parse_strain(text) is strain


def test_unknown_strain():
    with pytest.raises(ValueError, match="unknown strain 'X'"):
        parse_strain("X")


@pytest.mark.parametrize("n, word, plural, text", [
    (0, "chunk", None, "0 chunks"), (1, "chunk", None, "1 chunk"), (2, "worker", None, "2 workers"),
    (1, "bad line", None, "1 bad line"), (3, "whole game", None, "3 whole games"),
    (1, "card", None, "1 card"), (2, "index", "indices", "2 indices"),
])
def test_messages_count_in_the_singular_for_one(n, word, plural, text):
    from prefa_sim.util.words import counted

    assert counted(n, word, plural) == text
