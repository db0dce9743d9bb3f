"""Batch solving in bulk answers every line exactly as solving it alone does: the same
text for the common requests it reads itself, for the ones it hands on, and for every
mistake; whatever the number of workers."""

import io
import json
import random
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prefa_sim.core.cards import format_hand
from prefa_sim.requests.bulk import (
    BLOCK,
    WIDOW_WEIGHT,
    answer_block,
    byte_jobs,
    job_lines,
    quick_request,
    raw_blocks,
    solve_lines,
    solve_text,
)
from prefa_sim.requests.fast import OK, TRUMP, WIDOW, scan_block_bytes, scan_bytes
from prefa_sim.util.jsonl import InputError

from ..helpers import random_deal
from ..helpers.requests import one_by_one, random_request


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_bulk_answers_are_those_of_solving_line_by_line(seed):
    rng = random.Random(seed)
    lines = [json.dumps(random_request(rng)).encode() for _ in range(12)]
    lines[rng.randrange(12)] = b'{"hands": [1, 2'  # not JSON
    lines[rng.randrange(12)] = b"   "  # blank: answered in its place
    lines.append(b'{"hands": ["\xff"]}')  # not UTF-8
    assert list(solve_lines(lines, workers=1)) == one_by_one(lines)


@given(st.lists(st.booleans(), max_size=300), st.booleans(), st.integers(1, 40))
def test_blocks_hold_every_line_once_and_weigh_at_least_their_size(widows, as_bytes, size):
    lines = ['{"hands": [], "widow": ""}' if w else '{"hands": []}' for w in widows]
    if as_bytes:
        lines = [line.encode() for line in lines]
    blocks = list(raw_blocks(lines, size))
    assert [item for block in blocks for item in block] == list(enumerate(lines, start=1))
    for k, block in enumerate(blocks):
        weights = [WIDOW_WEIGHT if widows[number - 1] else 1 for number, _ in block]
        assert sum(weights[:-1]) < size  # the block closes at its first line that fills it
        assert sum(weights) >= size or k == len(blocks) - 1


LINE_PARTS = st.sampled_from([b"x", b"widow", b"\r", b" ", b"\xff", b"y" * 5000])


class ShortReads(io.RawIOBase):
    """A raw stream whose reads return fewer bytes than asked, as a pipe's may; ``None``
    (nothing ready) once, if asked."""

    def __init__(self, data: bytes, seed: int, nothing_ready: bool = False):
        self.data, self.rng, self.nothing_ready = data, random.Random(seed), nothing_ready

    def readable(self):
        return True

    def readinto(self, buffer):
        if self.nothing_ready and self.data:
            self.nothing_ready = False
            return None
        n = min(len(buffer), self.rng.randint(1, 9000), len(self.data))
        buffer[:n], self.data = self.data[:n], self.data[n:]
        return n


@settings(deadline=None)
@given(st.lists(st.lists(LINE_PARTS, max_size=4).map(b"".join), max_size=60), st.booleans(),
       st.integers(1, 300), st.integers(0, 2**32 - 1))
def test_jobs_hold_the_input_lines_once_in_order_numbered_from_one(lines, last_newline, weight,
                                                                   seed):
    data = b"\n".join(lines) + (b"\n" if last_newline and lines else b"")
    stream = ShortReads(data, seed) if seed % 2 else io.BytesIO(data)
    jobs = list(byte_jobs(stream, weight))
    assert b"".join(job for _, job in jobs) == data
    assert [line for _, job in jobs for line in job_lines(job)] == list(io.BytesIO(data))
    seen = 0
    for k, (number, job) in enumerate(jobs):
        assert number == seen + 1
        seen += job.count(b"\n")
        heavy = job.count(b"widow")
        if k < len(jobs) - 1:  # every job but the last is whole lines of the weight asked
            assert job.endswith(b"\n")
            assert len(job_lines(job)) + (WIDOW_WEIGHT - 1) * heavy >= weight


JOB_LINES = st.one_of(LINE_PARTS, st.sampled_from([
    b'{"hands": ["QJT9.87.AKQ.8", "-", "-.T9.JT987.JT9"], "trump": "NT", "active": [0, 2]}',
    b'{"hands":["QJT9.87.AKQ.8","-","-.T9.JT987.JT9"],"widow":"AK.-.-.-","active":[0,2]}',
    b'{"hands": ["AK.-.-.-", "QJ.-.-.-", "T9.-.-.-"], "trump": "s", "dealer": 1}',
]))


@settings(deadline=None)
@given(st.lists(st.lists(JOB_LINES, max_size=3).map(b"".join), max_size=40), st.booleans())
def test_a_job_is_scanned_as_the_lines_it_is_split_into(lines, last_newline):
    """The scan of a job's bytes reads the lines ``job_lines`` gives, newlines and
    carriage returns, requests and the rest alike, each as if it were scanned alone."""
    data = b"\n".join(lines) + (b"\n" if last_newline and lines else b"")
    fields, echo, echo_ends = scan_bytes(data)
    split = job_lines(data)
    assert all(np.array_equal(a, b) for a, b in
               zip((fields, echo, echo_ends), scan_block_bytes(split), strict=True))
    start = 0
    for k, line in enumerate(split):
        alone, alone_echo, _ = scan_block_bytes([line])
        assert np.array_equal(fields[k], alone[0])
        assert echo[start:echo_ends[k]].tobytes() == alone_echo.tobytes()
        start = echo_ends[k]


def test_jobs_of_widow_requests_after_deals_are_not_overfull():
    deal = b'{"hands": ["AKQJ.T98.7.AKQ", "-", "T987.AKQ.J98.J"], "trump": "NT"}\n'
    widow = b'{"hands": ["AKQJ.T98.7.AKQ", "-", "T987.AKQ.J98.J"], "widow": "AS KS"}\n'
    jobs = list(byte_jobs(io.BytesIO(deal * 3000 + widow * 3000), 1024))
    weights = [len(job_lines(job)) + (WIDOW_WEIGHT - 1) * job.count(b"widow")
               for _, job in jobs]
    assert all(1024 <= w < 2 * 1024 + WIDOW_WEIGHT for w in weights[:-1])
    assert sum(weights) == 3000 + 3000 * WIDOW_WEIGHT


def test_a_line_longer_than_any_read_is_one_line_and_nothing_ready_is_an_input_error():
    data = b"a\n" + b"widow" * 300_000 + b"\nb"  # a 1.5 MB line between two short ones
    jobs = list(byte_jobs(io.BytesIO(data)))
    assert [line for _, job in jobs for line in job_lines(job)] == list(io.BytesIO(data))
    with pytest.raises(InputError, match="nothing ready"):
        list(byte_jobs(ShortReads(data, 1, nothing_ready=True)))


def plain(line: bytes) -> bool:
    """Does the scan read ``line`` as a request of one strain without a widow?"""
    fields = scan_block_bytes([line])[0][0]
    return bool(fields[OK]) and fields[WIDOW] < 0 and fields[TRUMP] >= 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1), st.integers(1, 300))
def test_blocks_of_plain_requests_are_written_as_line_by_line(seed, count):
    """Blocks of one-strain requests without a widow, the commonest batch, are written in
    one pass (``bulk._one_pass_text``): the same text as line by line, ten tricks included."""
    rng = random.Random(seed)
    lines = [json.dumps({"hands": ["AKQJT.AKQJT.-.-", "98.98.AKQJ.T9", "7.7.T987.AKQJ"],
                         "trump": "NT", "declarer": 0, "leader": 0}).encode()]
    while len(lines) < count:
        line = json.dumps(random_request(rng)).encode()
        if plain(line):
            lines.insert(rng.randrange(len(lines) + 1), line)
    text = "".join(text for _, text in solve_text(lines, workers=1))
    expected = one_by_one(lines)
    assert all(ok for ok, _ in expected)
    assert text == "".join(answer + "\n" for _, answer in expected)
    with mock.patch("prefa_sim.requests.bulk.answer_block",
                    side_effect=AssertionError("not one pass")):
        from_file = solve_text(io.BytesIO(b"\n".join(lines)), workers=1)  # no last newline
        assert "".join(text for _, text in from_file) == text
    assert '"declarer_tricks":10}' in text


@pytest.mark.parametrize("extra", [{"widow": "AK.-.-.-"}, {"trump": None}])
def test_blocks_of_widow_or_all_strain_requests_are_not_written_as_plain_ones(extra):
    hands = ["QJT9.87.AKQ.8", "87.AKQJ.-.AKQ7", "-.T9.JT987.JT9"]
    request = {"hands": hands, "trump": "S", "declarer": 0, **extra}
    lines = [json.dumps({k: v for k, v in request.items() if v is not None}).encode()] * 3
    text = "".join(text for _, text in solve_text(lines, workers=1))
    assert text == "".join(answer + "\n" for _, answer in one_by_one(lines))
    assert "best_tricks" in text if "widow" in extra else '"strains"' in text


def test_workers_reading_a_stream_answer_as_one_process_reading_lines():
    rng = random.Random(11)
    lines = [json.dumps(random_request(rng)).encode() for _ in range(40)]
    lines[7] = b'{"hands": [1, 2'
    lines[9] = b""
    lines[12] = b'{"hands": ["\xff"]}'
    data = b"\r\n".join(lines[:20]) + b"\n" + b"\n".join(lines[20:])  # no final newline
    one = list(solve_text(io.BytesIO(data).readlines(), workers=1))
    for jobs in (solve_text(io.BytesIO(data), workers=1), solve_text(io.BytesIO(data), workers=2)):
        jobs = list(jobs)
        assert "".join(text for _, text in jobs) == "".join(text for _, text in one)
        assert sum(bad for bad, _ in jobs) == sum(bad for bad, _ in one) >= 2
    assert list(solve_lines(io.BytesIO(data), workers=1)) == one_by_one(lines)
    assert list(solve_lines(io.BytesIO(data), workers=2)) == one_by_one(lines)


def test_lines_of_later_jobs_keep_their_numbers_and_unusual_lines_their_block():
    """A file of more lines than a job holds: errors in later jobs carry their own line
    numbers, with one worker or two; a job with a few unusual lines answers them a block
    at a time, and its other blocks still in one pass."""
    plain = json.dumps({"hands": ["QJT9.87.AKQ.8", "87.AKQJ.-.AKQ7", "-.T9.JT987.JT9"],
                        "trump": "S", "declarer": 0}).encode()
    lines = [plain] * 2600
    lines[1500] = b'{"hands": [1, 2'  # not JSON, in the second job
    lines[1800] = b""  # blank
    lines[2450] = json.dumps({"hands": ["QJT9.87.AKQ.8", "87.AKQJ.-.AKQ7", "-.T9.JT987.JT9"],
                              "trump": "S", "id": 7}).encode()  # a field of its own
    data = b"\n".join(lines) + b"\n"
    expected = one_by_one(lines)
    assert json.loads(expected[1500][1])["line"] == 1501
    blocks = []
    real = answer_block

    def recorded(block, *args):
        blocks.append([number for number, _ in block])
        return real(block, *args)

    with mock.patch("prefa_sim.requests.bulk.answer_block", side_effect=recorded):
        one = list(solve_text(io.BytesIO(data), workers=1))
    assert "".join(text for _, text in one) == "".join(text + "\n" for _, text in expected)
    assert sum(bad for bad, _ in one) == 1
    assert sorted(len(block) for block in blocks) == [BLOCK] * 3  # only the blocks of the
    assert all(any(n in block for n in (1501, 1801, 2451)) for block in blocks)  # three
    for workers in (1, 2):
        assert list(solve_lines(io.BytesIO(data), workers=workers)) == expected
    two = list(solve_text(io.BytesIO(data), workers=2))
    assert "".join(text for _, text in two) == "".join(text for _, text in one)


def test_the_common_requests_take_the_bulk_path_and_workers_change_nothing():
    rng = random.Random(3)
    requests = [random_request(rng) for _ in range(300)]
    common = sum(quick_request(r) is not None for r in requests)
    assert common > 200  # most requests are read by the bulk path itself
    lines = [json.dumps(r).encode() for r in requests]
    one = list(solve_lines(lines, workers=1))
    assert one == one_by_one(lines)
    assert list(solve_lines(lines, workers=2)) == one


def test_a_widow_without_trump_names_the_contract_in_bulk():
    rng = random.Random(5)
    hands, widow = random_deal(rng)
    line = json.dumps({"hands": [format_hand(h) for h in hands], "widow": format_hand(widow)})
    (ok, text), = solve_lines([line], workers=1)
    data = json.loads(text)
    assert ok and set(data["strains"]) == {"S", "C", "D", "H", "NT"}
    assert [(ok, text)] == one_by_one([line.encode()])
    if data["contract"] is not None:
        strain = data["contract"][1:]
        assert data["contract_discard"] == data["strains"][strain]["best_discards"][0]


def test_what_the_answer_repeats_is_written_back_exactly_or_the_line_is_answered_alone():
    """A seat out of play may hold anything, and a request may carry fields of its own:
    integers beyond 64 bits come back exact, JSON nested too deep to write back is an
    error of that line alone."""
    two = '"AKQJ.AKQ.AKQ.-", "T987.JT9.JT9.-"'
    deep = "[" * 1000 + "]" * 1000
    lines = [f'{{"hands": [{two}, 123456789012345678901234567890], "active": [0, 1], '
             '"trump": "S"}',
             f'{{"hands": [{two}, {deep}], "active": [0, 1], "trump": "S"}}',
             f'{{"hands": [{two}, "-"], "active": [0, 1], "trump": "S", "id": {deep}}}',
             f'{{"hands": [{two}, "-"], "active": [0, 1], "trump": "S", "id": -{2**70}}}']
    data = [line.encode() for line in lines]
    answers = list(solve_lines(data, workers=1))
    assert answers == one_by_one(data)
    assert "123456789012345678901234567890" in answers[0][1]
    assert f"-{2**70}" in answers[3][1]
    assert not answers[2][0] and "nested too deeply" in answers[2][1]
