"""Plain-text reports of deals and solver answers, for people at a terminal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.cards import SUIT_LETTERS, Bitboard, Strain, format_card, format_hand
from ..core.position import Position
from ..core.seats import seat_label

if TYPE_CHECKING:
    from .solve import Answer

STRAIN_NAMES = {
    Strain.S: "spades",
    Strain.C: "clubs",
    Strain.D: "diamonds",
    Strain.H: "hearts",
    Strain.NT: "no trumps",
}


def hand_text(mask: Bitboard) -> str:
    """A hand as ``S AKQ  C -  D J7  H AT98``."""
    groups = format_hand(mask).split(".")
    return "  ".join(f"{letter} {g:<8}" for letter, g in zip(SUIT_LETTERS, groups, strict=True))


def cards_text(cards: Sequence[int]) -> str:
    """Cards in the order given: ``QS 8S``."""
    return " ".join(format_card(c) for c in cards)


def seats_text(hands: Sequence[Bitboard], declarer: int, active: Sequence[int],
               widow: Bitboard | None = None, dealer: int = 2) -> str:
    """One line per seat with its role (and the widow), marking the declarer and seats
    out of play."""
    lines = []
    for seat in range(3):
        role = "declarer" if seat == declarer else "defender" if seat in active else "passed"
        lines.append(f"{seat_label(seat, dealer):<22}{role:<9} {hand_text(hands[seat])}"
                     .rstrip())
    if widow is not None:
        lines.append(f"{'widow':<22}{'':<9} {hand_text(widow)}".rstrip())
    return "\n".join(lines)


def position_header(position: Position, with_trump: bool = True) -> str:
    """Who plays what: strain, leader, active seats and the trick on the table."""
    text = (f"seat {position.leader} leads, "
            f"seats {' '.join(map(str, position.active))} play")
    if with_trump:
        text = f"trump: {STRAIN_NAMES[position.trump]}, {text}"
    if position.trick:
        text += ", on the table: " + cards_text(position.trick)
    return text


def card_values_text(values: dict[int, int], seat: int) -> str:
    """The per-card table: declarer's tricks after each legal card of ``seat``."""
    rows = [f"seat {seat} to play   card  declarer tricks"]
    for card in sorted(values, key=lambda c: (c >> 3, -(c & 7))):
        rows.append(f"{'':<17}{format_card(card):<6}{values[card]}")
    return "\n".join(rows)


def play_line_text(position: Position, line: Sequence[tuple[int, int]]) -> str:
    """The play line trick by trick: ``trick 1: 0 AS  1 7S  2 8S  -> seat 0``."""
    rows = []
    trick_no = 10 - position.tricks_left + 1
    current: list[str] = [f"{s} {format_card(c)}" for s, c in
                          zip(position.play_order, position.trick, strict=False)]
    pos = position
    for seat, card in line:
        current.append(f"{seat} {format_card(card)}")
        pos, winner = pos.play(card)
        if winner is not None:
            rows.append(f"trick {trick_no:>2}: {'  '.join(current):<22} -> seat {winner}")
            current = []
            trick_no += 1
    return "\n".join(rows)


def widow_table_text(answer: Answer, shown: int = 5) -> str:
    """Best tricks and best discards per strain (the first ``shown`` discards, then a count)."""
    rows = ["strain  tricks  best discards"]
    for item in answer.strains:
        names = item.widow.discard_names()
        text = ", ".join(names[:shown])
        if len(names) > shown:
            text += f" and {len(names) - shown} more"
        rows.append(f"{item.strain.name:<8}{item.tricks:<8}{text}")
    return "\n".join(rows)


def answer_text(answer: Answer) -> str:
    """A solve answer for a terminal: the rules when they are not the default, the seats,
    then the widow table or the tricks."""
    request = answer.request
    out = [] if request.rules.is_default else [f"rules: {request.rules}\n"]
    out.append(seats_text(request.hands, request.declarer, request.active, request.widow,
                          request.dealer))
    seats = " ".join(map(str, request.active))
    if request.widow is not None:
        out.append(f"\nseat {request.declarer} takes the widow; seat {request.leader} leads; "
                   f"seats {seats} play\n")
        out.append(widow_table_text(answer))
        contract = answer.contract
        if len(answer.strains) > 1 and contract is None:
            out.append("\nno contract makes: the best is fewer than six tricks")
        elif len(answer.strains) > 1:
            out.append(f"\ncontract to name: {contract} (discard {answer.contract_discard})")
        return "\n".join(out)
    first = request.position(answer.strains[0].strain)
    if len(answer.strains) > 1:
        out.append("\n" + position_header(first, with_trump=False))
        out.append("\nstrain  declarer tricks")
        out += [f"{a.strain.name:<8}{a.tricks}" for a in answer.strains]
        return "\n".join(out)
    (item,) = answer.strains
    out.append("\n" + position_header(first))
    out.append(f"declarer takes {item.tricks} of {first.tricks_left} tricks"
               + (" (this trick on)" if first.trick else ""))
    if item.card_values is not None:
        out.append("\n" + card_values_text(item.card_values, item.to_move))
    if item.play_line is not None:
        out.append("\n" + play_line_text(first, item.play_line))
    return "\n".join(out)
