"""The README's Python example prints what the README says it prints."""

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"


def test_the_readme_python_example_prints_its_output():
    text = README.read_text()
    section = text[text.index("### From Python"):]
    code, shown = re.findall(r"```(?:python)?\n(.*?)```", section, re.S)[:2]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert printed.getvalue() == shown
