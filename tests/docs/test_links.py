"""Every link between the project's pages points at a file, and every anchor at a heading."""

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them."""
    found = set()
    for line in page.read_text().splitlines():
        if line.startswith("#"):
            text = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return found


def test_every_link_and_anchor_resolves():
    broken = []
    for page in PAGES:
        for match in re.finditer(r"\]\(([^)\s#]*)(?:#([^)\s]+))?\)", page.read_text()):
            target, anchor = match.groups()
            if target.startswith(("http://", "https://")):
                continue
            path = (page.parent / target).resolve() if target else page
            if not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and path.suffix == ".md" and anchor not in anchors(path):
                broken.append(f"{page.relative_to(ROOT)}: {target}#{anchor}")
    assert broken == []
    assert len(PAGES) >= 12
