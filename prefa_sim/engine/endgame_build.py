"""Building the 2-hand endgame table (``endgame``) with the search itself, and keeping it.

Every canonical position is solved, shortest endings first: the search of a
position with ``r`` tricks left reads the positions of fewer tricks from the part
of the table already built.  That takes about a second, so the table is built once
and kept as a file in a cache folder (``cache_folder``), which later processes read
in a few milliseconds; where no folder can be written, each process builds it.
"""

import hashlib
import os
import tempfile
import time
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

from .bits import popcount
from .driver import setup_trick
from .endgame import (
    ENDGAME_ENTRIES,
    ENDGAME_TRICKS,
    FAILED_SHIFT,
    REACHED_SHIFT,
    endgame_index,
    relevance_counts,
)
from .layout import (
    CTX_ACTIVE,
    CTX_DECLARER,
    CTX_GENERATION,
    CTX_N_ACTIVE,
    CTX_SIZE,
    CTX_TRUMP,
    MAX_MOVES,
    MAX_PLY,
    STATS_SIZE,
    TABLE_COLUMNS,
    W_REL,
    WAYS,
    WORK_COLUMNS,
)
from .lookup import EQUAL_CARD_REPRESENTATIVES, RELATIVE_RANKS
from .search import search
from .suits import NO_TRUMP

_TABLE_BITS = 15
_FILE_PREFIX = "endgame-2h-"
_KEPT_VERSIONS = 3
_STALE_SECONDS = 3600  # a temporary file this old was left by a writer that was killed


@njit(cache=True)
def _canonical_hands(lengths, pattern):
    """The declarer's and the defender's cards of a canonical position: in each suit the
    top ``lengths[s]`` cards, the declarer holding those whose relative rank is set in
    ``pattern`` (the suits' relative ranks one after the other, from suit 0)."""
    declarer_hand = np.int64(0)
    defender_hand = np.int64(0)
    shift = 0
    for s in range(4):
        for j in range(lengths[s]):
            card = np.int64(1) << (8 * s + 8 - lengths[s] + j)
            if (pattern >> (shift + j)) & 1:
                declarer_hand |= card
            else:
                defender_hand |= card
        shift += lengths[s]
    return declarer_hand, defender_hand


@njit(cache=True)
def build_level(tricks, endgame, table, rel_tab, eq_tab, work, moves, stats):
    """Fill the entries of every position with ``tricks`` tricks left (``endgame[0]`` must
    be ``tricks - 1``, the tricks already covered).  The declarer is seat 0, the
    defender seat 1, and the trump suit (while one is held) suit 0."""
    ctx = np.zeros(CTX_SIZE, dtype=np.int64)
    ctx[CTX_DECLARER] = 0
    ctx[CTX_ACTIVE] = 3
    ctx[CTX_N_ACTIVE] = 2
    ctx[CTX_GENERATION] = 1
    hands = np.zeros(3, dtype=np.int64)
    no_trick = np.zeros(3, dtype=np.int64)
    lengths = np.zeros(4, dtype=np.int64)
    counts = np.zeros(tricks + 2, dtype=np.int64)  # relevant cards per target
    for shape in range(9 ** 4):
        total = 0
        for s in range(4):
            lengths[3 - s] = (shape // 9 ** s) % 9
            total += lengths[3 - s]
        if total != 2 * tricks:
            continue
        for pattern in range(1 << (2 * tricks)):
            if popcount(pattern) != tricks:
                continue
            declarer_hand, defender_hand = _canonical_hands(lengths, pattern)
            for trump_held in range(2):
                if trump_held and lengths[0] == 0:
                    continue
                ctx[CTX_TRUMP] = 0 if trump_held else NO_TRUMP
                for declarer_leads in range(2):
                    reached = 0
                    counts[tricks + 1] = 0
                    for target in range(1, tricks + 1):  # up to the first target missed
                        hands[0] = declarer_hand
                        hands[1] = defender_hand
                        setup_trick(no_trick, 0, 1 - declarer_leads, ctx, work)
                        ok = search(hands, 0, target, ctx, table, rel_tab, eq_tab, endgame, work,
                                    moves, stats)
                        counts[target] = relevance_counts(work[0, W_REL],
                                                          declarer_hand | defender_hand)
                        if not ok:
                            break
                        reached = target
                    index = endgame_index(declarer_hand, defender_hand, declarer_leads,
                                          ctx[CTX_TRUMP], tricks)
                    endgame[1 + index] = (reached | (counts[reached] << REACHED_SHIFT)
                                          | (counts[reached + 1] << FAILED_SHIFT))


def build_endgame_table() -> np.ndarray:
    """Solve every position of the 2-hand endgame table, shortest endings first."""
    endgame = np.zeros(1 + ENDGAME_ENTRIES, dtype=np.int32)
    table = np.zeros(((1 << _TABLE_BITS) // WAYS, TABLE_COLUMNS), dtype=np.int64)
    work = np.zeros((MAX_PLY, WORK_COLUMNS), dtype=np.int64)
    moves = np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64)
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    for tricks in range(1, ENDGAME_TRICKS + 1):
        endgame[0] = tricks - 1
        build_level(tricks, endgame, table, RELATIVE_RANKS, EQUAL_CARD_REPRESENTATIVES, work,
                    moves, stats)
    endgame[0] = ENDGAME_TRICKS
    return endgame


@cache
def endgame_table() -> np.ndarray:
    """The 2-hand endgame table, read from the cache folder (``cache_folder``) or built
    and written there on first use, then kept for the process."""
    path = cache_path()
    endgame = _read(path) if path else None
    if endgame is None:
        endgame = build_endgame_table()
        if path:
            _write(endgame, path)
    return endgame


def cache_folder() -> Path | None:
    """Where the endgame table is kept between runs: ``$PREFA_SIM_CACHE_DIR`` (empty: not
    kept), else ``$XDG_CACHE_HOME/prefa-sim``, else ``~/.cache/prefa-sim``."""
    chosen = os.environ.get("PREFA_SIM_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen else None
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = Path.home() / ".cache"
        except RuntimeError:  # no home folder to be found
            return None
    return Path(base) / "prefa-sim"


def cache_path() -> Path | None:
    """The table's file: its name carries a digest of the engine's source, so a table
    built by another version of the search or another layout is never read."""
    folder = cache_folder()
    if folder is None:
        return None
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.read_bytes())
    return folder / f"{_FILE_PREFIX}{ENDGAME_TRICKS}-{digest.hexdigest()[:16]}.npy"


def _read(path: Path) -> np.ndarray | None:
    """The table kept at ``path``, or None if there is none or it is not a whole one."""
    try:
        endgame = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None
    if (endgame.dtype != np.int32 or endgame.shape != (1 + ENDGAME_ENTRIES,)
            or endgame[0] != ENDGAME_TRICKS):
        return None
    return endgame


def _write(endgame: np.ndarray, path: Path) -> None:
    """Keep the table at ``path`` (written to a temporary file, then renamed, so that a
    reader never sees half a table), and of the tables of other versions only the
    ``_KEPT_VERSIONS - 1`` written last (two installs of different versions on one
    machine each keep theirs).  Temporary files over an hour old, left by writers that
    were killed, are removed; younger ones may be another process's write in progress.
    A folder that cannot be written leaves the table unkept: it is built again next
    time."""
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=path.stem, suffix=".tmp",
                                         delete=False) as f:
            temporary = Path(f.name)
            np.save(f, endgame)
        os.replace(temporary, path)
        temporary = None
        others = [p for p in path.parent.glob(f"{_FILE_PREFIX}*.npy") if p != path]
        others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for other in others[_KEPT_VERSIONS - 1:]:
            other.unlink(missing_ok=True)
        now = time.time()
        for stale in path.parent.glob(f"{_FILE_PREFIX}*.tmp"):
            if now - stale.stat().st_mtime > _STALE_SECONDS:
                stale.unlink(missing_ok=True)
    except OSError:
        pass
    finally:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
