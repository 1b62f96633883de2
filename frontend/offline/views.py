"""The installable web app: the service worker at the site root, the web app manifest and the offline page
(docs/ARCHITECTURE.md › Offline at the table)."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse

from rulesets import Ruleset

# What every page needs, cached when the worker installs (the rest is cached as it is used).
PRECACHE_ASSETS = (
    "frontend/app.css",
    "frontend/app.js",
    "frontend/forms.js",
    "frontend/favicon.svg",
    "frontend/icon-192.png",
    "frontend/vendor/htmx-2.0.11.min.js",
    "frontend/vendor/idb-8.0.3.js",
    "frontend/offline/register.js",
    "frontend/offline/queue.js",
    "frontend/offline/network.js",
    "frontend/offline/table.js",
    "frontend/offline/table-state.js",
    "frontend/offline/table-position.js",
    "frontend/offline/table-draw.js",
    "frontend/offline/table-record.js",
    "frontend/offline/table-sync.js",
    "frontend/offline/table-picks.js",
    "frontend/offline/table-photos.js",
    "frontend/offline/entry.js",
    "frontend/offline/rules.js",
    "frontend/offline/rules-worker.js",
    "frontend/offline/offline-page.js",
    "frontend/offline/engine.js",
    "frontend/offline/local.js",
    "frontend/offline/local-page.js",
    "frontend/offline/new-match.js",
)
WORKER_SOURCE = "frontend/offline/sw.js"


@cache
def _worker_text(static_url: str) -> str:
    """The worker's script: its settings (what to precache, its version) above the static file's text. The
    version is a hash of both, so a changed worker or asset list installs afresh and drops the old assets."""
    path = finders.find(WORKER_SOURCE)
    assert isinstance(path, str), WORKER_SOURCE
    with open(path, encoding="utf-8") as f:
        source = f.read()
    precache = [static(p) for p in PRECACHE_ASSETS] + [reverse("offline")]
    for asset in PRECACHE_ASSETS:  # an asset's change is a new version too (they are not content-hashed)
        found = finders.find(asset)
        if isinstance(found, str):
            with open(found, "rb") as f:
                source += "\n// " + hashlib.sha256(f.read()).hexdigest()[:12] + " " + asset
    version = hashlib.sha256((source + json.dumps(precache)).encode()).hexdigest()[:16]
    head = (
        f"const PRECACHE = {json.dumps(precache)};\n"
        f"const VERSION = {json.dumps(version)};\n"
        f"const OFFLINE_URL = {json.dumps(reverse('offline'))};\n"
    )
    return head + source


def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: served from the root so its scope is the whole site; never cached by HTTP (the browser
    compares it byte for byte on each visit and installs a changed one)."""
    response = HttpResponse(_worker_text(static("")), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


def manifest(request: HttpRequest) -> JsonResponse:
    """``/manifest.webmanifest``: what a phone needs to install Chronicle as an app."""
    icons = [
        {"src": static("frontend/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        {"src": static("frontend/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("frontend/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any maskable"},
    ]
    body = {
        "name": "Chronicle",
        "short_name": "Chronicle",
        "description": "Record tabletop games as they are played.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f4e9d8",
        "theme_color": "#1f4e5f",
        "icons": icons,
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


def offline(request: HttpRequest) -> HttpResponse:
    """The page shown for an address never opened on this device while there is no network. It is the same
    for everyone (the worker caches it once): the match pages this device keeps are listed by its script."""
    return render(request, "frontend/offline.html")


@login_required
def match_local(request: HttpRequest, local_id: str = "") -> HttpResponse:
    """The page of a match started on this phone without a network (``/matches/local-<uuid>/``): one shell for
    all of them, filled in the browser from IndexedDB (``offline/local-page.js``); the service worker keeps it
    (from ``/matches/local/``) when a new-match page is opened, and serves it for every such address."""
    return render(request, "frontend/match_local.html")


def offline_start_forms(ruleset: Ruleset, seat_count: int) -> list[dict[str, Any]]:
    """The entry forms of a new match of ``ruleset`` (``frontend.forms.recording.move_forms`` at the start, default
    options), which the new-match page carries for a match started on it offline; [] where the defaults do
    not make a match (an option with no default)."""
    from frontend.forms.recording import move_forms
    from matches.errors import InvalidInput
    from matches.services import options_clean

    try:
        options = options_clean(ruleset, {}, seat_count)
    except InvalidInput:
        return []
    now, other = move_forms(ruleset, ruleset.initial_state(options, seat_count), None, None, {})
    return [*now, *other]
