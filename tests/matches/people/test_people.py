"""Players are people: invitation links to claim a player, and merges of duplicate names."""

from __future__ import annotations

import pytest

from matches.errors import InvalidInput
from matches.models import Event as EventRow
from matches.models import ImmutableEventError, Player, PlayerMerge, PlayerResult, Seat
from matches.people import players as people
from matches.projections.tasks import project_all
from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]


def won_by_seat0(owner, names):
    m = match_create(
        is_public=True, owner=owner, game="last-stone", seats=[{"name": n} for n in names], options={"stones": 1}
    )
    match_event_record(match=m, user=owner, type="stones_taken", seat=0, data={"count": 1})
    return m


def test_invite_and_claim_link_the_player_to_an_account(api, client_for, owner, make_user):
    won_by_seat0(owner, ["Ana", "Bo"])
    project_all()
    ana = Player.objects.get(name="Ana")
    r = api.post(f"/api/players/{ana.pk}/invite/")
    assert r.status_code == 201 and f"/players/claim/{r.json()['token']}/" in r.json()["url"]
    me = make_user("ana")
    claimed = client_for(me).post("/api/players/claim/", {"token": r.json()["token"]}, format="json")
    assert claimed.status_code == 200 and claimed.json()["user"] == "ana"
    assert client_for(me).get("/api/stats/me/").json()["overall"]["won"] == 1
    intruder = client_for(make_user("intruder")).post(
        "/api/players/claim/", {"token": r.json()["token"]}, format="json"
    )
    assert intruder.status_code == 400 and "already linked" in intruder.json()["detail"]


def test_only_the_owner_invites_and_bad_links_are_refused(client_for, owner, stranger, monkeypatch):
    won_by_seat0(owner, ["Ana", "Bo"])
    ana = Player.objects.get(name="Ana")
    assert client_for(stranger).post(f"/api/players/{ana.pk}/invite/").status_code == 404
    bad = client_for(stranger).post("/api/players/claim/", {"token": "nope"}, format="json")
    assert bad.status_code == 400 and "not valid" in bad.json()["detail"]
    token = people.player_invite_token(user=owner, player=ana)
    monkeypatch.setattr(people, "CLAIM_MAX_AGE", -1)
    old = client_for(stranger).post("/api/players/claim/", {"token": token}, format="json")
    assert old.status_code == 400 and "expired" in old.json()["detail"]
    assert Player.objects.get(pk=ana.pk).user_id is None


def test_merging_a_typo_moves_the_stats_and_leaves_the_logs(api, owner):
    won_by_seat0(owner, ["Ana", "Bo"])
    won_by_seat0(owner, ["Anna", "Bo"])
    project_all()
    ana, anna = Player.objects.get(name="Ana"), Player.objects.get(name="Anna")
    events, seats = list(EventRow.objects.values_list("pk", "data")), list(Seat.objects.values_list("pk", "player_id"))
    r = api.post(f"/api/players/{anna.pk}/merge/", {"into": ana.pk, "reason": "typo"}, format="json")
    assert r.status_code == 201 and r.json() == {"merged": anna.pk, "into": ana.pk}
    assert api.get(f"/api/stats/players/{ana.pk}/").json()["overall"]["won"] == 2
    assert sorted(row["player"] for row in api.get("/api/stats/players/").json()) == ["Ana", "Bo"]
    assert (
        list(EventRow.objects.values_list("pk", "data")) == events
        and list(Seat.objects.values_list("pk", "player_id")) == seats
    )
    assert set(PlayerResult.objects.values_list("player_id", flat=True)) == {ana.pk, Player.objects.get(name="Bo").pk}
    # the projector keeps following the merge, and typing the old name again seats the kept player
    from django.core.management import call_command

    call_command("rebuild_projections", "--no-progress")
    assert PlayerResult.objects.filter(player=anna).count() == 0
    m = match_create(is_public=True, owner=owner, game="last-stone", seats=[{"name": "anna"}, {"name": "Bo"}])
    assert m.seats.get(index=0).player_id == ana.pk
    assert api.get(f"/api/stats/players/{anna.pk}/").json()["player_id"] == ana.pk


def test_merge_refusals(api, client_for, owner, stranger, make_user):
    won_by_seat0(owner, ["Ana", "Bo"])
    ana, bo = Player.objects.get(name="Ana"), Player.objects.get(name="Bo")
    assert api.post(f"/api/players/{ana.pk}/merge/", {"into": ana.pk}, format="json").status_code == 400
    assert client_for(stranger).post(f"/api/players/{ana.pk}/merge/", {"into": bo.pk}, format="json").status_code == 404
    Player.objects.filter(pk=ana.pk).update(user=make_user("a"))
    Player.objects.filter(pk=bo.pk).update(user=make_user("b"))
    two = api.post(f"/api/players/{ana.pk}/merge/", {"into": bo.pk}, format="json")
    assert two.status_code == 400 and "two different accounts" in two.json()["detail"]
    assert api.post(f"/api/players/{ana.pk}/merge/", {"into": "x"}, format="json").status_code == 400
    assert PlayerMerge.objects.count() == 0


def test_a_merge_is_recorded_once_and_never_changed(owner):
    won_by_seat0(owner, ["Ana", "Anna"])
    ana, anna = Player.objects.get(name="Ana"), Player.objects.get(name="Anna")
    merge = people.players_merge(user=owner, source=anna, target=ana, reason="typo")
    with pytest.raises(ImmutableEventError):
        merge.save()
    with pytest.raises(ImmutableEventError):
        PlayerMerge.objects.all().delete()
    with pytest.raises(InvalidInput) as again:
        people.players_merge(user=owner, source=Player.objects.get(pk=anna.pk), target=ana)
    assert "already merged" in again.value.detail


def test_player_page_tools_for_the_owner(client, owner):
    won_by_seat0(owner, ["Ana", "Anna"])
    project_all()
    ana, anna = Player.objects.get(name="Ana"), Player.objects.get(name="Anna")
    client.force_login(owner)
    page = client.get(f"/players/{anna.pk}/").content.decode()
    assert "Invite Anna to claim this player" in page and "Merge into that player" in page
    r = client.post(f"/players/{anna.pk}/", {"action": "invite"}, follow=True)
    assert "/players/claim/" in r.content.decode()
    r = client.post(f"/players/{anna.pk}/", {"action": "merge", "into": ana.pk, "reason": "typo"}, follow=True)
    assert r.redirect_chain[-1][0] == f"/players/{ana.pk}/" and "now counted as Ana" in r.content.decode()
    assert client.get(f"/players/{anna.pk}/").status_code == 302
