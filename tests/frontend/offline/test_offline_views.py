"""The installable web app's server side: the service worker at the site root, the manifest, the offline page."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders

from frontend.offline.views import PRECACHE_ASSETS

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


def _meta_reader(response) -> str:
    return re.search(r'<meta name="chronicle-reader" content="([^"]*)">', response.content.decode()).group(1)


def test_every_page_names_its_reader_opaquely_and_alike_in_header_and_page(client, make_user, stone_match):
    """frontend/offline/reader.py: the token the service worker and the queue compare (whose kept pages and entries)."""
    page = f"/matches/{stone_match.pk}/"
    anonymous = client.get("/")
    assert anonymous["X-Chronicle-Reader"] == "anonymous" == _meta_reader(anonymous)

    ana, bo = make_user("ana"), make_user("bo")
    client.force_login(ana)
    home, match_page = client.get("/"), client.get(page)
    token = home["X-Chronicle-Reader"]
    assert re.fullmatch(r"[0-9a-f]{20}", token) and str(ana.pk) != token
    assert match_page["X-Chronicle-Reader"] == token == _meta_reader(home) == _meta_reader(match_page)
    assert "X-Chronicle-Reader" not in client.get(f"/api/matches/{stone_match.pk}/").headers  # HTML only

    client.force_login(bo)
    assert client.get("/")["X-Chronicle-Reader"] not in (token, "anonymous")
    client.logout()
    assert client.get(page)["X-Chronicle-Reader"] == "anonymous"  # a session gone: the kept pages are not its


def test_the_seed_carries_the_log_for_an_undo_checked_offline_only_when_the_reader_sees_every_entry(
    client, owner, monkeypatch
):
    """``frontend.offline.seed.offline_seed`` › ``log``: every entry up to the head for a game that hides nothing
    (the phone replays it to check an undo of a recorded entry), none where the reader may not see every entry
    as recorded, none past ``OFFLINE_LOG_MAX``; and the undo's default reason the pages record."""
    from frontend.offline import seed as seed_module
    from matches.services import match_create, match_event_record
    from tests.matches.hidden_reads import seed_of

    client.force_login(owner)
    stones = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}])
    match_event_record(match=stones, user=owner, type="stones_taken", seat=0, data={"count": 2})
    seed = json.loads(seed_of(client.get(f"/matches/{stones.pk}/").content.decode()))
    assert seed["log"] == [{"version": 1, "type": "stones_taken", "seat": 0, "data": {"count": 2}}]
    assert seed["undo_reason"] == "Undone at the table"

    hiding = match_create(owner=owner, game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo"}])
    assert json.loads(seed_of(client.get(f"/matches/{hiding.pk}/").content.decode()))["log"] is None

    monkeypatch.setattr(seed_module, "OFFLINE_LOG_MAX", 0)
    assert json.loads(seed_of(client.get(f"/matches/{stones.pk}/").content.decode()))["log"] is None
