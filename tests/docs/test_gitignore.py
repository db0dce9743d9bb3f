"""What the examples of the README and the guide write is ignored by git, so that trying
them leaves a clone clean."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]


def test_gitignore_covers_what_the_examples_write():
    """Every file or folder an example writes (-o, --plot, a redirect, the default output
    folders) is ignored by git."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.fail("this test reads the project's git checkout")
    written = {"prefa-run", "prefa-games"}
    for page in PAGES:
        for line in page.read_text().splitlines():
            if not line.startswith("$ prefa") and "prefa_sim" not in line:
                continue
            written |= set(re.findall(r"(?:-o|--out|--plot) ([\w./-]*[A-Za-z][\w./-]*)", line))
            written |= set(re.findall(r"> ([\w./-]+)", line))
        written |= set(re.findall(r'simulate\(config, "([\w-]+)"', page.read_text()))
    assert {"makerate.png", "report.html", "game.jsonl", "python-run"} <= written
    for path in sorted(written):
        checked = subprocess.run(["git", "check-ignore", "-q", "--no-index", path], cwd=ROOT)
        assert checked.returncode == 0, f"{path} is written by an example, not ignored"
