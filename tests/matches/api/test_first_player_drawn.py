"""Who starts, drawn by the server when a match is created with "who starts: random": the draw is the match's
first entry, replay gives the same first player, games that name who starts refuse it; API, pages, stats."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from matches.errors import InvalidInput, RuleBroken
from matches.models import Event as EventRow
from matches.models import Match
from matches.services import match_create, match_event_record, match_event_void, match_rematch
from matches.store import events as store
from rulesets import Event, get_ruleset
from rulesets.replay import FIRST_PLAYER_DRAWN, replay

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]

TWO = [{"name": "Ana"}, {"name": "Bo"}]


def entries(match):
    return list(
        EventRow.objects.filter(stream_id=match.stream_id).order_by("version").values_list("type", "seat", "data")
    )


def test_the_draw_is_recorded_as_the_first_entry_and_replay_gives_the_same_first_player(owner):
    match = match_create(is_public=True, owner=owner, game="get-salty", seats=TWO, options={"first_seat": "random"})
    [(type_, seat, data)] = entries(match)
    assert type_ == FIRST_PLAYER_DRAWN and seat is None and data["seat"] in (0, 1)
    drawn = data["seat"]
    head = store.head_load(match.stream_id, fresh=True)
    assert head.version == 1 and head.state["turn"] == drawn and head.state["first_seat"] == drawn
    assert head.options["first_seat"] == "random"  # the match says how it was set up; the log says who was drawn
    assert Match.objects.get(pk=match.pk).first_seat == drawn
    ruleset = get_ruleset("get-salty")
    replayed = replay(ruleset, head.options, 2, [Event(type_, seat, data)], check=True)
    assert replayed.state == head.state == store.position_at(match.stream_id, 1, check=True).state
    other = 1 - drawn
    with pytest.raises(RuleBroken):
        match_event_record(match=match, user=owner, type="victory_attribute_chosen", seat=other,
                           data={"attribute": "shape"})  # fmt: skip
    match_event_record(
        match=match, user=owner, type="victory_attribute_chosen", seat=drawn, data={"attribute": "shape"}
    )


def test_200_draws_give_every_seat_a_start(owner):
    """Statistical but not flaky: a fair draw misses one of 4 seats in 200 draws with probability 4·(3/4)^200
    (about 10^-25), and one of 2 seats with probability 2^-199."""
    four = [{"name": n} for n in ("Ana", "Bo", "Cy", "Di")]
    bone_wars = Counter(
        match_create(
            is_public=True, owner=owner, game="bone-wars", seats=four, options={"first_seat": "random"}
        ).first_seat
        for _ in range(200)
    )
    assert set(bone_wars) == {0, 1, 2, 3}
    salty = Counter(
        match_create(
            is_public=True, owner=owner, game="last-stone", seats=TWO, options={"first_seat": "random"}
        ).first_seat
        for _ in range(200)
    )
    assert set(salty) == {0, 1}


def test_a_chosen_seat_draws_nothing(owner):
    match = match_create(is_public=True, owner=owner, game="get-salty", seats=TWO, options={"first_seat": 1})
    assert entries(match) == [] and store.head_load(match.stream_id).state["turn"] == 1


@pytest.mark.parametrize(
    ("game", "seats", "key", "words"),
    [
        ("the-first-spine", TWO, "first_seat", "lost a previous game"),
        ("scoresheet", TWO, "first_seat", "no choice of who starts"),
    ],
)
def test_a_game_that_does_not_draw_who_starts_refuses_and_writes_nothing(owner, game, seats, key, words):
    with pytest.raises(InvalidInput) as refused:
        match_create(is_public=True, owner=owner, game=game, seats=seats, options={key: "random"})
    assert words in " ".join(refused.value.errors[f"options.{key}"])
    assert Match.objects.count() == 0 and EventRow.objects.count() == 0


def test_the_draw_cannot_be_voided_nor_recorded_by_hand(owner):
    match = match_create(
        is_public=True, owner=owner, game="salt-and-bones", seats=TWO, options={"momentum_seat": "random"}
    )
    with pytest.raises(RuleBroken) as refused:
        match_event_void(match=match, user=owner, version=1, reason="again")
    assert refused.value.violation_code == "cannot_void_draw"
    with pytest.raises(InvalidInput) as invalid:
        match_event_record(match=match, user=owner, type=FIRST_PLAYER_DRAWN, data={"seat": 0})
    assert "random" in invalid.value.errors["type"][0]
    assert len(entries(match)) == 1


def test_a_rematch_draws_again(owner):
    match = match_create(is_public=True, owner=owner, game="last-stone", seats=TWO, options={"first_seat": "random"})
    again = match_rematch(match=match, user=owner)
    assert [t for t, _, _ in entries(again)] == [FIRST_PLAYER_DRAWN]
    assert again.stream.options["first_seat"] == "random"


@pytest.mark.django_db(transaction=True)  # the projector reads committed entries only (PostgreSQL)
def test_the_drawn_seat_counts_as_the_one_who_started_in_the_stats(owner):
    from matches.models import PlayerResult
    from matches.projections.tasks import project_all

    match = match_create(
        is_public=True, owner=owner, game="last-stone", seats=TWO, options={"stones": 1, "first_seat": "random"}
    )
    drawn = match.first_seat
    match_event_record(match=match, user=owner, type="stones_taken", seat=drawn, data={"count": 1})
    project_all()
    started = dict(PlayerResult.objects.filter(match=match).values_list("seat", "started"))
    assert started == {drawn: True, 1 - drawn: False}


# -- API ---------------------------------------------------------------------------------------------------


def test_api_creates_a_match_with_a_random_start(api):
    r = api.post(
        "/api/matches/", {"game": "get-salty", "seats": TWO, "options": {"first_seat": "random"}}, format="json"
    )
    assert r.status_code == 201, r.json()
    match_id = r.json()["id"]
    log = api.get(f"/api/matches/{match_id}/events/").json()["results"]
    rows = log["results"] if isinstance(log, dict) else log
    assert [e["type"] for e in rows] == [FIRST_PLAYER_DRAWN]
    state = api.get(f"/api/matches/{match_id}/state/").json()
    assert state["version"] == 1 and state["state"]["turn"] == rows[0]["data"]["seat"]


def test_api_refuses_a_random_start_where_the_rulebook_names_who_starts(api):
    body = {"game": "the-first-spine", "seats": TWO, "options": {"first_seat": "random"}}
    r = api.post("/api/matches/", body, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert "does not pick who starts at random" in str(r.json())
    assert Match.objects.count() == 0


def test_api_refuses_a_hand_made_draw(api, owner):
    match = match_create(is_public=True, owner=owner, game="get-salty", seats=TWO)
    r = api.post(f"/api/matches/{match.pk}/events/", {"type": FIRST_PLAYER_DRAWN, "data": {"seat": 1}}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert EventRow.objects.count() == 0


# -- pages -------------------------------------------------------------------------------------------------


@pytest.fixture
def web(client, owner):
    client.force_login(owner)
    return client


def test_the_new_match_form_offers_random_and_the_page_names_who_was_drawn(web):
    form = web.get("/matches/new/?game=get-salty").content.decode()
    assert re.search(r'<option value="random"[^>]*>Random \(Chronicle draws and records it\)</option>', form)
    assert re.search(r'<option value="1"[^>]*>Player 2</option>', form)  # words, counted from 1, not bare indexes
    r = web.post("/matches/new/", {"game": "get-salty", "seat_count": "2", "seat_0": "Ana", "seat_1": "Bo",
                                   "option.first_seat": "random"})  # fmt: skip
    assert r.status_code == 302
    match = Match.objects.get()
    name = ["Ana", "Bo"][match.first_seat]
    page = web.get(r["Location"]).content.decode()
    bar = page.split('id="tablebar"')[1].split('<ol class="players"')[0]
    assert f"Match created. {name} was drawn to start." in bar and f"<strong>{name}</strong> to play" in bar
    history = web.get(f"/matches/{match.pk}/history/").content.decode()
    assert f"{name} was drawn to start." in history
    assert f"{name} was drawn to start." in web.get("/").content.decode()  # the activity says it too
    assert f'action="/matches/{match.pk}/undo/"' not in page  # nothing to undo: the draw stands


def test_the_new_match_form_explains_why_a_game_refuses_a_random_start(web):
    r = web.post("/matches/new/", {"game": "the-first-spine", "seat_count": "2", "seat_0": "Ana", "seat_1": "Bo",
                                   "option.first_seat": "random"})  # fmt: skip
    assert r.status_code == 400 and Match.objects.count() == 0
    assert "got up the earliest" in r.content.decode()


def test_a_rematch_from_the_page_says_who_was_drawn(web, owner):
    match = match_create(is_public=True, owner=owner, game="last-stone", seats=TWO, options={"first_seat": "random"})
    r = web.post(f"/matches/{match.pk}/rematch/", follow=True)
    again = Match.objects.exclude(pk=match.pk).get()
    name = ["Ana", "Bo"][again.first_seat]
    assert f"Rematch started: same players and options. {name} was drawn to start." in r.content.decode()


def test_a_spectator_reads_the_draw_in_a_game_with_hidden_cards(client, owner):
    match = match_create(
        is_public=True, owner=owner, game="salt-and-bones", seats=TWO, options={"momentum_seat": "random"}
    )
    name = ["Ana", "Bo"][match.first_seat]
    assert f"{name} was drawn to start." in client.get(f"/matches/{match.pk}/history/").content.decode()
    log = client.get(f"/api/matches/{match.pk}/events/").json()["results"]
    rows = log["results"] if isinstance(log, dict) else log
    assert rows[0]["type"] == FIRST_PLAYER_DRAWN and rows[0]["data"] == {"seat": match.first_seat}
