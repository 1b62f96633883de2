"""History in pages (issue 23 item 16): the events API's cursor, its limits and refusals, the first page without either,
and the history page newest first, grouped by round or turn, filtered by player.

Hidden information on every page, per reader: ``hidden_reads.match_reads`` lists every page of the API and of
the history page, so the twin scans of ``test_hidden_information`` cover them.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from matches.services import match_create, match_event_record, match_event_void
from matches.store.history import HISTORY_LIMIT, HISTORY_LIMIT_MAX

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db]


@pytest.fixture
def sheet(owner, settings):
    """A score sheet of 12 entries (Ana, Tomas, Cy in turn, rounds 1 to 4), snapshots every 5 versions."""
    settings.CHRONICLE_SNAPSHOT_EVERY = 5
    match = match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Tomas"}, {"name": "Cy"}])
    for i in range(12):
        data = {"points": i + 1, "round": i // 3 + 1}
        match_event_record(match=match, user=owner, type="points_scored", seat=i % 3, data=data)
    return match


def events(api, match, query=""):
    return api.get(f"/api/matches/{match.pk}/events/{query}")


def test_the_cursor_walks_the_log_in_pages_with_next_links(api, sheet):
    first = events(api, sheet, "?after=0&limit=5").json()
    assert [e["version"] for e in first["results"]] == [1, 2, 3, 4, 5]
    assert first["next_after"] == 5 and first["limit"] == 5
    assert first["next"].endswith(f"/api/matches/{sheet.pk}/events/?after=5&limit=5")
    second = api.get(first["next"]).json()
    assert [e["version"] for e in second["results"]] == [6, 7, 8, 9, 10]
    last = api.get(second["next"]).json()
    assert [e["version"] for e in last["results"]] == [11, 12] and last["next"] is None and last["next_after"] is None
    whole = events(api, sheet).json()  # no cursor, no limit: the first page of 50, the same shape (one per endpoint)
    assert whole == {"results": first["results"] + second["results"] + last["results"], "next": None,
                     "next_after": None, "limit": 50}  # fmt: skip


def test_a_page_that_ends_exactly_at_the_head_has_no_next_and_past_the_head_is_empty(api, sheet):
    assert events(api, sheet, "?after=6&limit=6").json()["next"] is None
    assert events(api, sheet, "?after=12").json() == {"results": [], "next": None, "next_after": None, "limit": 50}


def test_the_default_and_maximum_limits(api, sheet):
    assert events(api, sheet, "?after=0").json()["limit"] == HISTORY_LIMIT == 50
    assert events(api, sheet, f"?limit={HISTORY_LIMIT_MAX}").json()["limit"] == HISTORY_LIMIT_MAX == 200


@pytest.mark.parametrize(
    ("query", "field"),
    [("?after=-1", "after"), ("?after=abc", "after"), ("?after=1.5", "after"), ("?after=99999999999", "after"),
     ("?limit=0", "limit"), ("?limit=201", "limit"), ("?limit=ten", "limit"), ("?after=&limit=-3", "limit")],
)  # fmt: skip
def test_a_bad_cursor_or_limit_is_a_400_saying_what_is_wrong(api, sheet, query, field):
    r = events(api, sheet, query)
    body = r.json()
    assert r.status_code == 400 and body["code"] == "invalid" and list(body["errors"]) == [field]
    assert "Must be a whole number" in body["detail"]


def test_pages_mark_voids_recorded_on_a_later_page(api, owner, sheet):
    match_event_void(match=sheet, user=owner, version=2, reason="miscounted")
    page = events(api, sheet, "?after=0&limit=3").json()["results"]
    assert page[1]["voided_by"] == 13 and page[0]["voided_by"] is None


def test_another_kinds_log_is_paged_the_same_way(api):
    r = api.post("/api/series/", {"name": "Winter", "game": "bone-wars"}, format="json")
    assert r.status_code == 201, r.json()
    sid = r.json()["id"]
    body = api.get(f"/api/series/{sid}/events/?after=0&limit=2").json()
    assert body == {"results": [], "next": None, "next_after": None, "limit": 2}
    assert api.get(f"/api/series/{sid}/events/?limit=0").status_code == 400


# -- the history page -------------------------------------------------------------------------------------


def page(client, match, query=""):
    r = client.get(f"/matches/{match.pk}/history/{query}")
    return r.status_code, r.content.decode()


def versions_shown(html):
    return [int(v) for v in re.findall(r'<li class="entry[^"]*" id="v(\d+)"', html)]


def test_the_page_is_newest_first_and_grouped_by_round(client, owner, sheet):
    client.force_login(owner)
    status, html = page(client, sheet)
    assert status == 200 and versions_shown(html) == list(range(12, 0, -1))
    headings = re.findall(r'<h2 class="history-group">([^<]+)</h2>', html)
    assert headings == ["Round 4", "Round 3", "Round 2", "Round 1"]


def test_the_page_groups_by_turn_where_the_game_has_no_rounds(client, owner, stone_match):
    for seat, count in [(0, 1), (1, 2), (0, 3)]:
        match_event_record(match=stone_match, user=owner, type="stones_taken", seat=seat, data={"count": count})
    client.force_login(owner)
    _, html = page(client, stone_match)
    headings = [unescape(h) for h in re.findall(r'<h2 class="history-group">([^<]+)</h2>', html)]
    assert headings == ["Ana's turn", "Bo's turn", "Ana's turn"]


def test_the_page_filters_by_player(client, owner, sheet):
    client.force_login(owner)
    _, html = page(client, sheet, "?player=1")
    assert versions_shown(html) == [11, 8, 5, 2] and "Tomas's entries only" in unescape(html)


def test_a_long_history_comes_in_pages_of_50_with_older_and_newest_links(client, owner):
    match = match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}])
    for i in range(60):
        match_event_record(match=match, user=owner, type="points_scored", seat=i % 2, data={"points": 1})
    client.force_login(owner)
    _, html = page(client, match)
    assert versions_shown(html) == list(range(60, 10, -1))
    older = re.search(r'href="([^"]+)" rel="next">Older entries', html).group(1).replace("&amp;", "&")
    assert older == f"/matches/{match.pk}/history/?before=11"
    _, html = page(client, match, "?before=11")
    assert versions_shown(html) == list(range(10, 0, -1)) and "Older entries" not in html and "Newest entries" in html
    _, html = page(client, match, "?player=0&before=11")
    assert versions_shown(html) == [9, 7, 5, 3, 1]


@pytest.mark.parametrize("query", ["?before=x", "?before=-2", "?player=7", "?player=a"])
def test_a_bad_page_address_is_a_400_page_saying_why(client, owner, sheet, query):
    client.force_login(owner)
    status, html = page(client, sheet, query)
    assert status == 400 and ("Must be a whole number" in html or "There is no player 7" in html)


def test_a_page_across_a_void_tells_each_entry_against_its_state(client, owner, settings):
    """Bone Wars describes with the state (``describe_uses_state``) and has rounds: a page whose span holds a
    void re-reads the position the void made, and nothing breaks."""
    from matches.store import events as store
    from rulesets import get_ruleset

    settings.CHRONICLE_SNAPSHOT_EVERY = 3
    match = match_create(owner=owner, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}])
    ruleset = get_ruleset("bone-wars")
    for _ in range(4):
        move = ruleset.legal_moves(store.head_load(match.stream_id, fresh=True).state)[0]
        match_event_record(match=match, user=owner, type=move.type, seat=move.seat, data=move.data)
    match_event_void(match=match, user=owner, version=4, reason="wrong")
    move = ruleset.legal_moves(store.head_load(match.stream_id, fresh=True).state)[0]
    match_event_record(match=match, user=owner, type=move.type, seat=move.seat, data=move.data)
    client.force_login(owner)
    status, html = page(client, match)
    assert status == 200 and versions_shown(html) == [6, 5, 4, 3, 2, 1] and "Round 1" in html
