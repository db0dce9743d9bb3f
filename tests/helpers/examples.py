"""Run the console examples of Markdown pages and keep what each printed.

    python -m tests.helpers.examples OUT PAGE [PAGE ...]

runs every console example of the pages, in order, in a fresh folder that holds a link to
the project's ``data``, with the ``prefa`` found on the PATH, and writes each command's
standard output to ``OUT/NN.txt`` (its command in ``OUT/NN.cmd``).  Run it with the
``prefa`` of one commit and then of another, and ``diff -r`` the two folders: a change
that leaves every example as it was shows no difference.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from .markdown import examples, prepare_folder, run_console


def run_pages(pages: list[Path], out: Path) -> int:
    """Run the pages' console examples; returns how many ran."""
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    with tempfile.TemporaryDirectory(prefix="prefa-examples-") as folder:
        prepare_folder(Path(folder))
        for page in pages:
            for example in examples(page.resolve(), page.resolve().parent):
                if example.kind != "console":
                    continue
                count += 1
                done = run_console(example, Path(folder))
                (out / f"{count:02d}.cmd").write_text(example.code + "\n")
                (out / f"{count:02d}.txt").write_text(done.stdout)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("pages", type=Path, nargs="+")
    args = parser.parse_args()
    print(f"{run_pages(args.pages, args.out)} examples run into {args.out}")


if __name__ == "__main__":
    main()
