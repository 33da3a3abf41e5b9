"""Top-level URLs: the JSON API under /api/v1/ and the admin."""

from django.contrib import admin
from django.urls import include, path, re_path

from common.health import healthz, readyz
from common.metrics import metrics_view
from common.views import api_not_found

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),
    path("api/v1/", include("yukon_site.api_urls")),
    re_path(r"^api/", api_not_found),
    path("admin/", admin.site.urls),
    path("", include("frontend.urls")),
]

handler400 = "common.views.bad_request"
handler403 = "common.views.permission_denied"
handler404 = "common.views.not_found"
handler500 = "common.views.server_error"
