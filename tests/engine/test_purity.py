"""The engine stays pure, typed, documented and usable from the command line."""

from __future__ import annotations

import ast
import doctest
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
FORBIDDEN = ("django", "rest_framework", "celery", "drf_spectacular", "psycopg", "redis")


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: p.name)
def test_engine_module_imports_nothing_from_the_web_stack(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


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
        cwd=ENGINE.parents[1],
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


def test_engine_is_fully_typed() -> None:
    files = [str(p) for p in sorted(ENGINE.glob("*.py"))]
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", *files],
        capture_output=True,
        text=True,
        cwd=ENGINE.parents[1],
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
