"""The API, version 1: one place that lists every part of it (docs/api.md)."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView

from common.views import ApiDocsView, api_not_found

urlpatterns = [
    path("auth/", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("stats.urls")),
    path("", include("social.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", ApiDocsView.as_view(url_name="schema"), name="docs"),
    # Anything else under the API answers a JSON 404, never an HTML page.
    re_path(r"^", api_not_found),
]
