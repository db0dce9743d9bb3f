"""Make-rates grouped by hand features, streamed over a dataset batch by batch.

Only the columns a question needs are read, one record batch at a time, and each
batch is reduced to counts of tricks per group: memory depends on the number of
groups, never on the size of the dataset.  Features are the dataset's columns
(before the widow) and the same measured after the widow and the discard
(``*_after``, from the hands, the widow and the best discard of the defence mode).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.cards import Strain
from ..sim.dataset import DatasetError, read_batches
from ..util.words import plural
from .intervals import Estimate
from .makerate import make_rates, mean_tricks
from .scan import scan

STORED = ("strain", "position", "declarer", "dealer", "len_s", "len_c", "len_d", "len_h",
          "longest", "aces", "kings", "queens", "jacks", "trumps", "trump_top3")
"""Features stored in the dataset (the declarer's ten cards before the widow)."""
AFTER = ("trumps_after", "trump_top3_after", "aces_after", "longest_after")
"""Features of the declarer's ten cards after taking the widow and discarding."""
FEATURES = STORED + AFTER
MODES = ("both", "first", "second")
POSITIONS = ("first", "second", "dealer")
"""The declarer's position by name (``--where "position == first"``): 0, 1, 2."""
_STRAIN_NAMES = pa.array([s.name for s in Strain])


class StatsError(ValueError):
    """A question that the dataset cannot answer as asked."""


@dataclass(frozen=True)
class Condition:
    """``feature op value``: one comparison of a ``--where`` filter."""

    feature: str
    op: str
    value: int


_CONDITION = re.compile(r"^\s*([a-z_0-9]+)\s*(==|!=|<=|>=|<|>)\s*(\S+)\s*$")
_OPS = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
        ">": np.greater, ">=": np.greater_equal}


def parse_where(text: str) -> list[Condition]:
    """Comparisons of a feature with a whole number (or a strain for ``strain``, a
    position name for ``position``), joined by ``and``: ``strain == H and trumps >= 5``,
    ``position == dealer``."""
    conditions = []
    if re.search(r"(^|\s)and$|^and(\s|$)", text.strip()):
        raise StatsError(f"--where: {text.strip()!r} has an 'and' with no comparison on one "
                         "side")
    for part in re.split(r"\s+and\s+", text.strip()):
        swapped = re.search(r"=\s*([<>])", part)
        if swapped:
            raise StatsError(f"--where: {part.strip()!r}: write '{swapped.group(1)}=', not "
                             f"'={swapped.group(1)}'")
        if re.fullmatch(r"\s*[a-z_0-9]+\s*=\s*[^=]+", part):
            raise StatsError(f"--where: {part.strip()!r}: compare with '==', not '='")
        m = _CONDITION.match(part)
        dangling = re.fullmatch(r"\s*([a-z_0-9]+)\s*(==|!=|<=|>=|<|>)\s*", part)
        if dangling or m and m.group(3)[0] in "<>=!":
            name, op = (dangling or m).group(1), (dangling or m).group(2)
            raise StatsError(f"--where: {part.strip()!r} compares {name} with nothing: give a "
                             f"value after {op!r}, e.g. '{name} >= 5'")
        if not m:
            raise StatsError(f"--where: {part!r} is not a comparison such as 'trumps >= 5' "
                             "(comparisons are joined by 'and')")
        feature, op, raw = m.groups()
        if feature not in FEATURES:
            raise StatsError(f"--where: unknown feature {feature!r} (known: "
                             f"{', '.join(FEATURES)})")
        conditions.append(Condition(feature, op, _value(feature, raw)))
    return conditions


def _value(feature: str, raw: str) -> int:
    if feature == "strain":
        try:
            return int(Strain[raw.upper()])
        except KeyError:
            raise StatsError(f"--where: strain {raw!r} is not S, C, D, H or NT") from None
    if feature == "position" and not re.fullmatch(r"-?\d+", raw):
        if raw.lower() not in POSITIONS:
            raise StatsError(f"--where: position {raw!r} is not first, second or dealer "
                             "(or 0, 1, 2)")
        return POSITIONS.index(raw.lower())
    if re.fullmatch(r"-?\d{4,}", raw):
        shown = raw if len(raw) <= 12 else f"{raw[:10]}... ({len(raw.lstrip('-'))} digits)"
        raise StatsError(f"--where: {feature} is compared with {shown}, far outside any count "
                         "of cards (0-12)")
    if not re.fullmatch(r"-?\d{1,3}", raw):
        raise StatsError(f"--where: {feature} is compared with a whole number, got {raw!r}")
    return int(raw)


def check_features(by: Sequence[str]) -> None:
    unknown = [f for f in by if f not in FEATURES]
    if unknown:
        word = plural(len(unknown), "feature")
        raise StatsError(f"unknown {word} {', '.join(unknown)} (known: {', '.join(FEATURES)})")
    if len(set(by)) != len(by):
        raise StatsError("a feature is named twice")
    if len(by) > 8:
        raise StatsError("group by at most 8 features at once")


@dataclass(frozen=True)
class GroupRates:
    """One group: its feature values, its rows' trick counts, and what follows from them."""

    key: tuple[int, ...]
    counts: np.ndarray
    """How many rows took 0..10 tricks."""

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    @property
    def mean(self) -> Estimate:
        return mean_tricks(self.counts)

    @property
    def rates(self) -> dict[int, Estimate]:
        return make_rates(self.counts)


def _popcount(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.uint32)
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


def _after_widow(columns: dict[str, np.ndarray], mode: str) -> dict[str, np.ndarray]:
    """The ``*_after`` features from the hands, the widow and the mode's best discard."""
    declarer = columns["declarer"].astype(np.int64)
    hands = np.stack([columns["hand0"], columns["hand1"], columns["hand2"]]).astype(np.uint32)
    ten = (hands[declarer, np.arange(len(declarer))] | columns["widow"].astype(np.uint32)) \
        & ~columns[f"discard_{mode}"].astype(np.uint32)
    strain = columns["strain"]
    lengths = np.stack([_popcount((ten >> (8 * s)) & 0xFF) for s in range(4)])
    suited = strain < 4
    trump_suit = np.where(suited, strain, 0)
    trump_cards = (ten >> (8 * trump_suit.astype(np.uint32))) & 0xFF
    return {"trumps_after": np.where(suited, lengths[trump_suit, np.arange(len(ten))], 0),
            "trump_top3_after": np.where(suited, _popcount(trump_cards & 0xE0), 0),
            "aces_after": _popcount(ten & 0x80808080),
            "longest_after": lengths.max(axis=0)}


def _batches(path: str | Path, needed: set[str], modes: Sequence[str],
             after_mode: str) -> Iterator[dict[str, np.ndarray]]:
    """The ``needed`` features or columns (and the tricks of ``modes``) of the rows where
    every one of ``modes`` was studied, batch by batch; ``*_after`` features use
    ``after_mode``'s discard."""
    stored = (set(needed) - set(AFTER)) | {f"tricks_{m}" for m in modes}
    if needed & set(AFTER):
        stored |= {"declarer", "hand0", "hand1", "hand2", "widow", "strain",
                   f"discard_{after_mode}"}
    for batch in read_batches(path, sorted(stored)):
        studied = np.ones(batch.num_rows, dtype=bool)
        for m in modes:
            studied &= batch.column(f"tricks_{m}").is_valid().to_numpy(zero_copy_only=False)
        columns = {}
        for name in stored:
            column = batch.column(name)
            if name == "strain":
                index = pc.index_in(column, value_set=_STRAIN_NAMES)
                columns[name] = index.fill_null(-1).to_numpy().astype(np.int64)
            else:
                columns[name] = column.fill_null(0).to_numpy().astype(np.int64)
        if needed & set(AFTER):
            columns.update(_after_widow(columns, after_mode))
        yield columns if studied.all() else {name: values[studied]
                                             for name, values in columns.items()}


def filtered_rows(path: str | Path, needed: set[str], where: str | None,
                  modes: Sequence[str] = ("both",), after_mode: str = "both"
                  ) -> Iterator[dict[str, np.ndarray]]:
    """Batches of the rows that meet ``where`` (see ``parse_where``) and have every one of
    ``modes`` studied: the ``needed`` features and ``tricks_<mode>`` as integer arrays."""
    conditions = parse_where(where) if where else []
    needed = set(needed) | {c.feature for c in conditions}
    try:
        for columns in _batches(path, needed, modes, after_mode):
            keep = np.ones(len(columns[f"tricks_{modes[0]}"]), dtype=bool)
            for c in conditions:
                keep &= _OPS[c.op](columns[c.feature], c.value)
            if keep.all():
                yield columns
            elif keep.any():
                yield {name: values[keep] for name, values in columns.items()}
    except KeyError as exc:
        raise DatasetError(f"{path} is not a prefa-sim dataset: {exc}") from None


def check_range(path: str | Path, name: str, values: np.ndarray, high: int) -> None:
    """Values of a column lie in 0..high, or the file is not a dataset of this game."""
    if len(values) and (values.min() < 0 or values.max() > high):
        raise DatasetError(f"{path} holds values outside the game's range in {name}")


def strain_counts(path: str | Path, mode: str = "both") -> np.ndarray:
    """How often the declarer took each number of tricks, per strain, in defence ``mode``:
    an int64 array [strain, tricks 0-10]; rows without that mode are left out."""
    counts = np.zeros((len(Strain), 11), dtype=np.int64)
    for group in group_make_rates(path, ("strain",), None, mode):
        counts[group.key[0]] = group.counts
    return counts


def group_make_rates(path: str | Path, by: Sequence[str] = ("strain",),
                     where: str | None = None, mode: str = "both",
                     scheduler=None) -> list[GroupRates]:
    """Make-rates of every level for each group of rows with the same ``by`` features,
    among the rows that meet ``where``, in defence ``mode``; groups in feature order.

    With ``scheduler`` (a Dask distributed address or ``Client``) the files are counted
    on that cluster.
    """
    if mode not in MODES:
        raise StatsError(f"unknown defence mode {mode!r} (known: {', '.join(MODES)})")
    check_features(by)
    if where:
        parse_where(where)  # a bad filter is refused before any file is read
    totals = scan(path, partial(_file_counts, by=tuple(by), where=where, mode=mode),
                  _add_counts, {}, scheduler)
    return [GroupRates(key, totals[key]) for key in sorted(totals)]


def _file_counts(file: str, by: tuple[str, ...], where: str | None, mode: str
                 ) -> dict[tuple[int, ...], np.ndarray]:
    """Trick counts per group of one file."""
    totals: dict[tuple[int, ...], np.ndarray] = {}
    for columns in filtered_rows(file, set(by), where, (mode,), mode):
        tricks = columns[f"tricks_{mode}"]
        check_range(file, "tricks", tricks, 10)
        # One integer code per row: the features in base 16 (every feature is 0-10).
        code = np.zeros(len(tricks), dtype=np.int64)
        for feature in by:
            check_range(file, feature, columns[feature], 15)
            code = code * 16 + columns[feature]
        if len(by) <= 4:  # few codes (16^4): count them directly, no sort
            counts = np.bincount(code * 11 + tricks, minlength=11 * 16 ** len(by))
            counts = counts.reshape(-1, 11)
            unique = np.flatnonzero(counts.any(axis=1))
            counts = counts[unique]
        else:
            unique, inverse = np.unique(code, return_inverse=True)
            counts = np.bincount(inverse * 11 + tricks, minlength=11 * len(unique))
            counts = counts.reshape(-1, 11)
        for value, row in zip(unique.tolist(), counts, strict=True):
            key = tuple((value >> (4 * (len(by) - 1 - i))) & 15 for i in range(len(by)))
            totals[key] = totals.get(key, 0) + row
    return totals


def _add_counts(a: dict, b: dict) -> dict:
    out = dict(a)
    for key, counts in b.items():
        out[key] = out.get(key, 0) + counts
    return out
