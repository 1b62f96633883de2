"""Lists of matches sort by when the game was played: an imported (or logged) play's date, else when the match
was started, newest first; imported and native matches mixed, on the API, the home page and the match list."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from matches.interop.jobs import import_bytes
from matches.models import Match
from matches.services import match_create
from tests.matches.interop.builders import BgStatsFile

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


@pytest.fixture
def mixed(owner):
    """Three imported plays (2021, 2023, 2019, imported in that order) and three native matches: one started
    now, one started in June 2022, one started now but logged as played in January 2020. Returns the names
    in the order the lists must show them (newest play first)."""
    f = BgStatsFile()
    azul, ana, bo = f.game("Azul"), f.player("Ana"), f.player("Bo")
    rows = [{"playerRefId": ana, "score": 10, "winner": True}, {"playerRefId": bo, "score": 5, "winner": False}]
    for date in ("2021-03-12 19:30:00", "2023-05-01 20:00:00", "2019-01-01 18:00:00"):
        f.play(azul, rows, date=date)
    import_bytes(owner=owner, data=f.bytes(), source="bgstats")
    seats = [{"name": "Ana"}, {"name": "Bo"}]
    names = {}
    for title in ("started now", "started 2022", "played 2020"):
        names[title] = match_create(owner=owner, game="last-stone", seats=seats, options={"stones": 10}, title=title)
    Match.objects.filter(pk=names["started 2022"].pk).update(created_at=datetime(2022, 6, 1, tzinfo=UTC))
    Match.objects.filter(pk=names["played 2020"].pk).update(played_at=datetime(2020, 1, 1, tzinfo=UTC))
    for uid, label in (("play-000001", "play 2021"), ("play-000002", "play 2023"), ("play-000003", "play 2019")):
        names[label] = Match.objects.get(source_uuid=uid)
    return {label: m.pk for label, m in names.items()}


NEWEST_PLAY_FIRST = ["started now", "play 2023", "started 2022", "play 2021", "played 2020", "play 2019"]


def test_the_api_lists_matches_by_play_date(api, mixed):
    ids = [m["id"] for m in api.get("/api/matches/").json()["results"]]
    assert ids == [mixed[label] for label in NEWEST_PLAY_FIRST]
    finished = [m["id"] for m in api.get("/api/matches/?status=finished").json()["results"]]
    assert finished == [mixed[label] for label in ("play 2023", "play 2021", "play 2019")]


def test_the_home_page_and_the_match_list_sort_by_play_date(client, owner, mixed):
    client.force_login(owner)
    home = [m.pk for m in client.get("/").context["mine"]]
    # the games still on the table first, each group by play date
    in_progress = [label for label in NEWEST_PLAY_FIRST if not label.startswith("play ")]
    finished = [label for label in NEWEST_PLAY_FIRST if label.startswith("play ")]
    assert home == [mixed[label] for label in in_progress + finished]
    listed = [m.pk for m in client.get("/matches/").context["matches"]]
    assert listed == [mixed[label] for label in NEWEST_PLAY_FIRST]
