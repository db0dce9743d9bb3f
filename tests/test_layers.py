"""The library's layers: every module in one, each importing only downward."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import prefa_sim

LAYERS = ("util", "core", "engine", "rules", "solve", "requests", "dealing", "bots", "sim",
          "stats", "analysis")
"""The subpackages of prefa_sim, lowest first (docs/development.md)."""

PACKAGE = Path(prefa_sim.__file__).parent


def imports(path: Path, package: list[str]) -> list[tuple[int, list[str]]]:
    """Every import of prefa_sim in ``path`` (local ones included), as the line and the
    module's parts below prefa_sim; ``package`` is the file's own, for relative ones."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                found.append((node.lineno, base + (node.module or "").split(".")))
            elif node.module and node.module.split(".")[0] == "prefa_sim":
                found.append((node.lineno, node.module.split(".")[1:]))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[1:]) for alias in node.names
                      if alias.name.split(".")[0] == "prefa_sim"]
    return [(line, [p for p in parts if p]) for line, parts in found]


def test_the_root_holds_only_the_public_api_and_every_module_sits_in_a_layer():
    assert [p.name for p in PACKAGE.glob("*.py")] == ["__init__.py"]
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert folders == set(LAYERS)


def test_every_layer_imports_only_itself_and_the_layers_below():
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).parts
        if len(parts) < 2:
            continue
        layer = parts[0]
        for line, module in imports(path, list(parts[:-1])):
            target = module[0] if module else ""
            if target not in LAYERS or LAYERS.index(target) > LAYERS.index(layer):
                upward.append(f"{path.relative_to(PACKAGE)}:{line} imports "
                              f"prefa_sim.{'.'.join(module)}")
    assert upward == []



def test_import_prefa_sim_is_light_and_every_public_name_resolves():
    code = ("import sys, prefa_sim\n"
            "heavy = ('numba', 'numpy', 'pandas', 'pyarrow', 'matplotlib')\n"
            "print(*[m for m in heavy if m in sys.modules])\n"
            "print(all(getattr(prefa_sim, name) is not None for name in prefa_sim.__all__))\n"
            "print('numba' in sys.modules, 'prefa_sim.cli' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.splitlines() == ["", "True", "True False"]


def test_the_public_api_names_each_thing_where_it_lives():
    from prefa_sim.core.position import Position
    from prefa_sim.solve.solver import Solver

    assert prefa_sim.Solver is Solver and prefa_sim.Position is Position
    assert "Solver" in dir(prefa_sim) and len(set(prefa_sim.__all__)) == len(prefa_sim.__all__)
    with pytest.raises(AttributeError, match="no attribute 'solver'"):
        prefa_sim.solver  # noqa: B018 - a module of the old flat root is no public name


def test_modules_stay_small():
    """No library module over 700 lines, no command module over 300."""
    cli = PACKAGE.parent / "cli"
    long = [f"{p.relative_to(PACKAGE.parent)}: {n}" for folder, limit in ((PACKAGE, 700),
                                                                       (cli, 300))
            for p in sorted(folder.rglob("*.py"))
            if (n := len(p.read_text().splitlines())) > limit]
    assert long == []
