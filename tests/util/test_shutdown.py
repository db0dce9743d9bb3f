"""A ``prefa`` process, and each of its workers, ends without the interpreter's last
garbage collections over the objects alive at exit (``prefa_sim.util.shutdown``), and still
writes everything it has to."""

import json
import subprocess
import sys

from prefa_sim.requests.solve import answer
from prefa_sim.util.workers import process_pool

CHECK = ("import atexit, gc\n"
         "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n")
"""An exit handler registered first, so it runs last: were the objects frozen by then?"""


def run_python(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", CHECK + code], capture_output=True,
                          text=True, check=True)
    return done.stdout.splitlines()


def test_the_command_freezes_its_objects_at_exit_not_before(solver):
    request = {"hands": ["QJT9.87.AKQ.8", "87.AKQJ.-.AKQ7", "-.T9.JT987.JT9"], "trump": "S"}
    code = ("import gc\nfrom prefa_sim.cli import main\n"
            "main(['solve', '--batch', '-'], standalone_mode=False)\n"
            "print('frozen before exit:', gc.get_freeze_count() > 0)\n")
    done = subprocess.run([sys.executable, "-c", CHECK + code], input=json.dumps(request),
                          capture_output=True, text=True, check=True)
    written, before, at_exit = done.stdout.splitlines()
    assert json.loads(written) == answer(request, solver)
    assert before == "frozen before exit: False"
    assert at_exit == "frozen at exit: True"


def quick_exit_asked() -> bool:
    """Has this process asked to end quickly?"""
    from prefa_sim.util import shutdown

    return shutdown._registered


def test_a_worker_freezes_its_objects_at_exit():
    with process_pool(1) as pool:
        assert pool.submit(quick_exit_asked).result()  # a pool's worker asks
    code = ("import os\nfrom prefa_sim.util.workers import _start_worker\n"
            "_start_worker(os.getppid())\n")
    assert run_python(code) == ["frozen at exit: True"]  # and what it asks for happens


def test_a_process_that_does_not_ask_freezes_nothing():
    assert run_python("import prefa_sim.engine.search\n") == ["frozen at exit: False"]
