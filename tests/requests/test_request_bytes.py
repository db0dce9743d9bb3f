"""Request lines read straight from their bytes: the scan takes only what the decoded
path would take, reads it the same, and the answers do not depend on the path, however
the JSON is spaced, spelt or broken."""

import json
import random

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefa_sim.core.cards import format_hand
from prefa_sim.requests.bulk import quick_request, solve_lines
from prefa_sim.requests.fast import (
    DEALER,
    DECLARER,
    H0,
    LEADER,
    MASK,
    OK,
    TRUMP,
    WIDOW,
    answer_starts,
    scan_block_bytes,
)

from ..helpers import random_deal
from ..helpers.requests import one_by_one, random_request


def scan_block(lines: list[bytes]):
    """The fields of each line and the start of each qualifying line's answer, as text."""
    fields, echo, echo_ends = scan_block_bytes(lines)
    return fields, answer_starts(echo, echo_ends)

SPACES = ["", " ", "  ", "\t", "\r\n", "\n "]


def write(value, rng: random.Random, odd: bool = True) -> str:
    """``value`` as JSON text, spaced at random; with ``odd``, its strings and numbers
    sometimes spelt another way (an escaped letter, ``1.0``, ``1e0``, ``true``)."""
    def gap() -> str:
        return rng.choice(SPACES) if rng.random() < 0.3 else ""

    if isinstance(value, dict):
        items = [f"{gap()}{write(k, rng, odd)}{gap()}:{gap()}{write(v, rng, odd)}{gap()}"
                 for k, v in value.items()]
        return "{" + ",".join(items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(f"{gap()}{write(v, rng, odd)}{gap()}" for v in value) + "]"
    if not odd:
        return json.dumps(value)
    if isinstance(value, str) and value and rng.random() < 0.03:
        return json.dumps(value).replace(value[0], f"\\u{ord(value[0]):04x}", 1)
    if type(value) is int and 0 <= value <= 2 and rng.random() < 0.05:
        return rng.choice([f"{value}.0", f"{value}e0", "true" if value else "false"])
    return json.dumps(value)


def break_line(text: str, rng: random.Random) -> str:
    """A line with one more thing wrong, or unusual, about it."""
    kind = rng.choice(["cut", "tail", "dup", "null", "comma", "bom", "word", "nest"])
    if kind == "cut":
        return text[:rng.randrange(len(text))]
    if kind == "tail":
        return text + rng.choice(["x", "}", ",", " 1"])
    if kind == "dup":
        return text[:-1] + ', "trump": "H"}'
    if kind == "null":
        return text[:-1] + f', "{rng.choice(["dealer", "widow", "leader"])}": null}}'
    if kind == "comma":
        return text[:-1] + ",}"
    if kind == "bom":
        return "\ufeff" + text
    if kind == "word":
        return text.replace('"S"', '"Ś"').replace('"H"', '"spades"')
    return text[:-1] + ', "active": [[0], 1]}'


def spelt_lines(rng: random.Random, count: int) -> list[str]:
    """Random requests, each spelt at random (``write``), a quarter of them broken."""
    texts = [write(random_request(rng), rng) for _ in range(count)]
    return [break_line(text, rng) if rng.random() < 0.25 else text for text in texts]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_any_spelling_of_a_line_gets_the_answer_it_gets_alone(seed):
    rng = random.Random(seed)
    lines = [text.encode() if rng.random() < 0.8 else text for text in spelt_lines(rng, 16)]
    assert list(solve_lines(lines, workers=1)) == one_by_one(
        [x if isinstance(x, bytes) else x.encode() for x in lines])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_scan_takes_only_what_the_decoded_path_takes_and_reads_it_alike(seed):
    lines = [text.encode() for text in spelt_lines(random.Random(seed), 40)]
    fields, starts = scan_block(lines)
    for line, row, start in zip(lines, fields.tolist(), starts, strict=True):
        if not row[OK]:
            assert start == ""
            continue
        obj = orjson.loads(line)
        quick = quick_request(obj)
        assert quick is not None
        assert row[H0:H0 + 3] == quick.hands
        assert row[WIDOW] == (-1 if quick.widow is None else quick.widow)
        assert row[TRUMP] == (-1 if len(quick.strains) == 5 else int(quick.strains[0]))
        assert [row[DEALER], row[DECLARER], row[LEADER], row[MASK]] == [
            quick.dealer, quick.declarer, quick.leader, quick.active_mask]
        obj.update(dealer=quick.dealer, declarer=quick.declarer, leader=quick.leader,
                   active=list(quick.active))
        assert start + "}" == orjson.dumps(obj).decode()


def plain_request(rng: random.Random) -> dict:
    """A request with suit-grouped hands and seat numbers, now and then one that does not
    hold together."""
    hands, widow = random_deal(rng)
    seats = rng.choice([[0, 1, 2], [0, 1], [0, 2], [1, 2]])
    size = rng.choice([10, 10, rng.randrange(1, 11)])
    short = [sum(1 << c for c in rng.sample([c for c in range(32) if h >> c & 1], size))
             for h in hands]
    request = {"hands": [format_hand(short[s]) if s in seats else rng.choice(["-", "x y"])
                         for s in range(3)]}
    for key, values in (("dealer", [0, 1, 2]), ("declarer", seats), ("leader", seats),
                        ("trump", ["S", "c", "D", "h", "NT", "Nt", "n"]),
                        ("active", [seats]), ("widow", [format_hand(widow)])):
        if rng.random() < 0.6 or (key == "active" and len(seats) == 2):
            request[key] = rng.choice(values)
    keys = list(request)
    rng.shuffle(keys)
    request = {k: request[k] for k in keys}
    if rng.random() < 0.2:
        mistake = rng.choice(["dup", "count", "seat", "trump", "widow"])
        if mistake == "dup":
            request["hands"][seats[1]] = request["hands"][seats[0]]
        elif mistake == "count":
            request["hands"][seats[0]] = format_hand(short[seats[0]] & (short[seats[0]] - 1))
        elif mistake == "seat":
            request["declarer"] = 3 - sum(seats) if len(seats) == 2 else 3
        elif mistake == "trump":
            request["trump"] = rng.choice(["X", "NTT", "", "SS"])
        else:
            request["widow"] = rng.choice(["A.-.-.-", "AK.-.-.-", "-.-.-.-", "AK.-.-"])
    return request


def test_plain_common_lines_are_all_scanned():
    rng = random.Random(11)
    requests = [plain_request(rng) for _ in range(300)]
    lines = [write(r, rng, odd=False).encode() for r in requests]
    fields, _ = scan_block(lines)
    expected = [int(quick_request(orjson.loads(line)) is not None) for line in lines]
    assert sum(expected) > 150
    assert fields[:, OK].tolist() == expected


TWO = '"AKQJ.AKQ.AKQ.-", "T987.JT9.JT9.-"'
EDGE_LINES = [  # (line, read by the scan?)
    (f'{{"hands": [{TWO}, "-"], "active": [0, 1], "trump": "S"}}', True),
    ('{"hands": ["AKQJ.AKQ..AKQ", "T987.JT9..JT9", "-"], "active": [0,1]}', True),
    ('{"hands": ["AKQJ.AKQ.AKQ.-.", "T987.JT9.JT9.-", "-"], "active": [0,1]}', False),
    (f'{{"hands": [{TWO}, "x/y <z>"], "active": [0, 1]}}', True),
    (f'{{"hands": [{TWO}, "caf\\u00e9"], "active": [0, 1]}}', False),
    (f'{{"hands": [{TWO}, "café"], "active": [0, 1]}}', False),
    (f'{{"hands": [{TWO}, "-"], "active": [0, 1], "declarer": 01}}', False),
    (f'{{"hands": [{TWO}, "-"], "active": [0, 1], "leader": -0}}', False),
    (f'{{"hands": [{TWO}, "-"], "active": []}}', False),
    (f'{{"hands": [{TWO}, "-"], "active": [0, 1,]}}', False),
    (f'{{"hands": [{TWO}, "-"], "active": [0, 1], "trump": "S", "trump": "S"}}', False),
    (f'{{"hands": [{TWO}, "-"], "active": [1, 0], "declarer": 1}}', True),
    (f'{{"hands": [{TWO}, "-"], "active": [0, 1, 0]}}', False),
    (f'{{"hands": [{TWO}, "-"], "active": [0, 1], "dealer": 2.0}}', False),
    (f'{{"hands": [{TWO}, "-"], "active": [0, 1], "trump": "nt"}}  \r\n', True),
    (f'{{"hands": [{TWO}, "-"], "active": [0, 1], "trump": null}}', False),
    (f'{{"hands": [{TWO}, "-"], "active": [0, 1]}} x', False),
    ('{"hands": ["AKQJ.AKQ.AKQ.-", "T987.JT9.JT9.-", "-"], "active": [0, 1], '
     '"widow": "A.-.-.-"}', False),
    ('{"hands": ["-AKQJ.AKQ.AKQ.-", "T987.JT9.JT9.-", "-"], "active": [0, 1]}', False),
]


def test_edge_spellings_take_the_path_expected_and_get_the_answer_they_get_alone():
    lines = [line.encode() for line, _ in EDGE_LINES]
    fields, _ = scan_block(lines)
    assert fields[:, OK].tolist() == [int(read) for _, read in EDGE_LINES]
    assert list(solve_lines(lines, workers=1)) == one_by_one(lines)
