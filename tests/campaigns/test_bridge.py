"""The campaign ↔ adventure bridge over the API: both streams or neither, the current result always shown.

Regression tests for issue 9 ("Saltmarsh: the campaign ↔ adventure bridge", items 1–3 and 9) and issue 10
item 4. Each names the item it pins.
"""

from __future__ import annotations

from typing import Any

import pytest

from matches.models import Event as EventRow
from matches.models import Match

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


def cev(api, cid, type_, **data):
    return api.post(f"/api/campaigns/{cid}/events/", {"type": type_, "data": data}, format="json")


def mev(api, mid, type_, seat=None, **data):
    return api.post(f"/api/matches/{mid}/events/", {"type": type_, "seat": seat, "data": data}, format="json")


def ok(response) -> dict[str, Any]:
    assert response.status_code == 201, response.content
    return response.json()


def counts(cid: int, mid: int) -> tuple[int, int]:
    from campaigns.models import Campaign

    campaign = Campaign.objects.get(pk=cid)
    match = Match.objects.get(pk=mid)
    return (
        EventRow.objects.filter(stream_id=campaign.stream_id).count(),
        EventRow.objects.filter(stream_id=match.stream_id).count(),
    )


def sheet(api, cid) -> dict[str, Any]:
    return api.get(f"/api/campaigns/{cid}/sheet/").json()


def held(api, cid) -> dict[str, list[str]]:
    return {h["name"]: [i["name"] for i in h["items"]] for h in sheet(api, cid)["heroes"]}


def start(api, cid, adventure="The Sinister Secret", reward=500, heroes=("Ana", "Bo")) -> int:
    body = {"adventure": adventure, "reward": reward, "heroes": [{"name": h, "max_hp": 10} for h in heroes]}
    return ok(api.post(f"/api/campaigns/{cid}/adventures/", body, format="json"))["match"]


@pytest.fixture
def cid(api) -> int:
    cid = ok(api.post("/api/campaigns/", {"name": "Tuesdays", "is_public": True}, format="json"))["id"]
    for hero in ("Ana", "Bo", "Cy"):
        ok(cev(api, cid, "hero_joined", hero=hero, **{"class": "Fighter"}))
    return cid


def test_a_result_typed_on_the_campaign_is_refused_and_the_match_win_lands_in_both(api, cid) -> None:
    """Item 1: hand adventure_completed, then adventure_won → 400 while the match move was stored. Now the
    hand entry is refused (nothing written) and the win lands in both streams, the answer saying so."""
    mid = start(api, cid)
    before = counts(cid, mid)
    r = cev(api, cid, "adventure_completed", reward=500)
    assert r.status_code == 400 and r.json()["violation"] == "played_as_match" and f"#{mid}" in r.json()["detail"]
    assert counts(cid, mid) == before
    body = ok(mev(api, mid, "adventure_won"))
    campaign_version = sheet(api, cid)["version"]
    assert body["linked"] == [
        {"kind": "campaign", "id": cid, "versions": [campaign_version], "version": campaign_version}
    ]
    assert counts(cid, mid) == (before[0] + 1, before[1] + 1)
    assert sheet(api, cid)["adventures"][-1] == {
        "adventure": "The Sinister Secret", "heroes": ["Ana", "Bo"], "result": "completed", "match": mid
    }  # fmt: skip
    assert {h["name"]: h["gold"] for h in sheet(api, cid)["heroes"]} == {"Ana": 500, "Bo": 500, "Cy": 200}


def test_win_void_find_a_ring_win_again_brings_the_ring(api, cid) -> None:
    """Item 1: the campaign reflects the match's current result after voids too."""
    mid = start(api, cid)
    won = ok(mev(api, mid, "adventure_won"))["version"]
    voided = ok(api.post(f"/api/matches/{mid}/events/", {"type": "event_voided", "data": {"version": won, "reason": "too early"}}, format="json"))  # fmt: skip
    assert len(voided["linked"][0]["versions"]) == 1  # the conclusion voided in the campaign
    assert sheet(api, cid)["adventures"][-1]["result"] == "in progress"
    assert {h["name"]: h["gold"] for h in sheet(api, cid)["heroes"]} == {"Ana": 0, "Bo": 0, "Cy": 0}
    assert Match.objects.get(pk=mid).status == Match.STATUS_IN_PROGRESS
    ok(mev(api, mid, "treasure_found", seat=1, item={"name": "Ring of Protection", "buy": 700, "sell": 300}))
    again = ok(mev(api, mid, "adventure_won"))
    assert again["linked"][0]["kind"] == "campaign"
    assert held(api, cid) == {"Ana": [], "Bo": ["Ring of Protection"], "Cy": []}
    assert {h["name"]: h["gold"] for h in sheet(api, cid)["heroes"]} == {"Ana": 500, "Bo": 500, "Cy": 200}
    # a void that changes what was found (not the result) flows too: the Ring leaves the campaign again
    ring_version = again["version"] - 1
    ok(api.post(f"/api/matches/{mid}/events/", {"type": "event_voided", "data": {"version": ring_version, "reason": "misread"}}, format="json"))  # fmt: skip
    assert held(api, cid) == {"Ana": [], "Bo": [], "Cy": []}
    assert sheet(api, cid)["adventures"][-1]["result"] == "completed"


def test_a_refused_campaign_change_writes_nothing_in_either_stream(api, cid) -> None:
    """Item 1: the Ring was sold in town; voiding the win that brought it is refused everywhere."""
    mid = start(api, cid)
    ok(mev(api, mid, "treasure_found", seat=1, item={"name": "Ring", "buy": 700, "sell": 300}))
    won = ok(mev(api, mid, "adventure_won"))["version"]
    ok(cev(api, cid, "item_sold", hero="Bo", item="Ring"))
    before = counts(cid, mid)
    r = api.post(f"/api/matches/{mid}/events/", {"type": "event_voided", "data": {"version": won, "reason": "x"}}, format="json")  # fmt: skip
    assert r.status_code == 400, r.content
    body = r.json()
    assert body["refused_by"] == "campaign" and body["violation"] == "void_breaks_later_entry"
    assert body["detail"].startswith("Not recorded, neither in this match nor in the campaign Tuesdays")
    assert counts(cid, mid) == before
    assert Match.objects.get(pk=mid).status == Match.STATUS_FINISHED
    assert api.get(f"/api/matches/{mid}/state/").json()["outcome"] is not None
    assert {h["name"]: h["gold"] for h in sheet(api, cid)["heroes"]}["Bo"] == 800


def test_a_stale_match_never_lands_on_a_later_adventure_and_says_it_is_closed(api, cid, client) -> None:
    """Item 2: Sinister Secret (500) lost as match A, Dunwater (100) started as match B; match A can no
    longer change anything, says so, and its page shows it closed without recording forms."""
    a = start(api, cid, "The Sinister Secret", 500)
    lost = ok(mev(api, a, "adventure_lost", reason="The smugglers escaped."))["version"]
    assert sheet(api, cid)["adventures"][-1]["result"] == "failed"
    b = start(api, cid, "Danger at Dunwater", 100)
    before = counts(cid, a)
    r = api.post(f"/api/matches/{a}/events/", {"type": "event_voided", "data": {"version": lost, "reason": "x"}}, format="json")  # fmt: skip
    assert r.status_code == 400 and r.json()["violation"] == "adventure_closed"
    assert "Danger at Dunwater has started since" in r.json()["detail"]
    assert counts(cid, a) == before
    r = mev(api, a, "adventure_won")  # the match is over anyway: still nothing reaches Dunwater
    assert r.status_code == 400 and counts(cid, a) == before
    adventures = sheet(api, cid)["adventures"]
    assert [(x["adventure"], x["result"], x["match"]) for x in adventures] == [
        ("The Sinister Secret", "failed", a), ("Danger at Dunwater", "in progress", b)
    ]  # fmt: skip
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="owner"))
    page = client.get(f"/matches/{a}/").content.decode()
    assert "Closed:" in page and "Danger at Dunwater has started since" in page
    assert 'name="type"' not in page  # no recording form on a closed match
    assert "Closed:" not in client.get(f"/matches/{b}/").content.decode()


def test_a_match_recorder_concludes_its_adventure_on_the_campaign(api, cid, client_for, make_user) -> None:
    """Issue 10 item 4: a recorder of the adventure match who does not record the campaign posts
    adventure_won: accepted in both streams (the campaign's owner opened the match and named its
    recorders); someone else is refused and nothing is written."""
    mid = start(api, cid)
    helper = make_user("helper")
    assert api.post(f"/api/matches/{mid}/recorders/", {"recorders": ["helper"]}, format="json").status_code == 200
    other = make_user("other")
    before = counts(cid, mid)
    assert client_for(other).post(f"/api/matches/{mid}/events/", {"type": "adventure_won", "data": {}}, format="json").status_code == 403  # fmt: skip
    assert counts(cid, mid) == before
    body = ok(client_for(helper).post(f"/api/matches/{mid}/events/", {"type": "adventure_won", "data": {}}, format="json"))  # fmt: skip
    assert body["linked"][0]["kind"] == "campaign"
    assert sheet(api, cid)["adventures"][-1]["result"] == "completed"
    from campaigns.models import Campaign

    stream = Campaign.objects.get(pk=cid).stream_id
    assert EventRow.objects.filter(stream_id=stream).order_by("-version").first().recorded_by_id == helper.pk
    # but the campaign itself stays closed to the match's recorder
    assert client_for(helper).post(f"/api/campaigns/{cid}/events/", {"type": "hero_joined", "data": {"hero": "Di", "class": "x"}}, format="json").status_code == 403  # fmt: skip


def test_campaign_items_go_into_the_match_and_what_is_used_there_leaves_the_sheet(api, cid) -> None:
    """Item 3: a Potion bought in town is carried into the match, drunk there, and gone afterwards."""
    first = start(api, cid, "Warm-up", 300, heroes=("Ana",))
    ok(mev(api, first, "adventure_won"))
    cards = [{"name": "Potion", "item": True, "buy": 100, "sell": 50}] * 2 + [{"name": "Rope", "item": True, "buy": 20, "sell": 10}] * 2  # fmt: skip
    ok(cev(api, cid, "shop_revealed", cards=cards))
    ok(cev(api, cid, "item_bought", hero="Ana", item="Potion"))
    ok(cev(api, cid, "item_bought", hero="Ana", item="Rope"))
    mid = start(api, cid, heroes=("Ana", "Bo"))
    state = api.get(f"/api/matches/{mid}/state/").json()["state"]
    assert [i["name"] for i in state["heroes"][0]["items"]] == ["Potion", "Rope"]
    ok(mev(api, mid, "treasure_used", seat=0, item="Potion"))
    ok(mev(api, mid, "adventure_lost", reason="Drowned."))
    assert held(api, cid) == {"Ana": ["Rope"], "Bo": [], "Cy": []}  # the Rope carries over, the Potion is gone
    r = cev(api, cid, "item_sold", hero="Ana", item="Potion")
    assert r.status_code == 400 and r.json()["violation"] == "item_not_held"


def test_entries_of_a_match_cannot_be_typed_or_voided_on_the_campaign(api, cid) -> None:
    mid = start(api, cid)
    r = cev(api, cid, "adventure_concluded", match=mid, adventure="The Sinister Secret", result="won", reward=1, heroes=[])  # fmt: skip
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    r = cev(api, cid, "adventure_started", adventure="X", heroes=["Cy"], match=mid)
    assert r.status_code == 400 and "data.match" in r.json()["errors"]
    ok(mev(api, mid, "adventure_won"))
    last = sheet(api, cid)["version"]
    for version in (last, last - 1):  # the conclusion, and the adventure_started that opened the match
        r = api.post(f"/api/campaigns/{cid}/events/", {"type": "event_voided", "data": {"version": version, "reason": "x"}}, format="json")  # fmt: skip
        assert r.status_code == 400 and r.json()["violation"] == "from_match", r.content


def test_an_override_waiting_on_the_campaign_is_not_spent_by_the_match(api, cid) -> None:
    mid = start(api, cid)
    ok(api.post(f"/api/campaigns/{cid}/events/", {"type": "rule_overridden", "data": {"reason": "house rule"}}, format="json"))  # fmt: skip
    before = counts(cid, mid)
    r = mev(api, mid, "adventure_won")
    assert r.status_code == 400 and r.json()["violation"] == "override_pending"
    assert counts(cid, mid) == before


def test_the_sheet_at_an_earlier_version_lists_only_the_matches_started_by_then(api, cid, client) -> None:
    """Item 9: ``?at=N`` showed every adventure match, also those started later."""
    a = start(api, cid, "The Sinister Secret")
    ok(mev(api, a, "adventure_lost", reason="x"))
    at = sheet(api, cid)["version"]
    b = start(api, cid, "Danger at Dunwater")
    early = client.get(f"/campaigns/{cid}/?at={at}").content.decode()
    assert f"/matches/{a}/" in early and f"/matches/{b}/" not in early
    latest = client.get(f"/campaigns/{cid}/").content.decode()
    assert f"/matches/{a}/" in latest and f"/matches/{b}/" in latest


def test_the_match_page_says_the_campaign_moved_too_or_why_nothing_was_written(api, cid, client) -> None:
    """The page's answer says which streams were written; a refusal names the campaign and offers no override."""
    from django.contrib.auth import get_user_model

    mid = start(api, cid)
    client.force_login(get_user_model().objects.get(username="owner"))
    sheet_page = client.get(f"/campaigns/{cid}/").content.decode()
    assert "Undo the last entry" not in sheet_page  # the start belongs to the match
    assert f'recorded in <a href="/matches/{mid}/">its match</a>' in sheet_page
    assert "Entries refused while The Sinister Secret is played as its match" in sheet_page
    r = client.post(f"/matches/{mid}/record/", {"type": "adventure_won", "seat": ""}, follow=True)
    page = r.content.decode()
    assert r.status_code == 200 and "The campaign was updated in the same step" in page
    b = start(api, cid, "Danger at Dunwater")
    assert b != mid
    r = client.post(f"/matches/{mid}/undo/", {"version": "1", "reason": "x", "confirm": "on"})
    page = r.content.decode()
    assert r.status_code == 400 and "Danger at Dunwater has started since" in page
    assert "record a rule override" not in page


def test_a_result_recorded_by_the_table_concludes_the_adventure_too(api, cid) -> None:
    """A match ended with ``result_recorded`` (no deciding move) reaches the campaign like a win or a loss."""
    mid = start(api, cid)
    ok(mev(api, mid, "gold_found", seat=0, amount=40))
    body = ok(mev(api, mid, "result_recorded", winners=[0, 1], note="We won at the table."))
    assert body["linked"][0]["kind"] == "campaign"
    assert sheet(api, cid)["adventures"][-1]["result"] == "completed"
    assert {h["name"]: h["gold"] for h in sheet(api, cid)["heroes"]} == {"Ana": 540, "Bo": 500, "Cy": 200}
    other = start(api, cid, "Danger at Dunwater")
    ok(mev(api, other, "result_recorded", winners=[], note="Wiped out."))
    assert sheet(api, cid)["adventures"][-1]["result"] == "failed"


def test_a_campaign_that_moved_meanwhile_is_a_409_and_nothing_is_written(api, cid, monkeypatch) -> None:
    """The bridge appends guarded by the campaign version it read: a writer in between → 409, both untouched."""
    from dataclasses import replace

    from campaigns.saltmarsh import bridge

    mid = start(api, cid)
    guard = bridge.adventure_match_guard

    def stale_guard(*, match):
        campaign, head = guard(match=match)
        return campaign, replace(head, version=head.version - 1)  # as if read before another writer's entry

    monkeypatch.setattr(bridge, "adventure_match_guard", stale_guard)
    before = counts(cid, mid)
    r = mev(api, mid, "adventure_won")
    assert r.status_code == 409 and r.json()["code"] == "version_conflict" and "current_version" not in r.json()
    assert "someone recorded on the campaign at the same moment" in r.json()["detail"]
    assert counts(cid, mid) == before and Match.objects.get(pk=mid).status == Match.STATUS_IN_PROGRESS
