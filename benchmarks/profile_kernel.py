"""Where the solver kernel spends its time, by source line: a sampling profile.

    python benchmarks/profile_kernel.py [--workload 2h] [--seconds 6] [--top 30]

Runs one workload of ``bench_solver.py`` (``3h``, ``2h`` or ``widow``: the same
fixed-seed deals) in a child process and samples it with Linux ``perf``.  The
kernels are compiled with line information (``NUMBA_DEBUGINFO=1``) into a
scratch cache, and the child loads them from there, so the code it runs is the
object code in the cache file: ``objdump -dl`` on that object maps every
sampled address to the source line it came from, inlined helpers included.
Prints the share of samples of the busiest lines and of each kernel function.

Needs ``perf`` (permission to sample one's own processes) and ``objdump``.
Sampling skid blurs the attribution by an instruction or two: read the shares
as where to look, and confirm any change by timing it (``bench_solver.py``).
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "prefa_sim" / "engine"
KERNELS = {"3h": "solve_many", "2h": "solve_many", "widow": "widow_search"}


# -- the child: run the workload ---------------------------------------------------------

def run_child(workload: str, seconds: float, ready: Path | None) -> None:
    """Solve the workload repeatedly; with ``ready``, first write the kernel's symbols."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import numpy as np
    from bench_solver import make_cells, make_deals, time_cells

    from prefa_sim.engine import driver
    from prefa_sim.solve.solver import Solver

    rng = np.random.default_rng(1)
    three = make_deals(rng, 3000, two_hands=False)
    two = make_deals(rng, 3000, two_hands=True)
    cells = make_cells(rng, 100)
    solver = Solver()
    # A 3-hand deal first: the search's code is then the kernel's own. Were the 2-hand
    # endgame table's builder compiled (or loaded) first, the kernel would call the search
    # in the builder's object, outside the one sampled here.
    solver.solve_deals(three[:1], fresh_table=True)
    if workload == "widow":
        def work():
            time_cells(solver, cells)
    else:
        deals = three if workload == "3h" else two

        def work():
            solver.solve_deals(deals, fresh_table=True)
    work()
    if ready is not None:
        dispatcher = getattr(driver, KERNELS[workload])
        library = next(iter(dispatcher.overloads.values())).library
        obj = ready.with_suffix(".o")
        obj.write_bytes(cached_object(dispatcher.__name__))
        pointers = {}
        for name in function_symbols(obj):
            address = library.get_pointer_to_function(name)
            if address:
                pointers[name] = address
        ready.write_text(json.dumps(pointers))
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        work()


def cached_object(function: str) -> bytes:
    """The ELF object numba cached for a kernel (the cache file embeds it whole)."""
    cache = Path(os.environ["NUMBA_CACHE_DIR"])
    paths = list(cache.rglob(f"*.{function}-*.nbc"))
    if len(paths) != 1:
        raise SystemExit(f"expected one cache file for {function} in {cache}, found {len(paths)}")
    data = paths[0].read_bytes()
    start = data.index(b"\x7fELF")
    shoff, = struct.unpack_from("<Q", data, start + 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, start + 0x3A)
    return data[start:start + shoff + shentsize * shnum]


def function_symbols(obj: Path) -> dict[str, tuple[int, int]]:
    """Offset and size of each function in an object file."""
    table = subprocess.run(["objdump", "-t", str(obj)], capture_output=True, text=True,
                           check=True).stdout
    symbols = {}
    for line in table.splitlines():
        parts = line.split()
        if len(parts) >= 6 and parts[2] == "F":
            symbols[parts[-1]] = (int(parts[0], 16), int(parts[-2], 16))
    return symbols


# -- the parent: sample and attribute ---------------------------------------------------

def sample(workload: str, seconds: float, scratch: Path) -> tuple[collections.Counter, Path,
                                                                   dict]:
    """Sampled instruction addresses of the child, the kernel's object and its symbols."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(scratch / "cache"), "NUMBA_DEBUGINFO": "1"}
    child = [sys.executable, __file__, "--child", "--workload", workload]
    subprocess.run(child + ["--seconds", "0"], env=env, check=True)  # compile into the cache
    ready = scratch / "ready.json"
    process = subprocess.Popen(child + ["--seconds", str(seconds + 5), "--ready", str(ready)],
                               env=env)
    while not ready.exists():
        if process.poll() is not None:
            raise SystemExit("the workload stopped before it was ready")
        time.sleep(0.2)
    time.sleep(0.2)  # the file is written in one go; let the loop start
    data = scratch / "perf.data"
    subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "5000", "-p",
                    str(process.pid), "-o", str(data), "--", "sleep", str(seconds)],
                   check=True, capture_output=True, text=True)
    process.wait()
    script = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip"],
                            capture_output=True, text=True, check=True).stdout
    addresses = collections.Counter(int(ip, 16) for ip in script.split())
    return addresses, ready.with_suffix(".o"), json.loads(ready.read_text())


def source_lines(obj: Path) -> dict[int, str]:
    """The source line (``file:line``) of each instruction offset in the object."""
    listing = subprocess.run(["objdump", "-dl", "--no-show-raw-insn", str(obj)],
                             capture_output=True, text=True, check=True).stdout
    lines, current = {}, "?"
    for text in listing.splitlines():
        where = re.match(r"^(/\S+\.py):(\d+)", text)
        if where:
            current = f"{Path(where.group(1)).name}:{where.group(2)}"
            continue
        instruction = re.match(r"\s+([0-9a-f]+):", text)
        if instruction:
            lines[int(instruction.group(1), 16)] = current
    return lines


def enclosing_functions() -> dict[str, str]:
    """``file:line`` of every line of the engine's modules, to the function holding it."""
    owner = {}
    for path in ENGINE.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef):
                for line in range(node.lineno, node.end_lineno + 1):
                    owner[f"{path.name}:{line}"] = node.name
    return owner


def report(addresses: collections.Counter, obj: Path, pointers: dict, top: int) -> None:
    symbols = function_symbols(obj)
    lines = source_lines(obj)
    by_line = collections.Counter()
    total = sum(addresses.values())
    for address, count in addresses.items():
        for name, start in pointers.items():
            offset, size = symbols[name]
            if start <= address < start + size:
                by_line[lines.get(offset + address - start, "?")] += count
                break
        else:
            by_line["outside the kernel"] += count
    texts = {path.name: path.read_text().splitlines() for path in ENGINE.glob("*.py")}
    print(f"{total} samples; busiest source lines:")
    for where, count in by_line.most_common(top):
        name, _, number = where.partition(":")
        text = texts[name][int(number) - 1].strip() if name in texts else ""
        print(f"{100 * count / total:6.2f}%  {where:<16} {text[:72]}")
    owner = enclosing_functions()
    by_function = collections.Counter()
    for where, count in by_line.items():
        by_function[owner.get(where, where.partition(":")[0] or where)] += count
    print("\nby function (inlined helpers counted apart from their caller):")
    for name, count in by_function.most_common(top):
        print(f"{100 * count / total:6.2f}%  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workload", choices=sorted(KERNELS), default="2h")
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--ready", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_child(args.workload, args.seconds, args.ready)
        return
    missing = [tool for tool in ("perf", "objdump") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"profile_kernel needs {' and '.join(missing)} on the PATH")
    with tempfile.TemporaryDirectory() as scratch:
        try:
            addresses, obj, pointers = sample(args.workload, args.seconds, Path(scratch))
        except subprocess.CalledProcessError as error:
            raise SystemExit(f"{error.cmd[0]} failed: {(error.stderr or '').strip()}") from None
        report(addresses, obj, pointers, args.top)


if __name__ == "__main__":
    main()
