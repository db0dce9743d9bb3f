"""How a ``prefa`` process ends: quickly, once its work is done."""

from __future__ import annotations

import atexit
import gc


def quick_exit() -> None:
    """Have this process end without the interpreter's last garbage collections.

    At exit the interpreter collects cyclic garbage over every object alive, and once
    the compiled kernels are loaded (numba's and llvmlite's objects) that takes 0.1-0.2
    s, a quarter of a one-deal ``prefa solve``.  An exit handler freezes the objects
    alive then (``gc.freeze``): they are still freed as the modules are torn down, but
    not searched for cycles.  Nothing of the project's output waits on that: files are
    closed (and renamed into place) when written, and the standard streams are flushed
    by the interpreter itself.
    """
    atexit.register(gc.freeze)
