"""Work spread over local processes, fed a few jobs at a time.

Jobs are submitted through a bounded window, so an input of any length (a
file of requests, a run of a billion deals) is never listed up front: memory
stays flat.  Worker processes ignore Ctrl-C; the main process stops feeding
them, cancels what has not started and lets them finish what they hold, so an
interrupted run leaves no half-written file and no leaked resources.  Like
the ``prefa`` command itself, a worker ends without the interpreter's last
garbage collections (``quick_exit``).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import TypeVar

from .shutdown import quick_exit

T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - platforms without affinity
        return os.cpu_count() or 1


def _start_worker() -> None:
    """A worker leaves Ctrl-C to the main process, and ends quickly (``quick_exit``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    quick_exit()


def process_pool(workers: int) -> ProcessPoolExecutor:
    """Fresh ("spawn") worker processes that leave Ctrl-C to the main process."""
    return ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                               mp_context=multiprocessing.get_context("spawn"))


def _call_each(fn: Callable[[T], R], items: list[T]) -> list[R]:
    return [fn(item) for item in items]


def _batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def ordered_map(fn: Callable[[T], R], items: Iterable[T], workers: int, batch: int = 16,
                window: int | None = None) -> Iterator[R]:
    """``fn`` over ``items`` on ``workers`` processes, results in input order.

    Items go to the workers ``batch`` at a time, at most ``window`` batches
    (default four per worker) in flight.
    """
    window = window or 4 * workers
    with process_pool(workers) as pool:
        pending: deque[Future] = deque()
        try:
            for chunk in _batches(items, batch):
                pending.append(pool.submit(_call_each, fn, chunk))
                if len(pending) >= window:
                    yield from pending.popleft().result()
            while pending:
                yield from pending.popleft().result()
        finally:
            _cancel(pool)


def unordered_map(fn: Callable[[T], R], items: Iterable[T], workers: int,
                  window: int | None = None) -> Iterator[R]:
    """``fn`` over ``items`` on ``workers`` processes, results as they complete."""
    window = window or 2 * workers
    with process_pool(workers) as pool:
        pending: set[Future] = set()
        try:
            for item in items:
                pending.add(pool.submit(fn, item))
                if len(pending) >= window:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        yield future.result()
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            _cancel(pool)


def _cancel(pool: ProcessPoolExecutor) -> None:
    """Stop feeding: drop the jobs not started, let the running ones finish."""
    pool.shutdown(wait=True, cancel_futures=True)


class SchedulerError(ValueError):
    """A Dask scheduler that cannot be reached or used."""


def dask_client(scheduler):
    """A ``distributed.Client`` for a scheduler address (or the client given), with a clear
    ``SchedulerError`` for an address that is malformed or does not answer."""
    try:
        from distributed import Client
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'prefa-sim[dask]'") from None
    if isinstance(scheduler, Client):
        return scheduler
    try:
        return Client(scheduler)
    except (ValueError, TypeError, OSError, TimeoutError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SchedulerError(f"cannot use the Dask scheduler {scheduler!r}: {reason}") \
            from None
