"""Rule upgrades never change a stored result silently (issue 32, items 6-8).

A match recorded by an older release is simulated as such a database holds it: its stream carries the older
version number (``ruleset_version``, which migration 0017 copies into ``rules_version``). It keeps the result it
had under those rules everywhere (``Match.status``, the summary, lists, stats, series, exports), after
``rebuild_projections`` too; it moves to the current rules only when its owner asks, after seeing the difference,
and the move is an entry of its own."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.management import call_command

from campaigns.series.selectors import series_standings
from campaigns.series.services import series_create, series_match_add
from matches.interop.export import bgstats_export
from matches.models import Event as EventRow
from matches.models import Match, MatchSummary, PlayerResult, Stream
from matches.services import match_create, match_event_record
from matches.store.events import head_cache
from rulesets import all_rulesets, get_ruleset
from rulesets.versions import RULES_KEY

pytestmark = [pytest.mark.both_dbs, pytest.mark.django_db(transaction=True)]

BW = get_ruleset("bone-wars")
# every match game; the Saltmarsh adventure is played inside a campaign: its own test is below
MATCH_GAMES = [r.slug for r in all_rulesets() if r.kind == "match" and r.slug != "saltmarsh-adventure"]


def older_release(match: Match, version: int) -> None:
    """The stream as a database written by the release of ``version`` holds it (after migration 0017)."""
    Stream.objects.filter(pk=match.stream_id).update(ruleset_version=version, rules_version=version)
    head_cache.clear()


def rebuild() -> str:
    out = io.StringIO()
    call_command("rebuild_projections", "--no-progress", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def check_rulesets() -> str:
    out = io.StringIO()
    call_command("check_rulesets", stdout=out)
    return out.getvalue()


def everywhere(match: Match, owner: Any, api: Any, finished: bool, winners: list[int]) -> None:
    """``Match.status``, the summary, the list, the state API, stats, a series and the export agree."""
    status = "finished" if finished else "in_progress"
    match.refresh_from_db()
    assert match.status == status
    summary = MatchSummary.objects.get(match=match)
    assert (summary.status, sorted(summary.winners)) == (status, winners if finished else [])
    listed = api.get("/api/matches/", {"status": status}).json()
    assert match.pk in [m["id"] for m in listed["results"]]
    outcome = api.get(f"/api/matches/{match.pk}/state/").json()["outcome"]
    assert (outcome is not None and not outcome["provisional"]) == finished
    won = set(PlayerResult.objects.filter(match=match, won=True).values_list("seat", flat=True))
    assert won == (set(winners) if finished else set())
    plays = [p for p in bgstats_export(owner=owner)["plays"]]
    assert len(plays) == (1 if finished else 0)
    series = series_create(owner=owner, name=f"League {match.pk}", game=match.game)
    series_match_add(series=series, user=owner, match_id=match.pk)
    standing = series_standings(series=series, user=owner)
    assert [line.finished for line in standing.matches] == [finished]


@pytest.mark.parametrize("game", MATCH_GAMES)
def test_every_game_keeps_a_result_recorded_under_an_older_version(game, owner, api):
    ruleset = get_ruleset(game)
    seats = max(2, min(ruleset.seats)) if 2 in ruleset.seats or min(ruleset.seats) > 1 else min(ruleset.seats)
    names = ["Ana", "Bo", "Cy", "Di"][:seats]
    match = match_create(owner=owner, game=game, seats=[{"name": n} for n in names], options={})
    older = max(1, ruleset.version - 1)
    older_release(match, older)
    match_event_record(match=match, user=owner, type="result_recorded", data={"winners": [0], "scores": None})
    rebuild()
    everywhere(match, owner, api, finished=True, winners=[0])
    stream = Stream.objects.get(pk=match.stream_id)
    assert stream.rules_version == older  # recording did not move it to the current rules
    assert "0 stream(s) changed" in check_rulesets()


def bone_wars_events() -> list[tuple[str, int | None, dict[str, Any]]]:
    """Ana gains 3 RP, Bo 1, then every round is passed out: the final scoring is made (Ana leads)."""
    out: list[tuple[str, int | None, dict[str, Any]]] = []
    for seat, rp in ((0, 3), (1, 1)):
        out += [
            ("card_played", seat, {"card": {"kind": "team", "name": "Field Team", "cost": 0}}),
            ("rp_gained", seat, {"amount": rp, "reason": "bonus"}),
            ("turn_ended", seat, {}),
        ]
    for _ in range(4):
        out += [("passed", 0, {"patron": "marsh"}), ("passed", 1, {"patron": "cope"})]
    return out


@pytest.fixture
def v1_bone_wars(owner) -> Match:
    """A Bone Wars game played to its last pass by a version-1 release: finished, Ana won."""
    match = match_create(
        owner=owner, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"starting_money": 9}
    )
    older_release(match, 1)
    for type_, seat, data in bone_wars_events():
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)
    return match


def test_a_bone_wars_game_finished_under_version_1_stays_finished_everywhere(v1_bone_wars, owner, api):
    match = v1_bone_wars
    rebuild()
    everywhere(match, owner, api, finished=True, winners=[0])
    state = api.get(f"/api/matches/{match.pk}/state/").json()
    assert state["state"][RULES_KEY] == 1 and state["outcome"]["winners"] == [0]
    # a new entry, even a circumference, keeps it finished (the repro flipped it to in progress)
    match_event_record(match=match, user=owner, type="cranial_circumference_recorded", seat=1, data={"cm": 55})
    rebuild()
    everywhere(match, owner, api, finished=True, winners=[0])
    # version 1 has no awards: refused in words that say how to reach them, nothing written
    count = EventRow.objects.count()
    r = api.post(
        f"/api/matches/{match.pk}/events/",
        {"type": "rp_gained", "seat": 1, "data": {"amount": 4, "reason": "award"}},
        format="json",
    )
    assert r.status_code == 400 and r.json()["violation"] == "game_over"
    assert "replay it under the current rules first" in r.json()["detail"]
    assert EventRow.objects.count() == count


def test_check_rulesets_speaks_players_words(v1_bone_wars):
    out = check_rulesets()
    assert (
        f"Bone Wars #{v1_bone_wars.pk} (Ana, Bo): under the current rules the result would be withheld until the "
        "awards are confirmed; recorded result kept: Ana won"
    ) in out
    assert "1 stream(s) changed" in out


def test_the_owner_sees_the_difference_then_moves_the_match_to_the_current_rules(v1_bone_wars, owner, api):
    match = v1_bone_wars
    diff = api.get(f"/api/matches/{match.pk}/rules/").json()
    assert diff["rules_version"] == 1 and diff["current_version"] == BW.version and diff["movable"]
    assert diff["recorded"]["words"] == "Ana won" and diff["recorded"]["provisional"] is False
    assert diff["current"]["provisional"] is True and diff["current"]["winners"] == [0]
    assert diff["refused"] == [] and diff["same_result"] is False
    assert diff["changes"][0].startswith("the result would be withheld until the awards are confirmed; a number")
    assert EventRow.objects.filter(stream_id=match.stream_id).count() == 14  # a look writes nothing
    r = api.post(f"/api/matches/{match.pk}/rules/", {"expected_version": 14}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["version"] == 15 and r.json()["outcome"]["provisional"] is True
    entry = EventRow.objects.get(stream_id=match.stream_id, version=15)
    assert (entry.type, entry.seat, entry.data) == ("rules_upgraded", None, {"from": 1, "to": BW.version})
    stream = Stream.objects.get(pk=match.stream_id)
    assert stream.rules_version == BW.version and RULES_KEY not in stream.state
    rebuild()
    everywhere(match, owner, api, finished=False, winners=[])
    # history keeps every entry and says what happened
    history = [line["text"] for line in api.get(f"/api/matches/{match.pk}/events/").json()["results"]]
    assert (
        history[-1]
        == f"Replayed under the current rules of Bone Wars (version 1 → {BW.version}), at the owner's request."
    )
    # now the awards can be recorded, then the end confirmed
    match_event_record(match=match, user=owner, type="rp_gained", seat=1, data={"amount": 4, "reason": "award"})
    match_event_record(match=match, user=owner, type="game_concluded", data={})
    rebuild()
    everywhere(match, owner, api, finished=True, winners=[1])
    # nothing further to move to
    again = api.post(f"/api/matches/{match.pk}/rules/", {}, format="json")
    assert again.status_code == 400 and again.json()["violation"] == "rules_current"
    head_cache.clear()
    assert api.get(f"/api/matches/{match.pk}/state/").json()["outcome"]["winners"] == [1]


def test_the_move_is_refused_to_anyone_but_the_owner_and_writes_nothing(v1_bone_wars, owner, make_user, client_for):
    match = v1_bone_wars
    recorder = make_user("recorder")
    match.recorders.add(recorder)
    other = client_for(recorder)
    count = EventRow.objects.count()
    for method in ("get", "post"):
        r = getattr(other, method)(f"/api/matches/{match.pk}/rules/", {}, format="json")
        assert r.status_code == 403 and "owner" in r.json()["detail"]
    stranger = client_for(make_user("stranger"))
    assert stranger.post(f"/api/matches/{match.pk}/rules/", {}, format="json").status_code == 404  # private
    assert client_for(None).post(f"/api/matches/{match.pk}/rules/", {}, format="json").status_code in (401, 403)
    assert EventRow.objects.count() == count
    assert Stream.objects.get(pk=match.stream_id).rules_version == 1


@pytest.mark.parametrize(
    "body",
    [
        {"expected_version": "14"},
        {"expected_version": -1},
        {"expected_version": True},
        {"expected_version": 10**12},
        {"idempotency_key": ""},
        {"idempotency_key": "x" * 101},
        ["not", "an", "object"],
        "garbage",
    ],
)
def test_bad_input_is_a_400_and_writes_nothing(v1_bone_wars, api, body):
    count = EventRow.objects.count()
    r = api.post(f"/api/matches/{v1_bone_wars.pk}/rules/", body, format="json")
    assert r.status_code == 400, r.content
    assert EventRow.objects.count() == count and Stream.objects.get(pk=v1_bone_wars.stream_id).rules_version == 1


def test_a_stale_version_is_a_409_and_a_repeat_is_answered_once(v1_bone_wars, api):
    r = api.post(f"/api/matches/{v1_bone_wars.pk}/rules/", {"expected_version": 3}, format="json")
    assert r.status_code == 409
    first = api.post(f"/api/matches/{v1_bone_wars.pk}/rules/", {"idempotency_key": "k1"}, format="json")
    second = api.post(f"/api/matches/{v1_bone_wars.pk}/rules/", {"idempotency_key": "k1"}, format="json")
    assert (first.status_code, second.status_code) == (201, 200) and second["Idempotent-Replayed"] == "true"
    assert EventRow.objects.filter(stream_id=v1_bone_wars.stream_id, type="rules_upgraded").count() == 1


def test_the_move_is_refused_while_an_entry_would_not_hold_under_the_current_rules(owner, api):
    """Version 2 accepted an overridden card onto a full board (a made-up sixth slot); version 3 refuses it, so
    the match cannot move until that entry is voided."""
    match = match_create(owner=owner, game="bone-wars", seats=[{"name": "Ana"}], options={"starting_money": 50})
    older_release(match, 2)
    for _ in range(5):
        card = {"card": {"kind": "team", "name": "Field Team", "cost": 0}}
        match_event_record(match=match, user=owner, type="card_played", seat=0, data=card)
        match_event_record(match=match, user=owner, type="turn_ended", seat=0, data={})
    match_event_record(match=match, user=owner, type="rule_overridden", data={"reason": "house rule"})
    sixth = {"card": {"kind": "team", "name": "Sixth", "cost": 0}}
    match_event_record(match=match, user=owner, type="card_played", seat=0, data=sixth)
    state = api.get(f"/api/matches/{match.pk}/state/").json()["state"]
    assert len(state["players"][0]["slots"]) == 6  # kept as version 2 recorded it
    diff = api.get(f"/api/matches/{match.pk}/rules/").json()
    assert not diff["movable"] and [r["version"] for r in diff["refused"]] == [12]
    assert diff["refused"][0]["entry"] == "Played a card, Ana" and "cannot be placed" in diff["refused"][0]["why"]
    assert "entry 12 (Played a card, Ana) would be refused" in diff["words"]
    count = EventRow.objects.count()
    r = api.post(f"/api/matches/{match.pk}/rules/", {}, format="json")
    assert r.status_code == 400 and r.json()["violation"] == "rules_upgrade_refused"
    assert "Entry 12 (card_played)" in r.json()["detail"] and "Void it first" in r.json()["detail"]
    assert EventRow.objects.count() == count and Stream.objects.get(pk=match.stream_id).rules_version == 2
    # void it (under version 2), then the move is allowed once the house rule no longer waits for its move
    match_event_record(match=match, user=owner, type="event_voided", data={"version": 12, "reason": "no sixth"})
    r = api.post(f"/api/matches/{match.pk}/rules/", {}, format="json")
    assert r.status_code == 400 and r.json()["violation"] == "override_pending"
    match_event_record(match=match, user=owner, type="event_voided", data={"version": 11, "reason": "no house rule"})
    assert api.post(f"/api/matches/{match.pk}/rules/", {}, format="json").status_code == 201
    out = check_rulesets()
    assert f"#{match.pk}" not in out


def test_the_first_spine_under_version_1_keeps_its_turn_end(owner, api):
    """The Martyr (Death, Treason) and the Turncoat destroy each other. Version 1 read the second destroyer after
    the first had changed sides: the Martyr goes to the discard. The current rules swap both."""
    from tests.rulesets.the_first_spine.conftest import Table

    t = Table(2, board=[4, 5]).setup(origins=("healer", "priest"))
    t.refill().place("Turncoat", [2, 2]).end()
    t.refill().place("Martyr", [1, 2]).end()
    match = match_create(
        owner=owner, game="the-first-spine", seats=[{"name": "Ana"}, {"name": "Bo"}], options=t.options
    )
    older_release(match, 1)
    for event in t.events:
        match_event_record(match=match, user=owner, type=event.type, seat=event.seat, data=event.data)
    board = {tuple(c["at"]): c for c in Stream.objects.get(pk=match.stream_id).state["cards"]}
    assert (1, 2) not in board and board[(2, 2)]["controller"] == 1  # version 1's turn end
    diff = api.get(f"/api/matches/{match.pk}/rules/").json()
    assert diff["movable"] and diff["same_result"] and diff["recorded"] is None
    assert api.post(f"/api/matches/{match.pk}/rules/", {}, format="json").status_code == 201
    board = {tuple(c["at"]): c for c in Stream.objects.get(pk=match.stream_id).state["cards"]}
    assert board[(1, 2)]["controller"] == 0 and board[(2, 2)]["controller"] == 1  # swapped, as now
    assert json.loads(json.dumps(diff))  # JSON all through


def test_an_adventure_match_recorded_under_an_older_version_keeps_its_result_in_the_campaign(owner, api):
    """The Saltmarsh adventure (a match game played inside a campaign) too: won under version 2, it stays won
    everywhere, the campaign sheet included."""
    cid = api.post("/api/campaigns/", {"name": "Tuesdays"}, format="json").json()["id"]
    for hero in ("Ana", "Bo"):
        body = {"type": "hero_joined", "data": {"hero": hero, "class": "Fighter"}}
        assert api.post(f"/api/campaigns/{cid}/events/", body, format="json").status_code == 201
    body = {"adventure": "The Sinister Secret", "reward": 500, "heroes": [{"name": "Ana", "max_hp": 10}]}
    mid = api.post(f"/api/campaigns/{cid}/adventures/", body, format="json").json()["match"]
    match = Match.objects.get(pk=mid)
    older_release(match, get_ruleset("saltmarsh-adventure").version - 1)
    r = api.post(f"/api/matches/{mid}/events/", {"type": "adventure_won", "data": {}}, format="json")
    assert r.status_code == 201, r.json()
    rebuild()
    everywhere(match, owner, api, finished=True, winners=[0])
    assert api.get(f"/api/campaigns/{cid}/sheet/").json()["adventures"][-1]["result"] == "completed"
    assert "0 stream(s) changed" in check_rulesets()


def test_a_backup_from_before_rule_versions_keeps_each_streams_recorded_version(v1_bone_wars):
    """A backup written before ``rules_version`` existed: each stream gets the version of its head, as the
    migration gives it; the restored match replays under it (still finished, Ana won)."""
    from matches.interop.backup import streams_import

    out = io.StringIO()
    call_command("export_streams", stdout=out, stderr=io.StringIO())
    lines = []
    for line in out.getvalue().splitlines():
        row = json.loads(line)
        if row.get("model") == "matches.stream":  # as the version-1 release wrote it
            row["fields"].pop("rules_version")
            row["fields"]["ruleset_version"] = 1
            line = json.dumps(row)
        lines.append(line)
    call_command("flush", interactive=False, verbosity=0)
    head_cache.clear()
    streams_import(io.StringIO("\n".join(lines)))
    stream = Stream.objects.get(pk=v1_bone_wars.stream_id)
    assert stream.rules_version == 1
    match = Match.objects.get(pk=v1_bone_wars.pk)
    assert match.status == "finished" and MatchSummary.objects.get(match=match).winners == [0]


def test_the_move_is_not_undone_and_the_page_offers_no_undo_of_it(v1_bone_wars, owner, api):
    match = v1_bone_wars
    version = api.post(f"/api/matches/{match.pk}/rules/", {}, format="json").json()["version"]
    count = EventRow.objects.count()
    body = {"type": "event_voided", "data": {"version": version, "reason": "oops"}}
    r = api.post(f"/api/matches/{match.pk}/events/", body, format="json")
    assert r.status_code == 400 and r.json()["violation"] == "cannot_void_upgrade"
    assert EventRow.objects.count() == count
    from frontend.selectors import last_undoable_version

    assert last_undoable_version(stream_id=match.stream_id) is None
    # a client cannot record the move through the events endpoint
    body = {"type": "rules_upgraded", "data": {"from": 1, "to": BW.version}}
    assert api.post(f"/api/matches/{match.pk}/events/", body, format="json").status_code == 400
    assert EventRow.objects.count() == count


def test_snapshots_from_before_the_move_are_not_used(v1_bone_wars, owner, api, settings):
    """A snapshot folded under the rules a match left must not be the start of a replay under the new ones."""
    from matches.models import Snapshot
    from matches.store.events import head_load, position_at

    match = v1_bone_wars
    head = head_load(match.stream_id, fresh=True)
    Snapshot.objects.create(
        stream_id=match.stream_id, version=14, state=head.state, override_pending=False, ruleset_version=BW.version
    )
    api.post(f"/api/matches/{match.pk}/rules/", {}, format="json")
    head_cache.clear()
    pos = position_at(match.stream_id, 14)
    assert RULES_KEY not in pos.state
