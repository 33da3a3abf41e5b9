"""``make lighthouse`` (bench/lighthouse/run.py) scores every page the site has: each page route of
frontend/urls.py is one of its pages (issue 37 item 6: last month it listed nine of them)."""

from __future__ import annotations

import importlib.util
import uuid
from pathlib import Path

from django.urls import Resolver404, resolve

from frontend.urls import urlpatterns

RUN = Path(__file__).resolve().parents[2] / "bench" / "lighthouse" / "run.py"
#: Routes that are no page: a form's target, the script catalogue, the board's picture.
NOT_PAGES = {"language", "js-catalog", "board-image", "app-manifest", "app-worker", "app-icon", "app-engine"}


def bench_pages() -> list[tuple[str, str, bool]]:
    spec = importlib.util.spec_from_file_location("lighthouse_run", RUN)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.PAGES)


def test_make_lighthouse_scores_every_page_route() -> None:
    scored = set()
    for _label, path, _logged_in in bench_pages():
        try:
            scored.add(resolve(path.format(user="someone", game=uuid.uuid4(), club="a-club")).url_name)
        except Resolver404:
            scored.add("404")
    pages = {pattern.name for pattern in urlpatterns} - NOT_PAGES

    assert pages - scored == set()
    assert "404" in scored  # and the error page
