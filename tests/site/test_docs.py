"""The repository stands alone: its documentation is in it, its links resolve, and what it says
about the code is what the code does.

- Every relative link of a Markdown file (the README, docs/, the other READMEs) names a file that
  exists, and an anchor (``page.md#heading``) names a heading of that page.
- Every page of docs/ is listed in docs/README.md, the index the README links.
- No file points outside the repository for its rules: there is no spec beside it any more, the
  pages in docs/ are the spec.
- The code vectors of docs/codes.md are dealt by the engine card for card, every error code of
  ``common.errors.ErrorCode`` is in the table of docs/api.md with its status, and the example state
  of docs/api.md is what the API answers.
"""

from __future__ import annotations

import json
import re
import subprocess
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import Game

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SKIPPED_DIRS = {".git", ".venv", "node_modules", "artifacts", "var", "__pycache__", ".mypy_cache", ".ruff_cache"}


def tracked_files() -> list[Path]:
    """The repository's files: git's list in a checkout, else the tree without what git ignores."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True, timeout=60
        ).stdout
        return [ROOT / name for name in out.split("\0") if name and (ROOT / name).is_file()]
    except (OSError, subprocess.SubprocessError):
        return [
            path for path in ROOT.rglob("*") if path.is_file() and not SKIPPED_DIRS & set(path.relative_to(ROOT).parts)
        ]


MARKDOWN = sorted(path for path in tracked_files() if path.suffix == ".md")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def prose(text: str) -> str:
    """The text without code blocks and code spans (a link written in code is no link)."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").strip().lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[str]:
    return LINK.findall(prose(path.read_text(encoding="utf-8")))


def test_the_readme_and_the_docs_are_there() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in MARKDOWN}
    assert {"README.md", "docs/README.md", "docs/rules.md", "docs/codes.md", "docs/statistics.md"} <= names


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_names_a_file_and_a_heading_that_exist(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not the repository's
            continue
        name, _, anchor = target.partition("#")
        linked = (page.parent / name).resolve() if name else page
        if not linked.exists():
            broken.append(f"{target}: no file {linked.relative_to(ROOT) if linked.is_relative_to(ROOT) else linked}")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading #{anchor} in {linked.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_every_page_of_docs_is_in_its_index() -> None:
    listed = {(DOCS / target.partition("#")[0]).resolve() for target in links(DOCS / "README.md")}
    missing = [p.name for p in sorted(DOCS.glob("*.md")) if p.name != "README.md" and p.resolve() not in listed]
    assert not missing, f"docs/README.md does not list {missing}"


# The spec used to live outside the repository (a shared folder beside it); whatever still names it
# sends a newcomer to a file they do not have. Spelled in pieces so that this file does not match.
OUTSIDE = re.compile("|".join([r"shared/" + "SPEC", r"\.\./" + "shared/", r"\b" + "SPEC" + r"\b(?! ?=)"]))


def test_no_file_points_to_a_spec_outside_the_repository() -> None:
    hits = []
    for path in tracked_files():
        if path == Path(__file__).resolve() or path.suffix in {".mo", ".png", ".ico", ".woff2", ".svg"}:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not hits, "name the page of docs/ instead:\n" + "\n".join(hits)


def vectors() -> dict[str, str]:
    """The code vectors of docs/codes.md: each code with its columns (bottom to top, ``|`` between)."""
    text = (DOCS / "codes.md").read_text(encoding="utf-8")
    block = text[text.index("## Test vectors") :]
    block = block[block.index("```") + 3 :]
    block = block[: block.index("```")]
    found: dict[str, list[str]] = {}
    code = ""
    for line in block.splitlines():
        if line.startswith("YU"):
            code = line.split()[0]
            found[code] = []
        elif line.startswith("  ") and code:
            found[code].append(line.strip())
    return {code: " ".join(lines) for code, lines in found.items()}


def test_docs_codes_lists_the_vectors_of_both_versions() -> None:
    found = vectors()
    assert sum(code.startswith("YU1-") for code in found) >= 2
    assert sum(code.startswith("YU2-") for code in found) >= 4


@pytest.mark.parametrize("code", sorted(vectors()))
def test_every_code_vector_of_the_docs_is_what_the_engine_deals(code: str) -> None:
    columns = Game.from_code(code).layout()
    dealt = " | ".join(" ".join(column[i : i + 2] for i in range(0, len(column), 2)) for column in columns)
    assert vectors()[code] == dealt


def test_the_error_table_of_docs_api_names_every_code_with_its_status() -> None:
    from common.errors import ErrorCode

    rows: dict[str, set[int]] = {}
    for line in (DOCS / "api.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and re.match(r"^\d{3}", cells[0]):
            statuses = {int(status) for status in re.findall(r"\d{3}", cells[0])}
            for name in re.findall(r"`([a-z_]+)`", cells[1]):
                rows.setdefault(name, set()).update(statuses)
    wrong = [f"{code.value} ({code.status})" for code in ErrorCode if code.status not in rows.get(code.value, set())]
    assert not wrong, f"docs/api.md's error table misses or misfiles {wrong}"
    unknown = sorted(set(rows) - {code.value for code in ErrorCode})
    assert not unknown, f"docs/api.md's error table names codes that do not exist: {unknown}"


def example_state() -> dict[str, Any]:
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    block = text[text.index("## The state of a game") :]
    block = block[block.index("```json") + len("```json") : block.index("```\n", block.index("```json") + 7)]
    state: dict[str, Any] = json.loads(block)
    return state


@pytest.mark.django_db
def test_the_example_state_of_docs_api_is_what_the_api_answers() -> None:
    client = APIClient()
    game = client.post("/api/v1/games", {"code": "YU1-C-AAAAAAB"}, format="json").json()
    move = {"from": "t7", "card": "TS", "to": "auto", "seq": 0}
    answer = client.post(f"/api/v1/games/{game['id']}/moves", move, format="json").json()
    example = example_state()
    assert set(answer) == set(example)
    shown = len(example["legal_moves"])
    answer["legal_moves"] = answer["legal_moves"][:shown]
    for field in ("id", "elapsed_ms"):
        del answer[field], example[field]
    assert answer == example
