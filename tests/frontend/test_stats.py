"""Looking back: a player's record and a game's statistics come from the projected match summaries."""

import pytest

from matches.models import Player
from matches.projections import project
from matches.services import match_create, match_event_record

# committed transactions: the summaries are projected from the global log
pytestmark = pytest.mark.django_db(transaction=True)


def play_to_the_end(match, owner, seat_takes_last):
    """Last Stone with 1 stone: the first seat takes it and wins."""
    match_event_record(match=match, user=owner, type="stones_taken", seat=seat_takes_last, data={"count": 1})


@pytest.fixture
def history(owner):
    a = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 1})
    b = match_create(owner=owner, game="last-stone", seats=[{"name": "Bo"}, {"name": "Ana"}], options={"stones": 1})
    c = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Cy"}], options={"stones": 5})
    play_to_the_end(a, owner, 0)  # Ana wins from seat 0
    play_to_the_end(b, owner, 0)  # Bo wins from seat 0
    match_event_record(match=c, user=owner, type="stones_taken", seat=0, data={"count": 1})  # still going
    project()
    return a, b, c


def test_player_page_shows_the_record(client, history):
    ana = Player.objects.get(name="Ana")
    page = client.get(f"/players/{ana.pk}/").content.decode()
    assert "Ana" in page and "<dt>Played</dt><dd>3</dd>" in page and "<dt>Won</dt><dd>1</dd>" in page
    assert "<dt>Lost</dt><dd>1</dd>" in page and "50 %" in page


def test_game_page_shows_wins_by_seat_and_top_players(client, history):
    page = client.get("/games/last-stone/").content.decode()
    assert "<dt>Matches</dt><dd>3</dd>" in page and "<dt>Finished</dt><dd>2</dd>" in page
    assert "Seat 0" in page and "2 (100 %)" in page
    assert page.index(">Ana<") < page.index(">Cy<")  # a winner ranks above a player without wins
    assert client.get("/games/").status_code == 200
    assert client.get("/games/chess/").status_code == 404


def test_private_matches_stay_out_of_strangers_stats(client, stranger, owner):
    private = match_create(owner=owner, game="last-stone", seats=[{"name": "Zoe"}, {"name": "Bo"}], is_public=False,
                           options={"stones": 1})  # fmt: skip
    play_to_the_end(private, owner, 0)
    project()
    zoe = Player.objects.get(name="Zoe")
    client.force_login(stranger)
    assert client.get(f"/players/{zoe.pk}/").status_code == 404
    assert "<dt>Matches</dt><dd>0</dd>" in client.get("/games/last-stone/").content.decode()
    client.force_login(owner)
    assert "<dt>Won</dt><dd>1</dd>" in client.get(f"/players/{zoe.pk}/").content.decode()
