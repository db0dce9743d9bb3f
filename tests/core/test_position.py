"""Position checks and trick rules."""

import pytest

from prefa_sim.core.cards import CardCountError, DuplicateCardError, Strain, parse_card, parse_hand
from prefa_sim.core.position import Position, PositionError
from prefa_sim.core.tricks import legal_cards_mask, trick_winner


def c(token):
    return parse_card(token)


def test_trick_rules_follow_then_trump_then_anything():
    hand = parse_hand("AK.-.7.8")
    assert legal_cards_mask(hand, c("9S"), Strain.H) == parse_hand("AK.-.-.-")
    assert legal_cards_mask(hand, c("9C"), Strain.H) == parse_hand("-.-.-.8")
    assert legal_cards_mask(hand, c("9C"), Strain.NT) == hand
    assert legal_cards_mask(parse_hand("AK.-.7.-"), c("9C"), Strain.H) == parse_hand("AK.-.7.-")


def test_trick_winner_trump_beats_and_under_trump_loses():
    assert trick_winner([c("AS"), c("7H"), c("KS")], 0, Strain.H, (0, 1, 2)) == 1
    assert trick_winner([c("AS"), c("8H"), c("7H")], 2, Strain.H, (0, 1, 2)) == 0
    assert trick_winner([c("7S"), c("AC"), c("8S")], 1, Strain.NT, (0, 1, 2)) == 0
    assert trick_winner([c("7S"), c("8S")], 2, Strain.NT, (0, 2)) == 0


def test_play_order_skips_a_passed_seat():
    hands = (parse_hand("A.-.-.-"), parse_hand("K.-.-.-"), parse_hand("Q.-.-.-"))
    pos = Position(hands, Strain.NT, 2, 0, (0, 2))
    assert pos.play_order == (2, 0)
    nxt, winner = pos.play(c("QS"))
    assert winner is None and nxt.to_move == 0
    end, winner = nxt.play(c("AS"))
    assert winner == 0 and end.tricks_left == 0


def test_position_errors():
    a, b, d = parse_hand("AK.-.-.-"), parse_hand("QJ.-.-.-"), parse_hand("T9.-.-.-")
    with pytest.raises(DuplicateCardError, match="AS"):
        Position((a, a, d), Strain.S, 0, 0)
    with pytest.raises(CardCountError, match="seat 2 holds 1$"):
        Position((a, b, parse_hand("T.-.-.-")), Strain.S, 0, 0)
    with pytest.raises(PositionError, match="the declarer, seat 1, is not one of"):
        Position((a, b, d), Strain.S, 0, 1, (0, 2))
    with pytest.raises(PositionError, match="not a legal card"):
        Position((a, b, d), Strain.S, 0, 0).play(c("7H"))
    # seat 1 discarded a heart while holding the spade led
    with pytest.raises(PositionError, match="still holds the suit led"):
        Position((parse_hand("A.-.-.-"), parse_hand("J.-.-.-"), d), Strain.NT, 0, 0,
                 trick=(c("KS"), c("7H")))
    with pytest.raises(PositionError, match="still holds a trump"):
        Position((parse_hand("A.-.-.-"), parse_hand("-.-.-.8"), parse_hand("-.-.98.-")),
                 Strain.H, 0, 0, trick=(c("KS"), c("7D")))
