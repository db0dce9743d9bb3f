"""How a ``prefa`` process ends: quickly, once its work is done."""

from __future__ import annotations

import atexit
import gc

_registered = False


def quick_exit() -> None:
    """Have this process end without the interpreter's last garbage collections.

    At exit the interpreter collects cyclic garbage over every object alive, and once
    the compiled kernels are loaded (numba's and llvmlite's objects) that takes 0.1-0.2
    s, a quarter of a one-deal ``prefa solve``.  An exit handler (registered once per
    process, however often this is called) freezes the objects alive then
    (``gc.freeze``): those that no reference cycle holds are still freed as the modules
    are torn down; those in cycles are neither freed nor finalized, as when a process is
    killed.
    Nothing of the project's output waits on that: files are written inside ``with``
    blocks (and renamed into place), temporary folders are removed by their own exit
    handlers, and the standard streams are flushed by the interpreter itself.
    """
    global _registered
    if not _registered:
        atexit.register(gc.freeze)
        _registered = True
