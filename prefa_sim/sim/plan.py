"""What a run does in its folder before the first chunk: lock it, put right an interrupted
``--force``, check a run to resume, and undo a start that fails before its first part."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..bots.specs import file_digest
from .chunks import chunk_index, chunk_path, part_problem, written_chunks
from .config import RunConfig, RunError, read_manifest
from .replay import replay_rows
from .run_folder import (
    MANIFEST,
    PART_GLOB,
    REPLAY_FILE,
    TEMPORARY_PART_GLOB,
    RunLock,
    drop_replaced,
    put_back,
    recover_locked,
    run_files,
    set_aside,
    temporary_name,
)


@dataclass
class Plan:
    """What a run does in its folder: the chunks to run, and how to undo a failed start."""

    todo: Callable[[], Iterator[int]]
    remaining: int
    redone: list[tuple[int, str]]
    """Parts found broken on resume, with the reason; they are run again."""
    created: list[Path]
    """Files (and the folder) made by a fresh start, removed if it fails before any part."""
    replaced: bool = False
    """A run set aside by ``--force`` (``run_folder.set_aside``), put back if the new run
    fails before its first part, deleted once it is written."""
    fresh: bool = False
    """A new run (not a resume): a failure before its first part is undone."""
    undone: bool = False
    """Set when a failed start was undone: the folder is as the run found it."""
    lock: RunLock | None = None
    """The folder's lock, held until the run ends."""


def _write_atomic(path: Path, data: bytes) -> None:
    temporary = path.with_name(temporary_name(path.name))
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _check_replay(out_dir: Path, config: RunConfig) -> None:
    """The replayed deals in the folder are the ones the run recorded."""
    try:
        rows = np.load(out_dir / REPLAY_FILE, allow_pickle=False)
        intact = replay_rows(rows)[1] == config.replay and rows.ndim == 2 \
            and len(rows) == config.deals
    except (OSError, ValueError):
        intact = False
    if not intact:
        raise RunError(f"{out_dir / REPLAY_FILE} is missing or not the deals this run "
                       "recorded; use --force to start the run again")


def _check_player_files(config: RunConfig) -> None:
    """The player files of a run hold what they held when it started."""
    for path, digest in config.player_files.items():
        try:
            now = file_digest(path)
        except OSError as exc:
            raise RunError(f"player file {path} of this run cannot be read "
                           f"({exc.strerror or exc}); resume with the file as it was") from None
        if now != digest:
            raise RunError(f"player file {path} has changed since this run started: resume "
                           "with the file as it was (or --force to start again with the new "
                           "one)")


def _resume_plan(config: RunConfig, out_dir: Path) -> Plan:
    _check_player_files(config)
    if config.replay:
        _check_replay(out_dir, config)
    parts = list(out_dir.glob(PART_GLOB))
    found = {chunk_index(p): p for p in parts}
    foreign = sorted(p.name for p in parts
                     if chunk_index(p) is None or chunk_index(p) >= config.chunks)
    if foreign:
        raise RunError(f"{out_dir} holds part files that are not chunks of this run: "
                       f"{', '.join(foreign[:5])}; move them away before resuming")
    done = set(found) - {None}
    redone = []
    for index in sorted(done):  # checked before anything is changed
        problem = part_problem(chunk_path(out_dir, index), config, index)
        if problem:
            redone.append((index, problem))
    for stray in out_dir.glob(TEMPORARY_PART_GLOB):
        stray.unlink()
    for index, _ in redone:
        chunk_path(out_dir, index).unlink(missing_ok=True)
        done.discard(index)

    def missing() -> Iterator[int]:
        return (i for i in range(config.chunks) if i not in done)
    return Plan(missing, config.chunks - len(done), redone, [])


def prepare(config: RunConfig, out_dir: Path, resume: bool, force: bool,
            replay: np.ndarray | None = None) -> Plan:
    """Lock the output folder, put right an interrupted ``--force`` found there, check the
    folder (and store the deals to replay) and plan the chunks to run.  The plan holds
    the lock: ``finish`` lets go of it."""
    if resume and force:
        raise RunError("--resume finishes the run in the folder and --force replaces it: "
                       "give one of them")
    if out_dir.exists() and not out_dir.is_dir():
        raise RunError(f"{out_dir} is a file, not a folder")
    if resume and not out_dir.exists():
        raise RunError(f"{out_dir} holds no run to resume")
    made_folder = not out_dir.exists()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunError(f"cannot make the folder {out_dir}: {exc.strerror or exc}") from None
    lock = RunLock(out_dir)
    try:
        lock.acquire()
        recover_locked(out_dir)  # says what it put right (logging)
        plan = _plan(config, out_dir, resume, force, replay, made_folder)
    except BaseException:
        lock.release()
        if made_folder and out_dir.is_dir() and not any(out_dir.iterdir()):
            out_dir.rmdir()
        raise
    plan.lock = lock
    return plan


def _plan(config: RunConfig, out_dir: Path, resume: bool, force: bool,
          replay: np.ndarray | None, made_folder: bool) -> Plan:
    recorded = read_manifest(out_dir) if not force else None
    if recorded is not None:
        if not resume:
            if len(written_chunks(out_dir, recorded)) == recorded.chunks:
                raise RunError(f"{out_dir} holds a finished run; use --force to replace it, or "
                               "-o to write to another folder")
            raise RunError(f"{out_dir} holds an unfinished run; use --resume to finish it or "
                           "--force to start again")
        if recorded != config:
            raise RunError(f"{out_dir} holds a run with other settings; --resume takes them "
                           "from the folder (or use --force to start again)")
        return _resume_plan(config, out_dir)
    if resume:
        raise RunError(f"{out_dir} holds no run to resume")
    if not force and any(not p.name.startswith(".") for p in run_files(out_dir)):
        raise RunError(f"{out_dir} holds Parquet parts but no run of prefa-sim; choose "
                       "another folder, or --force to replace them")
    plan = Plan(lambda: iter(range(config.chunks)), config.chunks, [],
                [out_dir] if made_folder else [], fresh=True)
    try:
        # --force: the old run is set aside until the new one has written a part
        plan.replaced = force and set_aside(out_dir) is not None
        if replay is not None:
            plan.created.append(out_dir / REPLAY_FILE)
            _write_atomic(out_dir / REPLAY_FILE, _npy_bytes(replay))
        plan.created.append(out_dir / MANIFEST)
        _write_atomic(out_dir / MANIFEST, json.dumps(config.to_json(), indent=1).encode())
    except BaseException:
        _restore_start(out_dir, plan)
        raise
    return plan


def _npy_bytes(array: np.ndarray) -> bytes:
    import io

    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def undo_start(out_dir: Path, plan: Plan, restore: bool = True,
               discard_parts: bool = False) -> None:
    """After a failed or interrupted run: a fresh start that wrote no part is undone
    (``_restore_start``); once the new run has a part, the replaced run goes instead.
    With ``discard_parts`` (a Ctrl-C before the first part came in) the parts the
    running jobs wrote after it go, and the start is undone all the same.  With
    ``restore`` false (tasks may still be running on a cluster) a replaced run stays
    where it was set aside, for the next command on the folder to put right
    (``run_folder.recover``)."""
    for stray in out_dir.glob(TEMPORARY_PART_GLOB):
        stray.unlink(missing_ok=True)
    if not plan.fresh:
        return
    if discard_parts and restore:  # every part in the folder is the new run's
        for part in out_dir.glob(PART_GLOB):
            part.unlink()
    if any(out_dir.glob(PART_GLOB)):  # the old run's parts were all set aside at the start
        drop_replaced(out_dir)
    elif restore:
        _restore_start(out_dir, plan)


def _restore_start(out_dir: Path, plan: Plan) -> None:
    """Remove what a fresh start made and put a replaced run back."""
    for path in reversed(plan.created):
        if path != out_dir:
            path.unlink(missing_ok=True)
    if plan.replaced:
        put_back(out_dir)
    if out_dir in plan.created and not any(out_dir.iterdir()):
        out_dir.rmdir()
    plan.undone = True
