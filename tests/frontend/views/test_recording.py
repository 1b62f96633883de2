"""Recording on the match page: forms that apply now first, refusals explained where they happened with a
one-step house rule, conflicts saying what changed, news since a version, names instead of seat numbers."""

from __future__ import annotations

import re

import pytest

from frontend.forms.recording import move_forms, types_now
from matches.models import Event as EventRow
from matches.services import match_create, match_event_record
from matches.store import events as store
from rulesets import get_ruleset

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture
def web(client, owner):
    client.force_login(owner)
    return client


def bar(html: str) -> str:
    """The table bar's feedback region."""
    return html.split('id="outcome"')[1].split("</div>")[0]


def test_a_refused_move_offers_a_house_rule_that_records_both_entries_in_one_step(web, stone_match):
    r = web.post(f"/matches/{stone_match.pk}/record/", {"type": "stones_taken", "seat": "1", "data.count": "2",
                                                          "expected_version": "0", "idempotency_key": "k1"})  # fmt: skip
    page = r.content.decode()
    assert r.status_code == 400 and "Not recorded" in bar(page) and 'role="alert"' in page
    assert 'name="house_rule"' in page and 'name="data.count" value="2"' in page  # the move, posted again
    # without a reason nothing is written
    again = {"type": "stones_taken", "seat": "1", "data.count": "2", "house_rule": "1", "expected_version": "0"}
    r = web.post(f"/matches/{stone_match.pk}/record/", again)
    assert r.status_code == 400 and "Say why" in r.content.decode() and EventRow.objects.count() == 0
    r = web.post(
        f"/matches/{stone_match.pk}/record/", {**again, "house_rule_reason": "Bo starts", "idempotency_key": "h"}
    )
    assert r.status_code == 302
    rows = list(EventRow.objects.order_by("version").values_list("type", "seat", "data"))
    assert rows == [("rule_overridden", None, {"reason": "Bo starts"}), ("stones_taken", 1, {"count": 2})]
    assert "Recorded move 2: Bo took 2 stones (house rule: Bo starts)" in bar(web.get(r["Location"]).content.decode())
    # a double tap records once
    web.post(f"/matches/{stone_match.pk}/record/", {**again, "house_rule_reason": "Bo starts", "idempotency_key": "h"})
    assert EventRow.objects.count() == 2


def test_a_house_rule_whose_move_is_malformed_writes_neither_entry(web, stone_match):
    # the override is appended first; the move (9 stones: the schema allows at most 3) then fails, so both go
    r = web.post(f"/matches/{stone_match.pk}/record/", {"type": "stones_taken", "seat": "0", "data.count": "9",
                                                          "house_rule": "1", "house_rule_reason": "why not"})  # fmt: skip
    assert r.status_code == 400 and "at most 3" in r.content.decode().lower()
    assert EventRow.objects.count() == 0
    assert store.head_load(stone_match.stream_id, fresh=True).override_pending is False


def test_a_stale_page_says_what_changed_and_news_lists_the_new_entries(web, stone_match, owner):
    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 3})
    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=1, data={"count": 1})
    r = web.post(f"/matches/{stone_match.pk}/record/", {"type": "stones_taken", "seat": "0", "data.count": "1",
                                                          "expected_version": "0"})  # fmt: skip
    assert r.status_code == 409  # Ana's own entry 1 came in since: never rebased (issue 23 item 7)
    said = bar(r.content.decode())
    assert "someone else recorded first" in said and "Bo took 1 stone (move 2)" in said
    assert "Ana recorded move 1 since your form was drawn" in said and "Ana took 3 stones (move 1)" in said
    news = bar(web.get(f"/matches/{stone_match.pk}/?seen=0").content.decode())
    assert "New at the table" in news and "(move 1)" in news and "(move 2)" in news
    assert "New at the table" not in bar(web.get(f"/matches/{stone_match.pk}/?seen=2").content.decode())
    assert "New at the table" not in bar(web.get(f"/matches/{stone_match.pk}/?seen=x").content.decode())


def test_a_stale_form_still_legal_after_another_seats_entry_is_recorded_after_it(web, stone_match, owner):
    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 3})
    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=1, data={"count": 1})
    r = web.post(f"/matches/{stone_match.pk}/record/", {"type": "stones_taken", "seat": "0", "data.count": "1",
                                                          "expected_version": "1"}, follow=True)  # fmt: skip
    said = bar(r.content.decode()).replace("&#x27;", "'")
    assert "Recorded move 3" in said and "recorded after Bo's move 2" in said
    assert store.head_load(stone_match.stream_id, fresh=True).state["pile"] == 5


def test_the_turn_names_the_player_and_forms_name_seats(web, stone_match):
    page = web.get(f"/matches/{stone_match.pk}/").content.decode()
    turn = page.split('id="turn"')[1].split("</p>")[0]
    assert "<strong>Ana</strong> to play" in turn
    assert ">Seat 0<" not in page and "0: Ana" not in page
    assert re.search(r'<label for="id_seat_stones_taken">Player</label>', page)


def test_forms_that_apply_now_come_first_the_rest_behind_one_control(owner):
    match = match_create(owner=owner, game="get-salty", seats=[{"name": "Ana"}, {"name": "Bo"}])
    ruleset = get_ruleset("get-salty")
    state = store.head_load(match.stream_id, fresh=True).state
    legal = ruleset.legal_moves(state)
    now, other = move_forms(ruleset, state, legal, 0, {})
    assert [f["type"] for f in now] == ["victory_attribute_chosen"]
    assert "cracker_moved" in [f["type"] for f in other]
    # a refused form is drawn with the forms that apply now (its explanation is there), open
    now, other = move_forms(ruleset, state, legal, 0, {"origin": "form", "type": "cracker_moved", "values": {}})
    assert [f["type"] for f in now] == ["victory_attribute_chosen", "cracker_moved"] and now[1]["open"]


def test_without_a_list_of_moves_the_phase_decides(owner):
    match = match_create(
        owner=owner, game="saltmarsh-adventure", seats=[{"name": "Ana"}, {"name": "Bo"}],
        options={"heroes": [{"name": "Vistra", "class": "Fighter", "max_hp": 10},
                            {"name": "Quinn", "class": "Wizard", "max_hp": 6}]},
    )  # fmt: skip
    ruleset = get_ruleset("saltmarsh-adventure")
    before = types_now(ruleset, store.head_load(match.stream_id, fresh=True).state, None, 0)
    assert "hero_phase_started" in before and "hero_phase_ended" not in before
    match_event_record(match=match, user=owner, type="hero_phase_started", seat=0, data={})
    during = types_now(ruleset, store.head_load(match.stream_id, fresh=True).state, None, 0)
    assert "hero_phase_started" not in during and "hero_phase_ended" in during


def test_a_refused_new_match_keeps_the_title_and_public_and_names_fields_in_words(web):
    r = web.post("/matches/new/", {"game": "last-stone", "seat_count": "2", "seat_0": "Ana", "seat_1": "",
                                   "title": "Friday", "option.stones": "9"})  # fmt: skip
    page = r.content.decode()
    assert r.status_code == 400 and 'value="Friday"' in page
    assert 'name="is_public" checked' not in page  # it was left unticked
    assert "seats[1]" not in page and "Player 2:" in page  # counted from 1, as the form labels the names


def test_form_errors_are_told_with_the_form_labels(web, owner):
    match = match_create(
        owner=owner, game="saltmarsh-adventure", seats=[{"name": "Ana"}, {"name": "Bo"}],
        options={"heroes": [{"name": "Vistra", "class": "Fighter", "max_hp": 10},
                            {"name": "Quinn", "class": "Wizard", "max_hp": 6}]},
    )  # fmt: skip
    r = web.post(f"/matches/{match.pk}/record/", {"type": "treasure_found", "seat": "0", "expand": "1",
                                                    "data.item.buy": "x"})  # fmt: skip
    said = bar(r.content.decode())
    assert r.status_code == 400 and "Treasure card › Buy" in said and "data." not in said
    r = web.post(f"/matches/{match.pk}/record/", {"type": "treasure_found", "seat": "0", "expand": "1",
                                                    "data.item.buy": "5", "data.item.sell": "2"})  # fmt: skip
    said = bar(r.content.decode())
    assert r.status_code == 400 and "Treasure card › Card name" in said and "data.item" not in said
    assert EventRow.objects.count() == 0


def test_several_field_errors_name_the_fields_once_each():
    from frontend.forms.schema import error_sentence

    fields = get_ruleset("salt-and-bones").event_types["attack_card_played"].fields
    errors = {"data.card": ["This field is required."], "data.attack_tile": ["Must be a cell."],
              "data.opportunity_tile": ["Must be a cell."]}  # fmt: skip
    said = error_sentence(errors, fields)
    assert said == "Card, Tile under the Attack half and Tile under the Opportunity half"
    assert error_sentence({"seat": ["Required."]}, fields, {"seat": "Player"}) == "Player: Required."


def test_tiles_are_ticked_on_a_grid_of_the_board_not_typed_as_json(web, owner):
    match = match_create(owner=owner, game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo"}])
    page = web.get(f"/matches/{match.pk}/").content.decode()
    tiles = page.split('id="id_field_card_flipped_data_tiles"')[1].split("</fieldset>")[0]
    assert tiles.count('type="checkbox" name="data.tiles"') == 36  # the 6 × 6 Field Board, one box a tile
    assert 'aria-label="Column 5, row 3"' in tiles and "<textarea" not in tiles
    r = web.post(f"/matches/{match.pk}/record/", {"type": "field_card_flipped", "data.tiles": ["1,1", "2,4"]})
    assert r.status_code == 302
    assert EventRow.objects.get().data == {"tiles": [[1, 1], [2, 4]]}
    r = web.post(f"/matches/{match.pk}/record/", {"type": "field_card_flipped", "data.tiles": "1;2"})
    assert r.status_code == 400 and "Enter each tile as its row and column." in r.content.decode()
    assert EventRow.objects.count() == 1
