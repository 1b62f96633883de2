"""The installable web app's server side: the service worker at the site root, the manifest, the offline page."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders

from frontend.offline_views import PRECACHE_ASSETS

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def test_the_worker_is_served_from_the_root_uncached_with_what_it_precaches(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-cache" in response["Cache-Control"]
    assert response["Service-Worker-Allowed"] == "/"
    text = response.content.decode()
    precache = json.loads(re.search(r"^const PRECACHE = (.*);$", text, re.M).group(1))
    assert "/no-connection/" in precache
    assert all(finders.find(asset) for asset in PRECACHE_ASSETS)  # every precached asset exists
    assert re.search(r'^const VERSION = "[0-9a-f]{16}";$', text, re.M)


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    body = response.json()
    assert body["display"] == "standalone" and body["start_url"] == "/" and body["scope"] == "/"
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/"))


def test_the_offline_page_is_the_same_for_everyone(client, django_user_model):
    anonymous = client.get("/no-connection/").content.decode()
    user = django_user_model.objects.create_user(username="keeper-of-secrets", password="x-long-pass-1")
    client.force_login(user)
    signed_in = client.get("/no-connection/").content.decode()
    assert "No connection" in signed_in and "keeper-of-secrets" not in signed_in
    strip = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
    assert strip.sub("", anonymous) == strip.sub("", signed_in)


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert "frontend/offline/register.js" in page
