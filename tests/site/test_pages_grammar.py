"""The pages keep no grammar of their own (issue 35, point 4): the engine owns the game codes and
the move text (``games/engine/codes.py``, ``games/engine/moves.py``). The server tells a page
what it needs: whether a code is one through the API's error (400 ``bad_code``), a move as its
fields (``from``, ``card``, ``to``) beside its text in the move log and the replay. So no page
script holds a pattern of a code or of a move's text, nor takes a move's text apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "frontend" / "static" / "frontend"

#: A JavaScript regular expression literal (after what can come before one), or ``new RegExp(``.
_REGEX = re.compile(
    r"""(?:(?<=[=(,:!&|?{};\[])|(?<=\breturn)|^)\s*/(?![/*])((?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n\[])+)/[dgimsuy]*"""
    r"""|new\s+RegExp\(\s*(["'`].*?["'`])""",
    re.M,
)
_COMMENTS = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S)

#: What a pattern of the game-code or move grammar holds: the code's prefix or rule letter, the
#: move's arrow, a suit class, a column or foundation place.
GRAMMAR = re.compile(r"yu|\[cr\]|>|SHDC|\[SHDC\]|\bt\\d|\bt\(\\d\)|\^f|\^t", re.I)
#: Taking a move's text or a code apart with string methods instead of a pattern.
TAKEN_APART = re.compile(r"""split\(\s*["'][>:-]["']\s*\)|(?:includes|startsWith|indexOf)\(\s*["'](?:>|yu)""", re.I)


def page_scripts() -> list[Path]:
    return sorted(PAGES.glob("*.js"))  # not vendor/


def grammar_in(source: str) -> list[str]:
    """The patterns and string operations of ``source`` (a page script) that read a code or a move's text."""
    code = _COMMENTS.sub("", source)
    found = []
    for match in _REGEX.finditer(code):
        pattern = match.group(1) or match.group(2)
        if GRAMMAR.search(pattern):
            found.append(pattern)
    found += [match.group(0) for match in TAKEN_APART.finditer(code)]
    return found


@pytest.mark.parametrize(
    ("source", "grammar"),
    [
        # what the pages held before (dialogs.js, replay.js, share.js)
        ("const CODE_RULE = /^\\s*yu[12]\\s*-\\s*([cr])\\b/i;", True),
        ("const match = /^(t(\\d)(?::(\\w\\w))?|f([SHDC]))>(t\\d|f)$/.exec(step.move);", True),
        ("const change = (/>f/.test(move) ? 1 : 0) - (/^f/.test(move) ? 1 : 0);", True),
        ('const rule = new RegExp("^YU[12]-([CR])-", "i");', True),
        ('const [from, to] = move.split(">");', True),
        ('if (code.startsWith("YU2")) long = true;', True),
        # what they may hold: a sentence's end, a key, the fields the server sends
        ("const withFigures = (text) => (/[.!?…]$/.test(text) ? text : `${text}.`);", False),
        ("if (/^[1-7]$/.test(event.key)) pick(Number(event.key));", False),
        ('const change = (entry.to === "f" ? 1 : 0) - (entry.from[0] === "f" ? 1 : 0);', False),
        ("// a comment may name t3:7H>t5 and /yu[12]/\nconst x = 1;", False),
        ('const url = "http://example.org/a"; const y = a / b / c;', False),
    ],
)
def test_a_grammar_in_a_page_script_is_found(source: str, grammar: bool) -> None:
    assert bool(grammar_in(source)) is grammar


def test_the_page_scripts_hold_no_code_or_move_grammar() -> None:
    found = {path.name: hits for path in page_scripts() if (hits := grammar_in(path.read_text()))}
    assert found == {}, "ask the server (an API error, a move's fields) instead of parsing codes or move texts"


def test_the_daily_page_keeps_the_day_in_a_store_not_in_module_variables() -> None:
    """GET daily's answer and when it came are the page's store (store.js, as the game's state is
    the table's); what is left at the module's level is the timer of its next try."""
    names = re.findall(r"^(?:let|var) (\w+)", (PAGES / "daily.js").read_text(), re.M)
    assert names == ["retryTimer"]
