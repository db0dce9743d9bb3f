"""`prefa report`: one self-contained HTML page, checked for its content and in a real
headless browser (Chromium from the system's package manager; .ci/run installs it)."""

import base64
import os
import re
import shutil
import subprocess
from pathlib import Path

import matplotlib.image
import pytest
from click.testing import CliRunner

from prefa_sim.cli import main
from prefa_sim.core.contracts import LADDER
from prefa_sim.sim.config import RunConfig
from prefa_sim.sim.simulate import simulate
from prefa_sim.stats.groups import group_make_rates
from prefa_sim.stats.output import makerate_rows


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    run = folder / "run"
    simulate(RunConfig(deals=16, seed=12, chunk_size=8, declarers=(0, 2),
                       scenario={"name": "hearts test", "constraints": ["first.hearts >= 4"]}),
             run)
    out = folder / "report.html"
    result = CliRunner().invoke(main, ["report", str(run), "-o", str(out), "--bootstrap", "200"])
    assert result.exit_code == 0, result.output
    return run, out


def test_the_page_holds_the_run_the_tables_and_the_figures(page):
    run, out = page
    text = out.read_text(encoding="utf-8")
    assert "hearts test" in text and "first.hearts &gt;= 4" in text  # the scenario, escaped
    for row in makerate_rows(group_make_rates(run, ("strain",)), ("strain",)):
        make6 = f"{100 * row['make_6']:.1f}% ({100 * row['make_6_low']:.1f}-"
        assert f"<td class=\"text\">{row['strain']}</td><td>{row['rows']:,}</td>" in text
        assert make6 in text
    for contract in LADDER:
        assert f"<td class=\"text\">{contract}</td>" in text
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', text)
    assert len(images) == 4
    assert all(base64.b64decode(data)[:8] == b"\x89PNG\r\n\x1a\n" for data in images)
    # Self-contained: nothing fetched from elsewhere, no script; links stay in the page.
    assert not re.search(r'(src|href)="(?!data:|#)', text) and "<script" not in text
    # A contents list whose every link lands on a section of the page, the rules among them.
    links = re.findall(r'<a href="#(\w+)">', text)
    assert {"run", "makerates", "figures", "defence", "rules"} <= set(links)
    assert all(f'id="{key}"' in text for key in links)
    rules = text[text.index('id="rules"'):]
    assert "docs/rules.md §4.4" in rules and "docs/rules.md §6.2" in rules
    assert '<td class="text">7</td><td>7</td><td>2</td><td>1</td><td>2</td>' in rules  # level 7
    assert "body { " in text and "max-width" not in text[text.index("body {"):].split("}")[0]


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    reason = "the report test needs Chromium: apt-get install chromium (.ci/run installs it)"
    if os.environ.get("PREFA_REQUIRE_BROWSER"):
        pytest.fail(reason)  # CI sets it: there the browser check always runs
    pytest.skip(reason)


def headless(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                           "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
                           "--virtual-time-budget=5000", *args],
                          capture_output=True, text=True, timeout=120)


def test_the_page_loads_in_a_browser_without_console_errors_and_is_not_blank(page, tmp_path):
    _, out = page
    shot = tmp_path / "shot.png"
    result = headless("--window-size=1200,1600", f"--screenshot={shot}", out.as_uri())
    assert shot.exists(), result.stderr
    console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    assert console == []
    pixels = matplotlib.image.imread(shot)[..., :3]
    assert pixels.std() > 0.05  # text, tables and figures, not one colour
    assert (pixels.mean(axis=2) < 0.5).mean() > 0.005  # some dark ink on the page
    # Every figure decodes: a copy of the page reports broken images into its DOM.
    probe = tmp_path / "probe.html"
    probe.write_text(out.read_text(encoding="utf-8").replace(
        "</body>", "<script>addEventListener('load', () => document.body.setAttribute("
        "'data-broken', [...document.images].filter(i => !i.naturalWidth).length + '/' + "
        "document.images.length));</script></body>"), encoding="utf-8")
    dom = headless("--dump-dom", probe.as_uri()).stdout
    assert 'data-broken="0/4"' in dom


def test_the_command_refuses_bad_input(page, tmp_path):
    run, out = page
    before = out.read_bytes()
    for args, message in ((["-o", str(out.with_suffix(".txt"))], ".html file"),
                          (["-o", str(out), "--where", "trumps >> 4"], "not a comparison"),
                          (["-o", str(out), "-t", "NT"], "trump suit"),
                          (["-o", str(tmp_path / "no" / "r.html")], "does not exist")):
        result = CliRunner().invoke(main, ["report", str(run), *args])
        assert result.exit_code != 0 and message in result.output, result.output
        assert "Traceback" not in result.output
    assert out.read_bytes() == before  # an earlier report is left whole


def test_a_figure_with_nothing_to_draw_is_a_note(tmp_path):
    from ..helpers import synthetic

    path = tmp_path / "run"
    synthetic(path, 12, seed=4, files=1)
    out = tmp_path / "r.html"
    result = CliRunner().invoke(main, ["report", str(path), "-o", str(out), "--where",
                                       "declarer == 9", "--bootstrap", "100"])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "No defence tables: no rows of" in text and "meet --where declarer == 9" in text
    assert "The dataset has no run record" in text
    assert text.count("data:image/png;base64,") == 3


def test_write_report_refuses_a_path_it_cannot_use_and_writes_nothing(tmp_path):
    from prefa_sim.stats.html import write_report

    for out, message in ((tmp_path / "page.txt", "an .html file"),
                         (tmp_path / "no" / "page.html", "the folder")):
        with pytest.raises(ValueError, match=message):
            write_report("<p>page</p>", out)
    assert list(tmp_path.iterdir()) == []
    assert write_report("<p>page</p>", tmp_path / "page.HTM").read_text() == "<p>page</p>"


def test_ci_requires_the_browser_check():
    """The browser test skips on a machine without Chromium, except in CI: .ci/run sets the
    variable that turns the skip into a failure, before it runs the suite."""
    script = (Path(__file__).parents[2] / ".ci" / "run").read_text()
    exported = script.find("export PREFA_REQUIRE_BROWSER=1")
    assert exported != -1 and exported < script.find("pytest")
