"""The examples of the project's Markdown pages, as the documentation tests run them.

Two kinds of fenced block are examples:

* a console block: its first line starts with ``$ ``.  Each ``$ `` line is a command
  (run by bash in the pages' shared work folder), and the lines up to the next command
  are what it prints.  Standard output must be exactly those lines (no more, no fewer).
  A line of the block that is not the next line of standard output must be a line of
  standard error, in order, where ``…`` stands for any text (a rate, a count of
  workers): so a page may show what a command says on standard error, or leave it out.
* a ``python`` block: run as it is; when the next fenced block is a ``text`` block, that
  is what the code prints.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parents[2]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)
ELLIPSIS = "…"


@dataclass(frozen=True)
class Example:
    """One example of a page: a command and its output, or Python code and its output."""

    page: str
    line: int
    kind: str  # "console" or "python"
    code: str
    expected: str | None

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


def examples(path: Path, root: Path) -> list[Example]:
    """The examples of the page at ``path`` in the order they appear."""
    text = path.read_text()
    page = str(path.relative_to(root))
    blocks = [(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1)
              for m in FENCE.finditer(text)]
    found = []
    for index, (lang, body, line) in enumerate(blocks):
        if lang in ("", "console") and body.startswith("$ "):
            found += _commands(page, line, body)
        elif lang == "python":
            after = blocks[index + 1] if index + 1 < len(blocks) else None
            shown = after[1] if after is not None and after[0] == "text" else None
            found.append(Example(page, line, "python", body, shown))
    return found


def _commands(page: str, line: int, body: str) -> list[Example]:
    found, command, output, start = [], None, [], line
    for number, text in enumerate(body.splitlines(), start=line + 1):
        if text.startswith("$ "):
            if command is not None:
                found.append(Example(page, start, "console", command, "\n".join(output)))
            command, output, start = text[2:], [], number
        else:
            output.append(text)
    found.append(Example(page, start, "console", command, "\n".join(output)))
    return found


def mismatch(expected: str, stdout: str, stderr: str) -> str | None:
    """Why a command's output is not what its page shows (None when it is)."""
    out, err = stdout.splitlines(), stderr.splitlines()
    at_out = at_err = 0
    for number, want in enumerate(expected.splitlines(), start=1):
        if at_out < len(out) and out[at_out] == want:
            at_out += 1
            continue
        pattern = re.compile(".*?".join(map(re.escape, want.split(ELLIPSIS))) + r"\Z")
        for index in range(at_err, len(err)):
            if pattern.match(err[index]):
                at_err = index + 1
                break
        else:
            got = out[at_out] if at_out < len(out) else "(nothing more)"
            return (f"line {number} of the example is {want!r}; the command printed "
                    f"{got!r} on standard output, and no line of standard error matches")
    if at_out < len(out):
        return f"the command printed more than the example shows: {out[at_out]!r}"
    return None


def prepare_folder(folder: Path) -> Path:
    """A folder for the pages' examples: it holds a link to the project's ``data``."""
    (folder / "data").symlink_to(ROOT / "data")
    return folder


def run_console(example: Example, folder: Path,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """A console example's command run by bash in ``folder``, its output captured."""
    return subprocess.run(["bash", "-c", example.code], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=900)
