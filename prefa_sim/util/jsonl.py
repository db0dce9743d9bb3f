"""JSON Lines input as every batch mode reads it: line by line, a bad line never stops the rest.

Input is read as bytes and decoded one line at a time, so a line that is not
UTF-8, not JSON, or JSON nested too deeply to decode is reported with its line
number while the other lines go on.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any, NamedTuple

import orjson


class LineError(ValueError):
    """A line that cannot be read as a JSON object of the expected kind."""


class InputError(ValueError):
    """The input itself cannot be read (a device error, a file that vanished)."""


def read_lines(lines: Iterable[bytes | str]) -> Iterator[bytes | str]:
    """The lines as they come; a failure to read them is an ``InputError``."""
    iterator = iter(lines)
    while True:
        try:
            yield next(iterator)
        except StopIteration:
            return
        except OSError as exc:
            raise read_error(lines, exc) from None


def read_error(source: object, exc: OSError) -> InputError:
    """The ``InputError`` for a failure to read ``source`` (named if it has a name)."""
    name = getattr(source, "name", "the input")
    return InputError(f"cannot read {name}: {exc.strerror or exc}")


class Line(NamedTuple):
    """One non-blank input line: its number (from 1) and its text, or why it has none."""

    number: int
    text: str | None
    error: str | None = None


def utf8_error(exc: UnicodeDecodeError) -> str:
    """A reader's description of a decoding failure: the byte and its column in its line."""
    byte = exc.object[exc.start:exc.start + 1].hex()
    column = exc.start - exc.object.rfind(b"\n", 0, exc.start)
    return f"not UTF-8 text (byte 0x{byte} at column {column})"


def numbered_lines(lines: Iterable[bytes | str], blanks: bool = False) -> Iterator[Line]:
    """The non-blank lines with their numbers (counting every line from 1), decoded; with
    ``blanks``, a blank line too, as ``Line(number, None, None)``."""
    for number, raw in enumerate(read_lines(lines), start=1):
        line = number_line(number, raw)
        if line is not None:
            yield line
        elif blanks:
            yield Line(number, None)


def blank_answer(number: int) -> str:
    """The answer to a blank line of a batch: in its place, so that answer k is line k's,
    and not an error."""
    return dumps({"line": number, "blank": True})


def number_line(number: int, raw: bytes | str) -> Line | None:
    """Input line ``number`` decoded (None when it is blank)."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return Line(number, None, utf8_error(exc))
    else:
        text = raw
    text = text.lstrip("\ufeff") if number == 1 else text
    return Line(number, text) if text.strip() else None


MAX_DIGITS = 100
"""The longest whole number a line may hold: far beyond any count of the game."""

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_SURROGATE_ESCAPE_BYTES = re.compile(rb"\\u[dD][89a-fA-F]")


def decode(text: str | bytes) -> Any:
    """``json.loads`` with the reader's error messages (``LineError``), strict as JSON
    itself: a key twice in one object, ``NaN`` or ``Infinity`` (or a number too large to
    be finite), and a string with half of a UTF-16 surrogate pair (``"\\ud800"``, no
    character, which no answer could be written with) are refused; so is a whole number
    of more than ``MAX_DIGITS`` digits."""
    try:
        end = b"\r\n" if isinstance(text, bytes) else "\r\n"
        obj = json.loads(text.rstrip(end),  # the column of an error in this line
                         object_pairs_hook=_object, parse_constant=_constant,
                         parse_float=_float, parse_int=_int)
    except json.JSONDecodeError as exc:
        raise LineError(f"not valid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise LineError("JSON nested too deeply to read") from None
    pattern = _SURROGATE_ESCAPE_BYTES if isinstance(text, bytes) else _SURROGATE_ESCAPE
    if pattern.search(text) and _lone_surrogate(obj):
        raise LineError("not valid text: a string holds half of a UTF-16 surrogate pair "
                        "(such as \"\\ud800\"), which is no character")
    return obj


def _lone_surrogate(obj: Any) -> bool:
    """Does a string in ``obj`` (its keys included) hold a lone surrogate?"""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any("\ud800" <= char <= "\udfff" for char in item):
                return True
        elif isinstance(item, dict):
            stack += item.keys()
            stack += item.values()
        elif isinstance(item, list):
            stack += item
    return False


def _int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise LineError(f"not valid for a request: a whole number of {len(text)} digits "
                        f"(at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise LineError(f"not valid for a request: {text[:20]} is too large to be a number")
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise LineError(f"not valid JSON for a request: the key {twice!r} is given twice")
    return obj


def _constant(name: str) -> Any:
    raise LineError(f"not valid JSON: {name} is not a JSON number")


def dumps(obj: Any) -> str:
    """JSON text as every command writes it: compact, characters beyond ASCII as they are.

    orjson writes it; what orjson does not take (integers beyond 64 bits, keys that are
    not text) the standard library writes in the same format."""
    try:
        return orjson.dumps(obj).decode()
    except TypeError:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def encode(obj: Any) -> str:
    """``dumps`` that never fails on what ``decode`` returned."""
    try:
        return dumps(obj)
    except RecursionError:
        raise LineError("JSON nested too deeply to write back") from None


def error_object(number: int, message: str) -> str:
    """The answer to a bad line."""
    return dumps({"line": number, "error": message})


def answer_line(line: Line, answer_fn: Callable[[Any], dict]) -> tuple[bool, str]:
    """``(ok, json_text)`` for one line answered by ``answer_fn(obj)``; a line that cannot
    be read, or that ``answer_fn`` rejects with a ``ValueError``, gives
    ``{"line": n, "error": "..."}``, and a blank line ``{"line": n, "blank": true}``."""
    if line.error is not None:
        return False, error_object(line.number, line.error)
    if line.text is None:
        return True, blank_answer(line.number)
    try:
        return True, encode(answer_fn(decode(line.text)))
    except RecursionError:
        return False, error_object(line.number, "JSON nested too deeply to answer")
    except ValueError as exc:
        return False, error_object(line.number, str(exc))
    except Exception as exc:  # noqa: BLE001 - a batch answers every line and goes on
        return False, error_object(line.number, unexpected(exc))


def unexpected(exc: Exception) -> str:
    """The message for a line that failed in a way no check foresaw."""
    return f"this line could not be answered ({type(exc).__name__}: {exc}); please report it"


def misspelt_field(obj: dict, fields: Collection[str]) -> str | None:
    """The error for a key of ``obj`` that is not one of ``fields`` but nearly is, or None.

    The batch modes let a request carry fields of its own (a label, an id), so an
    unknown key is not wrong in itself; but one that differs from a field of three
    letters or more by case or by one letter (added, dropped, changed, or two
    neighbours swapped), or from a field of eight letters or more by two, is taken for
    a typo, which would otherwise change the answer without a word (``"trupm"`` would
    ask for all five strains).  A key that starts with ``_`` is never taken for one.
    A field named ``error`` is refused too: echoed into an answer, it would make the
    answer look like the answer to a bad line.
    """
    if "error" in obj and "error" not in fields:
        return ("a field named 'error' marks the answer to a bad line: give yours another "
                "name (such as '_error')")
    names = sorted(fields)
    for key in obj:
        if not isinstance(key, str) or key in fields or key.startswith("_"):
            continue
        for name in names:
            if _near(key, name):
                return (f"unknown field {key!r}: did you mean {name!r}? (a field this close to "
                        "one this mode reads is taken for a typo; start a field of your own "
                        "with '_' to keep it)")
    return None


def _near(key: str, name: str) -> bool:
    """Is ``key`` a likely misspelling of the field ``name`` (see ``misspelt_field``)?"""
    key, name = key.lower(), name.lower()
    if key == name:
        return True
    if len(name) < 3:
        return False
    return _edit_distance(key, name, 2) <= (2 if len(name) >= 8 else 1)


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Insertions, deletions, substitutions and swaps of neighbours that turn ``a`` into
    ``b`` (optimal string alignment), or ``limit + 1`` when it is more than ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
    return min(row[-1], limit + 1)
