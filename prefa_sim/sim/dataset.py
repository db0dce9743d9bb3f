"""The simulation dataset: one Parquet row per (deal, declarer, strain).

One row per declarer and strain (rather than one per deal) because every
question the statistics ask is about one declarer in one strain: make-rates
by strain and hand shape, defence quotas by mode, bidding success.  A
``groupby`` over plain columns answers them without unpacking lists, in
pandas, DuckDB or Spark alike.  The three defence modes stay side by side in
one row because they are always compared with each other.

Columns (see ``SCHEMA``; masks use the bit layout of ``prefa_sim.core.cards``,
decoded by ``prefa_sim.core.cards.format_hand``):

=====================  =======  ===============================================================
column                 type     meaning
=====================  =======  ===============================================================
deal                   int64    index of the deal in the run (0, 1, ...), stable for a seed
dealer                 int8     dealing seat
hand0 hand1 hand2      uint32   the three hands as dealt (seat order)
widow                  uint32   the two widow cards
declarer               int8     declaring seat
position               int8     the declarer's place: 0 first hand, 1 second hand, 2 dealer
strain                 string   S, C, D, H or NT
tricks_both            int8     best declarer tricks with the widow, both defenders playing
tricks_first           int8     the same, only the first defender (declarer's right) playing
tricks_second          int8     the same, only the second defender playing
discard_both ...       uint32   a best discard per mode (two-card mask)
best_discards_both ..  int8     how many of the 66 discards reach the best, per mode
len_s len_c len_d      int8     suit lengths of the declarer's ten cards before the widow
len_h
longest                int8     the longest suit's length
aces kings queens      int8     honours held (before the widow)
jacks
trumps                 int8     cards held in the strain (0 in NT)
trump_top3             int8     how many of the strain's A, K, Q are held (0 in NT)
=====================  =======  ===============================================================

A mode that was not studied (``--modes``) leaves its columns null; ``to_pandas`` and
the readers here keep such columns as nullable integers (``Int8``), never floats.
``cards_as_text`` turns the masks into the text every command prints: hands suit-grouped,
discards as ``8C TC``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..core.cards import Strain, popcount
from ..rules.variants import DEFAULT_RULES, Rules, RulesError
from ..solve.tables import MODES, TableRow
from .run_folder import recover

SCHEMA = pa.schema(
    [
        ("deal", pa.int64()),
        ("dealer", pa.int8()),
        ("hand0", pa.uint32()),
        ("hand1", pa.uint32()),
        ("hand2", pa.uint32()),
        ("widow", pa.uint32()),
        ("declarer", pa.int8()),
        ("position", pa.int8()),
        ("strain", pa.string()),
        *[(f"tricks_{m}", pa.int8()) for m in MODES],
        *[(f"discard_{m}", pa.uint32()) for m in MODES],
        *[(f"best_discards_{m}", pa.int8()) for m in MODES],
        ("len_s", pa.int8()),
        ("len_c", pa.int8()),
        ("len_d", pa.int8()),
        ("len_h", pa.int8()),
        ("longest", pa.int8()),
        ("aces", pa.int8()),
        ("kings", pa.int8()),
        ("queens", pa.int8()),
        ("jacks", pa.int8()),
        ("trumps", pa.int8()),
        ("trump_top3", pa.int8()),
    ]
)


# The games dataset of ``prefa games`` (one row per deal and seating):
#   deal (with --full-games: the game), seating (player k sits in seat (k + seating) mod 3),
#   number (the deal's number in its game, 0 for independent deals), pot (before the deal),
#   dealer, hand0-2 and widow as
#   dealt, player0-2 (the player in each seat), actions and actors (every action in order,
#   as a prefa game script reads it, and the seat that took it), void, declarer, position
#   (0 first hand, 1 second, 2 dealer), contract, solo, aces, discard, declarations
#   ("play,pass,together"), tricks0-2 (as the settlement counts them), claimed, net0-2
#   (kapíkia each seat netted, a pot withdrawal counting as a gain), result0-2 (each seat's
#   change of result, the pot's movement shared in thirds: zero-sum) and pot_delta.
GAME_DEAL_CAP = 1000
"""``prefa games --full-games`` ends a game by agreement after this many deals."""

GAMES_SCHEMA = pa.schema([
    ("deal", pa.int64()), ("seating", pa.int8()), ("number", pa.int32()), ("pot", pa.int32()),
    ("dealer", pa.int8()),
    ("hand0", pa.uint32()), ("hand1", pa.uint32()), ("hand2", pa.uint32()),
    ("widow", pa.uint32()),
    ("player0", pa.string()), ("player1", pa.string()), ("player2", pa.string()),
    ("actions", pa.list_(pa.string())), ("actors", pa.list_(pa.int8())),
    ("void", pa.bool_()), ("declarer", pa.int8()), ("position", pa.int8()),
    ("contract", pa.string()), ("solo", pa.bool_()), ("aces", pa.bool_()),
    ("discard", pa.uint32()), ("declarations", pa.string()),
    ("tricks0", pa.int8()), ("tricks1", pa.int8()), ("tricks2", pa.int8()),
    ("claimed", pa.bool_()),
    ("net0", pa.int32()), ("net1", pa.int32()), ("net2", pa.int32()),
    ("result0", pa.float64()), ("result1", pa.float64()), ("result2", pa.float64()),
    ("pot_delta", pa.int32()),
])


def hand_features(hand: int, strain: Strain) -> dict[str, int]:
    """The feature columns of a declarer's ten cards for a strain."""
    lengths = [popcount((hand >> (8 * s)) & 0xFF) for s in range(4)]
    features = dict(zip(("len_s", "len_c", "len_d", "len_h"), lengths, strict=True))
    features["longest"] = max(lengths)
    for name, rank in (("aces", 7), ("kings", 6), ("queens", 5), ("jacks", 4)):
        features[name] = popcount(hand & (0x01010101 << rank))
    if strain == Strain.NT:
        features["trumps"] = features["trump_top3"] = 0
    else:
        suit = (hand >> (8 * int(strain))) & 0xFF
        features["trumps"] = popcount(suit)
        features["trump_top3"] = popcount(suit & 0xE0)
    return features


def table_records(deal_index: int, hands, widow: int, dealer: int,
                  rows: list[TableRow]) -> list[dict]:
    """Dataset records (``SCHEMA`` columns) for one deal's table rows."""
    records = []
    for row in rows:
        record = {"deal": deal_index, "dealer": dealer, "hand0": hands[0], "hand1": hands[1],
                  "hand2": hands[2], "widow": widow, "declarer": row.declarer,
                  "position": (row.declarer - dealer - 1) % 3, "strain": row.strain.name}
        for mode in MODES:
            record[f"tricks_{mode}"] = row.tricks.get(mode)
            pair = row.discard.get(mode)
            record[f"discard_{mode}"] = None if pair is None else (1 << pair[0]) | (1 << pair[1])
            record[f"best_discards_{mode}"] = row.best_discards.get(mode)
        record.update(hand_features(hands[row.declarer], row.strain))
        records.append(record)
    return records


def records_table(records: list[dict]) -> pa.Table:
    """An Arrow table of records in ``SCHEMA``."""
    return pa.Table.from_pylist(records, schema=SCHEMA)


class DatasetError(ValueError):
    """A path that holds no readable dataset."""


def dataset_files(path: str | Path) -> list[Path]:
    """The Parquet files of a dataset: ``path`` itself, or the ``part-*.parquet`` files of a
    run folder in chunk order (after ``run_folder.recover``)."""
    path = Path(path)
    if not path.exists():
        raise DatasetError(f"{path} does not exist")
    if path.is_dir():
        recover(path)  # a --force that a killed process left half done
    # Chunk order: part-99999 before part-100000 (numbers grow past five digits).
    files = (sorted(path.glob("part-*.parquet"), key=lambda p: (len(p.name), p.name))
             if path.is_dir() else [path])
    if not files:
        raise DatasetError(f"{path} holds no dataset (no part-*.parquet files)")
    if len(files) > 1:
        _check_one_run(files)
    return files


def _check_one_run(files: list[Path]) -> None:
    """The parts of a folder come from one run, each chunk once: a part copied in from
    another run (or twice) would be counted silently.  Parts without prefa-sim's record
    (written by other tools) are not checked."""
    first: tuple[Path, object] | None = None
    chunks: dict[object, Path] = {}
    for file in files:
        try:
            metadata = pq.read_metadata(file).metadata or {}
            info = json.loads(metadata.get(b"prefa_sim", b"null"))
        except (OSError, ValueError, pa.ArrowException):
            continue  # unreadable: reported by the reader with its file name
        if not isinstance(info, dict):
            continue
        config = info.get("config")
        if first is None:
            first = (file, config)
        elif config != first[1]:
            rules = [_recorded_rules(first[1], first[0]), _recorded_rules(config, file)]
            if rules[0] != rules[1]:
                raise DatasetError(
                    f"{file} was played under other rules than {first[0]} "
                    f"({'; '.join(rules[0].differences(rules[1]))}): statistics never pool "
                    "deals of different rules")
            raise DatasetError(f"{file} comes from another run than {first[0]} (other seed "
                               "or settings): a dataset folder holds the parts of one run")
        chunk = info.get("chunk")
        if chunk in chunks:
            raise DatasetError(f"{file} holds chunk {chunk} again (as {chunks[chunk]}): its "
                               "rows would be counted twice")
        chunks[chunk] = file


def _recorded_rules(config: object, file: Path) -> Rules:
    """The rules of a part's recorded run configuration (the default when it names none:
    parts written before rules were recorded)."""
    text = config.get("rules", "default") if isinstance(config, dict) else "default"
    try:
        return Rules.parse(text)
    except (RulesError, AttributeError):
        raise DatasetError(f"{file} records rules prefa-sim does not know: {text!r}") from None


def dataset_rules(path: str | Path) -> Rules:
    """The rules a dataset was solved or played under, from its first part's record (the
    parts of a folder are of one run: ``dataset_files``); the default for parts written
    without prefa-sim's record."""
    file = dataset_files(path)[0]
    try:
        metadata = pq.read_metadata(file).metadata or {}
        info = json.loads(metadata.get(b"prefa_sim", b"null"))
    except (OSError, ValueError, pa.ArrowException):
        return DEFAULT_RULES
    return _recorded_rules(info.get("config") if isinstance(info, dict) else None, file)


def rules_for(path: str | Path, given: Rules | None) -> Rules:
    """The dataset's rules, checked against ``given`` (a command's ``--rules``): statistics
    never apply other rules than the data were made under; the error names the rules that
    differ."""
    own = dataset_rules(path)
    if given is not None and given != own:
        raise DatasetError(f"{path} was made under the rules {own}, not {given} "
                           f"({'; '.join(own.differences(given))}): its figures hold only for "
                           "its own rules (simulate again with --rules to study others)")
    return own


def _open(file: Path) -> pq.ParquetFile:
    try:
        return pq.ParquetFile(file)
    except (OSError, pa.ArrowException) as exc:
        raise DatasetError(f"cannot read {file} as Parquet: {str(exc).splitlines()[0]}") \
            from None


def check_columns(file: Path, parquet: pq.ParquetFile,
                  columns: Sequence[str] | None = None, expected: pa.Schema = SCHEMA) -> None:
    """The file has the dataset's columns (or those asked) with their types; ``expected``
    is ``SCHEMA`` (solved deals) or ``GAMES_SCHEMA`` (games)."""
    schema = parquet.schema_arrow
    kind = "games dataset (prefa games)" if expected is GAMES_SCHEMA else \
        "dataset of solved deals (prefa simulate)"
    for name in columns or expected.names:
        if name not in schema.names:
            other = GAMES_SCHEMA if expected is SCHEMA else SCHEMA
            hint = "" if not set(other.names) <= set(schema.names) else (
                ": it holds games, for prefa stats bidding" if other is GAMES_SCHEMA
                else ": it holds solved deals, for prefa stats makerate and defence")
            raise DatasetError(f"{file} is not a prefa-sim {kind}: no column {name}{hint}")
        if not _compatible(schema.field(name).type, expected.field(name).type):
            raise DatasetError(f"{file} is not a prefa-sim {kind}: column {name} is "
                               f"{schema.field(name).type}, expected "
                               f"{expected.field(name).type}")


def _compatible(actual: pa.DataType, wanted: pa.DataType) -> bool:
    """Can a column of type ``actual`` be read as ``wanted``?  A dataset written back by
    pandas or another tool may widen integers (or make floats of those with nulls) and
    use large strings and lists; the values are cast on reading, and one that does not
    fit (a fraction, a number out of range) is refused then."""
    if actual == wanted or pa.types.is_null(actual):  # a column of nulls alone
        return True
    if pa.types.is_integer(wanted):  # pandas writes an integer column with nulls as floats
        return pa.types.is_integer(actual) or pa.types.is_floating(actual)
    for kind in (pa.types.is_floating, pa.types.is_boolean):
        if kind(wanted):
            return kind(actual)
    if pa.types.is_string(wanted) or pa.types.is_large_string(wanted):
        return pa.types.is_string(actual) or pa.types.is_large_string(actual)
    if pa.types.is_list(wanted) or pa.types.is_large_list(wanted):
        return (pa.types.is_list(actual) or pa.types.is_large_list(actual)) and \
            _compatible(actual.value_type, wanted.value_type)
    return False


def _conform(file: Path, batch: pa.RecordBatch, expected: pa.Schema) -> pa.RecordBatch:
    """``batch`` with the types of ``expected`` (``_compatible`` columns cast, safely: a
    value that does not fit raises ``DatasetError`` naming the file and the column)."""
    known = set(expected.names)
    if all(f.name not in known or f.type == expected.field(f.name).type for f in batch.schema):
        return batch
    arrays = []
    for field, column in zip(batch.schema, batch.columns, strict=True):
        wanted = expected.field(field.name).type if field.name in known else field.type
        try:
            arrays.append(column if field.type == wanted else pc.cast(column, wanted))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
            raise DatasetError(f"{file}: column {field.name} holds values that do not fit "
                               f"{wanted} ({str(exc).splitlines()[0][:80]})") from None
    return pa.record_batch(arrays, names=batch.schema.names)


def read_batches(path: str | Path, columns: Sequence[str] | None = None,
                 expected: pa.Schema | None = None) -> Iterator[pa.RecordBatch]:
    """The rows of a dataset as record batches, one file open at a time.

    Memory stays flat however many files the run has (a whole-dataset scan keeps
    every file's footer).  A file that is not a readable part of a dataset raises
    ``DatasetError`` naming it.
    """
    for file in dataset_files(path):
        with _open(file) as parquet:
            check_columns(file, parquet, columns, expected or SCHEMA)
            try:
                for batch in parquet.iter_batches(columns=columns):
                    yield _conform(file, batch, expected or SCHEMA)
            except (OSError, pa.ArrowException) as exc:
                raise DatasetError(f"cannot read {file}: {str(exc).splitlines()[0]}") from None


def to_pandas(table: pa.Table | pa.RecordBatch):
    """A pandas DataFrame with the documented integer types: nullable ``Int8``, ``UInt32``
    and ``Int64`` columns where the dataset has nulls (a mode left out), never floats."""
    import pandas as pd

    nullable = {pa.int8(): pd.Int8Dtype(), pa.int64(): pd.Int64Dtype(),
                pa.uint32(): pd.UInt32Dtype()}
    return table.to_pandas(types_mapper=nullable.get)


def read_frame(path: str | Path, columns: Sequence[str] | None = None):
    """A whole dataset (or the ``columns`` asked) as a pandas DataFrame, see ``to_pandas``."""
    import pandas as pd

    frames = [to_pandas(batch) for batch in read_batches(path, columns)]
    if not frames:
        return to_pandas(SCHEMA.empty_table().select(list(columns or SCHEMA.names)))
    return pd.concat(frames, ignore_index=True)


def cards_as_text(frame):
    """A copy of a dataset frame with the card masks as text: hands and the widow
    suit-grouped (``AKQ.-.J7.AT98``), discards as tokens in card order (``8C TC``), the
    way every command prints them; a missing mask stays missing."""
    import pandas as pd

    from ..core.cards import format_discard, format_hand

    out = frame.copy()
    for column in out.columns:
        if column in ("hand0", "hand1", "hand2", "widow"):
            fmt = format_hand
        elif column.startswith("discard_"):
            fmt = format_discard
        else:
            continue
        out[column] = [None if pd.isna(v) else fmt(int(v)) for v in out[column]]
    return out


def first_deals(path: str | Path, deals: int):
    """The rows (a pandas DataFrame, see ``to_pandas``) of the first ``deals`` deals of a
    dataset, reading only the files that hold them."""
    import pandas as pd

    frames, seen = [], set()
    for file in dataset_files(path):
        with _open(file) as parquet:
            check_columns(file, parquet)
            try:
                frame = to_pandas(parquet.read())
            except (OSError, pa.ArrowException) as exc:
                raise DatasetError(f"cannot read {file}: {str(exc).splitlines()[0]}") from None
        keys = ["deal", "dealer", "hand0", "hand1", "hand2", "widow", "declarer", "strain"]
        if frame[keys].isna().any().any():
            raise DatasetError(f"{file} is not a prefa-sim dataset: missing values in "
                               f"{', '.join(k for k in keys if frame[k].isna().any())}")
        frames.append(frame)
        seen.update(frame["deal"].unique().tolist())
        if len(seen) >= deals:
            break
    data = pd.concat(frames, ignore_index=True)
    return data[data["deal"].isin(sorted(data["deal"].unique())[:deals])]
