"""Nothing already written is lost: a refused scheduler, a --force that fails or is killed,
two processes on one folder, a killed main process, Ctrl-C once and twice, and a resume
with a changed player file."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.sim.chunks import write_chunk
from prefa_sim.sim.config import RunConfig
from prefa_sim.sim.plan import prepare
from prefa_sim.sim.run_folder import COMPLETE, MANIFEST, REPLACED, REPLAY_FILE

SMALL = ["-n", "6", "--seed", "4", "--chunk-size", "2", "--strains", "S", "--declarers", "1",
         "--modes", "both"]
CONFIG = RunConfig(deals=6, seed=4, chunk_size=2, declarers=(1,), strains=("S",),
                   modes=("both",))
"""What ``SMALL`` runs (seed 4), for the library's own steps."""
OTHER = RunConfig(deals=6, seed=9, chunk_size=2, declarers=(1,), strains=("S",),
                  modes=("both",))


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def small_run(out, *extra):
    result = run("simulate", *SMALL, "-w", 1, *extra, "-o", out)
    assert result.exit_code == 0, result.output
    return pd.read_parquet(out)


def everything(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder``, hidden ones included, by relative path."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def prefa(*args, stderr: Path | None = None) -> subprocess.Popen:
    """``prefa ARGS`` as a process of its own session (a terminal's Ctrl-C goes to its
    group), its standard error into the file ``stderr`` when given."""
    return subprocess.Popen([sys.executable, "-c", "from prefa_sim.cli import main; main()",
                             *map(str, args)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE if stderr is None else stderr.open("w"),
                            text=True, start_new_session=True)


@pytest.fixture(autouse=True)
def no_process_left(monkeypatch):
    """Every process a test starts is killed at its end, whatever the test's outcome:
    one left running (a hanging player, a run of a trillion deals) would slow every later
    test."""
    started: list[subprocess.Popen] = []
    popen = subprocess.Popen

    def remembered(*args, **kwargs):
        started.append(popen(*args, **kwargs))
        return started[-1]
    monkeypatch.setattr(subprocess, "Popen", remembered)
    yield
    for process in started:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def until(condition, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "waited too long"
        time.sleep(0.01)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# -- a refused scheduler ---------------------------------------------------------------

@pytest.mark.parametrize("address, message", [
    ("nonsense", "missing port number"),
    ("foo://bar", "unknown address scheme"),
    ("tcp://127.0.0.1:1", "Timed out"),
])
def test_force_with_a_refused_scheduler_leaves_the_finished_run_exactly_as_it_was(
        address, message, tmp_path):
    out = tmp_path / "run"
    first = small_run(out)
    before = everything(out)
    start = time.monotonic()
    result = run("simulate", *SMALL, "--seed", 5, "-o", out, "--force", "--scheduler",
                 address, "--scheduler-timeout", 1)
    assert time.monotonic() - start < 10
    assert result.exit_code == 1 and message in result.output and "Traceback" not in result.output
    assert everything(out) == before  # nothing hidden left behind either
    assert pd.read_parquet(out).equals(first)


def test_a_refused_scheduler_on_a_new_folder_leaves_no_trace(tmp_path, monkeypatch):
    out = tmp_path / "new"
    result = run("simulate", *SMALL, "-o", out, "--scheduler", "nonsense")
    assert result.exit_code == 1 and not out.exists()
    monkeypatch.setitem(sys.modules, "distributed", None)  # Dask not installed
    result = run("games", "--players", "random", "-n", 4, "-o", out, "--scheduler",
                 "tcp://127.0.0.1:8786")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "pip install 'prefa-sim[dask]'" in result.output and not out.exists()
    small_run(out)  # the same command without a scheduler works


# -- a --force that a killed process left half done ---------------------------------

def test_the_next_command_restores_a_run_whose_replacement_wrote_no_part(tmp_path):
    out = tmp_path / "run"
    first = small_run(out)
    before = everything(out)
    plan = prepare(OTHER, out, resume=False, force=True)  # then the process is killed
    plan.lock.release()
    assert (out / REPLACED / COMPLETE).exists() and (out / MANIFEST).exists()
    shown = run("show", out, "-n", 1)
    assert shown.exit_code == 0
    assert "restored the run that an interrupted --force had set aside" in shown.stderr
    assert everything(out) == before and pd.read_parquet(out).equals(first)


@pytest.mark.parametrize("name", [MANIFEST, REPLAY_FILE])
def test_a_record_half_written_by_a_killed_force_goes_with_the_new_run(name, tmp_path):
    out = tmp_path / "run"
    first = small_run(out)
    before = everything(out)
    plan = prepare(OTHER, out, resume=False, force=True)
    plan.lock.release()
    for record in (MANIFEST, REPLAY_FILE):  # killed while writing the new record
        (out / record).unlink(missing_ok=True)
    (out / f".{name}.tmp").write_bytes(b"")
    shown = run("show", out, "-n", 1)
    assert shown.exit_code == 0 and "restored the run" in shown.stderr
    assert everything(out) == before and pd.read_parquet(out).equals(first)


def test_the_next_command_puts_back_a_run_whose_setting_aside_was_cut_short(tmp_path):
    out = tmp_path / "run"
    small_run(out)
    before = everything(out)
    (out / REPLACED).mkdir()  # killed halfway through the move: no mark of completion
    for name in ("part-00000.parquet", "part-00002.parquet"):
        os.replace(out / name, out / REPLACED / name)
    result = run("simulate", "-o", out, "--resume")
    assert result.exit_code == 0, result.output
    assert "restored the run" in result.stderr
    assert everything(out) == before


def test_the_next_command_finishes_a_replacement_that_wrote_a_part(tmp_path):
    out = tmp_path / "run"
    small_run(out)
    clean = small_run(tmp_path / "clean", "--seed", 9)
    plan = prepare(OTHER, out, resume=False, force=True)
    write_chunk(OTHER, out, 0)  # the new run's first part, then the process is killed
    plan.lock.release()
    result = run("simulate", "-o", out, "--resume", "-w", 1)
    assert result.exit_code == 0, result.output
    assert "finished the replacement" in result.stderr
    assert not (out / REPLACED).exists()
    assert pd.read_parquet(out).equals(clean)


def test_a_force_killed_by_sigkill_is_put_right_by_the_next_command(tmp_path):
    out = tmp_path / "run"
    first = small_run(out)
    before = everything(out)
    process = prefa("simulate", "-n", 200, "--seed", 5, "--chunk-size", 2, "-w", 1, "-o", out,
                    "--force")
    until(lambda: (out / REPLACED / COMPLETE).exists())
    process.kill()
    process.wait()
    parts = [p.name for p in out.glob("part-*.parquet")]
    result = run("show", out, "-n", 1)
    assert result.exit_code == 0, result.output
    assert not (out / REPLACED).exists()
    if parts:  # the new run had written a part: it is kept, and --resume finishes it
        assert "finished the replacement" in result.stderr
        assert run("simulate", "-o", out, "--resume", "-w", 1).exit_code == 0
        assert len(pd.read_parquet(out)) == 200 * 3 * 5  # deals x declarers x strains
    else:
        assert "restored the run" in result.stderr
        assert everything(out) == before and pd.read_parquet(out).equals(first)


# -- one process per folder ----------------------------------------------------------

def test_a_second_process_on_a_running_folder_is_refused_and_breaks_nothing(tmp_path):
    out = tmp_path / "run"
    clean = small_run(tmp_path / "clean", "-n", 60)
    process = prefa("simulate", *SMALL, "-n", 60, "-w", 1, "-o", out)
    until(lambda: any(out.glob("part-*.parquet")))
    for extra in (["--resume"], ["--force", *SMALL]):
        result = run("simulate", "-o", out, *extra)
        assert result.exit_code == 1 and "in use by another prefa process" in result.output
    assert process.wait(120) == 0, process.stderr.read()
    assert pd.read_parquet(out).equals(clean)
    # A lock left by a killed process stands in nobody's way.
    process = prefa("simulate", *SMALL, "-n", 60, "-w", 1, "-o", out, "--force")
    until(lambda: (out / MANIFEST).exists() and not (out / REPLACED).exists()
          and any(out.glob("part-*.parquet")))
    process.kill()
    process.wait()
    result = run("simulate", "-o", out, "--resume", "-w", 1)
    assert result.exit_code == 0, result.output
    assert pd.read_parquet(out).equals(clean)


# -- the workers of a killed run -------------------------------------------------------

@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_workers_end_with_the_main_process(how, tmp_path):
    out = tmp_path / "run"
    process = prefa("simulate", "-n", 2000, "--chunk-size", 5, "-w", 2, "-o", out)
    until(lambda: any(out.glob("part-*.parquet")))
    workers = [pid for pid in children(process.pid) if alive(pid)]
    assert workers
    os.kill(process.pid, how)
    process.wait()
    until(lambda: not any(alive(pid) for pid in workers), seconds=5)


# -- Ctrl-C ------------------------------------------------------------------------------

HANGING = """
import os
import time


class Hangs:
    '''Plays its first legal action, and never returns once the file HANG exists.'''
    def act(self, observation, rng):
        if os.path.exists(os.path.join(os.path.dirname(__file__), "HANG")):
            time.sleep(3600)
        return observation.legal[0]
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_waits_for_the_running_jobs_and_a_second_one_stops_at_once(workers, tmp_path):
    player = tmp_path / "hangs.py"
    player.write_text(HANGING)
    out = tmp_path / "run"
    clean = tmp_path / "clean"
    args = ["games", "--players", f"{player}:Hangs,random,random", "-n", 400, "--chunk-size",
            10, "-w", workers]
    assert run(*args, "-o", clean).exit_code == 0
    log = tmp_path / "stderr"
    process = prefa(*args, "-o", out, stderr=log)
    until(lambda: len(list(out.glob("part-*.parquet"))) >= 2)
    (tmp_path / "HANG").touch()  # the player now hangs in the running jobs
    time.sleep(0.5)
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C at a terminal: the whole group
    until(lambda: "(Ctrl-C again to stop now)" in log.read_text(), seconds=10)
    time.sleep(1.0)
    assert process.poll() is None  # it waits for the hanging jobs
    os.killpg(process.pid, signal.SIGINT)
    status = process.wait(10)
    stderr = log.read_text()
    assert status == 130, stderr
    assert "waiting for" in stderr and "(Ctrl-C again to stop now)" in stderr
    assert "Traceback" not in stderr
    assert f"prefa games -o {out} --resume" in stderr
    until(lambda: not children(process.pid), seconds=5)
    (tmp_path / "HANG").unlink()
    result = run("games", "-o", out, "--resume", "-w", workers)
    assert result.exit_code == 0, result.output
    assert pd.read_parquet(out).equals(pd.read_parquet(clean))


def test_one_ctrl_c_finishes_the_running_chunks_and_resume_completes_the_run(tmp_path):
    out, clean = tmp_path / "run", tmp_path / "clean"
    args = ["-n", 300, "--chunk-size", 10, "--strains", "S,H", "--modes", "both", "-w", 2]
    assert run("simulate", *args, "-o", clean).exit_code == 0
    process = prefa("simulate", *args, "-o", out)
    until(lambda: len(list(out.glob("part-*.parquet"))) >= 2)
    os.killpg(process.pid, signal.SIGINT)
    status = process.wait(60)
    stderr = process.stderr.read()
    assert status == 130 and "waiting for" in stderr and "Traceback" not in stderr
    assert not list(out.glob(".part-*"))  # no half-written part
    result = run("simulate", "-o", out, "--resume")
    assert result.exit_code == 0, result.output
    assert pd.read_parquet(out).equals(pd.read_parquet(clean))


# -- player files ------------------------------------------------------------------------

def test_a_resume_with_a_changed_or_other_player_file_is_refused(tmp_path, monkeypatch):
    folder = tmp_path / "mine"
    folder.mkdir()
    player = folder / "p.py"
    player.write_text("class P:\n    def act(self, observation, rng):\n"
                      "        return observation.legal[0]\n")
    out = tmp_path / "run"
    monkeypatch.chdir(folder)
    result = run("games", "--players", "p.py:P,random,random", "-n", 40, "--chunk-size", 10,
                 "-o", out, "-w", 1)
    assert result.exit_code == 0, result.output
    record = (out / MANIFEST).read_text()
    assert str(player.resolve()) in record  # the absolute path, and the contents' hash
    (out / "part-00003.parquet").unlink()
    # From another folder the same player is played: its path is absolute.
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "p.py").write_text("class P:\n    def act(self, observation, rng):\n"
                                "        return observation.legal[-1]\n")
    monkeypatch.chdir(other)
    player.write_text(player.read_text() + "# changed\n")
    result = run("games", "-o", out, "--resume")
    assert result.exit_code == 1 and f"player file {player.resolve()} has changed" in result.output
    player.write_text(player.read_text().replace("# changed\n", ""))
    result = run("games", "-o", out, "--resume", "-w", 1)
    assert result.exit_code == 0, result.output


def test_resume_right_after_an_interrupted_force_resumes_the_restored_run(tmp_path):
    out = tmp_path / "run"
    first = small_run(out)
    (out / "part-00001.parquet").unlink()  # an unfinished run, replaced by a --force ...
    plan = prepare(OTHER, out, resume=False, force=True)
    plan.lock.release()  # ... that was killed before its first part
    result = run("simulate", "-o", out, "--resume", "-w", 1)
    assert result.exit_code == 0, result.output
    assert "restored the run" in result.stderr
    assert pd.read_parquet(out).equals(first)


def test_ctrl_c_in_a_match_with_a_hanging_player_says_so_and_a_second_one_stops(tmp_path):
    player = tmp_path / "hangs.py"
    player.write_text(HANGING)
    (tmp_path / "HANG").touch()
    log = tmp_path / "stderr"
    process = prefa("match", f"{player}:Hangs", "random", "random", "-n", 5, "-w", 1,
                    stderr=log)
    until(lambda: any(alive(pid) for pid in children(process.pid)))
    time.sleep(2.0)  # the worker has loaded the player and hangs in it
    os.killpg(process.pid, signal.SIGINT)
    until(lambda: "waiting for 1 job (Ctrl-C again to stop now)" in log.read_text(),
          seconds=10)
    time.sleep(0.5)
    assert process.poll() is None
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(10) == 130
    assert "interrupted" in log.read_text() and "Traceback" not in log.read_text()


SLOW_START = """
import time

_started = []


class SlowStart:
    '''Thinks three seconds over its first decision in each process, then plays its first
    legal action.'''
    def act(self, observation, rng):
        if not _started:
            _started.append(True)
            time.sleep(3)
        return observation.legal[0]
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_one_ctrl_c_before_the_first_part_of_a_force_puts_the_old_run_back(workers, tmp_path):
    player = tmp_path / "slow.py"
    player.write_text(SLOW_START)
    out = tmp_path / "run"
    args = ["games", "--players", f"{player}:SlowStart,random,random", "-n", 40,
            "--chunk-size", 10, "-w", workers, "-o", out]
    assert run(*args[:-4], "-n", 10, "-w", 1, "-o", out).exit_code == 0
    before = everything(out)
    log = tmp_path / "stderr"
    process = prefa(*args, "--force", stderr=log)
    until(lambda: (out / REPLACED / COMPLETE).exists())
    time.sleep(1.0)  # the workers think over their first decision
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(30) == 130
    stderr = log.read_text()
    assert "waiting for" in stderr and f"nothing was written; {out} is left as it was" in stderr
    assert everything(out) == before


def test_one_ctrl_c_before_the_first_part_of_a_force_in_this_process(tmp_path):
    """With one worker the chunk runs in this process and comes in after the Ctrl-C: it
    goes too, and the old run comes back."""
    out = tmp_path / "run"
    small_run(out)
    before = everything(out)
    log = tmp_path / "stderr"
    process = prefa("simulate", "-n", 400, "--chunk-size", 200, "-w", 1, "-o", out, "--force",
                    stderr=log)
    until(lambda: (out / REPLACED / COMPLETE).exists())
    time.sleep(1.0)  # the first chunk of 200 deals takes seconds
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(60) == 130
    stderr = log.read_text()
    assert "waiting for 1 job" in stderr and f"nothing was written; {out} is left as it was" \
        in stderr, stderr
    assert everything(out) == before


def test_ctrl_c_in_prefa_game_with_a_hanging_player_file(tmp_path):
    player = tmp_path / "hangs.py"
    player.write_text(HANGING)
    (tmp_path / "HANG").touch()
    log = tmp_path / "stderr"
    process = prefa("game", "--players", f"{player}:Hangs,random,random", "--seed", 1,
                    stderr=log)
    until(lambda: "players: seat 0" in log.read_text())
    time.sleep(2.0)  # the worker plays, and hangs in the player
    os.killpg(process.pid, signal.SIGINT)
    until(lambda: "waiting for 1 job (Ctrl-C again to stop now)" in log.read_text(),
          seconds=10)
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(10) == 130
    assert "interrupted" in log.read_text() and "Traceback" not in log.read_text()
