"""The First Spine board on the match page: the SVG board (sides, life, colours, rotation), the players, the
confrontation preview and the log; tapping a card name then a cell records the placement; the discard/draw,
choices and "End the turn" buttons post exactly legal events; spectators never see a secret origin."""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches.demo import FIRST_SPINE_SCRIPT
from matches.services import match_create, match_event_record
from rulesets.the_first_spine import RULESET
from tests.frontend.board_page import BoardPage, parse_board

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def parse(html: str) -> BoardPage:
    return parse_board(html, {"pieces": ("g", "fs-piece"), "hits": ("button", "fs-hit"), "hand": ("a", "fs-card-link")})


def moves(page: BoardPage) -> list[dict[str, Any]]:
    form = page.board_form("fs")
    return [json.loads(b["value"]) for b in (form["buttons"] if form else []) if b.get("name") == "move"]


def get(client: Any, match: Any, query: str = "") -> tuple[str, BoardPage]:
    response = client.get(f"/matches/{match.pk}/{query}")
    assert response.status_code == 200
    html = response.content.decode()
    return html, parse(html)


def state_of(match: Any) -> dict[str, Any]:
    from matches.store import events as store

    return store.head_load(match.stream_id, fresh=True).state


@pytest.fixture
def demo(owner: Any) -> Any:
    match = match_create(is_public=True, owner=owner, game="the-first-spine", seats=[{"name": "Ana"}, {"name": "Bo"}])
    for type_, seat, data in FIRST_SPINE_SCRIPT:
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)
    return match


@pytest.fixture
def web(client: Any, owner: Any) -> Any:
    client.force_login(owner)
    return client


def test_the_board_draws_every_piece_with_sides_life_and_rotation(web, demo):
    html, page = get(web, demo)
    state = state_of(demo)
    assert len(page.pieces) == len(state["cards"])
    by_cell = {p["data-cell"]: p for p in page.pieces}
    paladin = by_cell["3,3"]
    assert paladin["data-rotation"] == "0"  # Ana sits at the bottom: fronts point up
    assert "Paladin on column 4, row 4, 4 life, Ana's; attack/defense front 3/2" in paladin["aria-label"]
    wire = by_cell["2,3"]
    assert wire["data-rotation"] == "180"  # Bo sits at the top: fronts point down
    assert "Barbed Wire on column 4, row 3, 3 life, Bo's" in wire["aria-label"]
    assert "Bo's wizard on column 4, row 1, 19 life" in by_cell["0,3"]["aria-label"]
    assert "Aura (front)" in by_cell["4,2"]["aria-label"]
    assert 'fill="#1d5fa8"' in html and 'fill="#b3261e"' in html  # the two seats' colours


def test_the_preview_says_what_ending_the_turn_resolves(web, demo):
    html, _ = get(web, demo)
    # same-name cards are told apart by their cells (the demo has several Paladins, Squires, Barbed Wires)
    assert "Paladin on column 4, row 4 deals 3 to Barbed Wire on column 4, row 3, takes 2" in html
    assert "Squire on column 3, row 4 deals 3 to Grey Wolf, takes 0" in html  # the Anvil Guard's aura: 2 + 2 − 1
    assert (
        "Grey Wolf deals 1 to Squire on column 3, row 4 (attack 2 − defense 1), takes 1 (attack 2 − defense 1)." in html
    )  # the log
    assert "Bo discarded 2 (−1 life), drew 4." in html  # names, not seat numbers


def test_tap_a_card_then_a_cell_places_it(web, demo):
    _, page = get(web, demo)
    names = [a["href"] for a in page.hand]
    assert any("card=Anvil+Guard" in h for h in names)
    assert not any("Martyr" in h for h in names)  # a priest card is not in Ana's blacksmith deck
    assert page.hits == []
    _, page = get(web, demo, "?card=Squire")
    placed = [m for m in moves(page) if m["type"] == "card_placed"]
    state = state_of(demo)
    expected = sorted(RULESET_cells := [c for c in _placeable(state)])
    assert sorted(m["data"]["at"] for m in placed) == expected and RULESET_cells
    assert all(m["data"]["card"] == "Squire" and m["seat"] == 0 for m in placed)
    form = page.board_form("fs")
    target = next(m for m in placed if m["data"]["at"] == [3, 1])
    response = web.post(
        f"/matches/{demo.pk}/record/",
        {**form["hidden"], "move": json.dumps(target)},
    )
    assert response.status_code == 302
    assert any(c["name"] == "Squire" and c["at"] == [3, 1] for c in state_of(demo)["cards"])


def _placeable(state: dict[str, Any]) -> list[list[int]]:
    from rulesets.the_first_spine.rules import placeable_cells

    return placeable_cells(state, state["turn"]["seat"])


def test_a_spell_may_be_cast_on_any_cell(web, demo):
    _, page = get(web, demo, "?card=Fireball")
    assert len([m for m in moves(page) if m["type"] == "card_placed"]) == 49


def test_end_the_turn_and_the_start_buttons(web, demo):
    _, page = get(web, demo)
    end = [m for m in moves(page) if m["type"] == "turn_ended"]
    assert end == [{"type": "turn_ended", "seat": 0, "data": {}}]
    form = page.board_form("fs")
    assert web.post(f"/matches/{demo.pk}/record/", {**form["hidden"], "move": json.dumps(end[0])}).status_code == 302
    state = state_of(demo)
    assert not any(c["name"] == "Barbed Wire" and c["at"] == [2, 3] for c in state["cards"])
    html, page = get(web, demo)
    refills = [m for m in moves(page) if m["type"] == "hand_refilled"]
    assert [m["data"]["discarded"] for m in refills] == list(range(state["players"][1]["hand"] + 1))
    assert "Discard 2, draw (−1 life)" in html and "Bo</strong> starts the turn" in html
    for m in moves(page):
        RULESET.validate(state, _event(m))


def _event(m: dict[str, Any]) -> Any:
    from rulesets.base import Event

    return Event(m["type"], m["seat"], m["data"])


def test_a_choice_is_offered_when_a_card_faces_several(web, owner):
    match = match_create(is_public=True, owner=owner, game="the-first-spine", seats=[{"name": "Ana"}, {"name": "Bo"}],
                         options={"board": [4, 5]})  # fmt: skip
    script = [
        ("destiny_chosen", 0, {"destiny": "hunter"}), ("origin_chosen", 0, {"origin": "healer"}),
        ("destiny_chosen", 1, {"destiny": "hunter"}), ("origin_chosen", 1, {"origin": "priest"}),
        ("hand_refilled", 0, {"discarded": 0}), ("card_placed", 0, {"card": "Squire", "at": [2, 2]}),
        ("card_placed", 0, {"card": "Squire", "at": [2, 1]}), ("card_placed", 0, {"card": "Squire", "at": [1, 1]}),
        ("turn_ended", 0, {}),
        ("hand_refilled", 1, {"discarded": 0}), ("card_placed", 1, {"card": "Squire", "at": [1, 2]}),
    ]  # fmt: skip
    for type_, seat, data in script:
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)
    html, page = get(web, match)
    choices = [m for m in moves(page) if m["type"] == "confrontation_target_chosen"]
    assert sorted(m["data"]["target"] for m in choices) == [[1, 1], [2, 2]]
    assert all(m["data"]["from"] == [1, 2] and m["seat"] == 1 for m in choices)
    assert "Squire on column 3, row 2 confronts Squire on column 2, row 2" in html
    assert not [m for m in moves(page) if m["type"] == "turn_ended"]  # not before the choice
    form = page.board_form("fs")
    front = next(m for m in choices if m["data"]["target"] == [2, 2])
    web.post(f"/matches/{match.pk}/record/", {**form["hidden"], "move": json.dumps(front)})
    html, page = get(web, match)
    assert [m["type"] for m in moves(page) if m["type"] == "turn_ended"] == ["turn_ended"]
    assert "Squire on column 3, row 2 deals 1 to Squire on column 3, row 3, takes 1" in html  # front to front: 2 − 1


def test_spectators_see_the_board_without_buttons_or_secret_origins(client, demo):
    html, page = get(client, demo)
    assert page.board_form("fs") is None and len(page.pieces) == len(state_of(demo)["cards"])
    assert "origin: Healer" not in html and "origin: chosen, secret" in html  # Bo's secret origin
    assert "origin: Blacksmith" in html  # Ana revealed hers with the Anvil Guard
    assert "Paladin on column 4, row 4 deals 3 to Barbed Wire on column 4, row 3, takes 2" in html


def test_replaying_an_old_version_draws_it_without_buttons(web, demo):
    _, page = get(web, demo, "?at=8")
    assert page.board_form("fs") is None
    assert len(page.pieces) == 4  # two wizards, Paladin, Squire


def test_an_empty_hand_offers_no_card(web, owner):
    match = match_create(is_public=True, owner=owner, game="the-first-spine", seats=[{"name": "Ana"}, {"name": "Bo"}],
                         options={"hand_size": 1, "deck_size": 7})  # fmt: skip
    for type_, seat, data in FIRST_SPINE_SCRIPT[:5]:
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)
    match_event_record(match=match, user=owner, type="card_placed", seat=0, data={"card": "Squire", "at": [5, 3]})
    html, page = get(web, match, "?card=Paladin")
    assert page.hand == [] and page.hits == []
    assert "No card in hand" in html
    assert [m["type"] for m in moves(page)] == ["turn_ended"]


def test_tap_a_piece_to_record_a_life_change(web, demo):
    _, page = get(web, demo)
    links = [a for a in page.links if "fs-piece-link" in a.get("class", "")]
    assert len(links) == len(state_of(demo)["cards"])
    paladin = next(a for a in links if a["aria-label"] == "Change the life of Paladin on column 4, row 4")
    assert paladin["href"] == f"/matches/{demo.pk}/?at=3%2C3#board"
    html, _ = get(web, demo, "?at=3%2C3")
    assert "change the life of <strong>Paladin</strong> on column 4, row 4 (now 4)" in html
    assert 'name="data.at" value="3,3" form="fs-life"' in html
    version = state_version(demo)
    response = web.post(
        f"/matches/{demo.pk}/record/",
        {"type": "hp_changed", "seat": "0", "data.at": "3,3", "data.amount": "-3", "data.note": "Pain",
         "expected_version": str(version)},
    )  # fmt: skip
    assert response.status_code == 302
    assert next(c for c in state_of(demo)["cards"] if c["at"] == [3, 3])["hp"] == 1
    html, _ = get(web, demo)
    assert "Paladin on column 4, row 4 loses 3 life (Pain)." in html  # the demo has other Paladins


def test_a_refused_life_change_is_explained_by_the_board_form_tapped(web, demo):
    """Issue 33 item 4: a life change refused from the board comes back in the board's own form (the same piece,
    what was typed kept), explained just below it, not in the Record section further down; nothing is written."""
    html, _ = get(web, demo, "?at=3%2C3")
    life_form = html[html.index('<form id="fs-life"') :]
    assert '<input type="hidden" name="origin" value="board">' in life_form[: life_form.index("</form>")]
    version = state_version(demo)
    response = web.post(
        f"/matches/{demo.pk}/record/",
        {"type": "hp_changed", "seat": "0", "data.at": "3,3", "data.amount": "0", "data.note": "Fizzle",
         "origin": "board", "expected_version": str(version)},
        HTTP_HX_REQUEST="true", HTTP_HX_TARGET="match-live",
    )  # fmt: skip
    assert response.status_code == 400 and state_version(demo) == version
    body = response.content.decode()
    assert body.count('id="problem"') == 1
    assert "A change of 0 hit points changes nothing" in body
    legend = body.index("change the life of <strong>Paladin</strong> on column 4, row 4")
    assert body.index('class="fs-panel"') < legend < body.index('id="problem"') < body.index('id="record"')
    panel = body[legend : body.index('id="problem"')]
    assert 'id="fs-life-amount" value="0"' in panel and 'value="Fizzle"' in panel  # what was typed, kept
    # a change typed in the Record section's form is still explained there
    response = web.post(
        f"/matches/{demo.pk}/record/",
        {"type": "hp_changed", "seat": "0", "data.at": "3,3", "data.amount": "0", "expected_version": str(version)},
        HTTP_HX_REQUEST="true", HTTP_HX_TARGET="match-live",
    )  # fmt: skip
    body = response.content.decode()
    assert response.status_code == 400 and body.count('id="problem"') == 1
    assert "change the life of <strong>" not in body and body.index('id="record"') < body.index('id="problem"')


def state_version(match: Any) -> int:
    from matches.store import events as store

    return store.head_load(match.stream_id, fresh=True).version


def test_a_before_your_turn_effect_is_recorded_from_the_board_before_the_draw(web, demo):
    """At the start of a turn a piece may be tapped for a life change (a "before your turn" effect)."""
    _, page = get(web, demo)
    end = next(m for m in moves(page) if m["type"] == "turn_ended")
    form = page.board_form("fs")
    assert web.post(f"/matches/{demo.pk}/record/", {**form["hidden"], "move": json.dumps(end)}).status_code == 302
    assert state_of(demo)["turn"]["phase"] == "start"
    html, page = get(web, demo)
    assert "changes a life before the discard/draw: tap the piece on the board" in html
    links = [a for a in page.links if "fs-piece-link" in a.get("class", "")]
    wizard = next(a for a in links if a["aria-label"] == "Change the life of Bo's wizard on column 4, row 1")
    html, _ = get(web, demo, wizard["href"].split("/")[-1].split("#")[0])
    assert "Before your turn: change the life of <strong>Bo&#x27;s wizard</strong> on column 4, row 1" in html
    response = web.post(
        f"/matches/{demo.pk}/record/",
        {"type": "hp_changed", "seat": "1", "data.at": "0,3", "data.amount": "-1", "data.note": "curse",
         "expected_version": str(state_version(demo))},
    )  # fmt: skip
    assert response.status_code == 302
    state = state_of(demo)
    assert state["turn"]["phase"] == "start" and state["players"][1]["wizard_hp"] == 18


def test_a_house_rule_is_offered_only_for_a_move_it_could_record(web, owner):
    """Issue 32: a setup entry after setup is refused even under a house rule (the hands are drawn once), so the
    refusal offers none; a placement the rules refuse but the board can hold still offers one."""
    match = match_create(is_public=True, owner=owner, game="the-first-spine", seats=[{"name": "Ana"}, {"name": "Bo"}])
    for type_, seat, data in FIRST_SPINE_SCRIPT[:5]:
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)

    def refusal(post: dict[str, str]) -> str:
        response = web.post(f"/matches/{match.pk}/record/", {**post, "expected_version": str(state_version(match))})
        assert response.status_code >= 400
        return response.content.decode()

    html = refusal({"type": "destiny_chosen", "seat": "0", "data.destiny": "hunter"})
    assert "Destinies and origins are chosen before play, and play has begun" in html
    assert (
        'title="The First Spine › Installation › 3 Start-up" data-rule="The First Spine › Installation › 3 Start-up">Installation: Start-up</span>'
        in html
    )
    assert "Record it anyway (house rule)" not in html
    html = refusal({"type": "card_placed", "seat": "0", "data.card": "Squire", "data.at": "6,3"})  # Ana's wizard
    assert "is Ana&#x27;s wizard&#x27;s cell" in html and "Record it anyway (house rule)" not in html
    html = refusal({"type": "card_placed", "seat": "0", "data.card": "Squire", "data.at": "0,0"})
    assert "is not next to Ana&#x27;s wizard" in html and "Record it anyway (house rule)" in html
    assert 'title="The First Spine › Chronicle&#x27;s reading › Placing a card"' in html
    assert ">Placing a card</span>" in html  # the rulebook's heading words; the citation stays the reference
    assert state_version(match) == 5  # nothing was written
