"""Running a simulation: deals drawn from the seed, solved (or played) and written as
Parquet parts, on local processes or a Dask cluster.

Deal ``i`` of a run draws its cards from its own stream,
``SeedSequence(seed, spawn_key=(i,))``, so the data depend only on the seed and
the scenario, never on the chunk size, the number of workers or the machines.
The deals are cut into chunks of ``chunk_size`` (``chunks``: one part file each);
``plan`` prepares the folder (``_run.json`` records the configuration, which
``resume`` reads back) and undoes a start that fails before its first part.

Nothing is listed per chunk up front: the chunks to run are generated as the
workers take them, so a run of any size starts at once in bounded memory.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..bots.specs import is_file_spec
from ..dealing.scenario import SamplerStats
from ..util.workers import DEFAULT_SCHEDULER_TIMEOUT, dask_client, unordered_map
from .chunks import write_chunk_job
from .config import RunConfig
from .plan import Plan, prepare, undo_start
from .run_folder import drop_replaced


def run_chunks(config: RunConfig, out_dir: Path, chunks: Iterable[int], workers: int,
               client=None, on_stop: Callable[[int], None] | None = None
               ) -> Iterator[tuple[int, int, int]]:
    """Run ``chunks`` and yield ``(chunk, tried, accepted)`` as each is written.

    With ``client`` (a Dask distributed ``Client``, ``workers.dask_client``), on its
    cluster: its workers need prefa-sim installed and ``out_dir`` on a shared file
    system.  Otherwise on local processes (inline with one worker).  Jobs are handed
    out a few at a time, never listed up front.  Stopped by a Ctrl-C, the local
    processes finish their running chunks first (``on_stop`` is told how many), unless
    a second Ctrl-C comes (``workers.unordered_map``).
    """
    jobs = ((config, str(out_dir), index) for index in chunks)
    if client is not None:
        yield from _run_on_dask(jobs, client)
        return
    yield from unordered_map(write_chunk_job, jobs, workers, on_stop=on_stop,
                             isolated=any(map(is_file_spec, config.players)))


def _run_on_dask(jobs: Iterator, client) -> Iterator[tuple[int, int, int]]:
    from distributed import as_completed

    submitted: list = []
    try:
        window = 2 * max(1, sum(client.nthreads().values()))
        submitted = [client.submit(write_chunk_job, job, pure=False)
                     for job in _take(jobs, window)]
        running = as_completed(submitted)
        for future in running:
            yield future.result()
            for job in _take(jobs, 1):
                submitted.append(client.submit(write_chunk_job, job, pure=False))
                running.add(submitted[-1])
            submitted = [f for f in submitted if not f.done()]
    finally:
        client.cancel([f for f in submitted if not f.done()])


def _take(iterator: Iterator, n: int) -> list:
    out = []
    for item in iterator:
        out.append(item)
        if len(out) == n:
            break
    return out


@dataclass
class Progress:
    """Where a run stands, passed to the progress callback after each chunk."""

    done: int
    total: int
    deals_done: int
    seconds: float
    acceptance: float


def simulate(config: RunConfig, out_dir: str | Path, workers: int = 1, resume: bool = False,
             force: bool = False, progress: Callable[[Progress], None] | None = None,
             scheduler=None, replay: np.ndarray | None = None,
             on_plan: Callable[[Plan], None] | None = None,
             scheduler_timeout: float = DEFAULT_SCHEDULER_TIMEOUT,
             on_stop: Callable[[int], None] | None = None) -> Path:
    """Run (or finish) a simulation into ``out_dir``.

    ``replay``: deals to solve instead of sampling (``replay_rows``; the config's
    ``replay`` must be their hash and ``deals`` their number).  ``progress`` is
    called after each chunk, ``on_plan`` once the folder is checked and ``on_stop``
    with the number of running chunks a Ctrl-C waits for.  A Ctrl-C before the first
    chunk came in undoes the start once they are done, the chunks they wrote included:
    the folder is left as it was (a run that ``force`` replaced comes back).
    ``scheduler``: a Dask distributed address or ``Client`` to run the chunks on; it
    is reached (within ``scheduler_timeout`` seconds) before the folder is touched, so
    a scheduler that is refused leaves the folder as it was.  ``workers`` is capped at
    the number of chunks to run.  One process at a time works in a folder
    (``run_folder.RunLock``).
    """
    out_dir = Path(out_dir)
    client = dask_client(scheduler, scheduler_timeout) if scheduler is not None else None
    try:
        plan = prepare(config, out_dir, resume, force, replay)
    except BaseException:
        _close_client(client, scheduler)
        raise
    start = time.perf_counter()
    done = config.chunks - plan.remaining
    deals_done = 0
    sampled = SamplerStats()
    early: list[bool] = []  # a Ctrl-C came before the first part did

    def stopping(running: int) -> None:
        if deals_done == 0:
            early.append(True)
        if on_stop is not None:
            on_stop(running)

    chunks = run_chunks(config, out_dir, plan.todo(), min(workers, plan.remaining), client,
                        stopping)
    try:
        if on_plan:
            on_plan(plan)
        for index, tried, accepted in chunks:
            if deals_done == 0 and not early:
                drop_replaced(out_dir)  # the new run has its first part: the old one goes
            done += 1
            deals_done += len(config.chunk_deals(index))
            sampled.tried += tried
            sampled.accepted += accepted
            if progress:
                progress(Progress(done, config.chunks, deals_done,
                                  time.perf_counter() - start, sampled.acceptance))
    except BaseException as exc:
        chunks.close()  # the running chunks are finished (or killed) before the folder is seen
        undo_start(out_dir, plan, restore=client is None,
                   discard_parts=isinstance(exc, KeyboardInterrupt) and bool(early))
        raise
    finally:
        _close_client(client, scheduler)
        plan.lock.release()
    drop_replaced(out_dir)
    return out_dir


def _close_client(client, scheduler) -> None:
    """Close a client made here from an address (one handed in stays open)."""
    if client is not None and client is not scheduler:
        client.close()
