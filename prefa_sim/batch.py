"""Batch solving of JSON Lines requests, in input order, over several processes.

A request line::

    {"hands": [[10 cards], [10 cards], [10 cards]], "trump": "H", "leader": 0,
     "declarer": 0, "active": [0, 1], "widow": ["7D", "8H"], "trick": ["AS"]}

``active`` (default all three), ``widow`` and ``trick`` are optional.  Hands
are lists of card tokens or suit-grouped strings.  A seat not in ``active``
may hold any cards.  The answer is the request plus ``declarer_tricks``, or
with a widow ``best_tricks`` and ``best_discards``; a bad line becomes
``{"line": n, "error": "..."}``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .cards import CardError, Strain, parse_cards, parse_hand, parse_strain
from .position import Position
from .solver import Solver, worker_solver


class RequestError(ValueError):
    """A request line that is not a valid solve request."""


@dataclass(frozen=True)
class Request:
    """One parsed request: a position, and the widow when one is given."""

    position: Position
    widow: int | None


def parse_request(obj: Any) -> Request:
    """Check and convert one decoded JSON request."""
    if not isinstance(obj, dict):
        raise RequestError("a request is a JSON object")
    for key in ("hands", "trump", "leader", "declarer"):
        if key not in obj:
            raise RequestError(f"missing field {key!r}")
    hands_in = obj["hands"]
    if not isinstance(hands_in, list) or len(hands_in) != 3:
        raise RequestError("'hands' must be a list of three hands")
    active = obj.get("active", [0, 1, 2])
    if not isinstance(active, list) or not all(_is_seat(s) for s in active):
        raise RequestError("'active' must be a list of seats 0-2")
    for key in ("leader", "declarer"):
        if not _is_seat(obj[key]):
            raise RequestError(f"{key!r} must be a seat 0-2")
    if not isinstance(obj["trump"], str):
        raise RequestError("'trump' must be one of S, C, D, H, NT")
    trump = parse_strain(obj["trump"])
    hands = []
    for seat, hand in enumerate(hands_in):
        if seat not in active:
            hands.append(0)
            continue
        if not isinstance(hand, list | str):
            raise RequestError(f"hand {seat} must be a list of cards or a suit-grouped string")
        try:
            hands.append(parse_hand(hand))
        except CardError as exc:
            raise RequestError(f"hand {seat}: {exc}") from None
    trick = _card_list(obj.get("trick", []), "trick")
    widow = None
    if "widow" in obj:
        if trick:
            raise RequestError("a widow request starts at the first trick: no 'trick' allowed")
        cards = _card_list(obj["widow"], "widow")
        widow = sum(1 << c for c in cards)
        if len(cards) != 2:
            raise RequestError(f"the widow holds {len(cards)} cards, expected 2")
    position = Position(tuple(hands), trump, obj["leader"], obj["declarer"], tuple(active),
                        tuple(trick))
    if widow is None:
        for seat in position.active:
            if not trick and bin(hands[seat]).count("1") != 10:
                raise RequestError(f"hand {seat} holds {bin(hands[seat]).count('1')} cards, "
                                   "expected 10")
    return Request(position, widow)


def _is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in (0, 1, 2)


def _card_list(value: Any, name: str) -> list[int]:
    if not isinstance(value, list | str):
        raise RequestError(f"{name!r} must be a list of cards")
    try:
        return parse_cards(value)
    except CardError as exc:
        raise RequestError(f"{name}: {exc}") from None


def answer(obj: dict, solver: Solver) -> dict:
    """The request ``obj`` with its answer fields added."""
    request = parse_request(obj)
    pos = request.position
    out = dict(obj)
    if request.widow is None:
        out["declarer_tricks"] = solver.solve(pos)
    else:
        result = solver.solve_widow(pos.hands, request.widow, Strain(pos.trump), pos.leader,
                                    pos.declarer, pos.active)
        out["best_tricks"] = result.best_tricks
        out["best_discards"] = result.discard_names()
    return out


def answer_json_line(number: int, text: str, answer_fn) -> tuple[bool, str]:
    """``(ok, json_text)`` for one numbered JSON line answered by ``answer_fn(obj)``;
    a line that is not JSON, or that ``answer_fn`` rejects with a ``ValueError``,
    gives ``{"line": n, "error": "..."}``."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return False, json.dumps({"line": number, "error": f"not valid JSON: {exc.msg}"})
    try:
        return True, json.dumps(answer_fn(obj))
    except ValueError as exc:
        return False, json.dumps({"line": number, "error": str(exc)})


def numbered_lines(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Non-blank lines with their line numbers, counting from 1 over all lines."""
    return ((n, text) for n, text in enumerate(lines, start=1) if text.strip())


def answer_line(numbered: tuple[int, str], solver: Solver | None = None) -> tuple[bool, str]:
    """``(ok, json_text)`` for one numbered solve request line."""
    number, text = numbered
    solver = solver or worker_solver()
    return answer_json_line(number, text, lambda obj: answer(obj, solver))


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - platforms without affinity
        return os.cpu_count() or 1


def solve_lines(lines: Iterable[str], workers: int | None = None) -> Iterator[tuple[bool, str]]:
    """Answer JSON Lines requests in input order as ``(ok, json_text)``; blank lines are skipped.

    Line numbers count from 1 over all input lines.  With more than one
    worker the lines are spread over a process pool, each process with its
    own solver; the answers are the same whatever the number of workers.
    """
    numbered = numbered_lines(lines)
    workers = workers or default_workers()
    if workers == 1:
        solver = Solver()
        for item in numbered:
            yield answer_line(item, solver)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers) as pool:
        yield from pool.imap(answer_line, numbered, chunksize=8)

