"""Worker pools and Ctrl-C: an interrupt never lands inside the executor's own code, and
a pool interrupted at any moment (workers still starting, jobs in flight) ends at once,
with no worker's traceback."""

import itertools
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pytest

from prefa_sim.util import workers
from prefa_sim.util.workers import _HeldInterrupts, ordered_map, unordered_map


def sigint_blocked() -> bool:
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])


def test_a_ctrl_c_inside_a_held_step_is_raised_when_the_step_ends():
    held = _HeldInterrupts()
    reached = []
    with pytest.raises(KeyboardInterrupt), held:
        assert sigint_blocked()
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # had the signal been raised here, the next line would not run
        reached.append("end of the step")
    assert reached == ["end of the step"] and held.interrupted
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert not sigint_blocked()
    with held:  # the interrupt was raised once, not again at the next step
        pass


def test_a_step_without_ctrl_c_changes_nothing():
    held = _HeldInterrupts()
    with held:
        pass
    assert not held.interrupted and not sigint_blocked()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_another_handler_is_called_after_the_step_and_an_error_in_it_is_no_excuse():
    calls = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: calls.append(signum))
    try:
        with _HeldInterrupts():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            assert calls == []
        assert calls == [signal.SIGINT]  # called once the step ended, and only then
    finally:
        signal.signal(signal.SIGINT, previous)
    with pytest.raises(KeyboardInterrupt) as caught, _HeldInterrupts():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        raise ValueError("the step failed as well")
    assert isinstance(caught.value.__context__, ValueError)  # the press wins, the error kept
    held = _HeldInterrupts()
    with pytest.raises(KeyboardInterrupt), held:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        raise BrokenProcessPool("a worker died of the Ctrl-C")


@pytest.mark.parametrize("step, mapping", [
    *[(step, mapping) for step in ("submit", "wait", "result", "shutdown")
      for mapping in ("ordered", "unordered")],
    ("done", "ordered"),  # the ordered map asks whether the pool's jobs are done
])
def test_a_ctrl_c_inside_each_executor_call_is_raised_once_the_call_ends(step, mapping,
                                                                         monkeypatch):
    finished = []
    handed_over = set()  # futures of the pool (an ordered map answers some batches itself)
    if step in ("wait", "result", "done"):
        submit = ProcessPoolExecutor.submit

        def recording(self, *args, **kwargs):
            future = submit(self, *args, **kwargs)
            handed_over.add(future)
            return future
        monkeypatch.setattr(ProcessPoolExecutor, "submit", recording)

    def on_the_pool(args) -> bool:
        futures = {"wait": lambda: args[0], "result": lambda: [args[0]],
                   "done": lambda: [args[0]]}.get(step)
        return futures is None or any(f in handed_over for f in futures())

    def pressing(original):
        def call(*args, **kwargs):
            if not finished and on_the_pool(args):
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)  # a KeyboardInterrupt raised here skips the next line
                finished.append(step)
            return original(*args, **kwargs)
        return call

    owner = {"submit": ProcessPoolExecutor, "shutdown": ProcessPoolExecutor,
             "result": Future, "done": Future, "wait": workers}[step]
    monkeypatch.setattr(owner, step, pressing(getattr(owner, step)))
    items = range(-40, 0)
    run = (ordered_map(abs, items, 2, batch=5) if mapping == "ordered" else
           unordered_map(abs, items, 2))
    with pytest.raises(KeyboardInterrupt):
        list(run)
    assert finished == [step]


STRESS = """
import os, random, signal, sys, threading, time
from prefa_sim.util.workers import ordered_map, unordered_map

random.seed(int(sys.argv[1]))
rounds = int(sys.argv[2])
interrupted = 0
for r in range(rounds):
    # Ctrl-C to the whole process group, as a terminal sends it: while the workers are
    # still starting (importing) or already busy with jobs
    timer = threading.Timer(random.uniform(0.05, 0.5), os.killpg,
                            (os.getpgid(0), signal.SIGINT))
    timer.start()
    runs = (ordered_map(time.sleep, [0.002] * 100000, 2, batch=4) if r % 2 else
            unordered_map(time.sleep, [0.002] * 100000, 2, window=16))
    try:
        for _ in runs:
            pass
    except KeyboardInterrupt:
        interrupted += 1
    timer.join()
print(interrupted, "of", rounds, "interrupted")
"""


@pytest.mark.parametrize("seed", [1, 3])
def test_pools_interrupted_at_any_moment_end_at_once_and_quietly(seed):
    rounds = 10
    done = subprocess.run([sys.executable, "-c", STRESS, str(seed), str(rounds)],
                          capture_output=True, text=True, timeout=120,
                          start_new_session=True)  # its own group, for its Ctrl-C
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(rounds), "of", str(rounds), "interrupted"]
    assert "Traceback" not in done.stderr and "leaked" not in done.stderr


def test_the_maps_still_answer_in_order_and_in_full():
    items = list(range(200))
    assert list(ordered_map(abs, [-i for i in items], 2, batch=7)) == items
    assert sorted(unordered_map(abs, [-i for i in items], 2)) == items


def where(job: tuple[int, float, int | None, int]) -> tuple[int, int]:
    """A job's number and the process that answered it, after ``seconds`` of work (five
    times as long away from the ``home`` process); job ``fail_at`` fails, naming the
    process it failed in."""
    number, seconds, fail_at, home = job
    time.sleep(seconds if os.getpid() == home else 5 * seconds)
    if number == fail_at:
        raise ValueError(f"job {number} failed in process {os.getpid()}")
    return number, os.getpid()


def jobs(count: int, seconds: float = 0, fail_at: int | None = None) -> list[tuple]:
    return [(i, seconds, fail_at, os.getpid()) for i in range(count)]


def test_the_ordered_map_shares_the_work_with_the_calling_process():
    answers = list(ordered_map(where, jobs(40, 0.02), 2, batch=1))
    assert [number for number, _ in answers] == list(range(40))
    places = [pid for _, pid in answers]
    assert len(set(places)) == 2  # this process and one started
    assert places[0] == os.getpid()  # answered here while the worker starts
    assert os.getpid() in places[1:] and set(places[1:]) != {os.getpid()}


@pytest.mark.parametrize("count, batch", [(1, 3), (2, 10), (64, 16)])
def test_one_worker_or_one_batch_starts_no_process(count, batch, monkeypatch):
    pools = []
    monkeypatch.setattr(workers, "process_pool", lambda n: pools.append(n))
    answers = list(ordered_map(where, jobs(10), count, batch))
    assert answers == [(i, os.getpid()) for i in range(10)] and pools == []


def test_workers_are_started_as_batches_are_handed_over():
    """Three batches on 64 workers start no more processes than there are batches."""
    started = []

    def three_jobs():
        yield from jobs(3, 0.1)
        started.append(len(multiprocessing.active_children()))  # all three handed out

    answers = list(ordered_map(where, three_jobs(), 64, batch=1))
    assert [number for number, _ in answers] == [0, 1, 2]
    assert 1 <= started[0] <= 3


def test_an_error_in_a_batch_answered_here_comes_at_its_turn():
    got = []
    with pytest.raises(ValueError, match=f"job 5 failed in process {os.getpid()}$"):
        for answer in ordered_map(where, jobs(12, 0.05, fail_at=5), 2, batch=1):
            got.append(answer)
    assert [number for number, _ in got] == [0, 1, 2, 3, 4]  # every batch before it, in full


def test_an_ordered_map_left_early_stops_its_workers():
    run = ordered_map(where, jobs(200, 0.01), 2, batch=1)
    assert [number for number, _ in itertools.islice(run, 5)] == list(range(5))
    assert multiprocessing.active_children()
    run.close()
    assert not multiprocessing.active_children()


def test_a_batch_of_no_items_is_refused():
    with pytest.raises(ValueError, match="batch"):
        next(ordered_map(abs, [1, 2], 2, batch=0))


def test_a_stop_iteration_out_of_the_function_is_an_error_not_the_end():
    def stops_at_three(n: int) -> int:
        if n == 3:
            raise StopIteration
        return n

    with pytest.raises(RuntimeError):
        list(ordered_map(stops_at_three, range(8), 1))
