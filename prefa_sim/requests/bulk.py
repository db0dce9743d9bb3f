"""Batch solving in bulk: blocks of request lines read in one pass, solved in one kernel
call per block, answered without per-line machinery.

The commonest lines (suit-grouped hands, seat numbers) are read straight from their bytes
by ``request_bytes``, a block at a time.  The other common requests (hands as card tokens
such as ``AS``, seats as roles, fields of one's own) are decoded and read here by
``quick_request``: their hands through lookup tables, their checks the few the solver
needs.  Every position (or widow cell) of a block then goes to the solver at once; a
block of nothing but scanned one-strain requests without a widow has its answers written
as bytes in one pass (``fast.plain_answers``).  Any other line (card values, a
line of play, a trick in progress, other spellings, and every line with a mistake) is
answered by ``requests.solve.answer`` exactly as when lines are solved one by one, so the answers
and the error messages do not depend on the path a line takes.
A file (a binary stream) is read in bulk: in jobs of whole lines as bytes, some
``BLOCKS_PER_JOB`` blocks' worth each (``byte_jobs``), each of which the one process or a
worker answers as one block, scanned without splitting it into lines (``job_text``).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import combinations
from typing import BinaryIO, NamedTuple, TypeVar

import numpy as np
import orjson

from ..core.cards import RANK_LETTERS, SUIT_LETTERS, Strain, format_card, iter_cards
from ..core.contracts import best_contract
from ..core.seats import SeatError, seat_of
from ..rules.variants import DEFAULT_RULES, Rules
from ..solve.solver import DISCARD_PAIRS, Solver, worker_solver
from ..util.jsonl import (
    LineError,
    answer_line,
    blank_answer,
    decode,
    encode,
    misspelt_field,
    number_line,
    read_error,
    read_lines,
)
from ..util.workers import default_workers, ordered_map
from .fast import (
    DECLARER,
    H0,
    H1,
    H2,
    LEADER,
    LEADERS,
    MASK,
    OK,
    TRICKS_KEY,
    TRUMP,
    WIDOW,
    answer_starts,
    plain_answers,
    scan_block_bytes,
    scan_bytes,
)
from .fields import ANSWER_FIELDS, PLAIN_FIELDS, REQUEST_FIELDS, STRAIN_SPELLINGS
from .solve import answer

BLOCK = 256
"""Request lines solved together when they come one by one (``raw_blocks``)."""

BLOCKS_PER_JOB = 4
"""Blocks handed to a worker at once: as ``raw_blocks`` blocks, or as one job of a file's
lines (``byte_jobs``) of as many blocks' weight.  Each hand-over costs the main process
some half a millisecond, which one block of quick requests would not repay."""

WIDOW_WEIGHT = 16
"""A request with a widow counts as this many lines in a block (``raw_blocks``) and in a
worker's job (``byte_jobs``): it asks the solver for some thirty times a deal's work, so
its blocks and jobs hold fewer lines, and the workers end a batch of a few thousand of
them together instead of one waiting on the other's last job.  (Lines are weighed by
their mentions of a widow, ``_weight``.)"""

ALL_STRAINS = tuple(Strain)

T = TypeVar("T")
R = TypeVar("R")

_STRAINS = {text: (strain,) for text, strain in STRAIN_SPELLINGS.items()}

_CARD_NAMES = [format_card(c) for c in range(32)]
_TOKENS = {name: 1 << c for c, name in enumerate(_CARD_NAMES)}


def _suit_groups() -> dict[str, int]:
    """Every set of ranks written from the highest (``AKT8``), and ``-`` or nothing for a
    void, to its 8-bit rank mask."""
    groups = {"": 0, "-": 0}
    letters = RANK_LETTERS[::-1]  # "AKQJT987"
    for n in range(1, 9):
        for chosen in combinations(range(8), n):
            groups["".join(letters[i] for i in chosen)] = sum(1 << (7 - i) for i in chosen)
    return groups


_GROUPS = _suit_groups()
assert SUIT_LETTERS == "SCDH"


def _hand(value: object) -> int | None:
    """A hand's mask, or None when it is not written in one of the common ways."""
    if type(value) is str:
        if "." in value:
            groups = value.split(".")
            if len(groups) != 4:
                return None
            try:
                return (_GROUPS[groups[0]] | _GROUPS[groups[1]] << 8 | _GROUPS[groups[2]] << 16
                        | _GROUPS[groups[3]] << 24)
            except KeyError:
                return None
        value = value.replace(",", " ").split()
    elif type(value) is not list:
        return None
    mask = 0
    for token in value:
        bit = _TOKENS.get(token) if type(token) is str else None
        if bit is None or mask & bit:
            return None
        mask |= bit
    return mask


def _plain_text(value: object) -> bool:
    """Text, or a list of texts: nothing the answer could write back otherwise than given."""
    return type(value) is str or (type(value) is list and all(type(v) is str for v in value))


def _seat(value: object, dealer: int) -> int | None:
    if type(value) is int:
        return value if 0 <= value <= 2 else None
    if type(value) is str:
        try:
            return seat_of(value, dealer)
        except SeatError:
            return None
    return None


class Quick(NamedTuple):
    """A common request, read and checked."""

    hands: list[int]
    strains: tuple[Strain, ...]
    dealer: int
    declarer: int
    leader: int
    active: tuple[int, ...]
    active_mask: int
    widow: int | None


def quick_request(obj: object) -> Quick | None:
    """The request ``obj`` if it is a common one that holds together (the solver can take
    it as it is), else None: ``requests.solve.answer`` then answers it, or says what is wrong."""
    if type(obj) is not dict:
        return None
    get = obj.get
    hands = get("hands")
    if type(hands) is not list or len(hands) != 3:
        return None
    if not _PLAIN.issuperset(obj):  # card values, a line of play, a trick, fields of its own
        if not REQUEST_FIELDS.issuperset(obj) and misspelt_field(obj, REQUEST_FIELDS):
            return None
        if "rules" in obj:  # rules of its own: answered one by one
            return None
        cards, line, trick = get("cards"), get("line"), get("trick")
        if (cards is not None and cards is not False) or \
                (line is not None and line is not False) or \
                (trick is not None and trick != [] and trick != ""):
            return None
    dealer = get("dealer")
    if dealer is None:
        dealer = 2
    elif type(dealer) is not int or not 0 <= dealer <= 2:
        return None
    given = get("active")
    if given is None:
        active, mask = (0, 1, 2), 7
    else:
        if type(given) is not list or not 2 <= len(given) <= 3:
            return None
        mask = 0
        for value in given:
            seat = value if type(value) is int and 0 <= value <= 2 else _seat(value, dealer)
            if seat is None or mask >> seat & 1:
                return None
            mask |= 1 << seat
        active = _ACTIVE[mask]
    declarer = get("declarer")
    if declarer is None:
        declarer = (dealer + 1) % 3
    elif type(declarer) is not int or not 0 <= declarer <= 2:
        declarer = _seat(declarer, dealer)
    leader = get("leader")
    if leader is None:
        leader = _LEADER[dealer][mask]
    elif type(leader) is not int or not 0 <= leader <= 2:
        leader = _seat(leader, dealer)
    if declarer is None or leader is None or not mask >> declarer & 1 or not mask >> leader & 1:
        return None
    trump = get("trump")
    if trump is None:
        strains = ALL_STRAINS
    else:
        strains = _STRAINS.get(trump) if type(trump) is str else None
        if strains is None:
            return None
    masks = [0, 0, 0]
    seen = 0
    for seat in active:
        hand = _hand(hands[seat])
        if hand is None or seen & hand:
            return None
        seen |= hand
        masks[seat] = hand
    if len(active) == 2 and not _plain_text(hands[3 - sum(active)]):
        return None  # a seat out of play may hold anything: the answer repeats it as given
    size = masks[active[0]].bit_count()
    if not 1 <= size <= 10 or masks[active[1]].bit_count() != size or \
            (len(active) == 3 and masks[active[2]].bit_count() != size):
        return None
    widow = get("widow")
    if widow is not None:
        widow = _hand(widow) if type(widow) in (str, list) else None
        if widow is None or widow.bit_count() != 2 or widow & seen or size != 10:
            return None
    return Quick(masks, strains, dealer, declarer, leader, active, mask, widow)


_ACTIVE = {mask: tuple(s for s in (0, 1, 2) if mask >> s & 1) for mask in (3, 5, 6, 7)}
_LEADER = LEADERS.tolist()  # [dealer][active mask]
_PLAIN = frozenset(PLAIN_FIELDS)


def _decode(text: str) -> object:
    """A line's JSON value, read by orjson; a request with fields of its own (echoed in the
    answer) is read again by the standard library, which reads integers beyond 64 bits
    exactly where orjson makes them floats, and so is one that writes more keys than the
    object holds (a key given twice, which orjson takes as the last: ``jsonl.decode``
    refuses it)."""
    obj = orjson.loads(text)
    if type(obj) is dict and (not REQUEST_FIELDS.issuperset(obj) or _keys_written(text)
                              != len(obj)):
        return decode(text)  # strictly, and a key given twice is refused
    return obj


_KEY_END = re.compile(r'"\s*:')
_KEY_END_BYTES = re.compile(rb'"\s*:')


def _keys_written(text: str | bytes) -> int:
    """How many keys a line's text writes (a quote then a colon; a string holding that
    counts too, which only sends the line to the strict reader)."""
    return len((_KEY_END_BYTES if isinstance(text, bytes) else _KEY_END).findall(text))


def _discards(hand12: int, reaches: np.ndarray) -> list[str]:
    """The names of the discard pairs flagged in ``reaches`` (``Solver.solve_widows``)."""
    cards = list(iter_cards(hand12))
    return [f"{_CARD_NAMES[cards[i]]} {_CARD_NAMES[cards[j]]}"
            for k, (i, j) in enumerate(DISCARD_PAIRS) if reaches[k]]


def answer_block(block: list[tuple[int, bytes | str]], solver: Solver,
                 scan: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
                 ) -> list[tuple[bool, str]]:
    """``(ok, json_text)`` for each line of a block of ``(number, raw line)`` (a blank
    one: ``jsonl.blank_answer``), in order (``raw_blocks``); ``scan``, the block's
    ``scan_block_bytes`` if already made."""
    out, requests = _read_block(block, solver, scan)
    _write_answers(out, requests, solver)
    return out


Row = list[int]
"""A request's position as ``fast.scan_block_bytes`` gives it (columns ``OK`` to
``MASK``)."""


def _read_block(block: list[tuple[int, bytes | str]], solver: Solver,
                scan: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
                ) -> tuple[list[tuple[bool, str] | None], list[tuple[int, str, Row]]]:
    """The block's answers, None where a request is still to be solved; and those requests
    as ``(place in the answers, start of the answer, row)``.  The lines that the scan and
    ``quick_request`` do not read are answered one by one here."""
    fields, echo, echo_ends = scan or _scan(block)
    starts = answer_starts(echo, echo_ends)
    scanned = fields.tolist()
    out: list[tuple[bool, str] | None] = []
    requests: list[tuple[int, str, Row]] = []
    for k, (number, raw) in enumerate(block):
        row = scanned[k]
        if row[OK]:
            requests.append((len(out), starts[k], row))
            out.append(None)
            continue
        request = None
        if raw.strip():
            try:
                obj = _decode(raw)
                request = quick_request(obj)
            except (ValueError, RecursionError):
                pass
        if request is not None:
            start = _answer_start(obj, request)
            if start is not None:
                requests.append((len(out), start, _row(request)))
                out.append(None)
                continue
        line = number_line(number, raw)  # blank, not UTF-8, or answered one by one
        out.append((True, blank_answer(number)) if line is None else
                   answer_line(line, lambda o: answer(o, solver)))
    return out, requests


def _write_answers(out: list[tuple[bool, str] | None], requests: list[tuple[int, str, Row]],
                   solver: Solver) -> None:
    """Solve the requests of a block (its positions in one kernel call, its widow cells in
    another) and put their answers in their places in ``out``."""
    plain = [(r[H0], r[H1], r[H2], s, r[LEADER], r[DECLARER], r[MASK])
             for _, _, r in requests if r[WIDOW] < 0 for s in _row_strains(r)]
    cells = [(r[H0], r[H1], r[H2], r[H0 + r[DECLARER]] | r[WIDOW], s, r[LEADER], r[DECLARER],
              r[MASK])
             for _, _, r in requests if r[WIDOW] >= 0 for s in _row_strains(r)]
    tricks = iter(solver.solve_deals(np.array(plain, dtype=np.int64).reshape(-1, 7)).tolist())
    best, reaches = solver.solve_widows(np.array(cells, dtype=np.int64).reshape(-1, 8))
    best = best.tolist()
    cell = 0
    for i, start, r in requests:
        trump = r[TRUMP]
        if r[WIDOW] < 0:
            if trump >= 0:
                out[i] = True, start + _TRICKS_TAIL[next(tricks)]
            else:
                out[i] = True, start + "," + encode({"strains": {
                    s.name: {"declarer_tricks": next(tricks)} for s in ALL_STRAINS}})[1:]
            continue
        hand12 = r[H0 + r[DECLARER]] | r[WIDOW]
        answers = {}
        for s in _row_strains(r):
            answers[Strain(s)] = {"best_tricks": best[cell],
                                  "best_discards": _discards(hand12, reaches[cell])}
            cell += 1
        if trump >= 0:
            tail = answers[Strain(trump)]
        else:
            contract = best_contract({s: f["best_tricks"] for s, f in answers.items()})
            tail = {"strains": {s.name: f for s, f in answers.items()},
                    "contract": None if contract is None else str(contract),
                    "contract_discard": None if contract is None else
                    answers[contract.strain]["best_discards"][0]}
        out[i] = True, start + "," + encode(tail)[1:]


_TRICKS_TAIL = [f'{TRICKS_KEY}{t}}}' for t in range(11)]
"""The end of an answer of one strain without a widow, by the declarer's tricks: what
``encode`` writes for the field ``requests.solve.answer`` gives such a request."""

_PLAIN_COLUMNS = [H0, H1, H2, TRUMP, LEADER, DECLARER, MASK]
"""The columns of ``scan_block_bytes``'s fields that make a row of ``Solver.solve_deals``."""


def _scan(block: list[tuple[int, bytes | str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return scan_block_bytes([_scannable(raw) for _, raw in block])


def _one_pass_text(fields: np.ndarray, echo: np.ndarray, echo_ends: np.ndarray,
                   solver: Solver) -> str | None:
    """The answers of a block whose every line the scan read as a request of one strain
    without a widow (the commonest batch), written in one pass; None for any other block."""
    if not (fields.shape[0] and fields[:, OK].all() and (fields[:, WIDOW] < 0).all()
            and (fields[:, TRUMP] >= 0).all()):
        return None
    tricks = solver.solve_deals(np.ascontiguousarray(fields[:, _PLAIN_COLUMNS]))
    return plain_answers(echo, echo_ends, tricks).tobytes().decode("ascii")


_ALL = tuple(int(s) for s in ALL_STRAINS)


def _row_strains(row: Row) -> tuple[int, ...]:
    """The strains a request's row asks for (``TRUMP`` -1: all five)."""
    return _ALL if row[TRUMP] < 0 else (row[TRUMP],)


def _row(r: Quick) -> Row:
    """A request read by ``quick_request`` as a row like those of ``scan_block_bytes``."""
    return [1, *r.hands, -1 if r.widow is None else r.widow,
            -1 if len(r.strains) > 1 else int(r.strains[0]), r.dealer, r.declarer, r.leader,
            r.active_mask]


def _scannable(raw: bytes | str) -> bytes:
    """A line as bytes for ``scan_block_bytes``: text beyond ASCII as nothing, which the scan
    leaves to the decoded path."""
    if type(raw) is bytes:
        return raw
    return raw.encode() if raw.isascii() else b""


def _answer_start(obj: dict, r: Quick) -> str | None:
    """The answer to a request read by ``quick_request`` without its own fields and
    closing brace (as ``scan_block_bytes`` gives them); None when it cannot be written (fields
    of its own nested too deeply), which the line answered alone says."""
    result = obj if REQUEST_FIELDS.issuperset(obj) else \
        {k: v for k, v in obj.items() if k not in ANSWER_FIELDS}
    result.update(dealer=r.dealer, declarer=r.declarer, leader=r.leader,
                  active=list(r.active))
    try:
        return encode(result)[:-1]
    except (LineError, RecursionError):
        return None


def answer_text(block: list[tuple[int, bytes | str]], solver: Solver) -> tuple[int, str]:
    """A block's answers as text, a line each, and how many of them are errors."""
    return _text(block, _scan(block), solver)


def job_text(job: tuple[int, bytes], solver: Solver) -> tuple[int, str]:
    """The answers of a ``byte_jobs`` job's lines as text, and how many are errors.

    The scan reads the job's bytes as they are.  A job of requests of the kind written in
    one pass (``_one_pass_text``) is solved and written at once, its lines never split;
    any other is answered a block of ``BLOCK`` lines at a time (``answer_text``), so that
    one unusual line leaves the rest of the job to the one pass."""
    scan = scan_bytes(job[1])
    plain = _one_pass_text(*scan, solver)
    if plain is not None:
        return 0, plain
    lines = _job_block(job)
    answers = [_text(lines[first:first + BLOCK], _scan_rows(scan, first, first + BLOCK),
                     solver) for first in range(0, len(lines), BLOCK)]
    return sum(bad for bad, _ in answers), "".join(text for _, text in answers)


def job_answers(job: tuple[int, bytes], solver: Solver) -> list[tuple[bool, str]]:
    """``answer_block`` of a ``byte_jobs`` job's lines as one block."""
    return answer_block(_job_block(job), solver, scan_bytes(job[1]))


def _text(block: list[tuple[int, bytes | str]], scan: tuple[np.ndarray, np.ndarray, np.ndarray],
          solver: Solver) -> tuple[int, str]:
    """``answer_text`` of a block already scanned (``scan_block_bytes``)."""
    plain = _one_pass_text(*scan, solver)
    if plain is not None:
        return 0, plain
    answers = answer_block(block, solver, scan)
    return sum(not ok for ok, _ in answers), "".join(text + "\n" for _, text in answers)


def _scan_rows(scan: tuple[np.ndarray, np.ndarray, np.ndarray], first: int, stop: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The scan of lines ``first`` to ``stop`` out of the scan of many
    (``scan_block_bytes``), as if they had been scanned alone."""
    fields, echo, echo_ends = scan
    stop = min(stop, len(fields))
    start = int(echo_ends[first - 1]) if first else 0
    end = int(echo_ends[stop - 1]) if stop > first else start
    return fields[first:stop], echo[start:end], echo_ends[first:stop] - start


def _job_block(job: tuple[int, bytes]) -> list[tuple[int, bytes | str]]:
    """A ``byte_jobs`` job's lines as ``(number, raw line)``."""
    number, data = job
    return list(enumerate(job_lines(data), start=number))


def raw_blocks(lines: Iterable[bytes | str], size: int = BLOCK, start: int = 1
               ) -> Iterator[list[tuple[int, bytes | str]]]:
    """The input lines as ``(number, raw line)``, numbered from ``start``, in lists of
    ``size`` lines' weight (``_weight``); decoding them and skipping the blank ones is left
    to ``answer_block``."""
    block: list[tuple[int, bytes | str]] = []
    weight = 0
    for item in enumerate(read_lines(lines), start=start):
        block.append(item)
        weight += _weight(item[1], 1)
        if weight >= size:
            yield block
            block = []
            weight = 0
    if block:
        yield block


MIN_READ, MAX_READ = 1 << 12, 1 << 20
"""The least and the most ``byte_jobs`` reads at a time: the least first, before it knows
how long the lines are and how much they weigh."""


def byte_jobs(stream: BinaryIO, weight: int = BLOCK * BLOCKS_PER_JOB
              ) -> Iterator[tuple[int, bytes]]:
    """A binary input as worker jobs: ``(number of the first line, whole lines as bytes)``,
    each some ``weight`` lines' worth (``_weight``), so that the main process neither
    splits nor numbers lines: it counts them in bulk.
    ``job_lines`` splits a job as iterating over the input would."""
    number = 1
    partial: list[bytes] = []  # the start of a line still to be completed
    job: list[bytes] = []
    held = held_lines = 0  # the weight and the lines of ``job``
    size = MIN_READ
    while data := _read(stream, size):
        cut = data.rfind(b"\n") + 1
        if not cut:
            partial.append(data)
            size = min(2 * size, MAX_READ)
            continue
        rest = b"".join([*partial, data[:cut]]) if partial else data[:cut]
        partial = [data[cut:]] if cut < len(data) else []
        while rest:
            piece, lines, piece_weight, rest = _first_lines(rest, weight - held)
            job.append(piece)
            held += piece_weight
            held_lines += lines
            if held >= weight:
                yield number, b"".join(job)
                number += held_lines
                job = []
                held = held_lines = 0
        # Read about what the job still lacks, at this piece's bytes per unit of weight.
        size = min(max(len(piece) * (weight - held) // piece_weight, MIN_READ), MAX_READ)
    job += partial
    if any(job):
        yield number, b"".join(job)


def _weight(text: bytes | str, count: int) -> int:
    """The weight of ``count`` whole lines ``text`` in a block or a job: one a line, and
    ``WIDOW_WEIGHT - 1`` more for each mention of a widow."""
    return count + (WIDOW_WEIGHT - 1) * text.count(b"widow" if type(text) is bytes else "widow")


def _first_lines(lines: bytes, room: int) -> tuple[bytes, int, int, bytes]:
    """Whole lines split in two: the first some ``room`` of weight (all of them unless
    they weigh over twice that) with their count and weight (``_weight``), and the
    others."""
    count = lines.count(b"\n")
    total = _weight(lines, count)
    if total <= 2 * room:
        return lines, count, total, b""
    cut = lines.find(b"\n", len(lines) * room // total) + 1  # whole lines end in a newline
    head = lines[:cut]
    count = head.count(b"\n")
    return head, count, _weight(head, count), lines[cut:]


def _read(stream: BinaryIO, size: int) -> bytes:
    try:
        data = stream.read(size)
    except OSError as exc:
        raise read_error(stream, exc) from None
    if data is None:  # a non-blocking stream with nothing ready: not the end of the input
        raise read_error(stream, BlockingIOError("the input had nothing ready to read"))
    return data


def job_lines(data: bytes) -> list[bytes]:
    """The lines of a ``byte_jobs`` job, each with its newline (the input's last line has
    none if the input ends without one)."""
    lines = data.split(b"\n")
    last = lines.pop()
    lines = [line + b"\n" for line in lines]
    if last:
        lines.append(last)
    return lines


def _on_worker(answer: Callable[[T, Solver], R], work: T) -> R:
    """``answer(work, solver)`` with the worker's own solver."""
    return answer(work, worker_solver())


def _over_input(lines: Iterable[bytes | str] | BinaryIO, workers: int | None,
                on_block: Callable[[list[tuple[int, bytes | str]], Solver], R],
                on_job: Callable[[tuple[int, bytes], Solver], R]) -> Iterator[R]:
    """In input order, ``on_job(job, solver)`` for each of ``byte_jobs`` when the input is
    a binary stream, else ``on_block(block, solver)`` for each of ``raw_blocks``, on
    ``workers`` processes (this one included), each with its own solver."""
    workers = workers or default_workers()
    if isinstance(lines, io.BufferedIOBase | io.RawIOBase):
        return ordered_map(partial(_on_worker, on_job), byte_jobs(lines), workers, batch=1)
    return ordered_map(partial(_on_worker, on_block), raw_blocks(lines), workers,
                       batch=BLOCKS_PER_JOB)


def solve_text(lines: Iterable[bytes | str] | BinaryIO, workers: int | None = None,
               rules: Rules = DEFAULT_RULES) -> Iterator[tuple[int, str]]:
    """Answer JSON Lines requests in input order, a block of text at a time with its count
    of error lines (what ``prefa solve --batch`` writes); a blank line is answered in
    place (``jsonl.blank_answer``), line numbers count from 1 over all input lines.

    Lines go in blocks (``raw_blocks``) to the solver, or to worker processes each with its
    own solver; from a binary stream, such as a file opened ``"rb"``, they go in jobs of
    bytes (``byte_jobs``) instead.  The answers are the same whatever the number of
    workers.  Under other ``rules`` than the default (for the lines without their own)
    every line is answered one by one, naming the rules.
    """
    if not rules.is_default:
        return (_count_text(answers) for answers in
                _over_input(lines, workers, partial(_ruled_block, rules),
                            partial(_ruled_job, rules)))
    return _over_input(lines, workers, answer_text, job_text)


def solve_lines(lines: Iterable[bytes | str] | BinaryIO, workers: int | None = None,
                rules: Rules = DEFAULT_RULES) -> Iterator[tuple[bool, str]]:
    """``solve_text`` a line at a time: ``(ok, json_text)`` for each line."""
    if not rules.is_default:
        blocks = _over_input(lines, workers, partial(_ruled_block, rules),
                             partial(_ruled_job, rules))
    else:
        blocks = _over_input(lines, workers, answer_block, job_answers)
    for answers in blocks:
        yield from answers


def _ruled_block(rules: Rules, block: list[tuple[int, bytes | str]],
                 solver: Solver) -> list[tuple[bool, str]]:
    """``answer_block`` with ``rules`` for the lines without rules of their own: every line
    answered one by one (``requests.solve.answer``)."""
    out = []
    for number, raw in block:
        line = number_line(number, raw)
        out.append((True, blank_answer(number)) if line is None else
                   answer_line(line, lambda o: answer(o, solver, rules)))
    return out


def _ruled_job(rules: Rules, job: tuple[int, bytes], solver: Solver) -> list[tuple[bool, str]]:
    return _ruled_block(rules, _job_block(job), solver)


def _count_text(answers: list[tuple[bool, str]]) -> tuple[int, str]:
    """Answers as ``solve_text`` gives them: the count of errors and the lines as text."""
    return sum(not ok for ok, _ in answers), "".join(text + "\n" for _, text in answers)
