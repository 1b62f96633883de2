"""The Bone Wars board on the match page: seat boards, bookshelf, pre-filled forms, one-tap moves, sittings
and the "Set up the table" panel at any version."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest

from tests.frontend.board_page import BoardPage, parse_board

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

TEAM = {"card": {"kind": "team", "name": "Marsh's Team", "cost": 1}}
RAPTOR = {"card": {"kind": "species", "name": "Triceratops", "minor_find": "bug"}}


def parse(html: str) -> BoardPage:
    return parse_board(
        html,
        {
            "seats": ("section", "bw-seat"),
            "slots": ("li", "bw-slot"),
            "papers": ("span", "bw-paper"),
            "sittings": ("li", "bw-sitting"),
            "setup_seats": ("dl", "bw-setup-seat"),
        },
    )


def get(client: Any, match: Any, query: str = "") -> tuple[str, BoardPage]:
    response = client.get(f"/matches/{match.pk}/{query}")
    assert response.status_code == 200
    html = response.content.decode()
    return html, parse(html)


def record(match: Any, user: Any, *moves: tuple[str, int | None, dict[str, Any]]) -> None:
    from matches.services import match_event_record

    for type_, seat, data in moves:
        match_event_record(match=match, user=user, type=type_, seat=seat, data=data)


def head(match: Any) -> tuple[int, dict[str, Any]]:
    from matches.store import events as store

    h = store.head_load(match.stream_id, fresh=True)
    return h.version, h.state


def form_of(page: BoardPage, css: str) -> dict[str, Any]:
    [form] = [f for f in page.forms if css in f["attrs"].get("class", "").split()]
    return form


def section(html: str, css: str) -> str:
    """The text of the first element with class ``css`` up to its closing tag (good enough for flat HTML)."""
    start = html.index(f'class="{css}')
    text = re.sub(r"<[^>]+>", " ", html[start : html.index("</section>", start)])
    return " ".join(unescape(text).split())


@pytest.fixture
def bones(owner: Any) -> Any:
    """Ana (Marsh, starts) and Bo (Cope), $7 each."""
    from matches.services import match_create

    return match_create(
        is_public=True, owner=owner, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}], title="Bones"
    )


def test_each_seat_board_slots_tracks_bookshelf_money_and_rp(client, owner, bones):
    record(
        bones, owner,
        ("card_played", 0, TEAM), ("loyalty_gained", 0, {"amount": 2}), ("paper_published", 0, {"side": "marsh"}),
        ("turn_ended", 0, {}), ("card_played", 1, RAPTOR),
    )  # fmt: skip
    html, page = get(client, bones)
    assert [s["data-seat"] for s in page.seats] == ["0", "1"]
    assert len(page.slots) == 10
    ana = section(html, "bw-seat bw-patron-marsh")
    assert "Ana" in ana and "$6" in ana and "0 RP" in ana and "Marsh's Team" in ana
    assert [("is-filled" in s["class"], "has-prize" in s["class"]) for s in page.slots[5:7]] == [
        (True, True),  # Bo's Triceratops on the bug slot: prize
        (False, False),
    ]
    assert "★ prize" in html
    assert [p["class"] for p in page.papers].count("bw-paper is-full") == 1  # one paper for Marsh
    assert re.search(
        r'data-track="marsh"><span class="bw-track-name">Marsh ●</span>.*?<strong class="bw-track-value">2<', html
    )
    for icon in ("bug", "footprint", "fossil", "hammer", "plant"):
        assert f'href="#bw-icon-{icon}"' in html and f'id="bw-icon-{icon}"' in html
    assert "Round 1 of 4</strong> · Bo to play — finish the action (record its effects), then end the turn</p>" in (
        unescape(html)
    )  # the player named once, the round once (issue 22 item 8)


def test_forms_prefill_the_seat_on_turn_and_the_next_slot(client, owner, bones):
    record(bones, owner, ("card_played", 0, TEAM), ("turn_ended", 0, {}))
    client.force_login(owner)
    html, page = get(client, bones)
    card = form_of(page, "bw-card-form")
    assert card["hidden"]["seat"] == "1" and card["hidden"]["type"] == "card_played"
    assert card["hidden"]["expected_version"] == "2"
    assert 'slot 1</strong>: it costs <strong class="bw-next-cost">$0' in html  # Bo's first slot
    record(bones, owner, ("card_played", 1, {"card": {"kind": "team", "name": "T"}}), ("turn_ended", 1, {}))
    html, page = get(client, bones)
    assert form_of(page, "bw-card-form")["hidden"]["seat"] == "0"
    assert 'slot 2</strong>: it costs <strong class="bw-next-cost">$1' in html  # Ana's second slot
    buttons = [json.loads(b["value"]) for b in form_of(page, "bw-buttons")["buttons"]]
    assert {(b["type"], b["seat"], b["data"].get("patron")) for b in buttons} == {
        ("passed", 0, "marsh"),
        ("passed", 0, "cope"),
    }
    record(bones, owner, ("card_played", 0, {"card": {"kind": "team", "name": "U"}}))
    html, page = get(client, bones)
    types = ("money_changed", "loyalty_gained", "species_archived", "slot_upgraded", "rp_gained")
    effects = [f for f in page.forms if f["hidden"].get("type") in types and "seat" in f["hidden"]]
    assert sorted(f["hidden"]["type"] for f in effects) == sorted(types)
    assert {f["hidden"]["seat"] for f in effects} == {"0"}
    assert re.search(r'name="data.cost" value="3"', html)  # an upgrade pre-filled like the rightmost slot
    assert "onto Marsh's track" in unescape(html)
    assert "bw-card-form" not in html  # one card a turn


def test_the_card_form_records_a_card(client, owner, bones):
    client.force_login(owner)
    _, page = get(client, bones)
    card = form_of(page, "bw-card-form")
    post = {**card["hidden"], "data.card.kind": "species", "data.card.name": "Stegosaurus", "data.card.cost": "0",
            "data.card.minor_find": "bug"}  # fmt: skip
    response = client.post(card["attrs"]["action"], post)
    assert response.status_code == 302
    version, state = head(bones)
    assert version == 1
    assert state["players"][0]["slots"][0]["card"] == {
        "kind": "species", "name": "Stegosaurus", "cost": 0, "minor_find": "bug",
    }  # fmt: skip
    assert state["players"][0]["slots"][0]["prize"] is True


def test_a_refused_card_names_the_rule_and_keeps_what_was_typed(client, owner, bones):
    client.force_login(owner)
    _, page = get(client, bones)
    card = form_of(page, "bw-card-form")
    post = {**card["hidden"], "data.card.kind": "species", "data.card.name": "Dimetrodon", "data.card.cost": "2",
            "data.card.minor_find": "plant"}  # fmt: skip
    response = client.post(card["attrs"]["action"], post)
    assert response.status_code == 400
    html = response.content.decode()
    assert "A species card has no cost of its own" in html and "Bone Wars › Playing a card" in html
    assert 'value="Dimetrodon"' in html and re.search(r'<option value="plant"\s+selected>', html)
    assert head(bones)[0] == 0


def test_one_tap_moves_post_complete_legal_events(client, owner, bones):
    record(bones, owner, ("card_played", 0, TEAM))
    client.force_login(owner)
    _, page = get(client, bones)
    buttons = form_of(page, "bw-buttons")
    publish = next(b for b in buttons["buttons"] if json.loads(b["value"])["type"] == "paper_published")
    response = client.post(buttons["attrs"]["action"], {**buttons["hidden"], "move": publish["value"]})
    assert response.status_code == 302
    assert head(bones)[1]["credibility"]["marsh"] == 1


def test_spectators_see_the_board_but_no_moves(client, owner, bones):
    record(bones, owner, ("card_played", 0, TEAM))
    html, page = get(client, bones)
    assert page.seats and "bw-moves" not in html and "bw-card-form" not in html and "bw-cm" not in html


def test_sittings_show_date_versions_rounds_and_rp(client, owner, bones):
    record(bones, owner, ("card_played", 0, TEAM), ("loyalty_gained", 0, {"amount": 2}),
           ("paper_published", 0, {"side": "marsh"}), ("turn_ended", 0, {}))  # fmt: skip
    record(bones, owner, ("passed", 1, {"patron": "cope"}), ("passed", 0, {"patron": "marsh"}))  # round 1 ends
    record(bones, owner, ("card_played", 0, TEAM), ("turn_ended", 0, {}))
    record(bones, owner, ("passed", 1, {"patron": "cope"}), ("passed", 0, {"patron": "marsh"}))  # mid-game: Ana 2 × 1
    record(bones, owner, ("table_paused", None, {}), ("card_played", 0, RAPTOR))
    version, state = head(bones)
    html, page = get(client, bones)
    assert [s["data-sitting"] for s in page.sittings] == ["1", "2"]
    sittings = section(html, "bw-sittings")
    first = state["sittings"][0]
    assert f"moves 1–{first['to_version']}" in sittings and "rounds 1–2" in sittings
    assert "Ana +2, Bo +0" in sittings and f"moves {first['to_version'] + 1}–{version}" in sittings
    from matches.models import Event as EventRow

    day = EventRow.objects.get(stream_id=bones.stream_id, version=1).recorded_at
    assert f'<time datetime="{day.isoformat()}' in html or day.strftime("%Y") in sittings
    assert "Mid-game scoring after round 2" in html


def test_set_up_the_table_at_any_version(client, owner, bones):
    record(
        bones, owner,
        ("card_played", 0, TEAM), ("loyalty_gained", 0, {"amount": 2}), ("paper_published", 0, {"side": "cope"}),
        ("turn_ended", 0, {}), ("card_played", 1, RAPTOR), ("patron_flipped", 1, {}),
    )  # fmt: skip
    html, page = get(client, bones)
    setup = section(html, "bw-setup")
    assert "As at move 6" in setup and "Bo to play" in setup
    assert "1 paper on Cope" in setup and "0 papers on Marsh" in setup
    assert len(page.setup_seats) == 2
    assert "Money $6 · patron tile Marsh" in setup  # Ana: $7 − $1
    assert "Loyalty markers: Marsh 2 , Cope 0" in setup
    assert "patron tile Marsh" in setup.split("Bo Money")[-1]  # Bo flipped to Marsh
    assert "Marsh's Team" in setup
    html, _ = get(client, bones, "?at=2")
    setup = section(html, "bw-setup")
    assert "As at move 2" in setup and "0 papers on Cope" in setup and "Triceratops" not in setup
    assert "@media print" in open_css()


def open_css() -> str:
    from pathlib import Path

    return (Path(__file__).resolve().parents[3] / "frontend/static/frontend/bone-wars.css").read_text()


def test_the_page_of_a_finished_game_names_the_winner(client, owner):
    from matches.services import match_create

    match = match_create(is_public=True, owner=owner, game="bone-wars", seats=[{"name": "Solo"}])
    record(match, owner, ("card_played", 0, TEAM), ("paper_published", 0, {"side": "marsh"}),
           ("loyalty_gained", 0, {"amount": 3}), ("turn_ended", 0, {}))  # fmt: skip
    for _ in range(4):
        record(match, owner, ("passed", 0, {"patron": "marsh"}))
    client.force_login(owner)
    html, _ = get(client, match)
    # issue 22 item 4: after the last pass the result is provisional, the awards are offered
    assert "provisional result" in html and "badge finished" not in html and ">leads<" in html
    assert 'data-event-type="rp_gained"' in html and "Confirm the end of the game" in html
    assert "Solo leads with 6 RP (most RP)" in unescape(html)  # 3 loyalty × 1 paper, twice
    record(match, owner, ("rp_gained", 0, {"amount": 2, "reason": "discoverer award"}), ("game_concluded", None, {}))
    match.refresh_from_db()
    assert match.status == "finished"
    html, _ = get(client, match)
    assert "game over" in html and "badge finished" in html and "bw-moves" not in html
    assert "Solo wins with 8 RP (most RP)." in unescape(html)
    assert "Final scoring after round 4" in html
    assert "bw-cm" in html  # the tie-break may still be measured


def test_an_award_after_the_last_pass_is_recorded_from_the_page(client, owner, bones):
    for _ in range(4):
        record(bones, owner, ("passed", 0, {"patron": "marsh"}), ("passed", 1, {"patron": "cope"}))
    client.force_login(owner)
    version, _ = head(bones)
    r = client.post(f"/matches/{bones.pk}/record/", {"type": "rp_gained", "seat": "1", "data.amount": "4",
                                                     "data.reason": "discoverer award", "expected_version": version})  # fmt: skip
    assert r.status_code == 302, r.content.decode()[:2000]
    assert head(bones)[1]["players"][1]["rp"] == 4
    html, _ = get(client, bones)
    assert "Bo leads with 4 RP (most RP)" in unescape(html) and "Provisional result" in html


def test_a_card_in_a_slot_is_upgraded_and_the_set_up_shows_the_new_card(client, owner, bones):
    """Issue 22 item 5: the set-up panel shows the upgraded card, not the old one."""
    record(bones, owner, ("card_played", 0, TEAM))
    client.force_login(owner)
    html, _ = get(client, bones)
    assert 'data-event-type="card_upgraded"' in html
    r = client.post(f"/matches/{bones.pk}/record/", {"type": "card_upgraded", "seat": "0", "expand": "1",
                                                     "data.slot": "1", "data.card.kind": "team",
                                                     "data.card.name": "Advanced Team", "data.card.cost": "2",
                                                     "expected_version": "1"})  # fmt: skip
    assert r.status_code == 302, r.content.decode()[:2000]
    html, _ = get(client, bones)
    setup = section(html, "bw-setup")
    assert "1: Advanced Team" in setup and "Marsh's Team" not in setup and "Money $4" in setup


def test_the_card_form_never_offers_a_slot_the_seat_cannot_pay_for(client, owner):
    """Issue 22 item 8: with $0 and a $1 slot next, the page says the seat can only pass."""
    from matches.services import match_create

    match = match_create(
        is_public=True, owner=owner, game="bone-wars", seats=[{"name": "Ana"}], options={"starting_money": 0}
    )
    record(match, owner, ("card_played", 0, {"card": {"kind": "team", "name": "T"}}), ("turn_ended", 0, {}))
    client.force_login(owner)
    html = unescape(get(client, match)[0])
    assert "Slot 2 costs" in html and "Ana can only pass" in html and "Play a card into" not in html
    assert "Ana to play — pass: slot 2 costs $1 and only $0 is left" in html


def test_a_pause_before_the_awards_and_the_awards_in_the_next_sitting(client, owner, bones):
    """Issue 32, item 5: the table packs away after the last pass; the awards counted at the next sitting
    belong to that sitting on the page."""
    record(bones, owner, ("card_played", 0, TEAM), ("rp_gained", 0, {"amount": 1, "reason": "find"}),
           ("turn_ended", 0, {}), ("passed", 1, {"patron": "cope"}), ("passed", 0, {"patron": "marsh"}))  # fmt: skip
    for _ in range(3):
        record(bones, owner, ("passed", 0, {"patron": "marsh"}), ("passed", 1, {"patron": "cope"}))
    client.force_login(owner)
    version, _ = head(bones)
    html, page = get(client, bones)
    awards = section(html, "bw-moves bw-awards")
    assert "Pause the table (end of sitting)" in awards and "the awards go to the next sitting" in awards
    [pause] = [b for b in page.all_buttons if "bw-move-table_paused" in b.get("class", "")]
    r = client.post(f"/matches/{bones.pk}/record/", {"move": pause["value"], "expected_version": version})
    assert r.status_code == 302, r.content.decode()[:2000]
    paused_at, state = head(bones)
    assert paused_at == version + 1 and state["sittings"][-1]["paused"]
    html, page = get(client, bones)
    assert "Provisional result" in html and "Pause the table" not in html  # nothing to pause twice
    setup = section(html, "bw-setup")
    assert f"As at move {paused_at}: round 4 of 4, round 4 over: the final awards still to record" in setup
    # the next evening
    record(bones, owner, ("rp_gained", 1, {"amount": 4, "reason": "discoverer award"}), ("game_concluded", None, {}))
    html, page = get(client, bones)
    assert [s["data-sitting"] for s in page.sittings] == ["1", "2"]
    sittings = section(html, "bw-sittings")
    first, second = sittings.split("Sitting 2")
    assert "rounds 1–4" in first and "Ana +1, Bo +0" in first
    assert f"moves {paused_at + 1}–{paused_at + 2}" in second and "after round 4: the final awards" in second
    assert "Bo +4" in second and "last" in second
    assert "Bo wins with 4 RP (most RP)." in unescape(html)


def test_a_debt_recorded_under_an_override_reads_minus_dollars(client, owner):
    """Issue 32: "$-2" on the board and in the card form; a $0 slot stays playable in debt."""
    from matches.services import match_create

    match = match_create(
        is_public=True, owner=owner, game="bone-wars", seats=[{"name": "Ana"}], options={"starting_money": 0}
    )
    record(match, owner, ("card_played", 0, {"card": {"kind": "team", "name": "T"}}),
           ("rule_overridden", None, {"reason": "house rule: debts"}), ("money_changed", 0, {"amount": -2}),
           ("money_changed", 0, {"amount": 1}),  # a gain in debt: accepted without an override
           ("turn_ended", 0, {}))  # fmt: skip
    assert head(match)[1]["players"][0]["money"] == -1
    client.force_login(owner)
    html = unescape(get(client, match)[0])
    assert "$-" not in html
    assert "\u2212$1" in section(html, "bw-seat") and "Money \u2212$1" in section(html, "bw-setup")
    assert "Slot 2 costs $1 and Ana owes $1: Ana can only pass." in " ".join(re.sub(r"<[^>]+>", " ", html).split())
    record(match, owner, ("passed", 0, {"patron": "marsh"}))  # round 2: the $0 slot again
    text = " ".join(re.sub(r"<[^>]+>", " ", unescape(get(client, match)[0])).split())
    assert "Play a card into slot 1 : it costs $0" in text and "can only pass" not in text


def test_demo_has_a_bone_wars_match_over_two_sittings(client):
    from django.core.management import call_command

    from matches.models import Match

    call_command("load_demo")
    match = Match.objects.get(game="bone-wars", title="Demo: Bone Wars")
    html, page = get(client, match)
    assert len(page.seats) == 3 and len(page.sittings) == 2 and "★ prize" in html
    history = client.get(f"/matches/{match.pk}/history/").content.decode()
    assert "Ana played Allosaurus into slot 1 (cost 0+0): prize bonus" in history
    assert "Bo played Bone hunters into slot 1 (cost 0+2)" in history


def test_a_bone_wars_match_is_created_from_the_new_match_page(client, owner):
    from matches.models import Match

    client.force_login(owner)
    assert b'name="option.starting_money"' in client.get("/matches/new/?game=bone-wars").content
    r = client.post("/matches/new/", {"game": "bone-wars", "seat_count": "3", "seat_0": "Ana", "seat_1": "Bo",
                                      "seat_2": "Cy", "option.first_seat": "2", "option.starting_money": "4",
                                      "option.patrons": '["cope", "cope", "marsh"]', "option.shelves": "3"})  # fmt: skip
    assert r.status_code == 302
    match = Match.objects.get()
    _, state = head(match)
    assert state["turn"] == 2 and state["shelves"] == 3
    assert [(p["money"], p["patron"]) for p in state["players"]] == [(4, "cope"), (4, "cope"), (4, "marsh")]
    r = client.post("/matches/new/", {"game": "bone-wars", "seat_count": "2", "seat_0": "Ana", "seat_1": "Bo",
                                      "option.first_seat": "3"})  # fmt: skip
    said = r.content.decode()  # the form offers the seats of a 2-player match only, and says so in its words
    assert r.status_code == 400 and "First player: Choose one of: Player 1, Player 2, Random" in said
