"""One pass over a dataset's files: a partial result per file, merged into one.

Every statistic here is a sum (counts of tricks per group, sums per block of deals),
so a dataset is reduced file by file and the partial results are added.  Locally
the files are read one after another in this process; with a Dask distributed
``scheduler`` (an address or a ``Client``) each file is one task on the cluster,
whose workers need prefa-sim installed and the dataset on a file system they share.
The answer is the same either way: addition does not depend on the order.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..sim.dataset import dataset_files
from ..util.workers import dask_client

T = TypeVar("T")


def scan(path: str | Path, partial: Callable[[str], T], merge: Callable[[T, T], T],
         empty: T, scheduler=None) -> T:
    """``partial`` of every file of the dataset at ``path``, merged; ``empty`` for none.

    ``partial`` takes a file name and must be picklable (a module-level function or a
    ``functools.partial`` of one) when a ``scheduler`` is given.
    """
    files = [str(f) for f in dataset_files(path)]
    if scheduler is None:
        result = empty
        for file in files:
            result = merge(result, partial(file))
        return result
    return _scan_on_dask(files, partial, merge, empty, scheduler)


def _scan_on_dask(files: list[str], partial, merge, empty, scheduler):
    from distributed import as_completed

    client = dask_client(scheduler)
    futures = []
    try:
        futures = client.map(partial, files, pure=False)
        result = empty
        for future in as_completed(futures):
            result = merge(result, future.result())
        return result
    finally:
        client.cancel([f for f in futures if not f.done()])
        if client is not scheduler:
            client.close()
