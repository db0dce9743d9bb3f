"""The commonest request lines of a batch read straight from their bytes, a block at a time.

A line qualifies when it is plain ASCII JSON holding one object whose keys are only
``hands``, ``trump``, ``declarer``, ``leader``, ``active``, ``dealer`` and ``widow``,
each at most once, with:

* ``hands``: three strings; the hands in play suit-grouped (``"AKT.Q9.-.87"``, ranks from
  the highest, ``-`` or nothing for a void), a seat out of play anything;
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

from .cards import RANK_LETTERS, Strain
from .seats import opening_leader

OK, H0, H1, H2, WIDOW, TRUMP, DEALER, DECLARER, LEADER, MASK = range(10)
"""Columns of ``scan_block``'s fields; ``WIDOW`` -1 for none, ``TRUMP`` -1 for all five."""

KEYS = ("hands", "trump", "declarer", "leader", "active", "dealer", "widow")
_HANDS, _TRUMP, _DECLARER, _LEADER, _ACTIVE, _DEALER, _WIDOW = range(7)
_SET_LAST = (_DEALER, _DECLARER, _LEADER, _ACTIVE)  # the order ``dict.update`` adds them in

_STRAIN_SPELLINGS = {"S": Strain.S, "s": Strain.S, "C": Strain.C, "c": Strain.C,
                     "D": Strain.D, "d": Strain.D, "H": Strain.H, "h": Strain.H,
                     "NT": Strain.NT, "nt": Strain.NT, "Nt": Strain.NT, "N": Strain.NT,
                     "n": Strain.NT}
"""Every spelling of a strain that ``bulk`` reads; two letters at most."""


def _tables() -> tuple[np.ndarray, ...]:
    names = np.zeros((len(KEYS), 8), dtype=np.uint8)
    for k, name in enumerate(KEYS):
        names[k, :len(name)] = np.frombuffer(name.encode(), dtype=np.uint8)
    name_lengths = np.array([len(name) for name in KEYS], dtype=np.int64)
    ranks = np.full(256, -1, dtype=np.int64)  # a rank letter's bit within its suit's byte
    for bit, letter in enumerate(RANK_LETTERS):
        ranks[ord(letter)] = bit
    strains = np.full((256, 256), -1, dtype=np.int64)  # [first byte, second byte or 0]
    for text, strain in _STRAIN_SPELLINGS.items():
        strains[ord(text[0]), ord(text[1]) if len(text) > 1 else 0] = int(strain)
    leaders = np.zeros((3, 8), dtype=np.int64)
    for dealer in range(3):
        for mask in (3, 5, 6, 7):
            leaders[dealer, mask] = opening_leader(
                dealer, [s for s in range(3) if mask >> s & 1])
    set_last = np.array(_SET_LAST, dtype=np.int64)
    return names, name_lengths, ranks, strains, leaders, set_last


_NAMES, _NAME_LENGTHS, _RANKS, _STRAINS, _LEADERS, _SET_LAST_ARRAY = _tables()

ECHO_EXTRA = 64
"""Bytes an answer's start may need beyond its request line (the fields it adds)."""


def scan_block(lines: list[bytes]) -> tuple[np.ndarray, list[str]]:
    """The fields of each line (``fields[i, OK]`` 1 when line ``i`` qualifies) and the
    start of each qualifying line's answer ("" for the others)."""
    joined = b"".join(lines)
    ends = np.cumsum(np.fromiter(map(len, lines), dtype=np.int64, count=len(lines)))
    starts = ends - np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    fields = np.zeros((len(lines), 10), dtype=np.int64)
    echo = np.empty(len(joined) + ECHO_EXTRA * len(lines), dtype=np.uint8)
    echo_ends = np.zeros(len(lines), dtype=np.int64)
    scan_requests(np.frombuffer(joined, dtype=np.uint8), starts, ends, _NAMES, _NAME_LENGTHS,
                  _RANKS, _STRAINS, _LEADERS, _SET_LAST_ARRAY, fields, echo, echo_ends)
    text = echo[:echo_ends[-1] if len(lines) else 0].tobytes().decode("ascii")
    bounds = echo_ends.tolist()
    return fields, [text[a:b] for a, b in zip([0, *bounds[:-1]], bounds, strict=True)]


@njit(cache=True)
def _skip_space(buf, p, end):
    while p < end and (buf[p] == 32 or buf[p] == 9 or buf[p] == 10 or buf[p] == 13):
        p += 1
    return p


@njit(cache=True)
def _string_end(buf, p, end):
    """The index of the closing quote of the string opening at ``p``, or -1 when there is
    none or the string holds an escape or a byte that is not printable ASCII."""
    if p >= end or buf[p] != 34:
        return -1
    p += 1
    while p < end:
        b = buf[p]
        if b == 34:
            return p
        if b < 32 or b > 126 or b == 92:
            return -1
        p += 1
    return -1


@njit(cache=True)
def _seat_digit(buf, p, end):
    """The seat number ``0``-``2`` at ``p`` (a lone digit), or -1."""
    if p < end and 48 <= buf[p] <= 50 and (p + 1 >= end or not 48 <= buf[p + 1] <= 57):
        return buf[p] - 48
    return -1


@njit(cache=True)
def _grouped_hand(buf, a, b, ranks):
    """The mask of the suit-grouped hand written in ``buf[a:b]``, or -1."""
    mask = 0
    suit = 0
    previous = 8
    p = a
    while p < b:
        c = buf[p]
        if c == 46:  # "."
            suit += 1
            if suit > 3:
                return -1
            previous = 8
        elif c == 45:  # "-", alone in its group
            if previous != 8 or (p + 1 < b and buf[p + 1] != 46):
                return -1
            previous = -1
        else:
            bit = ranks[c]
            if bit < 0 or bit >= previous:
                return -1
            previous = bit
            mask |= 1 << (8 * suit + bit)
        p += 1
    return mask if suit == 3 else -1


@njit(cache=True)
def _put(echo, q, buf, a, b):
    for p in range(a, b):
        echo[q] = buf[p]
        q += 1
    return q


@njit(cache=True)
def _put_key(echo, q, names, name_lengths, k, first):
    if not first:
        echo[q] = 44  # ","
        q += 1
    echo[q] = 34
    q += 1
    for j in range(name_lengths[k]):
        echo[q] = names[k, j]
        q += 1
    echo[q] = 34
    echo[q + 1] = 58  # ":"
    return q + 2


@njit(cache=True)
def _put_string(echo, q, buf, a, b):
    echo[q] = 34
    q = _put(echo, q + 1, buf, a, b)
    echo[q] = 34
    return q + 1


@njit(cache=True)
def scan_requests(buf, starts, ends, names, name_lengths, ranks, strains, leaders, set_last,
                  fields, echo, echo_ends):
    """Scan each line ``buf[starts[i]:ends[i]]``: its ``fields`` (see ``OK`` to ``MASK``)
    and, for a line that qualifies, the start of its answer written to ``echo``, ending at
    ``echo_ends[i]`` (where the line before ended, for one that does not)."""
    order = np.zeros(7, dtype=np.int64)
    spans = np.zeros((7, 2), dtype=np.int64)  # a string's bounds: hands 0-2, trump, widow
    values = np.zeros(7, dtype=np.int64)
    q = 0
    for i in range(starts.shape[0]):
        echo_ends[i] = q
        end = ends[i]
        p = _skip_space(buf, starts[i], end)
        if p >= end or buf[p] != 123:  # "{"
            continue
        seen = 0
        n_keys = 0
        active = 7
        ok = True
        p = _skip_space(buf, p + 1, end)
        while ok:
            close = _string_end(buf, p, end)
            key = -1
            if close > 0:
                for k in range(7):
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
                ok = False
                break
            seen |= 1 << key
            order[n_keys] = key
            n_keys += 1
            p = _skip_space(buf, close + 1, end)
            if p >= end or buf[p] != 58:  # ":"
                ok = False
                break
            p = _skip_space(buf, p + 1, end)
            if key == _HANDS:
                if p >= end or buf[p] != 91:  # "["
                    ok = False
                    break
                for s in range(3):
                    p = _skip_space(buf, p + 1, end)
                    close = _string_end(buf, p, end)
                    if close < 0:
                        ok = False
                        break
                    spans[s, 0] = p + 1
                    spans[s, 1] = close
                    p = _skip_space(buf, close + 1, end)
                    if p >= end or buf[p] != (93 if s == 2 else 44):  # "]" or ","
                        ok = False
                        break
                p += 1
            elif key in (_TRUMP, _WIDOW):
                close = _string_end(buf, p, end)
                if close < 0:
                    ok = False
                    break
                slot = 3 if key == _TRUMP else 4
                spans[slot, 0] = p + 1
                spans[slot, 1] = close
                p = close + 1
            elif key == _ACTIVE:
                if p >= end or buf[p] != 91:
                    ok = False
                    break
                active = 0
                count = 0
                while True:
                    p = _skip_space(buf, p + 1, end)
                    seat = _seat_digit(buf, p, end)
                    if seat < 0 or active >> seat & 1:
                        ok = False
                        break
                    active |= 1 << seat
                    count += 1
                    p = _skip_space(buf, p + 1, end)
                    if p < end and buf[p] == 93:
                        p += 1
                        break
                    if p >= end or buf[p] != 44 or count == 3:
                        ok = False
                        break
                if count < 2:
                    ok = False
            else:  # a seat number
                values[key] = _seat_digit(buf, p, end)
                if values[key] < 0:
                    ok = False
                p += 1
            if not ok:
                break
            p = _skip_space(buf, p, end)
            if p < end and buf[p] == 44:
                p = _skip_space(buf, p + 1, end)
                continue
            if p < end and buf[p] == 125 and _skip_space(buf, p + 1, end) == end:  # "}"
                break
            ok = False
        if not ok or not seen & 1:
            continue
        dealer = values[_DEALER] if seen >> _DEALER & 1 else 2
        declarer = values[_DECLARER] if seen >> _DECLARER & 1 else (dealer + 1) % 3
        leader = values[_LEADER] if seen >> _LEADER & 1 else leaders[dealer, active]
        if not (active >> declarer & 1 and active >> leader & 1):
            continue
        trump = -1
        if seen >> _TRUMP & 1:
            a = spans[3, 0]
            n = spans[3, 1] - a
            if n == 1:
                trump = strains[buf[a], 0]
            elif n == 2:
                trump = strains[buf[a], buf[a + 1]]
            if trump < 0:
                continue
        held = 0
        size = -1
        for s in range(3):
            fields[i, H0 + s] = 0
            if active >> s & 1:
                hand = _grouped_hand(buf, spans[s, 0], spans[s, 1], ranks)
                if hand < 0 or held & hand:
                    size = -1
                    break
                count = 0
                x = hand
                while x:
                    x &= x - 1
                    count += 1
                if count < 1 or count > 10 or (size >= 0 and count != size):
                    size = -1
                    break
                size = count
                held |= hand
                fields[i, H0 + s] = hand
        if size < 0:
            continue
        widow = -1
        if seen >> _WIDOW & 1:
            widow = _grouped_hand(buf, spans[4, 0], spans[4, 1], ranks)
            if widow < 0 or widow & held or size != 10:
                continue
            count = 0
            x = widow
            while x:
                x &= x - 1
                count += 1
            if count != 2:
                continue
        fields[i, OK] = 1
        fields[i, WIDOW] = widow
        fields[i, TRUMP] = trump
        fields[i, DEALER] = dealer
        fields[i, DECLARER] = declarer
        fields[i, LEADER] = leader
        fields[i, MASK] = active
        values[_DEALER] = dealer
        values[_DECLARER] = declarer
        values[_LEADER] = leader
        echo[q] = 123
        q += 1
        for j in range(n_keys + 4):
            if j < n_keys:
                key = order[j]
            else:
                key = set_last[j - n_keys]
                if seen >> key & 1:
                    continue
            q = _put_key(echo, q, names, name_lengths, key, j == 0)
            if key == _HANDS:
                echo[q] = 91
                q += 1
                for s in range(3):
                    if s:
                        echo[q] = 44
                        q += 1
                    q = _put_string(echo, q, buf, spans[s, 0], spans[s, 1])
                echo[q] = 93
                q += 1
            elif key == _TRUMP:
                q = _put_string(echo, q, buf, spans[3, 0], spans[3, 1])
            elif key == _WIDOW:
                q = _put_string(echo, q, buf, spans[4, 0], spans[4, 1])
            elif key == _ACTIVE:
                echo[q] = 91
                q += 1
                first = True
                for s in range(3):
                    if active >> s & 1:
                        if not first:
                            echo[q] = 44
                            q += 1
                        echo[q] = 48 + s
                        q += 1
                        first = False
                echo[q] = 93
                q += 1
            else:
                echo[q] = 48 + values[key]
                q += 1
        echo_ends[i] = q
