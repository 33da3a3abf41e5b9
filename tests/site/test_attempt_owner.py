"""A ranked attempt's state has one reader and one writer (games/competition/attempt.py, issue 35
point 1): no other product module writes a game's ``review`` or ``hold_reasons``, and no page
script keeps its own set of review states or decides from one whether a result counts or may be
shared (the API answers say so: ``attempt.counts``, ``attempt.shareable``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games.competition.attempt import AttemptState

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("accounts", "common", "games", "stats", "frontend", "yukon_site")
OWNER = ROOT / "games" / "competition" / "attempt.py"
STATE_FIELDS = {"review", "hold_reasons"}
WRITES = {"update", "create", "get_or_create", "update_or_create", "bulk_create", "bulk_update", "Game"}
SCRIPTS = ROOT / "frontend" / "static" / "frontend"

_STATE = "|".join(state.value for state in AttemptState)
#: A literal that lists two or more review states: a set or array of its own.
STATE_LIST = re.compile(rf'(?:new Set\(|\[)\s*"(?:{_STATE})"\s*,\s*"(?:{_STATE})"')
#: A comparison that decides from a state whether a result counts or may be shared.
STATE_TEST = re.compile(r'[=!]==?\s*"(?:pending|verified|approved|rejected|invalid)"')


def state_writes(source: str) -> list[str]:
    """Where ``source`` writes an attempt's state: a keyword ``review=`` / ``hold_reasons=`` to an
    update or a create, an assignment to ``.review`` / ``.hold_reasons``, or one of them in
    ``update_fields``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            for keyword in node.keywords:
                if name in WRITES and keyword.arg in STATE_FIELDS:
                    found.append(f"line {node.lineno}: {name}({keyword.arg}=...)")
                if keyword.arg == "update_fields" and any(
                    isinstance(item, ast.Constant) and item.value in STATE_FIELDS for item in ast.walk(keyword.value)
                ):
                    found.append(f"line {node.lineno}: update_fields with a state field")
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AugAssign | ast.AnnAssign)
            else []
        )
        for target in targets:
            if isinstance(target, ast.Attribute) and target.attr in STATE_FIELDS:
                found.append(f"line {node.lineno}: .{target.attr} = ...")
    return found


def product_modules() -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts and path != OWNER
    ]


def test_only_the_attempt_module_writes_an_attempts_state() -> None:
    writes = {str(path.relative_to(ROOT)): state_writes(path.read_text()) for path in product_modules()}
    assert {path: found for path, found in writes.items() if found} == {}
    assert state_writes(OWNER.read_text())  # the owner does write it: the check sees such writes


@pytest.mark.parametrize(
    "source",
    [
        "Game.objects.filter(pk=pk).update(review='held')",
        "game.review = ReviewChoices.PENDING",
        "Game.objects.create(owner=user, hold_reasons=['time'])",
        "game.save(update_fields=['review', 'moves'])",
    ],
)
def test_each_kind_of_write_is_seen(source: str) -> None:
    assert state_writes(source)


def test_reading_the_state_is_no_write() -> None:
    assert state_writes("Game.objects.filter(review='held').values_list('review', flat=True)") == []


def page_scripts() -> list[Path]:
    return sorted(SCRIPTS.glob("*.js"))


def test_no_page_script_keeps_its_own_review_states() -> None:
    found = {
        path.name: STATE_LIST.findall(text) + STATE_TEST.findall(text)
        for path in page_scripts()
        for text in [path.read_text()]
    }
    assert page_scripts() and {name: hits for name, hits in found.items() if hits} == {}


@pytest.mark.parametrize(
    "script",
    [
        'const REJECTED = new Set(["rejected", "invalid"]);',
        'const REVIEWING = ["pending", "held"];',
        'if (state.review !== "rejected") share();',
    ],
)
def test_each_kind_of_state_rule_in_a_script_is_seen(script: str) -> None:
    assert STATE_LIST.search(script) or STATE_TEST.search(script)
