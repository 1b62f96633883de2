"""URL routes: the web pages, the REST API under /api/, its schema and docs, the admin.

Including the apps' URL modules by name is Django's own wiring and the one way config reaches up to the apps
(tests/matches/test_import_direction.py): it imports none of them."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from config.health import healthz

api_patterns = [
    path("", RedirectView.as_view(pattern_name="api-docs"), name="api-root"),  # /api/ leads to the docs
    path("", include("matches.urls_api")),
    path("", include("campaigns.urls_api")),
    path("", include("frontend.api_urls")),  # auth/token/: the token sign-in (frontend.views.accounts)
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include(api_patterns)),
    path("offline/", include("frontend.offline.bundle")),  # the rulesets archive the match page runs offline
    path("", include("frontend.urls")),
]

handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
