"""Pages compressed: Django's GZipMiddleware for HTML answers only.

The API's JSON answers stay as they are: they are small, a move's is on the hottest path (its CPU
per request is measured by `make loadtest`), and an API client may not ask for compression anyway.

BREACH needs a secret that stays the same across many answers beside text the attacker chooses.
No page carries one: the CSRF token travels in its cookie (a header, never compressed) and, where
a page holds it, Django masks it anew in every answer; session keys are in cookies only. Django
also pads every gzip answer with random bytes (its BREACH mitigation), which blurs the lengths.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware


class PageGZipMiddleware(GZipMiddleware):
    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not response.get("Content-Type", "").startswith("text/html"):
            return response
        return super().process_response(request, response)
