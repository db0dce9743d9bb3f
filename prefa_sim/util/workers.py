"""Work spread over local processes, fed a few jobs at a time.

``ordered_map`` counts the calling process as one of its workers: it answers
jobs itself while the processes it started hold as many as they can use, so that
no core is left to a process that only hands work over (on two cores, two
workers are this process and one other).  A Ctrl-C while it answers a job of its
own stops the map when that job's kernel call returns.

Jobs are submitted through a bounded window, so an input of any length (a
file of requests, a run of a billion deals) is never listed up front: memory
stays flat.  Worker processes ignore Ctrl-C; the main process stops feeding
them, cancels what has not started and lets them finish what they hold, so an
interrupted run leaves no half-written file and no leaked resources.  While the
main process is inside the executor's own code a Ctrl-C is held back until
that step ends (``_HeldInterrupts``).  Like the ``prefa`` command itself, a
worker ends without the interpreter's last garbage collections (``quick_exit``).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import shutil
import signal
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import TypeVar

from . import last_words
from .shutdown import quick_exit

T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - platforms without affinity
        return os.cpu_count() or 1


PARENT_POLL_SECONDS = 0.5
"""How often a worker looks whether the process that started it is still there."""


def _start_worker(parent: int, words: str | None = None) -> None:
    """A worker leaves Ctrl-C to the main process, ends quickly (``quick_exit``), dies
    with its parent (``_die_with_parent``) and says what it does in ``words``
    (``last_words``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    quick_exit()
    _die_with_parent(parent)
    if words is not None:
        last_words.listen(words)


def ctrl_c_ignored() -> bool:
    """Does this process ignore Ctrl-C (a worker process)?  Then a ``KeyboardInterrupt``
    raised in it is some code's own, never the user's."""
    return signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def _die_with_parent(parent: int) -> None:
    """End this process when ``parent`` ends, however it ends (SIGKILL included), so
    that no worker lives on without the run that started it.

    On Linux the kernel sends SIGKILL at the parent's death (``PR_SET_PDEATHSIG``); a
    daemon thread that looks every ``PARENT_POLL_SECONDS`` whether this process has
    been handed to another parent covers the other systems, and a parent that died
    before the first look.
    """
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="prefa-parent-watch", daemon=True).start()


def process_pool(workers: int, words: str | None = None) -> ProcessPoolExecutor:
    """Fresh ("spawn") worker processes that leave Ctrl-C to the main process, die with
    it and say what they do in the folder ``words`` (``last_words``)."""
    return ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                               initargs=(os.getpid(), words),
                               mp_context=multiprocessing.get_context("spawn"))


def _exit_code(process: multiprocessing.Process) -> int | None:
    """How a worker ended (None: it has not).  The executor's own thread may be reaping
    it at the same moment, and a join that loses that race returns before the code is
    set: so the code is looked at again for a while."""
    end = time.monotonic() + KILLED_POOL_SECONDS
    while True:
        process.join(POLL_SECONDS)
        if process.exitcode is not None or time.monotonic() > end:
            return process.exitcode


class WorkerDied(BrokenProcessPool):
    """A worker process that ended in the middle of a job, with what it was doing when
    it said so (a player file's decision: the player, the seat and the deal)."""


def _call_each(fn: Callable[[T], R], items: list[T]) -> list[R]:
    return [fn(item) for item in items]


def _batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


KILLED_POOL_SECONDS = 5.0
"""How long a second Ctrl-C waits for the pool's manager thread once the workers are
killed."""

POLL_SECONDS = 0.1  # how often a wait on the workers looks for a Ctrl-C held back


class _HeldInterrupts:
    """Ctrl-C held back while the main process is inside the executor's own code.

    A KeyboardInterrupt raised there can leave one of its locks taken for good (for
    instance inside ``concurrent.futures.wait``, whose event the executor's manager
    thread must set next), and the pool's shutdown then waits for ever.  Within
    ``with held:`` SIGINT is blocked and, in the main thread, its Python handler only
    notes a press; once the block has ended the handler that was there before is
    called (the usual one raises KeyboardInterrupt).  A worker started inside the
    block inherits the blocked signal until its initializer ignores it (a worker still
    importing would otherwise die of it, with a traceback).  A pool found broken after
    a press (a worker that died of it) counts as the interrupt.
    """

    def __init__(self) -> None:
        self.interrupted = False  # a Ctrl-C came while the pool was working
        self._pressed = False
        self._frame = None
        self._previous = None
        self._mask: set[signal.Signals] | None = None

    def _note(self, signum: int, frame) -> None:
        self._pressed, self._frame = True, frame

    def __enter__(self) -> _HeldInterrupts:
        handler = signal.getsignal(signal.SIGINT)
        if handler is signal.SIG_IGN:
            return self
        if threading.current_thread() is threading.main_thread() and callable(handler):
            self._previous = signal.signal(signal.SIGINT, self._note)
        if hasattr(signal, "pthread_sigmask"):
            self._mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        return self

    def __exit__(self, kind: type[BaseException] | None, value: object,
                 traceback: object) -> None:
        if self._mask is not None:
            mask, self._mask = self._mask, None
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a waiting SIGINT is noted
        pressed, frame, self._pressed, self._frame = self._pressed, self._frame, False, None
        previous, self._previous = self._previous, None
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if pressed:
            self.interrupted = True
        if kind is not None and issubclass(kind, BrokenProcessPool) and self.interrupted:
            raise KeyboardInterrupt from None
        if pressed and (kind is None or issubclass(kind, Exception)):
            previous(signal.SIGINT, frame)  # as if the press came now


def _wait_first(pending: Iterable[Future], held: _HeldInterrupts) -> tuple[set, set]:
    """Wait until one of ``pending`` is done, looking for a held Ctrl-C every
    ``POLL_SECONDS``; (done, not done)."""
    while True:
        with held:
            done, rest = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
        if done:
            return done, rest


def _done(future: Future, held: _HeldInterrupts) -> bool:
    with held:  # ``done`` takes the future's lock, which the manager thread needs too
        return future.done()


class _Pool:
    """A process pool that remembers the jobs handed to it and not yet done."""

    def __init__(self, workers: int, held: _HeldInterrupts) -> None:
        self.words = tempfile.mkdtemp(prefix="prefa-workers-")
        self.executor = process_pool(workers, self.words)
        self.held = held
        self.jobs: set[Future] = set()
        self.processes: dict[int, multiprocessing.Process] = {}  # every worker started

    def submit(self, fn: Callable, *args) -> Future:
        with self.held:
            future = self.executor.submit(fn, *args)
            self.jobs = {job for job in self.jobs if not job.done()}
            self.processes.update(self.executor._processes or {})
        self.jobs.add(future)
        return future

    def result(self, future: Future):
        """The result of a job that is done; a worker that died is a ``WorkerDied``
        saying what it was doing."""
        try:
            with self.held:
                return future.result()
        except BrokenProcessPool as exc:
            raise self._death() from exc

    def _death(self) -> WorkerDied:
        """The worker that broke the pool, by what it said last: one that ended of
        itself (the executor ends the others with SIGTERM) in preference."""
        said = []
        for pid, process in self.processes.items():
            words = last_words.heard(self.words, pid)
            if words:
                code = _exit_code(process)
                said.append((code != -signal.SIGTERM, pid, code, words))
        if not said:
            return WorkerDied("a worker process died (out of memory, or killed?)")
        _, _, code, words = max(said, key=lambda item: item[0])
        if code is None:
            return WorkerDied(f"a worker process broke off while {words}")
        how = f"exit status {code}" if code >= 0 else f"signal {-code}"
        return WorkerDied(f"a worker process ended ({how}) while {words}")

    def close(self) -> None:
        shutil.rmtree(self.words, ignore_errors=True)

    def stop(self, on_stop: Callable[[int], None] | None) -> None:
        """Drop the jobs not started and wait for the running ones; a Ctrl-C meanwhile
        kills the workers at once (and is raised)."""
        processes = list((self.executor._processes or {}).values())
        with self.held:
            for job in self.jobs:
                job.cancel()  # a job not started is dropped; a running one says no
            running = [job for job in self.jobs if not job.done()]
        try:
            if running and on_stop is not None:
                on_stop(len(running))
            while running:  # the pool is still up, so its results still come in
                with self.held:  # wait() never counts a cancelled job as done: done() does
                    wait(running, timeout=POLL_SECONDS)
                    running = [job for job in running if not job.done()]
            with self.held:
                self.executor.shutdown(wait=True, cancel_futures=True)
        except KeyboardInterrupt:
            manager = self.executor._executor_manager_thread
            for process in processes:
                process.kill()
            self.executor.shutdown(wait=False, cancel_futures=True)
            if manager is not None:  # it sees the workers gone and ends: let it, so
                manager.join(KILLED_POOL_SECONDS)  # nothing of it is left at exit
            raise


@contextmanager
def _running_pool(workers: int, held: _HeldInterrupts,
                  on_stop: Callable[[int], None] | None = None) -> Iterator[_Pool]:
    """A pool that, however its user stops (an interrupt, an error, a generator closed),
    drops the jobs not started and lets the running ones finish, after telling
    ``on_stop`` how many there are; a second Ctrl-C then stops them at once."""
    pool = _Pool(workers, held)
    try:
        yield pool
    except BaseException as exc:
        interrupted = isinstance(exc, KeyboardInterrupt | GeneratorExit)
        pool.stop(on_stop if interrupted else None)  # an error is said by its own message
        raise
    else:
        with held:
            pool.executor.shutdown(wait=True)
    finally:
        pool.close()


AHEAD = 2
"""Batches handed to the started workers and not yet answered, per started worker, under
``ordered_map``: about the one each is answering and the next, so that none waits for the
main process (busy with a batch of its own) to hand it more."""


def _done_here(fn: Callable[[T], R], batch: list[T]) -> Future:
    """``fn`` over ``batch`` in this process, as a finished future: an error in it is
    raised at its turn, after the results of the batches before it."""
    future: Future = Future()
    try:
        future.set_result(_call_each(fn, batch))
    except Exception as exc:  # noqa: BLE001 - kept for its turn, as a worker's would be
        future.set_exception(exc)
    return future


def ordered_map(fn: Callable[[T], R], items: Iterable[T], workers: int, batch: int = 16,
                window: int | None = None) -> Iterator[R]:
    """``fn`` over ``items`` on ``workers`` processes, this one included, results in
    input order.

    Up to ``workers - 1`` processes are started once a second batch is read (none for
    one worker, or for items that make one batch).  This process answers the first
    batch while the first of them starts; after it, items go ``batch`` at a time to the
    started workers while fewer than ``AHEAD`` times their number are handed over and
    not yet answered, and otherwise this process answers the batch itself, so that on a
    machine with as many cores as workers no core is left to a process that only hands
    work over.  At most ``window`` batches (default four per worker, this process
    included) are read and not yet yielded.
    """
    if batch < 1:
        raise ValueError(f"batch must be 1 or more, not {batch}")
    if workers <= 1:
        for item in items:  # not map(): a StopIteration out of fn must not end the input
            yield fn(item)
        return
    batches = _batches(items, batch)
    opening = list(itertools.islice(batches, 2))
    if len(opening) < 2:  # one batch: answered here, no process started for it
        for chunk in opening:
            yield from _call_each(fn, chunk)
        return
    window = window or 4 * workers
    held = _HeldInterrupts()
    with _running_pool(workers - 1, held) as pool:
        pending: deque[Future] = deque()  # in input order, not yet yielded
        away: set[Future] = set()  # handed to the started workers, not yet done

        def head_results() -> list[R]:
            first = pending.popleft()
            _wait_first({first}, held)
            return pool.result(first)

        # One worker starts now and loads fn's modules while this process answers the
        # first batch; the pool starts the others as it is handed batches.
        pool.submit(_call_each, fn, [])
        for number, chunk in enumerate(itertools.chain(opening, batches)):
            away = {future for future in away if not _done(future, held)}
            if number and len(away) < AHEAD * (workers - 1):
                future = pool.submit(_call_each, fn, chunk)
                away.add(future)
            else:
                future = _done_here(fn, chunk)
            pending.append(future)
            while pending and (len(pending) >= window or _done(pending[0], held)):
                yield from head_results()
        while pending:
            yield from head_results()


def unordered_map(fn: Callable[[T], R], items: Iterable[T], workers: int,
                  window: int | None = None,
                  on_stop: Callable[[int], None] | None = None,
                  isolated: bool = False) -> Iterator[R]:
    """``fn`` over ``items`` on ``workers`` processes, results as they complete.

    Stopped by a Ctrl-C or an error, it drops the jobs not started, tells ``on_stop``
    how many are running and waits for them; a second Ctrl-C kills them (one worker:
    ``finish_first``).  One worker answers in this process unless ``isolated``: code
    that may end its process (a player file) runs in a worker of its own, whose death
    is an error here (``BrokenProcessPool``), never this process's end."""
    if workers <= 1 and not isolated:
        yield from inline_map(fn, items, on_stop)
        return
    window = window or 2 * workers
    held = _HeldInterrupts()
    with _running_pool(workers, held, on_stop) as pool:
        pending: set[Future] = set()
        for item in items:
            pending.add(pool.submit(fn, item))
            if len(pending) >= window:
                done, pending = _wait_first(pending, held)
                for future in done:
                    yield pool.result(future)
        while pending:
            done, pending = _wait_first(pending, held)
            for future in done:
                yield pool.result(future)


def run_isolated(fn: Callable[..., R], *args,
                 on_stop: Callable[[int], None] | None = None) -> R:
    """``fn(*args)`` in a worker process of its own: code that may end its process (a
    player file, as it loads or plays) never ends this one.  A worker that dies is a
    ``WorkerDied`` saying what it was doing; a Ctrl-C waits for the call (after telling
    ``on_stop``), a second one stops it at once."""
    held = _HeldInterrupts()
    with _running_pool(1, held, on_stop) as pool:
        future = pool.submit(fn, *args)
        _wait_first({future}, held)  # Ctrl-C is heard while it waits
        return pool.result(future)


def inline_map(fn: Callable[[T], R], items: Iterable[T],
               on_stop: Callable[[int], None] | None = None) -> Iterator[R]:
    """``fn`` over ``items`` in this process, each job finished before a Ctrl-C stops
    the map (``finish_first``)."""
    for item in items:
        with finish_first(on_stop) as pressed:
            result = fn(item)
        yield result
        if pressed:
            raise KeyboardInterrupt


@contextmanager
def finish_first(on_stop: Callable[[int], None] | None = None) -> Iterator[list[bool]]:
    """Within the block, a first Ctrl-C only tells ``on_stop`` (one job running) and is
    noted in the list yielded; a second one raises ``KeyboardInterrupt`` at once.  Outside
    the main thread, or with Ctrl-C ignored, nothing changes."""
    pressed: list[bool] = []
    handler = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(handler):
        yield pressed
        return

    def note(signum: int, frame) -> None:
        if pressed:
            raise KeyboardInterrupt
        pressed.append(True)
        if on_stop is not None:
            on_stop(1)

    signal.signal(signal.SIGINT, note)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, handler)


class SchedulerError(ValueError):
    """A Dask scheduler that cannot be reached or used."""


DEFAULT_SCHEDULER_TIMEOUT = 5.0
"""Seconds to wait for a Dask scheduler to answer before giving up."""


def dask_client(scheduler, timeout: float = DEFAULT_SCHEDULER_TIMEOUT):
    """A ``distributed.Client`` for a scheduler address (or the client given), with a clear
    ``SchedulerError`` for Dask not installed, or an address that is malformed or does
    not answer within ``timeout`` seconds."""
    try:
        from distributed import Client
    except ImportError:
        raise SchedulerError("--scheduler needs Dask distributed, which is not installed: "
                             "pip install 'prefa-sim[dask]'") from None
    if isinstance(scheduler, Client):
        return scheduler
    if not isinstance(scheduler, str) or not scheduler.strip():
        raise SchedulerError(f"--scheduler needs an address such as tcp://host:8786, got "
                             f"{scheduler!r}")
    try:
        return Client(scheduler, timeout=timeout)
    except (ValueError, TypeError, OSError, TimeoutError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        waited = f" (waited {timeout:g} s)" if isinstance(exc, OSError | TimeoutError) else ""
        raise SchedulerError(f"cannot use the Dask scheduler {scheduler!r}: {reason}{waited}") \
            from None
