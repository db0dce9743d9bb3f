"""The guard of a run folder: one process at a time, and a ``--force`` that is undone or
finished whatever stopped it.

A run's files are its part files, ``_run.json`` and the replayed deals.  ``--force`` sets
the old run's files aside in ``DIR/.replaced`` (a hidden folder, which Parquet readers
skip), marks the move complete with ``DIR/.replaced/.complete`` and only then writes the
new run's record.  Once the new run has written its first part the old one is deleted.
A process killed in between leaves the folder in one of three states, each of which
``recover`` puts right: the move half done (put every file back), the move done and no
new part (the new run's record goes, the old run comes back), a new part written (the old
run goes: the replacement is finished).

``RunLock`` holds an exclusive ``flock`` on the folder itself for as long as a run works
in it.  The kernel lets go of it when the process ends, however it ends, so a lock
left by a killed process never stands in the way.
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
from pathlib import Path

MANIFEST = "_run.json"  # a leading "_" keeps Parquet readers from reading it
REPLAY_FILE = "_replay.npy"  # deals to replay: rows [hand0, hand1, hand2, widow, dealer]
PART_GLOB = "part-*.parquet"
TEMPORARY_PART_GLOB = ".part-*.parquet.tmp*"
REPLACED = ".replaced"
COMPLETE = ".complete"

log = logging.getLogger("prefa_sim")


class FolderBusy(ValueError):
    """Another process works in the run folder."""


class RunLock:
    """An exclusive lock on a run folder, taken at once or refused with ``FolderBusy``."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._fd: int | None = None

    def acquire(self) -> RunLock:
        fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise FolderBusy(f"{self.folder} is in use by another prefa process (a run, or "
                             "its --resume or --force); nothing was changed: wait for it "
                             "to end") from None
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor lets go of the lock
            self._fd = None

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def try_lock(folder: Path) -> RunLock | None:
    """The folder's lock if no other process holds it (None when one does)."""
    try:
        return RunLock(folder).acquire()
    except FolderBusy:
        return None


def temporary_name(name: str) -> str:
    """The hidden name a run's record (or replay) is written under before its rename."""
    return f".{name}.tmp"


def run_files(folder: Path) -> list[Path]:
    """The files of a run in ``folder``: parts, the record, the replay, and each of them
    half written (under its temporary name)."""
    names = [*folder.glob(PART_GLOB), *folder.glob(TEMPORARY_PART_GLOB)]
    records = [n for name in (MANIFEST, REPLAY_FILE) for n in (name, temporary_name(name))]
    return names + [folder / n for n in records if (folder / n).exists()]


def set_aside(folder: Path) -> Path | None:
    """Move the run in ``folder`` to ``folder/.replaced`` (``--force``), the move marked
    complete last; None when the folder holds no run files."""
    old = run_files(folder)
    if not old:
        return None
    backup = folder / REPLACED
    backup.mkdir()
    for path in old:
        os.replace(path, backup / path.name)
    (backup / COMPLETE).touch()
    return backup


def put_back(folder: Path) -> None:
    """Undo ``set_aside``: the new run's files go, the old run's come back."""
    backup = folder / REPLACED
    if (backup / COMPLETE).exists():  # every new file is the new run's
        for path in run_files(folder):
            path.unlink()
    for path in backup.iterdir():
        if path.name != COMPLETE:
            os.replace(path, folder / path.name)
    (backup / COMPLETE).unlink(missing_ok=True)
    backup.rmdir()


def drop_replaced(folder: Path) -> None:
    """The new run has its first part: the run set aside goes for good."""
    backup = folder / REPLACED
    if backup.exists():
        shutil.rmtree(backup)


def recover(folder: str | Path) -> str | None:
    """Put right a ``--force`` that a killed process left half done, and say what was
    done (None when there was nothing to do, or another process works in the folder)."""
    folder = Path(folder)
    if not folder.is_dir() or not _has_replaced(folder):
        return None
    lock = try_lock(folder)
    if lock is None:
        return None
    try:
        return recover_locked(folder)
    finally:
        lock.release()


def _has_replaced(folder: Path) -> bool:
    return (folder / REPLACED).exists() or any(folder.glob(f"{REPLACED}-*"))


def recover_locked(folder: Path) -> str | None:
    """``recover`` for a process that holds the folder's lock.  A folder set aside by an
    earlier version (``.replaced-*``, the move complete) counts as ``.replaced``."""
    if not _has_replaced(folder):
        return None
    if not (folder / REPLACED).exists():
        os.replace(sorted(folder.glob(f"{REPLACED}-*"))[0], folder / REPLACED)
        (folder / REPLACED / COMPLETE).touch()
    if (folder / REPLACED / COMPLETE).exists() and any(folder.glob(PART_GLOB)):
        drop_replaced(folder)
        note = (f"{folder}: finished the replacement that an interrupted --force had begun "
                "(the new run had written a part; the run it replaced is deleted)")
    else:
        put_back(folder)
        note = (f"{folder}: restored the run that an interrupted --force had set aside (the "
                "new run had written no part)")
    log.warning(note)
    return note
