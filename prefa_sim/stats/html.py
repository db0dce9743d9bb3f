"""A dataset's report as one self-contained HTML page.

The page holds what made the dataset, the make-rate tables, the defence tables and the
figures (PNG, embedded as data URIs), with every figure's interval and convention said
beside it.  It has no script and loads nothing from elsewhere: it opens the same from a
mail attachment as from a web server.
"""

from __future__ import annotations

import base64
import html
import io
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from ..core.cards import Strain
from ..core.contracts import MAX_LEVEL, MIN_LEVEL, Contract
from ..rules.variants import DEFAULT_RULES, Rules
from ..sim.dataset import rules_for
from .defence import defence_stats
from .defence_output import CONVENTIONS, RECORDS, TITLES, pct_text, table_cells
from .groups import StatsError, group_make_rates
from .output import file_path_problem, makerate_rows

_STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f;
       margin: 1.5em 2em; }
nav li { margin: 0.15em 0; }
.figures { display: flex; flex-wrap: wrap; gap: 1em 2em; }
.figures figure { flex: 1 1 620px; max-width: 1100px; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 1.8em; font-size: 1.25em; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.86em; }
th, td { padding: 0.25em 0.7em; border-bottom: 1px solid #e3e3e3; text-align: right;
         white-space: nowrap; }
th { background: #f4f4f6; } td:first-child, th:first-child { text-align: left; }
td.text, th.text { text-align: left; }
.note { color: #555; font-size: 0.9em; max-width: 60em; }
.small { color: #a0522d; }
figure { margin: 1em 0 2em; } figure img { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: 0.9em; }
details summary { cursor: pointer; font-weight: 600; margin: 0.6em 0; }
"""


def _table(header: Sequence[str], body: Sequence[Sequence[str]], text_columns: int = 1) -> str:
    def cell(tag: str, i: int, value: str) -> str:
        cls = ' class="text"' if i < text_columns else ""
        return f"<{tag}{cls}>{html.escape(value)}</{tag}>"

    head = "".join(cell("th", i, h) for i, h in enumerate(header))
    rows = "".join("<tr>" + "".join(cell("td", i, v) for i, v in enumerate(r)) + "</tr>"
                   for r in body)
    thead = f"<thead><tr>{head}</tr></thead>" if any(header) else ""
    return f"<table>{thead}<tbody>{rows}</tbody></table>"


def _figure(draw, alt: str, caption: str) -> str:
    """A figure drawn by ``draw()``, embedded; a note instead when it has nothing to draw."""
    try:
        fig = draw()
    except StatsError as exc:
        reason = html.escape(str(exc))
        return f'<p class="note">No figure of the {html.escape(alt)}: {reason}.</p>'
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def makerate_section(path: str | Path) -> str:
    """Make-rates by strain, and by strain and the declarer's position."""
    parts = []
    for by, title in ((("strain",), "by strain"),
                      (("strain", "position"), "by strain and position (0 first hand, "
                                               "1 second hand, 2 dealer)")):
        rows = makerate_rows(group_make_rates(path, by), by)
        header = [*by, "rows", "mean tricks", *(f"make {lv}" for lv in range(6, 11))]
        body = [[*(str(r[f]) for f in by), f"{r['rows']:,}" + (" (small)" if r["small"] else ""),
                 f"{r['mean']:.2f} ({r['mean_low']:.2f}-{r['mean_high']:.2f})",
                 *(pct_text(r, f"make_{lv}") for lv in range(6, 11))] for r in rows]
        parts.append(f"<h3>Make-rate {html.escape(title)}</h3>"
                     + _table(header, body, len(by)))
    return "".join(parts)


def defence_section(path: str | Path, where: str | None, replicates: int,
                    rules: Rules | None = None) -> str:
    """The quota table in full; money and decisions folded away (they are long)."""
    stats = defence_stats(path, where, replicates, rules=rules)
    contracts = stats.contracts
    if not contracts:
        reason = html.escape(stats.no_rows_reason(path, where))
        return f'<p class="note">No defence tables: {reason}.</p>'

    parts = [f'<p class="note">{html.escape(CONVENTIONS)}</p>']
    for table, folded, text_columns in (("quota", False, 1), ("money", True, 2),
                                        ("decisions", True, 5)):
        title = html.escape(TITLES[table])
        cells = _table(*table_cells(table, RECORDS[table](stats, contracts)), text_columns)
        parts.append(f"<details><summary>{title}</summary>{cells}</details>" if folded
                     else f"<h3>{title}</h3>{cells}")
    return "".join(parts)


def report_html(path: str | Path, about: Sequence[tuple[str, str]], title: str,
                where: str | None = None, replicates: int = 1000,
                trump: Strain = Strain.H, rules: Rules | None = None) -> str:
    """The whole page for the dataset at ``path``; ``about`` describes the run (see
    ``prefa_sim.sim.about.describe_run``), ``where`` filters the defence section; the
    figures follow the dataset's rules (``rules``, when given, must be the same)."""
    from .plots import defence_figure, features_figure, makerate_figure, tricks_figure

    rules = rules_for(path, rules)
    scenario = dict(about).get("scenario", "as in the dataset")
    rows = sum(g.n for g in group_make_rates(path, ()))
    run = _table(["", ""], [[k, v] for k, v in about], 2) if about else \
        "<p>The dataset has no run record (a single Parquet file?).</p>"
    figures = [
        _figure(lambda: makerate_figure(path, scenario), "make-rate heat map",
                "How often the declarer makes each level in each strain, against both "
                "defenders; 95% Wilson interval in each cell."),
        _figure(lambda: tricks_figure(path, scenario), "declarer's tricks by strain",
                "The distribution of the declarer's double-dummy tricks in each strain."),
        _figure(lambda: features_figure(path, scenario, strain=trump),
                "make-rate against trump length",
                f"Make-rate of every level against the number of {trump.name} held after the "
                "widow and the best discard, with 95% bands."),
    ]
    defence = defence_section(path, where, replicates, rules)
    if "<table>" in defence:
        figures.append(_figure(lambda: defence_figure(path, scenario, where, replicates),
                               "defence by contract",
                               "Top: how often the defence reaches its quota. Bottom: what the "
                               "declarer nets against each way to defend."
                               + (f" Rows with {where}." if where else "")))
    filtered = f" (rows with {html.escape(where)})" if where else ""
    sections = [("run", "The run"), ("makerates", "Make-rates"), ("figures", "Figures"),
                ("defence", f"The defence{filtered}"), ("rules", "The rules used")]
    contents = "".join(f'<li><a href="#{key}">{name}</a></li>' for key, name in sections)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>{html.escape(title)}</h1>
<p class="note">{rows:,} declarer-strain rows. Every deal is solved double-dummy (every player
sees every card) with the widow and the declarer's best discard. Rates carry 95% Wilson
intervals; rows pooled over the declarers of one deal share its cards, so those intervals are
somewhat narrow; money carries bootstrap intervals over deals.</p>
<nav><h2>Contents</h2><ol>{contents}</ol></nav>
<h2 id="run">The run</h2>
{run}
<h2 id="makerates">Make-rates</h2>
<p class="note">A contract is made when the declarer takes at least its level in tricks; the
defence's quota and what each outcome pays follow <a href="#rules">the rules used</a>.</p>
{makerate_section(path)}
<h2 id="figures">Figures</h2>
<div class="figures">{"".join(figures)}</div>
<h2 id="defence">The defence{filtered}</h2>
<p class="note">Quotas and payments as in <a href="#rules">the rules used</a>.</p>
{defence}
<h2 id="rules">The rules used</h2>
{rules_section(rules)}
<p class="note">Made by prefa-sim.</p>
</body>
</html>
"""


def rules_section(rules: Rules = DEFAULT_RULES) -> str:
    """The rules the page's figures rest on, with the sections of prefa-sim's rule book
    (docs/rules.md) they come from: the options other than the default, the tricks each
    level needs, the defence's quotas and the value of a trick."""
    levels = range(MIN_LEVEL, MAX_LEVEL + 1)
    quotas = _table(["contract level", "tricks the declarer needs", "first defender",
                     "second defender", "a lone defender"],
                    [[str(level), str(level), *map(str, rules.quotas(level))] for level in levels])
    values = _table(["level", *[s.name for s in Strain]],
                    [[str(level), *(str(rules.trick_value(Contract(level, s)))
                                    if rules.allows(Contract(level, s)) else "not allowed"
                                    for s in Strain)] for level in levels])
    chosen = "" if rules.is_default else (
        f"<p>Played under these options (docs/rules.md §7.6): "
        f"<code>{html.escape(str(rules))}</code>.</p>")
    return (f"{chosen}<h3>Quotas (docs/rules.md §4.4)</h3>{quotas}"
            "<p class=\"note\">Two defenders share their quota: a defender's surplus covers "
            "the partner's shortfall (§4.5).</p>"
            f"<h3>The value of a trick, in kapíkia (docs/rules.md §6.2)</h3>{values}"
            "<p class=\"note\">A contract is worth ten tricks' value; the settlement with the "
            "common pot, the sets and the defenders' payments are in docs/rules.md §6.</p>")


def report_path_problem(out: str | Path) -> str | None:
    """Why a report cannot be written to ``out`` (not .html or .htm, no such folder), or
    None; a command can ask before the work of the page instead of after it."""
    return file_path_problem(out, (".html", ".htm"), "the report is an .html file")


def write_report(text: str, out: str | Path) -> Path:
    """Write the page through a temporary file and a rename: a failed write leaves an
    earlier report whole."""
    out = Path(out)
    if problem := report_path_problem(out):
        raise ValueError(problem)
    try:
        fd, temporary = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.",
                                         suffix=".tmp")
    except OSError as exc:
        raise OSError(f"cannot write {out}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as an ordinary new file, not mkstemp's 0600
        os.replace(temporary, out)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return out
