"""The solver is a package of its own: beside the engine, never imported by it, typed at its
boundary, without import cycles, documented."""

from __future__ import annotations

import ast
import doctest
import importlib
import tomllib
from pathlib import Path

import pytest

from tests.engine.test_purity import FORBIDDEN, imported

ROOT = Path(__file__).resolve().parents[2]
SOLVER = ROOT / "games" / "solver"
WEB_STACK = tuple(name for name in FORBIDDEN if name not in ("numpy", "numba"))


def solver_imports(path: Path) -> set[str]:
    """The solver modules ``path`` imports (by module name, without the package)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                names = [node.module] if node.module else [alias.name for alias in node.names]
                out.update(name.split(".")[0] for name in names)
            elif node.level == 0 and node.module and node.module.startswith("games.solver."):
                out.add(node.module.split(".")[2])
    return out


@pytest.mark.parametrize("path", sorted(SOLVER.glob("*.py")), ids=lambda p: p.name)
def test_solver_module_imports_nothing_from_the_web_stack(path: Path) -> None:
    for name, level in imported(path):
        assert level <= 1, f"{path.name} imports from outside the solver by a relative import"
        if level == 0:
            assert name.split(".")[0] not in WEB_STACK, f"{path.name} imports {name}"
            assert not name.startswith("games.") or name.startswith(("games.engine", "games.solver")), name


def test_the_solver_modules_import_each_other_without_a_cycle() -> None:
    graph = {path.stem: solver_imports(path) - {path.stem} for path in SOLVER.glob("*.py")}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join((*path, module))}"
        if module in done:
            return
        for other in graph.get(module, ()):
            visit(other, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())
    assert "search" not in graph["kernels"] and "kernels" in graph["compiled"]


def test_the_solver_is_typed_with_one_stated_exemption() -> None:
    """The only override is pyproject's for the numba kernels, and no module switches a check off
    by itself, so `make typecheck` (mypy --strict, CI's lint step) checks the whole solver."""
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"].get("overrides", [])
    named = ("games", "games.*")
    solver = [o for o in overrides if any(m.startswith("games.solver") or m in named for m in o["module"])]
    assert solver == [{"module": ["games.solver.kernels"], "disable_error_code": ["no-untyped-def"]}]
    files = sorted(SOLVER.glob("*.py"))
    for path in files:
        text = path.read_text()
        assert "type: ignore" not in text and "# mypy:" not in text, f"{path.name} switches a check off"


@pytest.mark.parametrize("module", ["search", "hint", "measure"])
def test_doctests_hold(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(f"games.solver.{module}"))
    assert tried > 0 and failures == 0
