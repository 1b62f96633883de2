"""The web pages: each page renders, every error path explains itself and writes nothing."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from matches.models import Event as EventRow
from matches.models import Match
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


@pytest.fixture
def web(client, owner):
    client.force_login(owner)
    return client


def record(web, match, **fields):
    return web.post(f"/matches/{match.pk}/record/", fields)


def take_form(web, match, seat, count, **fields):
    """Post the Last Stone move form: ``seat`` takes ``count`` stones."""
    return record(web, match, type="stones_taken", seat=str(seat), **{"data.count": str(count)}, **fields)


def test_home_anonymous_and_signed_in(web, stone_match, owner):
    from django.test import Client

    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 1})
    anon = Client().get("/")
    assert anon.status_code == 200 and b"Sign up" in anon.content
    page = web.get("/").content.decode()
    assert "My matches" in page and "Ana" in page and "Recent activity" in page and "Ana took 1 stone" in page


def test_signup_signs_in_and_rejects_bad_passwords(client, django_user_model):
    bad = client.post("/accounts/signup/", {"username": "zoe", "password1": "x", "password2": "y"})
    assert bad.status_code == 400 and not django_user_model.objects.filter(username="zoe").exists()
    ok = client.post(
        "/accounts/signup/", {"username": "zoe", "password1": "salty-crackers-9", "password2": "salty-crackers-9"}
    )
    assert ok.status_code == 302
    assert client.get("/").context["user"].username == "zoe"


def test_login_and_logout(client, owner):
    assert client.get("/accounts/login/").status_code == 200
    r = client.post("/accounts/login/", {"username": "owner", "password": "pass-word-123"})
    assert r.status_code == 302
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/matches/new/").status_code == 302  # signed out again


def test_token_page_creates_and_revokes(web, owner):
    assert web.get("/accounts/token/").status_code == 200
    web.post("/accounts/token/", {"action": "create"})
    key = Token.objects.get(user=owner).key
    assert key in web.get("/accounts/token/").content.decode()
    web.post("/accounts/token/", {"action": "revoke"})
    assert not Token.objects.filter(user=owner).exists()


def test_new_match_flow_remembers_players(web, owner):
    assert b"Last Stone" in web.get("/matches/new/").content
    form = web.get("/matches/new/?game=last-stone")
    assert form.status_code == 200 and b'name="option.stones"' in form.content
    r = web.post("/matches/new/", {"game": "last-stone", "seat_count": "2", "seat_0": "Ana", "seat_1": "Bo",
                                   "option.stones": "7", "option.first_seat": "1", "is_public": "on"})  # fmt: skip
    assert r.status_code == 302
    match = Match.objects.get()
    assert match.stream.options == {"stones": 7, "first_seat": 1}
    assert b"Ana" in web.get("/matches/new/?game=last-stone").content  # suggested from the datalist


def test_new_match_errors_keep_what_was_typed(web):
    r = web.post("/matches/new/", {"game": "last-stone", "seat_count": "2", "seat_0": "Ana", "seat_1": "ana",
                                   "option.stones": "lots"})  # fmt: skip
    assert r.status_code == 400 and Match.objects.count() == 0
    page = r.content.decode()
    assert "Enter a whole number" in page and 'value="lots"' in page
    r = web.post(
        "/matches/new/",
        {"game": "last-stone", "seat_count": "2", "seat_0": "Ana", "seat_1": "ana", "option.stones": "5"},
    )
    assert r.status_code == 400 and "same name" in r.content.decode()


def test_match_page_shows_turn_players_and_forms(web, stone_match):
    page = web.get(f"/matches/{stone_match.pk}/").content.decode()
    assert "Ana" in page and "to play" in page and "Legal moves (3)" in page and 'name="data.count"' in page
    assert 'name="idempotency_key"' in page and 'name="expected_version" value="0"' in page


def test_viewer_sees_no_forms_and_private_match_is_404(client, stranger, owner, stone_match):
    client.force_login(stranger)
    page = client.get(f"/matches/{stone_match.pk}/").content.decode()
    assert "Record a move" not in page and "Ana" in page
    assert (
        client.post(
            f"/matches/{stone_match.pk}/record/", {"type": "stones_taken", "seat": "0", "data.count": "1"}
        ).status_code
        == 403
    )
    private = match_create(owner=owner, game="last-stone", seats=[{"name": "A"}, {"name": "B"}], is_public=False)
    assert client.get(f"/matches/{private.pk}/").status_code == 404
    assert EventRow.objects.count() == 0


def test_recording_a_move_redirects_and_writes_once(web, stone_match):
    r = take_form(web, stone_match, 0, 3, expected_version="0", idempotency_key="k1")
    assert r.status_code == 302
    assert EventRow.objects.count() == 1
    assert "Recorded move 1" in web.get(r.url).content.decode()


def test_double_submit_records_once(web, stone_match):
    fields = {"type": "stones_taken", "seat": "0", "data.count": "2", "expected_version": "0", "idempotency_key": "tap"}
    first = record(web, stone_match, **fields)
    second = record(web, stone_match, **fields)
    assert first.status_code == second.status_code == 302
    assert EventRow.objects.count() == 1


def test_illegal_move_shows_the_rule_keeps_the_input_and_writes_nothing(web, stone_match):
    r = take_form(web, stone_match, 1, 2, expected_version="0", idempotency_key="x")
    assert r.status_code == 400
    page = r.content.decode()
    assert "Not recorded" in page and "Last Stone › Turns" in page and "It is Ana&#x27;s turn" in page
    assert 'name="data.count" value="2"' in page  # what was typed is kept
    assert "rule override" in page
    assert EventRow.objects.count() == 0


def test_form_syntax_errors_are_explained(web, stone_match):
    r = record(web, stone_match, type="stones_taken", seat="0", **{"data.count": "two"})
    assert r.status_code == 400 and "Enter a whole number" in r.content.decode()
    r = record(web, stone_match, type="stones_taken", seat="0", **{"data.count": "9"})
    assert r.status_code == 400 and "at most 3" in r.content.decode().lower()
    r = record(web, stone_match, type="made_up", seat="0")
    assert r.status_code == 400 and "Unknown event type" in r.content.decode()
    r = record(web, stone_match, move="{broken")
    assert r.status_code == 400
    assert EventRow.objects.count() == 0


def test_stale_version_shows_conflict_and_the_new_state(web, stone_match, owner):
    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 3})  # the other phone
    r = take_form(web, stone_match, 0, 1, expected_version="0", idempotency_key="p2")  # Ana again: never rebased
    assert r.status_code == 409
    page = r.content.decode()
    assert "Someone else recorded first" in page and "pile" in page and "7" in page
    said = page.split('id="outcome"')[1].split("</div>")[0]
    assert "Ana took 3 stones (move 1)" in said  # what changed, in the bar
    assert EventRow.objects.count() == 1


def test_one_click_legal_move(web, stone_match):
    import json

    r = record(
        web,
        stone_match,
        move=json.dumps({"type": "stones_taken", "seat": 0, "data": {"count": 2}}),
        expected_version="0",
    )
    assert r.status_code == 302 and EventRow.objects.get().data == {"count": 2}


def test_rule_override_then_move(web, stone_match):
    assert record(web, stone_match, type="rule_overridden", **{"data.reason": "handicap"}).status_code == 302
    assert "house rule is pending" in web.get(f"/matches/{stone_match.pk}/").content.decode()
    assert record(web, stone_match, type="stones_taken", seat="1", **{"data.count": "1"}).status_code == 302
    assert EventRow.objects.count() == 2


def test_undo_voids_the_last_entry_and_history_strikes_it(web, stone_match, owner):
    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 3})
    page = web.get(f"/matches/{stone_match.pk}/").content.decode()
    assert "Undo the last move" in page and "Ana took 3 stones" in page
    r = web.post(
        f"/matches/{stone_match.pk}/undo/",
        {"version": "1", "reason": "wrong pile", "confirm": "on", "expected_version": "1"},
    )
    assert r.status_code == 302
    assert EventRow.objects.count() == 2
    history = web.get(f"/matches/{stone_match.pk}/history/").content.decode()
    assert "<del>" in history and "wrong pile" in history and "undone at move 2: wrong pile" in history
    # nothing left to undo: the void itself cannot be undone
    assert "Undo the last move" not in web.get(f"/matches/{stone_match.pk}/").content.decode()


def test_replay_at_a_version_is_a_permalink_without_forms(web, stone_match, owner):
    for seat, n in [(0, 3), (1, 2)]:
        match_event_record(match=stone_match, user=owner, type="stones_taken", seat=seat, data={"count": n})
    page = web.get(f"/matches/{stone_match.pk}/?at=1").content.decode()
    assert "Replaying" in page and "move 1 of 2" in page and "Record a move" not in page
    assert "<strong>7</strong> stones left in the pile" in page
    assert "<strong>5</strong> stones left" in web.get(f"/matches/{stone_match.pk}/?at=2").content.decode()
    assert web.get(f"/matches/{stone_match.pk}/?at=99").status_code == 200  # out of range: the latest


def test_match_list_filters(web, owner):
    match_create(is_public=True, owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}])
    match_create(is_public=True, owner=owner, game="last-stone", seats=[{"name": "Cy"}, {"name": "Di"}])
    page = web.get("/matches/?player=Cy").content.decode()
    assert "Cy" in page and "Ana" not in page
    assert web.get("/matches/?status=bogus").status_code == 200


def test_unknown_pages_are_friendly_404s(web):
    assert web.get("/matches/424242/").status_code == 404
    assert web.get("/nowhere/").status_code == 404


def test_pages_load_nothing_from_the_internet(client, stone_match):
    for url in ["/", f"/matches/{stone_match.pk}/", "/accounts/login/", "/accounts/signup/", "/matches/"]:
        html = client.get(url).content.decode()
        assert "http://" not in html and "https://" not in html, url


@pytest.mark.parametrize("game", ["get-salty", "salt-and-bones", "saltmarsh-adventure", "last-stone"])
def test_random_form_posts_never_500(web, owner, game):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from rulesets import get_ruleset
    from rulesets.replay import event_types_with_meta

    ruleset = get_ruleset(game)
    seats = [{"name": "Ana"}, {"name": "Bo"}]
    match = match_create(
        is_public=True, owner=owner, game=game, seats=seats if len(seats) in ruleset.seats else seats[:1]
    )
    names = sorted({f"data.{f.name}" for spec in event_types_with_meta(ruleset).values() for f in spec.fields})
    text = st.text(max_size=10) | st.sampled_from(["1", "0,0", "[[2,2]]", '{"a":1}', "null", "circle-red", "-1", "1e9"])

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(
        type_=st.sampled_from([*event_types_with_meta(ruleset), "x"]),
        fields=st.dictionaries(st.sampled_from([*names, "seat", "expected_version", "move"]), text, max_size=5),
    )
    def post(type_, fields):
        before = EventRow.objects.count()
        r = web.post(f"/matches/{match.pk}/record/", {"type": type_, **fields})
        assert r.status_code < 500, (type_, fields)
        if r.status_code != 302:
            assert EventRow.objects.count() == before

    post()


def test_owner_names_recorders_who_can_then_record(web, client_for, make_user, stone_match):
    helper = make_user("helper")
    assert "Who may record" in web.get(f"/matches/{stone_match.pk}/").content.decode()
    bad = web.post(f"/matches/{stone_match.pk}/recorders/", {"recorders": "helper, ghost"})
    assert bad.status_code == 400 and "ghost" in bad.content.decode()
    assert web.post(f"/matches/{stone_match.pk}/recorders/", {"recorders": "helper"}).status_code == 302
    api = client_for(helper)
    r = api.post(
        f"/api/matches/{stone_match.pk}/events/",
        {"type": "stones_taken", "seat": 0, "data": {"count": 1}},
        format="json",
    )
    assert r.status_code == 201
    # only the owner chooses recorders, over the API too
    assert api.post(f"/api/matches/{stone_match.pk}/recorders/", {"recorders": []}, format="json").status_code == 403
    owner_api = client_for(stone_match.owner)
    r = owner_api.post(f"/api/matches/{stone_match.pk}/recorders/", {"recorders": []}, format="json")
    assert r.status_code == 200 and r.json() == {"recorders": []}
