"""Matching an action against the legal ones by exact type and value.

An action from a player file is any Python object: one whose ``__eq__`` answers true to
everything would pass a plain ``in legal`` test.  ``exact_match`` compares types with
``is`` and values field by field, and hands back the engine's own legal object, which is
what the engine then applies and records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_LEAVES = (int, str, bool, type(None))
_FIELDS: dict[type, tuple[str, ...]] = {}
"""The field names of each dataclass met, looked up once."""


def same_value(a: object, b: object) -> bool:
    """Are ``a`` and ``b`` of exactly one type and equal, field by field?

    ``b`` is the engine's own value.  Dataclasses compare their fields and tuples (a
    contract, a discard's cards) their items, each the same way; any other value is
    compared with ``==`` once its type is ``b``'s, which is then the engine's or a
    built-in type, whose ``==`` is its own.
    """
    kind = type(a)
    if kind is not type(b):
        return False
    if kind in _LEAVES:
        return a == b
    names = _FIELDS.get(kind)
    if names is None and dataclasses.is_dataclass(kind):
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    if names is not None:
        for name in names:
            x, y = getattr(a, name), getattr(b, name)
            if not (x == y if type(x) in _LEAVES and type(y) is type(x) else same_value(x, y)):
                return False
        return True
    if issubclass(kind, tuple):
        items_a, items_b = tuple(tuple.__iter__(a)), tuple(tuple.__iter__(b))
        return len(items_a) == len(items_b) and all(
            same_value(x, y) for x, y in zip(items_a, items_b, strict=True))
    return bool(a == b)


def exact_match(action: object, legal: Sequence[T]) -> T | None:
    """The legal action that ``action`` is, by exact type and value (None: not legal).

    One of ``legal`` itself is its own match."""
    for option in legal:
        if option is action:
            return option
    kind = type(action)
    for option in legal:  # the engine's ``==`` first, to pass over the others quickly
        if type(option) is kind and kind.__eq__(option, action) is True \
                and same_value(action, option):
            return option
    return None
