"""Looking back: dashboards of a player, of me, of a game and of a group, read from the play_stats projection."""

import pytest

from matches.models import Player
from matches.projections.tasks import project_all
from matches.services import match_create, match_event_record

# committed transactions: the read models are projected from the global log
pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


def play_to_the_end(match, owner, seat_takes_last):
    """Last Stone with 1 stone: the seat to move takes it and wins."""
    match_event_record(match=match, user=owner, type="stones_taken", seat=seat_takes_last, data={"count": 1})


@pytest.fixture
def history(owner):
    a = match_create(
        is_public=True, owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 1}
    )
    b = match_create(
        is_public=True, owner=owner, game="last-stone", seats=[{"name": "Bo"}, {"name": "Ana"}], options={"stones": 1}
    )
    c = match_create(
        is_public=True, owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Cy"}], options={"stones": 5}
    )
    play_to_the_end(a, owner, 0)  # Ana wins from seat 0
    play_to_the_end(b, owner, 0)  # Bo wins from seat 0
    match_event_record(match=c, user=owner, type="stones_taken", seat=0, data={"count": 1})  # still going
    project_all()
    return a, b, c


def test_player_page_shows_the_record_streaks_and_head_to_head(client, history):
    ana = Player.objects.get(name="Ana")
    page = client.get(f"/players/{ana.pk}/").content.decode()
    assert "<dt>Played</dt><dd>2</dd>" in page and "<dt>Won</dt><dd>1</dd>" in page  # finished matches only
    assert "<dt>Lost</dt><dd>1</dd>" in page and "50 %" in page
    assert "Current: 1 loss in a row" in page and "Longest winning streak: 1" in page
    assert "Plays per month, by game" in page or "Plays per month" in page
    assert ">Bo</a>" in page  # head to head
    assert "Started 1 finished match and won 1 (100 %)" in page


def test_game_page_shows_seats_length_and_top_players(client, history):
    page = client.get("/games/last-stone/").content.decode()
    assert "<dt>Finished plays</dt><dd>2</dd>" in page
    assert '<th scope="row">Seat 1</th><td>2</td><td>2</td><td>100 %</td>' in page
    assert "The first player won 2 of 2 games (100 %)" in page
    assert page.index(">Ana<") < page.index(">Cy<") if ">Cy<" in page else ">Ana<" in page
    assert client.get("/games/").status_code == 200
    assert client.get("/games/chess/").status_code == 404


def test_filters_narrow_every_page_and_bad_filters_are_explained(client, owner, history):
    ana, cy = Player.objects.get(name="Ana"), Player.objects.get(name="Cy")
    client.force_login(owner)
    assert "<dt>Played</dt><dd>0</dd>" in client.get(f"/players/{ana.pk}/?since=2999-01-01").content.decode()
    group = client.get(f"/stats/players/?players={ana.pk}&players={cy.pk}").content.decode()
    assert "No finished matches for this filter" in group  # Ana and Cy have not finished a match together
    bad = client.get("/games/last-stone/?since=yesterday")
    assert bad.status_code == 200 and "From: Must be a date" in bad.content.decode()
    bad = client.get("/stats/players/?players=a,b").content.decode()
    assert "Players: Must be player ids" in bad and "players:" not in bad  # the form's words, not the query key


def test_same_named_players_of_two_owners_are_told_apart(client, owner, make_user):
    other = make_user("other")
    for who in (owner, other):
        m = match_create(
            is_public=True, owner=who, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 1}
        )
        play_to_the_end(m, who, 0)
    project_all()
    page = client.get("/stats/players/").content.decode()
    assert "(owner)" in page and "(other)" in page and page.count(">Ana</a>") == 2


def test_private_matches_stay_out_of_strangers_stats(client, stranger, owner):
    private = match_create(owner=owner, game="last-stone", seats=[{"name": "Zoe"}, {"name": "Bo"}], is_public=False,
                           options={"stones": 1})  # fmt: skip
    play_to_the_end(private, owner, 0)
    project_all()
    zoe = Player.objects.get(name="Zoe")
    client.force_login(stranger)
    assert client.get(f"/players/{zoe.pk}/").status_code == 404
    assert "<dt>Finished plays</dt><dd>0</dd>" in client.get("/games/last-stone/").content.decode()
    client.force_login(owner)
    assert "<dt>Won</dt><dd>1</dd>" in client.get(f"/players/{zoe.pk}/").content.decode()


def test_my_page_follows_me_across_owners(client, owner, make_user):
    me = make_user("me")
    friend = make_user("friend")
    m1 = match_create(
        is_public=True,
        owner=owner,
        game="last-stone",
        seats=[{"name": "Me", "user": me}, {"name": "Bo"}],
        options={"stones": 1},
    )
    m2 = match_create(
        is_public=True,
        owner=friend,
        game="last-stone",
        seats=[{"name": "Bo"}, {"name": "Mine", "user": me}],
        options={"stones": 1},
    )
    play_to_the_end(m1, owner, 0)  # I win at owner's table
    play_to_the_end(m2, friend, 0)  # I lose at friend's table
    project_all()
    client.force_login(me)
    page = client.get("/stats/me/").content.decode()
    assert "<dt>Played</dt><dd>2</dd>" in page and "<dt>Won</dt><dd>1</dd>" in page
    assert "(owner" in page and "(friend" in page


def test_import_export_page(client, owner):
    client.force_login(owner)
    page = client.get("/stats/import-export/").content.decode()
    assert "/api/export/bgstats/" in page and "/api/export/bgg/" in page and 'type="file"' in page
    assert ".xml" in page and "BoardGameGeek" in page
    assert client.post("/stats/import-export/", {}).status_code == 302


def test_games_page_lists_each_score_sheet_game_by_name(client, owner):
    for title in ("Azul", "Cascadia"):
        m = match_create(
            is_public=True, owner=owner, game="scoresheet", seats=[{"name": "Ana"}], options={"title": title}
        )
        match_event_record(match=m, user=owner, type="points_scored", seat=0, data={"points": 3})
        match_event_record(match=m, user=owner, type="game_ended", data={})
    project_all()
    page = client.get("/games/").content.decode()
    assert "?title=Azul&amp;" in page and ">Cascadia</a>" in page
    assert "<h1>Azul</h1>" in client.get("/games/scoresheet/?title=Azul").content.decode()
