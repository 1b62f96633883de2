"""Issue 33 items 7–9 through the test client: an undo told in players' words (history, news, API), plain
refusals, no "#31" in headers, "Started" on a match in progress, an imported result's note, capitalised
insight values; Bone Wars' turn line, slot defaults, pause and sitting round; Saltmarsh's heroes named in
the seat select, the history and the first part of the new-match form."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest

from matches.services import match_create, match_event_record, match_event_void
from rulesets.replay import UNDO_REASON

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

HEROES = [{"name": "Kara", "class": "Fighter", "max_hp": 10}, {"name": "Finn", "class": "Wizard", "max_hp": 6}]


@pytest.fixture
def web(client: Any, owner: Any) -> Any:
    client.force_login(owner)
    return client


def _text(html: str) -> str:
    """The words a page shows (no scripts: the offline seed holds the wire's names)."""
    html = re.sub(r"<script[^>]*>.*?</script>", " ", html, flags=re.S)
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def _stones(owner: Any, **kw: Any) -> Any:
    return match_create(owner=owner, game="last-stone", seats=[{"name": "Ana"}, {"name": "Bo"}], **kw)


def test_an_undo_is_told_with_the_move_it_undid_in_the_history_the_news_and_the_api(web, owner):
    match = _stones(owner)
    match_event_record(match=match, user=owner, type="stones_taken", seat=0, data={"count": 2})
    match_event_void(match=match, user=owner, version=1, reason=UNDO_REASON)
    history = _text(web.get(f"/matches/{match.pk}/history/").content.decode())
    assert "Ana's move 1 (took 2 stones) was undone at the table" in history
    assert "undone at move 2" in history and "oided" not in history and "entry" not in history
    news = _text(web.get(f"/matches/{match.pk}/?seen=1").content.decode())  # what the other phone is told
    assert "Ana's move 1 (took 2 stones) was undone at the table (move 2)" in news and "oided" not in news
    api = web.get(f"/api/matches/{match.pk}/events/").json()["results"]
    rows = api["results"] if isinstance(api, dict) and "results" in api else api
    assert any("was undone at the table" in str(r) for r in rows), rows
    # a reason of the table's own is quoted; the undone move told on a page that holds only the void
    match_event_record(match=match, user=owner, type="stones_taken", seat=0, data={"count": 1})
    match_event_void(match=match, user=owner, version=3, reason="wrong pile")
    news = _text(web.get(f"/matches/{match.pk}/?seen=3").content.decode())
    assert "Ana's move 3 (took 1 stone) was undone: wrong pile" in news


def test_a_refused_list_and_an_empty_type_are_said_in_plain_words(web, owner):
    from rulesets.offline import invalid_detail

    match = match_create(owner=owner, game="saltmarsh-adventure", seats=[{"name": "Ana"}, {"name": "Bo"}],
                         options={"heroes": HEROES})  # fmt: skip
    match_event_record(match=match, user=owner, type="hero_phase_started", seat=0, data={})
    r = web.post(f"/matches/{match.pk}/record/", {"type": "attack_rolled", "seat": "0", "expand": "1",
                                                  "data.attacker": "hero", "expected_version": "1"})  # fmt: skip
    page = _text(r.content.decode())
    assert r.status_code == 400 and "Please correct d20 rolls: Enter at least 1." in page
    assert "Please correct:" not in page and "item" not in page.split("d20 rolls:")[1][:40]
    assert invalid_detail({"type": ["This field may not be blank."]}) == "The kind of move is missing."
    assert invalid_detail({"seat": ["Must be a seat index."]}) == "The player: must be a seat index."


def test_headers_drop_the_number_and_a_match_in_progress_was_started(web, owner):
    match = _stones(owner, title="Friday")
    html = web.get(f"/matches/{match.pk}/").content.decode()
    assert f"#{match.pk}" not in _text(html)
    listing = _text(web.get("/matches/").content.decode())
    assert "Started " in listing and "Played " not in listing
    for seat, count in ((0, 3), (1, 3), (0, 3), (1, 1)):  # ten stones, Bo takes the last
        match_event_record(match=match, user=owner, type="stones_taken", seat=seat, data={"count": count})
    match.refresh_from_db()
    from matches.interop.present import play_line

    assert match.status == match.STATUS_FINISHED and play_line(match).startswith("Played ")


def test_an_imported_result_and_a_games_own_reason_read_after_the_winner():
    from frontend.templatetags.plays import outcome_tail

    assert outcome_tail("imported from BG Stats") == " · the result imported from BG Stats"
    assert outcome_tail("took the last stone") == ": took the last stone"
    assert outcome_tail("") == "" and outcome_tail(None) == ""


def test_insight_values_start_with_a_capital():
    from frontend.views.stats import _capitalised

    assert _capitalised("color") == "Color" and _capitalised("shape") == "Shape" and _capitalised(3) == 3


def test_bone_wars_turn_line_slot_defaults_pause_and_the_sittings_round(web, owner):
    bones = match_create(owner=owner, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}], title="Bones")
    page = _text(web.get(f"/matches/{bones.pk}/").content.decode())
    assert "($0; a team card adds its own cost)" in page and "the card's cost" not in page
    form = web.get("/matches/new/?game=bone-wars").content.decode()
    for i, (cost, icon) in enumerate([(0, "bug"), (1, "footprint"), (1, "fossil"), (2, "hammer"), (3, "plant")]):
        assert re.search(rf'name="option\.slots\.{i}\.cost" value="{cost}"', form), i
        assert re.search(rf'<option value="{icon}" selected', form.split(f"option.slots.{i}.icon", 1)[1]), i
    team = {"card": {"kind": "team", "name": "Crew", "cost": 0}}
    for type_, seat, data in [("card_played", 0, team), ("turn_ended", 0, {}), ("passed", 1, {"patron": "cope"}),
                              ("passed", 0, {"patron": "marsh"})]:  # fmt: skip
        match_event_record(match=bones, user=owner, type=type_, seat=seat, data=data)
    match_event_record(match=bones, user=owner, type="table_paused", seat=None, data={})
    page = _text(web.get(f"/matches/{bones.pk}/").content.decode())
    assert "Round 2 of 4 · paused" in page and "paused here" in page
    assert "the table paused at the end of sitting 1: the next move opens sitting 2" in page
    match_event_record(match=bones, user=owner, type="card_played", seat=0, data=team)
    page = _text(web.get(f"/matches/{bones.pk}/").content.decode())
    assert "Sitting 2" in page and "round 2 in progress" in page and "paused here" not in page
    # a sitting that opens in a round and sees it end names the round the board is in now
    other = match_create(owner=owner, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}])
    for type_, seat, data in [("card_played", 0, team), ("turn_ended", 0, {}), ("table_paused", None, {}),
                              ("passed", 1, {"patron": "cope"}), ("passed", 0, {"patron": "marsh"})]:  # fmt: skip
        match_event_record(match=other, user=owner, type=type_, seat=seat, data=data)
    page = _text(web.get(f"/matches/{other.pk}/").content.decode())
    assert "Round 2 of 4" in page and "rounds 1–2 in progress" in page


def test_saltmarsh_names_heroes_in_the_seat_select_the_history_and_the_new_match_form(web, owner):
    match = match_create(owner=owner, game="saltmarsh-adventure", seats=[{"name": "Ana"}, {"name": "Bo"}],
                         options={"heroes": HEROES})  # fmt: skip
    match_event_record(match=match, user=owner, type="hero_phase_started", seat=0, data={})
    html = web.get(f"/matches/{match.pk}/").content.decode()
    select = html.split('id="id_seat_attack_rolled"', 1)[1].split("</select>", 1)[0]
    assert ">Kara (Ana)<" in select and ">Finn (Bo)<" in select and ">Ana<" not in select
    match_event_record(match=match, user=owner, type="attack_rolled", seat=0, data={"attacker": "hero", "rolls": [14]})
    history = _text(web.get(f"/matches/{match.pk}/history/").content.decode())
    assert "Kara attacked, rolling 14." in history and "Ana attacked" not in history
    assert "Kara started the Hero Phase." in history
    form = web.get("/matches/new/?game=saltmarsh-adventure").content.decode()
    first, _, more = form.partition("More options")
    assert 'name="option.heroes.0.name"' in first and 'name="option.heroes.0.max_hp"' in first
    assert "option.heroes." not in more


def test_charts_are_drawn_a_phone_wide():
    from frontend.charts import PHONE_WIDTH, bar_chart, gold_chart

    assert bar_chart(["a"], {"n": [1]}, title="T")["width"] == PHONE_WIDTH == 340
    assert gold_chart([], ["Kara"], 3, small=True)["width"] == PHONE_WIDTH


def test_the_move_list_tells_alike_moves_apart_with_the_rulebooks_words():
    from frontend.forms.recording import legal_move_choices
    from rulesets import get_ruleset

    spine = get_ruleset("the-first-spine")
    state = spine.initial_state({}, 2)
    texts = [o["text"] for o in legal_move_choices(spine, spine.legal_moves(state), ["Ana", "Bo"])]
    assert any(t.endswith("— Secret origin: Healer") for t in texts), texts
    assert not any("healer" in t or "origin (secret)" in t for t in texts), texts


def test_an_imported_win_reads_once_on_the_match_page_and_the_list(web):
    import io

    from matches.models import Match
    from tests.matches.interop.builders import project, quirky_bgstats

    upload = io.BytesIO(quirky_bgstats().bytes())
    upload.name = "bgstats.json"
    assert web.post("/stats/import-export/", {"file": upload}).status_code == 302
    project()
    won = next(m for m in Match.objects.filter(source="bgstats") if m.summary.winners)
    page = _text(web.get(f"/matches/{won.pk}/").content.decode())
    assert "· the result imported from BG Stats" in page and ": imported from BG Stats" not in page
    listing = _text(web.get("/matches/").content.decode())
    assert "— imported from BG Stats" not in listing and "· imported from BG Stats" in listing
