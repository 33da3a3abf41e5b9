"""One table of error codes and one set of gettext catalogues (issue 18 item 5, issue 20 items 3 and 8).

Every error code has its status and a text in English and German; nothing can raise a code
outside the table; every text the pages, the scripts and the API show is in ``locale/``, translated,
and the committed ``.mo`` files say what their ``.po`` files say (no gettext binary needed here).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation
from rest_framework import exceptions

from common import parsers
from common.errors import BAD_STATUS, CSRF_FAILED, DOES_NOT_FIT_RELAXED, ApplicationError, ErrorCode, explain
from games.engine import REASONS

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
SOURCES = [ROOT / name for name in ("accounts", "common", "frontend", "games", "stats", "yukon_site")]
PLACEHOLDER = re.compile(r"(?<!\{)\{(\w+)\}(?!\})")


def in_language(text: object, lang: str) -> str:
    with translation.override(lang):
        return str(text)


TEXTS = {code.value: code.text for code in ErrorCode} | {
    "does_not_fit relaxed": DOES_NOT_FIT_RELAXED,
    "csrf_failed": CSRF_FAILED,
    "bad_status": BAD_STATUS,
}


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_error_text_is_in_english_and_in_german(name: str) -> None:
    english, german = in_language(TEXTS[name], "en"), in_language(TEXTS[name], "de")
    assert english and german and german != english, name
    assert set(PLACEHOLDER.findall(german)) == set(PLACEHOLDER.findall(english)), name


def test_each_code_has_an_error_status_and_the_rules_refusals_are_422() -> None:
    assert all(400 <= code.status < 600 for code in ErrorCode)
    assert {code.value for code in ErrorCode if code.status == 422} >= REASONS
    assert all(ErrorCode.of(reason).status == 422 for reason in REASONS)


def test_the_relaxed_rule_explains_its_own_fit() -> None:
    assert explain("does_not_fit", "en", relaxed=True) != explain("does_not_fit", "en")
    assert "Gegenfarbe" in explain("does_not_fit", "de-AT")
    assert explain("group_too_large", "en") == "At most 20 cards can be moved at once."


def test_an_error_of_a_code_outside_the_table_cannot_be_made() -> None:
    with pytest.raises(TypeError):
        ApplicationError("not_found")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ApplicationError.refusal("no_such_reason")
    error = ApplicationError(ErrorCode.STALE, moves=3, seq=2)
    assert error.status == 409
    with translation.override("de"):
        assert error.detail == "Das Spiel hat sich inzwischen geändert (Zug 3, nicht 2): bitte neu laden."
    with translation.override("en"):
        assert error.payload() == {
            "error": "stale",
            "detail": "The game has changed meanwhile (move 3, not 2): please reload it.",
        }


def _calls(path: Path) -> list[tuple[str, ast.Call]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "ApplicationError"
            ):
                name = f"ApplicationError.{func.attr}"
            found.append((name, node))
    return found


def _typed_parameters(path: Path) -> set[str]:
    """The names of parameters annotated ``ErrorCode`` (a code passed on, already a member)."""
    return {
        node.arg
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.arg) and isinstance(node.annotation, ast.Name) and node.annotation.id == "ErrorCode"
    }


def _is_member(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "ErrorCode"
        and node.attr in ErrorCode.__members__
    )


def test_every_raise_in_the_code_base_names_a_code_of_the_table() -> None:
    """Each ``ApplicationError(...)`` and ``api_error(...)`` names a member (``ErrorCode.X``, or
    ``ErrorCode.of(recorded)`` for a stored answer); each refusal a reason the engine can give."""
    wrong = []
    seen = 0
    for folder in SOURCES:
        for path in folder.rglob("*.py"):
            if "migrations" in path.parts:
                continue
            passed_on = _typed_parameters(path)
            for name, call in _calls(path):
                where = f"{path.relative_to(ROOT)}:{call.lineno}"
                if name in ("ApplicationError", "api_error", "error_body") and call.args:
                    seen += 1
                    first = call.args[0]
                    recorded = isinstance(first, ast.Call) and ast.unparse(first.func) == "ErrorCode.of"
                    typed = isinstance(first, ast.Name) and first.id in passed_on
                    if not (_is_member(first) or recorded or typed or path.name == "errors.py"):
                        wrong.append(where)
                elif name == "IllegalMove" and call.args and isinstance(call.args[0], ast.Constant):
                    seen += 1
                    if call.args[0].value not in REASONS:
                        wrong.append(where)
    assert seen > 30 and not wrong, wrong


def test_every_drf_error_the_api_can_answer_is_in_the_table() -> None:
    classes = [
        cls
        for module in (exceptions, parsers)
        for cls in vars(module).values()
        if isinstance(cls, type) and issubclass(cls, exceptions.APIException)
    ]
    answered = [cls for cls in classes if cls not in (exceptions.APIException, exceptions.ValidationError)]
    assert exceptions.Throttled in answered and parsers.PayloadTooLarge in answered
    for cls in answered:
        if cls is exceptions.ParseError:
            continue  # answered as bad_request, as every malformed input
        assert ErrorCode.of(cls.default_code).status == cls.status_code, cls


# -- the catalogues ----------------------------------------------------------------------------

CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def test_there_is_a_german_catalogue_for_the_server_and_one_for_the_scripts() -> None:
    assert [path.relative_to(LOCALE).as_posix() for path in CATALOGUES] == [
        "de/LC_MESSAGES/django.po",
        "de/LC_MESSAGES/djangojs.po",
    ]
    assert settings.LOCALE_PATHS == [LOCALE]


@pytest.mark.parametrize("po_path", CATALOGUES, ids=lambda path: path.name)
def test_every_entry_is_translated_with_its_placeholders(po_path: Path) -> None:
    po = polib.pofile(str(po_path))
    assert not po.metadata_is_fuzzy and "nplurals=2" in po.metadata["Plural-Forms"]
    for entry in po:
        name = f"{entry.msgctxt}: {entry.msgid}"
        assert entry.msgstr and not entry.fuzzy and not entry.obsolete, name
        assert set(PLACEHOLDER.findall(entry.msgstr)) == set(PLACEHOLDER.findall(entry.msgid)), name


@pytest.mark.parametrize("po_path", CATALOGUES, ids=lambda path: path.name)
def test_the_committed_mo_says_what_its_po_says(po_path: Path) -> None:
    """``make messages`` compiles them; a .po edited without compiling fails here."""
    mo_path = po_path.with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path} missing: make messages"

    def entries(catalogue: polib._BaseFile) -> dict[tuple[str | None, str], str]:
        return {(entry.msgctxt, entry.msgid): entry.msgstr for entry in catalogue if entry.msgstr}

    assert entries(polib.mofile(str(mo_path))) == entries(polib.pofile(str(po_path))), f"stale {mo_path}: make messages"


def _entries(po_name: str) -> dict[tuple[str | None, str], str]:
    po = polib.pofile(str(LOCALE / "de" / "LC_MESSAGES" / po_name))
    return {(entry.msgctxt, entry.msgid): entry.msgstr for entry in po}


def test_every_text_of_the_templates_is_in_the_catalogue() -> None:
    catalogue = _entries("django.po")
    found = 0
    for path in (ROOT / "frontend" / "templates").rglob("*.html"):
        text = path.read_text()
        assert "data-i18n" not in text, f"{path.name}: the server renders the text"
        for msgid, context in re.findall(r'\{% translate "([^"]+)" context "([^"]+)" %\}', text):
            found += 1
            assert (context, msgid) in catalogue, f"{path.name}: {context} {msgid!r} (make messages)"
    assert found > 100


SCRIPT_TEXT = re.compile(r'pgettext\(("(?:[^"\\]|\\.)*"), ("(?:[^"\\]|\\.)*")\)')


def script_texts() -> dict[str, str]:
    texts = {}
    for path in (ROOT / "frontend" / "static" / "frontend").glob("*.js"):
        for context, msgid in SCRIPT_TEXT.findall(path.read_text()):
            texts[json.loads(context)] = json.loads(msgid)
    return texts


def test_every_text_of_the_scripts_is_in_the_catalogue_and_agrees_with_the_pages() -> None:
    catalogue = _entries("djangojs.po")
    texts = script_texts()
    assert len(texts) > 100
    for context, msgid in texts.items():
        assert (context, msgid) in catalogue, f"{context} {msgid!r} (make messages)"
    # A key both the server and the scripts write reads the same in German (a placeholder is
    # %(name)s in the server's catalogue and {name} in the scripts').
    pages = {context: re.sub(r"%\((\w+)\)s", r"{\1}", msgstr) for (context, _), msgstr in _entries("django.po").items()}
    for (context, _), msgstr in catalogue.items():
        if context in pages:
            assert pages[context] == msgstr, context
