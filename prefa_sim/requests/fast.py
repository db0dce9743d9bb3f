"""The commonest request lines of a batch read straight from their bytes, a block at a time.

A line qualifies when it is plain ASCII JSON holding one object whose keys are only
``hands``, ``trump``, ``declarer``, ``leader``, ``active``, ``dealer`` and ``widow``,
each at most once, with:

* ``hands``: three strings; the hands in play suit-grouped (``"AKT.Q9.-.87"``, ranks from
  the highest, ``-`` or nothing for a void), a seat out of play any string of printable
  ASCII without escapes;
* ``trump``: one of the spellings of a strain (``"S"``, ``"nt"``, ...);
* ``declarer``, ``leader``, ``dealer``: a seat number ``0``-``2``; ``active``: a list of
  two or three distinct seat numbers;
* ``widow``: two cards, suit-grouped.

and when the position holds together as ``bulk.quick_request`` asks (hands of one size,
no card twice, the declarer and leader in play, a widow only beside ten cards).  Strings
with escapes, numbers written otherwise, ``null``, other keys or spellings: anything else
is left to ``bulk``, which decodes the line and answers it as before.

For each line that qualifies, the scan gives the position's fields and the start of its
answer: the request written back as orjson writes it (compact), with ``dealer``,
``declarer``, ``leader`` and ``active`` set to the seats solved, the closing brace left
for the answer's own fields.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.cards import RANK_LETTERS
from ..core.seats import opening_leader
from ..engine.bits import popcount
from .fields import PLAIN_FIELDS, STRAIN_SPELLINGS

OK, H0, H1, H2, WIDOW, TRUMP, DEALER, DECLARER, LEADER, MASK = range(10)
"""Columns of ``scan_block_bytes``'s fields; ``WIDOW`` -1 for none, ``TRUMP`` -1 for all five."""
N_FIELDS = MASK + 1

_N_KEYS = len(PLAIN_FIELDS)
_HANDS, _TRUMP, _DECLARER, _LEADER, _ACTIVE, _DEALER, _WIDOW = range(_N_KEYS)
_SET_LAST = (_DEALER, _DECLARER, _LEADER, _ACTIVE)  # the order ``dict.update`` adds them in
_TRUMP_SPAN, _WIDOW_SPAN = 3, 4  # rows of a line's string bounds after the three hands'



def _leaders() -> np.ndarray:
    leaders = np.zeros((3, 8), dtype=np.int64)
    for dealer in range(3):
        for mask in (3, 5, 6, 7):
            leaders[dealer, mask] = opening_leader(
                dealer, [s for s in range(3) if mask >> s & 1])
    return leaders


LEADERS = _leaders()
"""``LEADERS[dealer, active_mask]``: who leads to the first trick (``opening_leader``)."""

ECHO_EXTRA = len(',"dealer":2,"declarer":1,"leader":0,"active":[0,1,2]')
"""Bytes an answer's start may take beyond its request line: the fields it adds (a field
the request has is written back no longer than it was, and the closing brace is left)."""

# Bytes of JSON text.
_QUOTE, _BACKSLASH, _COMMA, _COLON = 34, 92, 44, 58
_OPEN_LIST, _CLOSE_LIST, _OPEN_OBJECT, _CLOSE_OBJECT = 91, 93, 123, 125
_ZERO, _DOT, _DASH, _NEWLINE = 48, 46, 45, 10


def _tables() -> tuple[np.ndarray, ...]:
    """The lookup tables of ``scan_requests``: the field names, padded, and their lengths;
    each rank letter's bit within its suit's byte (-1 for other bytes); each strain
    spelling's strain, by its first byte and its second (0 for none)."""
    names = np.zeros((len(PLAIN_FIELDS), 8), dtype=np.uint8)
    for k, name in enumerate(PLAIN_FIELDS):
        names[k, :len(name)] = np.frombuffer(name.encode(), dtype=np.uint8)
    name_lengths = np.array([len(name) for name in PLAIN_FIELDS], dtype=np.int64)
    ranks = np.full(256, -1, dtype=np.int64)
    for bit, letter in enumerate(RANK_LETTERS):
        ranks[ord(letter)] = bit
    strains = np.full((256, 256), -1, dtype=np.int64)
    for text, strain in STRAIN_SPELLINGS.items():
        strains[ord(text[0]), ord(text[1]) if len(text) > 1 else 0] = int(strain)
    return names, name_lengths, ranks, strains


_NAMES, _NAME_LENGTHS, _RANKS, _STRAINS = _tables()


def answer_starts(echo: np.ndarray, echo_ends: np.ndarray) -> list[str]:
    """The answers' starts that ``scan_block_bytes`` wrote, one string a line."""
    text = echo.tobytes().decode("ascii")
    bounds = echo_ends.tolist()
    return [text[a:b] for a, b in zip([0, *bounds[:-1]], bounds, strict=True)]


def scan_block_bytes(lines: list[bytes]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The fields of each line (``fields[i, OK]`` is 1 when line ``i`` qualifies; the
    other columns of a line that does not are meaningless) and the start of each
    qualifying line's answer, as one array of ASCII bytes, line ``i``'s ending at
    ``echo_ends[i]`` (where line ``i - 1``'s ends, for one that does not qualify)."""
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    ends = np.cumsum(lengths)
    return _scan(b"".join(lines), ends - lengths, ends)


def scan_bytes(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``scan_block_bytes`` of the lines of ``data``: each up to and with its newline, the
    last one without if ``data`` does not end in one (the lines ``bulk.job_lines`` gives),
    found without splitting ``data``."""
    buf = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(buf == _NEWLINE) + 1
    if data and data[-1] != _NEWLINE:
        ends = np.append(ends, len(data))
    starts = np.zeros_like(ends)
    starts[1:] = ends[:-1]
    return _scan(data, starts, ends)


def _scan(joined: bytes, starts: np.ndarray, ends: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``scan_requests`` of the lines ``joined[starts[i]:ends[i]]``."""
    count = len(starts)
    fields = np.zeros((count, N_FIELDS), dtype=np.int64)
    echo = np.empty(len(joined) + ECHO_EXTRA * count, dtype=np.uint8)
    echo_ends = np.zeros(count, dtype=np.int64)
    scan_requests(np.frombuffer(joined, dtype=np.uint8), starts, ends, _NAMES, _NAME_LENGTHS,
                  _RANKS, _STRAINS, LEADERS, fields, echo, echo_ends)
    return fields, echo[:echo_ends[-1] if count else 0], echo_ends


TRICKS_KEY = ',"declarer_tricks":'
"""What an answer of one strain without a widow adds before the declarer's tricks."""
_TRICKS_KEY = np.frombuffer(TRICKS_KEY.encode(), dtype=np.uint8)


@njit(cache=True, nogil=True)  # nogil: a process solving a batch still feeds its workers
def plain_answers(echo, echo_ends, tricks):
    """The answer lines of a block of qualifying one-strain requests without a widow: each
    answer's start (``scan_block_bytes``), its declarer's tricks and a newline, as bytes."""
    n = echo_ends.shape[0]
    out = np.empty(echo.shape[0] + n * (_TRICKS_KEY.shape[0] + 4), dtype=np.uint8)
    q = 0
    start = 0
    for i in range(n):
        for p in range(start, echo_ends[i]):
            out[q] = echo[p]
            q += 1
        start = echo_ends[i]
        for p in range(_TRICKS_KEY.shape[0]):
            out[q] = _TRICKS_KEY[p]
            q += 1
        t = tricks[i]
        if t >= 10:
            out[q] = _ZERO + t // 10
            q += 1
        out[q] = _ZERO + t % 10
        out[q + 1] = _CLOSE_OBJECT
        out[q + 2] = _NEWLINE
        q += 3
    return out[:q]


@njit(cache=True)
def _skip_space(buf, p, end):
    """The first index from ``p`` that is not JSON white space."""
    while p < end and (buf[p] == 32 or buf[p] == 9 or buf[p] == 10 or buf[p] == 13):
        p += 1
    return p


@njit(cache=True)
def _string_end(buf, p, end):
    """The index of the closing quote of the string opening at ``p``, or -1 when there is
    none or the string holds an escape or a byte that is not printable ASCII."""
    if p >= end or buf[p] != _QUOTE:
        return -1
    p += 1
    while p < end:
        b = buf[p]
        if b == _QUOTE:
            return p
        if b < 32 or b > 126 or b == _BACKSLASH:
            return -1
        p += 1
    return -1


@njit(cache=True)
def _seat_digit(buf, p, end):
    """The seat number ``0``-``2`` at ``p`` (a lone digit), or -1."""
    if p < end and _ZERO <= buf[p] <= _ZERO + 2 and (
            p + 1 >= end or not _ZERO <= buf[p + 1] <= _ZERO + 9):
        return buf[p] - _ZERO
    return -1


@njit(cache=True)
def _grouped_hand(buf, a, b, ranks):
    """The mask of the suit-grouped hand written in ``buf[a:b]``, or -1."""
    mask = 0
    suit = 0
    previous = 8  # the bit of the group's last rank; 8 before the first, -1 after "-"
    for p in range(a, b):
        c = buf[p]
        if c == _DOT:
            suit += 1
            if suit > 3:
                return -1
            previous = 8
        elif c == _DASH:  # a void, alone in its group
            if previous != 8 or (p + 1 < b and buf[p + 1] != _DOT):
                return -1
            previous = -1
        else:
            bit = ranks[c]
            if bit < 0 or bit >= previous:
                return -1
            previous = bit
            mask |= 1 << (8 * suit + bit)
    return mask if suit == 3 else -1


@njit(cache=True)
def _read_object(buf, p, end, names, name_lengths, order, spans, values):
    """Read the object at ``p``: the keys in their order (``order``), the bounds of its
    strings (``spans``: the three hands, the trump, the widow), its seat numbers
    (``values`` by key) and the active seats.  Returns ``(number of keys, mask of keys,
    active mask)``, the number -1 when the object is not one the scan reads."""
    p = _skip_space(buf, p, end)
    if p >= end or buf[p] != _OPEN_OBJECT:
        return -1, 0, 0
    seen = 0
    n_keys = 0
    active = 7
    p = _skip_space(buf, p + 1, end)
    while True:
        close = _string_end(buf, p, end)
        key = -1
        if close >= 0:
            for k in range(names.shape[0]):
                if close - p - 1 == name_lengths[k]:
                    same = True
                    for j in range(name_lengths[k]):
                        if buf[p + 1 + j] != names[k, j]:
                            same = False
                            break
                    if same:
                        key = k
                        break
        if key < 0 or seen >> key & 1:
            return -1, 0, 0
        seen |= 1 << key
        order[n_keys] = key
        n_keys += 1
        p = _skip_space(buf, close + 1, end)
        if p >= end or buf[p] != _COLON:
            return -1, 0, 0
        p = _skip_space(buf, p + 1, end)
        if key == _HANDS:
            if p >= end or buf[p] != _OPEN_LIST:
                return -1, 0, 0
            for s in range(3):
                p = _skip_space(buf, p + 1, end)
                close = _string_end(buf, p, end)
                if close < 0:
                    return -1, 0, 0
                spans[s, 0] = p + 1
                spans[s, 1] = close
                p = _skip_space(buf, close + 1, end)
                if p >= end or buf[p] != (_CLOSE_LIST if s == 2 else _COMMA):
                    return -1, 0, 0
            p += 1
        elif key in (_TRUMP, _WIDOW):
            close = _string_end(buf, p, end)
            if close < 0:
                return -1, 0, 0
            slot = _TRUMP_SPAN if key == _TRUMP else _WIDOW_SPAN
            spans[slot, 0] = p + 1
            spans[slot, 1] = close
            p = close + 1
        elif key == _ACTIVE:
            if p >= end or buf[p] != _OPEN_LIST:
                return -1, 0, 0
            active = 0
            count = 0
            while True:
                p = _skip_space(buf, p + 1, end)
                seat = _seat_digit(buf, p, end)
                if seat < 0 or active >> seat & 1:  # a fourth seat is one seen before
                    return -1, 0, 0
                active |= 1 << seat
                count += 1
                p = _skip_space(buf, p + 1, end)
                if p < end and buf[p] == _CLOSE_LIST:
                    p += 1
                    break
                if p >= end or buf[p] != _COMMA:
                    return -1, 0, 0
            if count < 2:
                return -1, 0, 0
        else:  # a seat number
            values[key] = _seat_digit(buf, p, end)
            if values[key] < 0:
                return -1, 0, 0
            p += 1
        p = _skip_space(buf, p, end)
        if p < end and buf[p] == _COMMA:
            p = _skip_space(buf, p + 1, end)
            continue
        if p < end and buf[p] == _CLOSE_OBJECT and _skip_space(buf, p + 1, end) == end:
            return n_keys, seen, active
        return -1, 0, 0


@njit(cache=True)
def _read_position(buf, seen, active, spans, values, ranks, strains, leaders, fields, i):
    """Fill ``fields[i]`` (a line's fields) from what ``_read_object`` read, and set
    ``values`` to the seats solved; False when the position does not hold together
    (``fields[i, OK]`` is then left 0)."""
    dealer = values[_DEALER] if seen >> _DEALER & 1 else 2
    declarer = values[_DECLARER] if seen >> _DECLARER & 1 else (dealer + 1) % 3
    leader = values[_LEADER] if seen >> _LEADER & 1 else leaders[dealer, active]
    if not (seen >> _HANDS & 1 and active >> declarer & 1 and active >> leader & 1):
        return False
    trump = -1
    if seen >> _TRUMP & 1:
        a = spans[_TRUMP_SPAN, 0]
        n = spans[_TRUMP_SPAN, 1] - a
        if n == 1:
            trump = strains[buf[a], 0]
        elif n == 2:
            trump = strains[buf[a], buf[a + 1]]
        if trump < 0:
            return False
    held = 0
    size = -1
    for s in range(3):
        if active >> s & 1:
            hand = _grouped_hand(buf, spans[s, 0], spans[s, 1], ranks)
            if hand < 0 or held & hand:
                return False
            count = popcount(hand)
            if count < 1 or count > 10 or (size >= 0 and count != size):
                return False
            size = count
            held |= hand
            fields[i, H0 + s] = hand
    widow = -1
    if seen >> _WIDOW & 1:
        widow = _grouped_hand(buf, spans[_WIDOW_SPAN, 0], spans[_WIDOW_SPAN, 1], ranks)
        if widow < 0 or widow & held or size != 10 or popcount(widow) != 2:
            return False
    fields[i, OK] = 1
    fields[i, WIDOW] = widow
    fields[i, TRUMP] = trump
    fields[i, DEALER] = dealer
    fields[i, DECLARER] = declarer
    fields[i, LEADER] = leader
    values[_DEALER] = dealer
    values[_DECLARER] = declarer
    values[_LEADER] = leader
    fields[i, MASK] = active
    return True


@njit(cache=True)
def _put(echo, q, buf, a, b):
    """Copy ``buf[a:b]`` to ``echo`` at ``q``; the index after it."""
    for p in range(a, b):
        echo[q] = buf[p]
        q += 1
    return q


@njit(cache=True)
def _put_key(echo, q, names, name_lengths, k, first):
    """Write ``"name":`` of key ``k`` at ``q``, after a comma unless ``first``."""
    if not first:
        echo[q] = _COMMA
        q += 1
    echo[q] = _QUOTE
    q += 1
    for j in range(name_lengths[k]):
        echo[q] = names[k, j]
        q += 1
    echo[q] = _QUOTE
    echo[q + 1] = _COLON
    return q + 2


@njit(cache=True)
def _put_string(echo, q, buf, a, b):
    """Write the string ``buf[a:b]`` (no escapes needed) in quotes at ``q``."""
    echo[q] = _QUOTE
    q = _put(echo, q + 1, buf, a, b)
    echo[q] = _QUOTE
    return q + 1


@njit(cache=True)
def _write_start(buf, n_keys, seen, active, order, spans, values, names, name_lengths,
                 echo, q):
    """Write a qualifying line's answer start at ``q``: its fields in their order, the
    seats as solved, then the seat fields it lacks; the index after it."""
    echo[q] = _OPEN_OBJECT
    q += 1
    for j in range(n_keys + len(_SET_LAST)):
        if j < n_keys:
            key = order[j]
        else:
            key = _SET_LAST[j - n_keys]
            if seen >> key & 1:
                continue
        q = _put_key(echo, q, names, name_lengths, key, j == 0)
        if key == _HANDS:
            echo[q] = _OPEN_LIST
            q += 1
            for s in range(3):
                if s:
                    echo[q] = _COMMA
                    q += 1
                q = _put_string(echo, q, buf, spans[s, 0], spans[s, 1])
            echo[q] = _CLOSE_LIST
            q += 1
        elif key in (_TRUMP, _WIDOW):
            slot = _TRUMP_SPAN if key == _TRUMP else _WIDOW_SPAN
            q = _put_string(echo, q, buf, spans[slot, 0], spans[slot, 1])
        elif key == _ACTIVE:
            echo[q] = _OPEN_LIST
            q += 1
            first = True
            for s in range(3):
                if active >> s & 1:
                    if not first:
                        echo[q] = _COMMA
                        q += 1
                    echo[q] = _ZERO + s
                    q += 1
                    first = False
            echo[q] = _CLOSE_LIST
            q += 1
        else:
            echo[q] = _ZERO + values[key]
            q += 1
    return q


@njit(cache=True, nogil=True)  # nogil: a process solving a batch still feeds its workers
def scan_requests(buf, starts, ends, names, name_lengths, ranks, strains, leaders, fields,
                  echo, echo_ends):
    """Scan each line ``buf[starts[i]:ends[i]]``: its ``fields`` (see ``OK`` to ``MASK``)
    and, for a line that qualifies, the start of its answer written to ``echo``, ending at
    ``echo_ends[i]`` (where the line before ended, for one that does not)."""
    order = np.zeros(_N_KEYS, dtype=np.int64)
    spans = np.zeros((5, 2), dtype=np.int64)
    values = np.zeros(_N_KEYS, dtype=np.int64)
    q = 0
    for i in range(starts.shape[0]):
        n_keys, seen, active = _read_object(buf, starts[i], ends[i], names, name_lengths,
                                            order, spans, values)
        if n_keys > 0 and _read_position(buf, seen, active, spans, values, ranks, strains,
                                         leaders, fields, i):
            q = _write_start(buf, n_keys, seen, active, order, spans, values, names,
                             name_lengths, echo, q)
        echo_ends[i] = q
