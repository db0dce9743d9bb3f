"""Solve requests as users write them, and their answers one line at a time: what the bulk
path of ``prefa solve --batch`` must reproduce."""

from __future__ import annotations

import random

from prefa_sim.core.cards import format_cards, format_hand
from prefa_sim.requests.solve import answer
from prefa_sim.solve.solver import Solver
from prefa_sim.util.jsonl import answer_line, numbered_lines

from . import random_deal

ROLES = ["first", "second", "dealer"]


def one_by_one(lines: list[bytes]) -> list[tuple[bool, str]]:
    """Each line answered alone (a blank one in its place)."""
    solver = Solver(table_bits=14)
    return [answer_line(line, lambda obj: answer(obj, solver))
            for line in numbered_lines(lines, blanks=True)]


def random_request(rng: random.Random) -> dict:
    """A request as users write them: common ones, and ones with something unusual or
    wrong about them."""
    hands, widow = random_deal(rng)
    dealer = rng.choice([None, 0, 1, 2])
    seats = [0, 1, 2]
    if rng.random() < 0.5:
        seats.remove(rng.randrange(3))
    spell = rng.choice(["grouped", "tokens", "token string"])

    def write(hand: int):
        if spell == "grouped":
            return format_hand(hand)
        tokens = format_cards(hand)
        return tokens if spell == "tokens" else " ".join(tokens)

    size = rng.choice([10, 10, 10, rng.randrange(1, 10)])
    short = []
    for s in range(3):  # the same number of cards in each hand that plays
        cards = [c for c in range(32) if hands[s] >> c & 1]
        short.append(sum(1 << c for c in rng.sample(cards, size)))
    request: dict = {"hands": [write(short[s]) if s in seats else "-" for s in range(3)]}
    if dealer is not None:
        request["dealer"] = dealer
    if len(seats) == 2 or rng.random() < 0.3:
        request["active"] = [rng.choice([s, ROLES[(s - (2 if dealer is None else dealer) - 1)
                                                   % 3]]) for s in seats]
    if rng.random() < 0.7:
        request["trump"] = rng.choice(["S", "C", "D", "H", "NT", "N", "h", "nt"])
    if rng.random() < 0.8:
        request["declarer"] = rng.choice([rng.choice(seats), "first", "second", "dealer"])
    if rng.random() < 0.4:
        request["leader"] = rng.choice(seats + ["first"])
    if size == 10 and rng.random() < 0.3:
        request["widow"] = rng.choice([format_hand(widow), format_cards(widow)])
    if rng.random() < 0.1:
        request["id"] = rng.choice([7, "x", 10**30, [1, {"a": None}]])
    if rng.random() < 0.05:
        request["declarer_tricks"] = 3  # an old answer fed back: answered afresh
    if rng.random() < 0.1:  # a mistake, or a request the bulk path hands on
        mistake = rng.choice(["dup", "count", "seat", "trump", "cards", "trick", "dealer",
                              "misspelt", "own"])
        if mistake == "dup":
            request["hands"][seats[1]] = request["hands"][seats[0]]
        elif mistake == "count":
            request["hands"][seats[0]] = format_hand(hands[seats[0]] & (hands[seats[0]] - 1))
        elif mistake == "seat":
            request["declarer"] = 5
        elif mistake == "trump":
            request["trump"] = 3
        elif mistake == "cards":
            request["cards"] = True
            request["trump"] = "H"
            request.pop("widow", None)
        elif mistake == "trick":
            request["trick"] = []
        elif mistake == "misspelt":  # a typo is refused, by either path alike
            request[rng.choice(["trupm", "Dealer", "hand", "_note"])] = "H"
        elif mistake == "own":  # a field of one's own, echoed
            request["label"] = "deal 7"
        else:
            request["dealer"] = "1"
    return request
