"""Pages a table expects: the board's stylesheet in the head, a dark mode, games in progress first, a replay
that says so, and an /api/ that leads somewhere."""

from __future__ import annotations

import pytest

from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture
def web(client, owner):
    client.force_login(owner)
    return client


def test_the_board_stylesheet_is_linked_in_the_head_once(web, owner):
    match = match_create(owner=owner, game="get-salty", seats=[{"name": "Ana"}, {"name": "Bo"}])
    page = web.get(f"/matches/{match.pk}/").content.decode()
    head, body = page.split("</head>")
    assert "frontend/get-salty.css" in head and "get-salty.css" not in body


def test_dark_mode_follows_the_phone(client):
    css = b"".join(client.get("/static/frontend/app.css").streaming_content).decode()
    assert "@media (prefers-color-scheme: dark)" in css


def test_home_lists_matches_in_progress_first(web, owner):
    done = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 1},
                        title="Finished game")  # fmt: skip
    match_event_record(match=done, user=owner, type="stones_taken", seat=0, data={"count": 1})
    match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], title="Still on the table")
    page = web.get("/").content.decode()
    mine = page.split("My matches")[1]
    assert mine.index("Still on the table") < mine.index("Finished game")


def test_a_history_link_lands_on_a_page_that_says_it_is_a_replay(web, stone_match, owner):
    for seat in (0, 1):
        match_event_record(match=stone_match, user=owner, type="stones_taken", seat=seat, data={"count": 1})
    history = web.get(f"/matches/{stone_match.pk}/history/").content.decode()
    assert f'href="/matches/{stone_match.pk}/?at=1#board"' in history
    page = web.get(f"/matches/{stone_match.pk}/?at=1").content.decode()
    bar = page.split('id="tablebar"')[1].split('<ol class="players"')[0]
    assert "Replaying move 1 of 2" in bar and 'rel="next"' in bar and "Back to the game" in bar
    assert "data-live" not in page.split('id="tablebar"')[1].split(">")[0]  # a replay does not follow the table


def test_api_root_leads_to_the_docs(client):
    r = client.get("/api/")
    assert r.status_code == 302 and r["Location"] == "/api/docs/"


def test_rematch_keeps_players_options_title_and_recorders(web, owner, stranger, make_user, client):
    from matches.models import Match

    recorder = make_user("recorder")
    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}],
                         options={"stones": 1}, title="Friday", is_public=False, recorders=[recorder])  # fmt: skip
    match_event_record(match=match, user=owner, type="stones_taken", seat=0, data={"count": 1})
    page = web.get(f"/matches/{match.pk}/").content.decode()
    assert "Won by Ana: took the last stone" in page and "Rematch: same players and options" in page
    r = web.post(f"/matches/{match.pk}/rematch/")
    new = Match.objects.exclude(pk=match.pk).get()
    assert r.status_code == 302 and r["Location"] == f"/matches/{new.pk}/"
    assert [s.player_id for s in new.seats.order_by("index")] == [s.player_id for s in match.seats.order_by("index")]
    assert new.stream.options == match.stream.options and new.title == "Friday" and not new.is_public
    assert list(new.recorders.all()) == [recorder] and new.stream.version == 0
    client.force_login(recorder)  # only the owner starts a rematch
    assert client.post(f"/matches/{match.pk}/rematch/").status_code == 403
    assert Match.objects.count() == 2


def test_the_owner_renames_a_match(web, owner, stone_match, client, make_user):
    assert web.post(f"/matches/{stone_match.pk}/rename/", {"title": "  Sunday   rematch "}).status_code == 302
    stone_match.refresh_from_db()
    assert stone_match.title == "Sunday rematch"
    assert web.post(f"/matches/{stone_match.pk}/rename/", {"title": "x" * 121}).status_code == 400
    other = make_user("other")
    stone_match.recorders.add(other)
    client.force_login(other)
    assert client.post(f"/matches/{stone_match.pk}/rename/", {"title": "Mine"}).status_code == 403
    stone_match.refresh_from_db()
    assert stone_match.title == "Sunday rematch"
