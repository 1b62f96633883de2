"""Campaigns and series are private by default, and a series shows a match only to those who may see that match
(issue 41, around the seats): others read "a private match", with no id and no game. Over HTTP."""

from __future__ import annotations

import pytest
from django.test import Client

from campaigns.models import Campaign, Series
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def finished_sheet(owner, *, public: bool, title: str = "Night at Cy's"):
    match = match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}], is_public=public,
                         title=title)  # fmt: skip
    match_event_record(match=match, user=owner, type="points_scored", seat=0, data={"points": 3})
    match_event_record(match=match, user=owner, type="game_ended", data={})
    return match


# -- private by default --------------------------------------------------------------------------------------


def test_the_api_creates_private_campaigns_and_series_unless_asked(api, client_for):
    series = api.post("/api/series/", {"name": "League", "game": "scoresheet"}, format="json")
    campaign = api.post("/api/campaigns/", {"name": "Saltmarsh"}, format="json")
    assert series.status_code == 201 and series.json()["is_public"] is False
    assert campaign.status_code == 201 and campaign.json()["is_public"] is False
    assert client_for(None).get(f"/api/series/{series.json()['id']}/").status_code == 404
    assert client_for(None).get(f"/api/campaigns/{campaign.json()['id']}/").status_code == 404
    shown = api.post("/api/series/", {"name": "Open", "game": "scoresheet", "is_public": True}, format="json")
    assert shown.json()["is_public"] is True
    assert api.post("/api/campaigns/", {"name": "Open", "is_public": True}, format="json").json()["is_public"] is True


def test_the_forms_leave_public_unticked_and_create_private(owner):
    web = Client()
    web.force_login(owner)
    for page in ("/campaigns/", "/series/"):
        html = web.get(page).content.decode()
        assert 'name="is_public"' in html and 'name="is_public" checked' not in html, page
        assert "Left unticked, only you and the recorders you choose see it." in html
    web.post("/campaigns/", {"name": "Saltmarsh"})
    web.post("/series/", {"name": "League", "game": "scoresheet", "place_points": "3, 2, 1"})
    assert Campaign.objects.get().is_public is False and Series.objects.get().is_public is False


# -- a private match in a public series ---------------------------------------------------------------------


@pytest.fixture
def league(api, owner, make_user, client_for):
    """A public series of Bo's with one public match of Bo's and one private match of the owner's (Bo records
    on that one and added it)."""
    bo = make_user("bo")
    bo_api = client_for(bo)
    series = bo_api.post("/api/series/", {"name": "League", "game": "scoresheet", "is_public": True}, format="json")
    series_id = series.json()["id"]
    public = finished_sheet(bo, public=True, title="Open night")
    private = finished_sheet(owner, public=False)
    private.recorders.add(bo)
    for match in (public, private):
        r = bo_api.post(f"/api/series/{series_id}/events/", {"type": "match_added", "data": {"match": match.pk}},
                        format="json")  # fmt: skip
        assert r.status_code == 201, r.content
    return series_id, public, private, bo_api


def test_strangers_read_a_private_match_and_nothing_of_it(league, client_for, stranger):
    series_id, public, private, _ = league
    for client in (client_for(None), client_for(stranger)):
        log = client.get(f"/api/series/{series_id}/events/").json()["results"]
        assert [e["data"] for e in log] == [{"match": public.pk, "game": "scoresheet"}, {"match": None, "game": None}]
        assert log[1]["text"] == "A private match added to the series."
        page = client.get(f"/api/series/{series_id}/events/?limit=10")
        assert f'"match":{private.pk}' not in page.content.decode().replace(" ", "")
        state = client.get(f"/api/series/{series_id}/standings/").json()
        assert state["hidden_matches"] == 1 and [m["id"] for m in state["matches"]] == [public.pk]
        html = Client().get(f"/series/{series_id}/history/").content.decode()
        assert "A private match added to the series." in html and f"Match {private.pk}" not in html
        assert "Night at Cy" not in html


def test_those_who_may_see_the_match_read_it(league, api):
    series_id, public, private, bo_api = league
    for client in (api, bo_api):  # the match's owner, and Bo who records on it
        log = client.get(f"/api/series/{series_id}/events/").json()["results"]
        assert [e["data"]["match"] for e in log] == [public.pk, private.pk]
        assert log[1]["text"] == f"Match {private.pk} added to the series."


def test_the_append_answer_hides_it_from_a_recorder_who_may_not_see_it(league, make_user, client_for):
    series_id, public, _, _ = league
    cy = make_user("cy")
    Series.objects.get(pk=series_id).recorders.add(cy)
    other = finished_sheet(cy, public=True, title="Cy's night")
    r = client_for(cy).post(f"/api/series/{series_id}/events/", {"type": "match_added", "data": {"match": other.pk}},
                            format="json")  # fmt: skip
    assert r.status_code == 201
    assert r.json()["state"]["matches"] == [public.pk, None, other.pk]
