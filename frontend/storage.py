"""The static files as served in production: minified, content-hashed, precompressed.

``collectstatic`` copies the files to ``STATIC_ROOT``; then this storage

1. minifies the site's own scripts and style sheets there (rjsmin, rcssmin: whitespace and
   comments out, nothing renamed; the vendored ``*.min.js`` are minified already),
2. gives every file a name with a hash of its content (Django's manifest storage), rewriting the
   ES modules' ``import ... from "./x.js"`` to the hashed names too, so that a module and the
   ``<link rel="modulepreload">`` of the page name the same file (one instance of each module),
3. writes a gzip and a brotli copy of each (WhiteNoise), which WhiteNoise serves by the
   request's ``Accept-Encoding``, with ``Cache-Control: max-age=315360000, public, immutable``
   for the hashed names.

Under ``DEBUG`` (``make run``) the pages name the plain files, served from the apps themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import brotli
import rcssmin
import rjsmin
from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

#: Only the site's own files are minified (admin and API docs ship as they are).
MINIFIED_PREFIX = "frontend/"
#: The libraries' files ship as they were published (minified already, or loaded by name).
VENDOR_PREFIX = "frontend/vendor/"
MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}
HASHED = re.compile(r"\.[0-9a-f]{12}\.\w+$")


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

    def post_process(self, paths: dict[str, Any], dry_run: bool = False, **options: Any) -> Any:
        if not dry_run:
            # The hashing reads each file from where it was found: the minified ones from here.
            paths = {name: (self, name) if self.minify(name) else found for name, found in paths.items()}
        yield from super().post_process(paths, dry_run=dry_run, **options)

    def minify(self, name: str) -> bool:
        """Minify the collected copy of ``name`` if it is one of the site's scripts or style sheets."""
        suffix = Path(name).suffix
        if (
            not name.startswith(MINIFIED_PREFIX)
            or name.startswith(VENDOR_PREFIX)
            or suffix not in MINIFIERS
            or name.endswith(".min" + suffix)
        ):
            return False
        path = Path(self.path(name))
        path.write_text(MINIFIERS[suffix](path.read_text(encoding="utf-8")), encoding="utf-8")
        return True

    def compress_files(self, paths: Iterable[str]) -> Iterator[tuple[str, str]]:
        """Compress what is new only: a hashed file's copies are of the same content by its name,
        another's are current if not older than it. (Compressing the API docs' and the admin's
        files again took a minute and a half on every `collectstatic`.) The hashed copies of the
        files Pyodide loads by their plain names are never asked for: not compressed."""
        wanted = [path for path in paths if not self._compressed(path) and not _unused_copy(path)]
        yield from super().compress_files(wanted)

    def create_compressor(self, **kwargs: Any) -> Compressor:
        return SizedCompressor(**kwargs)

    def _compressed(self, name: str) -> bool:
        path = Path(self.path(name))
        copies = [path.with_name(path.name + ext) for ext in (".gz", ".br")]
        if not all(copy.exists() for copy in copies):
            return False
        return bool(HASHED.search(name)) or all(copy.stat().st_mtime >= path.stat().st_mtime for copy in copies)


#: Pyodide's files beside its module, which it loads by their published names (frontend/pwa.py).
_PYODIDE_SIBLING = re.compile(
    r"^frontend/vendor/pyodide-[^/]+/(?!pyodide\.)[^/]+\.[0-9a-f]{12}\.\w+$|"
    r"^frontend/vendor/pyodide-[^/]+/pyodide\.asm\.[0-9a-f]{12}\.\w+$"
)


def _unused_copy(name: str) -> bool:
    """A hashed copy of a file Pyodide loads by its plain name (nobody asks for it).

    >>> folder = "frontend/vendor/pyodide-1.0/"
    >>> _unused_copy(folder + "pyodide.asm.0123456789ab.wasm"), _unused_copy(folder + "pyodide.asm.wasm")
    (True, False)
    >>> _unused_copy(folder + "pyodide.0123456789ab.mjs"), _unused_copy("frontend/app.0123456789ab.css")
    (False, False)
    """
    return bool(_PYODIDE_SIBLING.match(name))


class SizedCompressor(Compressor):
    """Brotli at its best (quality 11) for files up to a megabyte; above that quality 9, which
    takes Pyodide's 9.6 MB WebAssembly to 3.1 MB in 2 s where 11 takes 80 s for 2.7 MB."""

    LARGE = 1 << 20

    @staticmethod
    def compress_brotli(data: bytes) -> bytes:
        return brotli.compress(data, quality=9 if len(data) > SizedCompressor.LARGE else 11)
