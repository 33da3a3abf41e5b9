"""Which ES modules a page loads: its entry module and what that imports, followed from the
static files themselves, so that the page's ``<link rel="modulepreload">`` list is never out of
date (the browser fetches the modules side by side instead of discovering one level of imports
after another).

Only static imports count (``import ... from "./x.js"``, ``import "./x.js"``,
``export ... from "./x.js"``): a dynamic ``import("./x.js")`` is loaded when it is needed
(``play.js`` fetches the standing and the share card only after a daily win), so it is not
preloaded.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders

#: A static import or re-export of a module beside it: the part between the keyword and ``from``
#: may span lines (``import {\n a,\n b\n} from "./x.js"``), but holds no quote and no semicolon.
_STATIC_IMPORT = re.compile(r"""^[ \t]*(?:import|export)\s+(?:[^"';]*?\bfrom\s*)?["'](\./[\w.-]+\.js)["']""", re.M)


def imports_of(source: str) -> list[str]:
    """The modules ``source`` imports statically, by file name, in the order they appear.

    >>> imports_of('import { t } from "./i18n.js";\\nimport "./strings.js";\\nconst m = import("./lazy.js");')
    ['i18n.js', 'strings.js']
    """
    return [name.removeprefix("./") for name in _STATIC_IMPORT.findall(source)]


def import_graph(entry: str, read: Callable[[str], str]) -> list[str]:
    """Every module ``entry`` imports, directly or through others (not ``entry`` itself), each once,
    depth first in the order of the import statements; ``read(name)`` gives a module's source."""
    seen: list[str] = []

    def visit(name: str) -> None:
        for imported in imports_of(read(name)):
            if imported != entry and imported not in seen:
                seen.append(imported)
                visit(imported)

    visit(entry)
    return seen


def _read_static(name: str) -> str:
    found = finders.find(f"frontend/{name}")
    if not found:
        raise FileNotFoundError(f"no static file frontend/{name}")
    return Path(str(found)).read_text(encoding="utf-8")


def page_modules(entry: str) -> tuple[str, ...]:
    """The modules to preload for the page whose script is ``frontend/<entry>``, read from the
    static files once (at the page's first request after a start), or each time under ``DEBUG``
    (``make run``: a script just edited counts at once)."""
    return _graph_of(entry) if settings.DEBUG else _graph_once(entry)


def _graph_of(entry: str) -> tuple[str, ...]:
    return tuple(import_graph(entry, _read_static))


_graph_once = functools.cache(_graph_of)
