"""The state as data is a developer's (issue 23 item 14): behind a stored per-user setting, off by default. The
whole-word check of every page's visible text runs in Chromium (``test_browser_players_words.py``)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def test_the_state_as_data_is_behind_a_developer_toggle(client, owner, stone_match, make_user):
    """Off by default; the API token page turns it on for this user only, and off again."""
    client.force_login(owner)
    page = client.get(f"/matches/{stone_match.pk}/").content.decode()
    assert "&quot;pile&quot;" not in page and "state as data" not in page and "?data=1" not in page
    settings_page = client.get("/accounts/token/").content.decode()
    assert 'name="developer_view"' in settings_page and 'id="id_developer_view" checked' not in settings_page
    assert "&quot;pile&quot;" not in client.get(f"/matches/{stone_match.pk}/?data=1").content.decode()

    response = client.post("/accounts/token/", {"action": "developer", "developer_view": "on"}, follow=True)
    assert "Developer view is on" in response.content.decode()
    assert 'id="id_developer_view" checked' in client.get("/accounts/token/").content.decode()
    shown = client.get(f"/matches/{stone_match.pk}/").content.decode()
    assert 'id="state-data"' in shown and "&quot;pile&quot;: 10" in shown
    recorder, other = make_user("ed"), Client()  # another user who may read the match: still off for them
    stone_match.recorders.add(recorder)
    other.force_login(recorder)
    assert "&quot;pile&quot;" not in other.get(f"/matches/{stone_match.pk}/").content.decode()

    client.post("/accounts/token/", {"action": "developer"})  # the box left unticked
    assert "&quot;pile&quot;" not in client.get(f"/matches/{stone_match.pk}/").content.decode()
    assert Token.objects.filter(user=owner).count() == 0  # the toggle leaves the API token alone
