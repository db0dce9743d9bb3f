"""Every example of the README and the user guide prints what the page says it prints.

The pages run in one work folder, in order (the README first, then the guide's pages by
name), so that a page may use what an earlier example wrote (the README's ``prefa
simulate`` writes ``prefa-run``); the folder holds a link to the project's ``data``.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path

import pytest

from ..helpers.markdown import Example, examples, mismatch, prepare_folder, run_console

ROOT = Path(__file__).parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]
EXAMPLES = [example for page in PAGES for example in examples(page, ROOT)]


@pytest.fixture(scope="session")
def work_folder(tmp_path_factory) -> Path:
    return prepare_folder(tmp_path_factory.mktemp("docs"))


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("COLUMNS", None)
    return env


def test_every_page_has_examples():
    pages = {example.page for example in EXAMPLES}
    assert pages == {str(page.relative_to(ROOT)) for page in PAGES}
    assert len(PAGES) >= 6


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_the_example_prints_what_its_page_shows(example: Example, work_folder: Path):
    if example.kind == "python":
        printed = io.StringIO()
        cwd = os.getcwd()
        os.chdir(work_folder)
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(example.code, example.name, "exec"), {})
        finally:
            os.chdir(cwd)
        if example.expected is not None:
            assert printed.getvalue() == example.expected
        return
    done = run_console(example, work_folder, _environment())
    problem = mismatch(example.expected, done.stdout, done.stderr)
    assert problem is None, f"{example.name}: $ {example.code}\n{problem}\n" \
                            f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
