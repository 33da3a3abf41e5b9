"""The engine stays pure (the standard library only), typed, documented and usable from the command line."""

from __future__ import annotations

import ast
import doctest
import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
ROOT = ENGINE.parents[1]
FORBIDDEN = ("django", "rest_framework", "celery", "drf_spectacular", "psycopg", "redis", "numpy", "numba")


def imported(path: Path) -> list[tuple[str, int]]:
    """Every module ``path`` imports, with its level (0: absolute, 1: ``from .x``, ...)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [(alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append((node.module or "", node.level))
    return names


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: p.name)
def test_engine_module_imports_only_the_standard_library_and_the_engine(path: Path) -> None:
    for name, level in imported(path):
        top = name.split(".")[0]
        assert top not in FORBIDDEN, f"{path.name} imports {name}"
        if level == 0:
            assert top in sys.stdlib_module_names, f"{path.name} imports {name}: not the standard library"
        else:
            assert level == 1, f"{path.name} imports from outside the engine ({'.' * level}{name})"


@pytest.mark.parametrize("module", ["cards", "codes", "errors", "game", "moves", "__init__"])
def test_doctests_hold(module: str) -> None:
    name = "games.engine" if module == "__init__" else f"games.engine.{module}"
    failures, tried = doctest.testmod(importlib.import_module(name))
    assert tried > 0 and failures == 0


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_cli_prints_the_deal_with_face_down_cards_hidden() -> None:
    out = run_cli("yu1-c-aaaaaab")
    assert out.returncode == 0
    assert "t2: XX 4H 8D 8H 5C JH" in out.stdout
    assert "9S" not in out.stdout


def test_cli_reveals_face_down_cards_on_request() -> None:
    out = run_cli("YU1-C-AAAAAAB", "--reveal")
    assert "t2: 9s 4H 8D 8H 5C JH" in out.stdout


def test_cli_refuses_a_bad_code_clearly() -> None:
    out = run_cli("YU1-Q-ABC")
    assert out.returncode == 2 and "bad game code: 'YU1-Q-ABC'" in out.stderr


def test_engine_is_fully_typed_without_exemptions() -> None:
    """No module and no override switches a check off, so `make typecheck` (mypy --strict, CI's lint
    step) checks the whole engine."""
    files = sorted(ENGINE.glob("*.py"))
    for path in files:
        text = path.read_text()
        assert "type: ignore" not in text and "# mypy:" not in text, f"{path.name} switches a check off"
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"].get("overrides", [])
    for override in overrides:
        modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
        assert not any(m.startswith("games.engine") or m in ("games", "games.*") for m in modules), override
