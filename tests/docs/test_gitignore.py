"""The README's Python example prints what the README says it prints."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).parents[2] / "README.md"


def test_the_readme_python_example_prints_its_output():
    text = README.read_text()
    section = text[text.index("### From Python"):]
    code, shown = re.findall(r"```(?:python)?\n(.*?)```", section, re.S)[:2]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert printed.getvalue() == shown


def test_gitignore_covers_what_the_readme_examples_write():
    """Every file or folder a README example writes (-o, --plot, a redirect, the default
    output folders) is ignored by git, so that trying them leaves the clone clean."""
    import shutil
    import subprocess

    import pytest

    if shutil.which("git") is None or not (README.parent / ".git").exists():
        pytest.fail("this test reads the project's git checkout")
    text = README.read_text()
    examples = [line for line in text.splitlines() if line.startswith("$ prefa")]
    written = {"prefa-run", "prefa-games"}
    for line in examples:
        written |= set(re.findall(r"(?:-o|--out|--plot) ([\w./-]+\.(?:png|svg|html|jsonl))", line))
        written |= set(re.findall(r"> ([\w./-]+)", line))
    written |= set(re.findall(r"> ([\w./-]+\.jsonl)", text))
    assert {"makerate.png", "report.html", "game.jsonl", "makerate-hand.png"} <= written
    for path in sorted(written):
        checked = subprocess.run(["git", "check-ignore", "-q", "--no-index", path],
                                 cwd=README.parent)
        assert checked.returncode == 0, f"{path} is written by a README example, not ignored"
