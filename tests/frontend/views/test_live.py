"""The live table's version endpoint: tiny, cacheable by the browser (ETag/304), private where the match is."""

from __future__ import annotations

import pytest

from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture
def salty(owner):
    return match_create(is_public=True, owner=owner, game="get-salty", seats=[{"name": "Ana"}, {"name": "Bo"}])


def test_version_answers_304_until_a_move_is_recorded(client, salty, owner):
    first = client.get(f"/matches/{salty.pk}/version/")
    assert first.status_code == 200 and first.json() == {"version": 0}
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    again = client.get(f"/matches/{salty.pk}/version/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"]
    match_event_record(match=salty, user=owner, type="victory_attribute_chosen", seat=0, data={"attribute": "color"})
    moved = client.get(f"/matches/{salty.pk}/version/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved.json() == {"version": 1} and moved["ETag"] != first["ETag"]


def test_a_private_match_answers_only_its_owner_and_recorders(client, salty, owner, stranger, make_user):
    salty.is_public = False
    salty.save()
    assert client.get(f"/matches/{salty.pk}/version/").status_code == 404
    client.force_login(stranger)
    assert client.get(f"/matches/{salty.pk}/version/").status_code == 404
    recorder = make_user("recorder")
    salty.recorders.add(recorder)
    client.force_login(recorder)
    assert client.get(f"/matches/{salty.pk}/version/").json() == {"version": 0}
    client.force_login(owner)
    assert client.get(f"/matches/{salty.pk}/version/").json() == {"version": 0}
    assert client.get("/matches/999999/version/").status_code == 404
    assert client.post(f"/matches/{salty.pk}/version/").status_code == 405


def test_the_version_poll_costs_one_query(client, salty, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert client.get(f"/matches/{salty.pk}/version/").status_code == 200


# -- the pushed stream's refusals (its frames: tests/frontend/test_browser_live_push.py, on the production server) --


@pytest.mark.django_db(transaction=True)
def test_the_stream_refuses_before_it_opens(async_client, client, salty, stranger, monkeypatch):
    """A bad cursor is a 400 naming it, a match the reader may not see a 404 as its page, another method a 405, and
    a WSGI server (runserver, gunicorn, this test client) answers 501 at once: the page then polls."""
    import asyncio

    url = f"/matches/{salty.pk}/live/"

    async def answers():
        bad = await async_client.get(url + "?from=soon")
        post = await async_client.post(url)
        return bad, post

    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import sync_to_async
    from django.db import connections

    from frontend.views import live as live_views

    reads = ThreadPoolExecutor(max_workers=1)  # the stream's reads, here: its connection closed after the test
    monkeypatch.setattr(live_views, "_READS", reads)
    try:
        bad, post = asyncio.run(answers())
        salty.is_public = False
        salty.save()
        hidden = asyncio.run(async_client.get(url))
    finally:  # the async views' database work ran in asgiref's thread and the reads' one: their connections close
        asyncio.run(sync_to_async(connections.close_all)())
        reads.submit(connections.close_all).result()
        reads.shutdown()
    assert bad.status_code == 400 and "from" in bad.json()["errors"] and "version number" in bad.json()["detail"]
    assert post.status_code == 405
    assert hidden.status_code == 404
    assert client.get(url).status_code == 501 and client.get(url).json()["code"] == "no_push"
