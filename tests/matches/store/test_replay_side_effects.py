"""A late idempotent retry has no side effects: consequences follow the stream's head, never the replayed
version (issue 21 item 2: a replayed first move turned a finished match back to ``in_progress``)."""

from __future__ import annotations

import pytest

from matches.models import Event as EventRow
from matches.models import Match

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def move(api, match, count, key, seat):
    body = {"type": "stones_taken", "seat": seat, "data": {"count": count}, "idempotency_key": key}
    return api.post(f"/api/matches/{match.pk}/events/", body, format="json")


def test_replaying_the_first_move_of_a_finished_match_leaves_it_finished(api, owner) -> None:
    from matches.services import match_create

    match = match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"stones": 7})
    for i, (seat, count) in enumerate([(0, 3), (1, 1), (0, 3)]):  # Ana takes the last stone
        assert move(api, match, count, f"k{i}", seat).status_code == 201
    assert Match.objects.get(pk=match.pk).status == Match.STATUS_FINISHED
    late = move(api, match, 3, "k0", 0)  # the first move's retry, arriving after the end
    assert late.status_code == 201 and late["Idempotent-Replayed"] == "true"
    assert late.json()["version"] == 1 and late.json()["outcome"] is None  # the first answer, replayed
    assert Match.objects.get(pk=match.pk).status == Match.STATUS_FINISHED
    listed = api.get("/api/matches/", {"status": "finished"}).json()
    assert match.pk in [m["id"] for m in listed["results"]]
    assert EventRow.objects.filter(stream_id=match.stream_id).count() == 3


def test_replaying_the_first_move_of_a_won_adventure_leaves_match_and_campaign_alone(api) -> None:
    """The Saltmarsh bridge (``campaigns.saltmarsh.bridge``) path: same rule, and the campaign is not written."""
    from campaigns.models import Campaign

    cid = api.post("/api/campaigns/", {"name": "Tuesdays"}, format="json").json()["id"]
    api.post(f"/api/campaigns/{cid}/events/", {"type": "hero_joined", "data": {"hero": "Ana", "class": "Fighter"}}, format="json")  # fmt: skip
    body = {"adventure": "The Sinister Secret", "reward": 500, "heroes": [{"name": "Ana", "max_hp": 10}]}
    mid = api.post(f"/api/campaigns/{cid}/adventures/", body, format="json").json()["match"]
    url = f"/api/matches/{mid}/events/"
    first = {"type": "gold_found", "seat": 0, "data": {"amount": 40}, "idempotency_key": "g1"}
    assert api.post(url, first, format="json").status_code == 201
    assert api.post(url, {"type": "adventure_won", "data": {}}, format="json").status_code == 201
    stream_id = Campaign.objects.get(pk=cid).stream_id
    campaign_entries = EventRow.objects.filter(stream_id=stream_id).count()
    late = api.post(url, first, format="json")
    assert late.status_code == 201 and late["Idempotent-Replayed"] == "true"
    assert Match.objects.get(pk=mid).status == Match.STATUS_FINISHED
    assert EventRow.objects.filter(stream_id=stream_id).count() == campaign_entries
    assert api.get(f"/api/campaigns/{cid}/sheet/").json()["adventures"][-1]["result"] == "completed"
