"""The match page answered in place (htmx): a move, a refusal and a live update from the page's own htmx get the
``#match-live`` fragment (no header, no redirect), the address stays on the match page; without htmx, or for a
history restore, the whole page and the redirect are as before; undo too. A refused control of the Bone Wars board is
explained by its board panel. The footer's API and Admin are staff's."""

from __future__ import annotations

import pytest

from matches.models import Event as EventRow

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "match-live"}


@pytest.fixture
def web(client, owner):
    client.force_login(owner)
    return client


def take(web, match, seat, count, **headers):
    fields = {"type": "stones_taken", "seat": str(seat), "data.count": str(count), "expected_version": "0"}
    return web.post(f"/matches/{match.pk}/record/", fields, **headers)


def test_a_move_in_place_is_answered_with_the_fragment_at_once(web, stone_match):
    response = take(web, stone_match, 0, 2, **HTMX)
    assert response.status_code == 200  # no redirect: one round trip
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="match-live"') and "<header" not in body and "<html" not in body
    assert "Recorded move 1" in body and "Bo</strong> to play" in body
    assert response["HX-Replace-Url"] == f"/matches/{stone_match.pk}/"  # never /record/ in the address
    assert "HX-Request" in response["Vary"]
    assert EventRow.objects.filter(stream_id=stone_match.stream_id).count() == 1


def test_without_htmx_the_move_redirects_to_the_whole_page(web, stone_match):
    response = take(web, stone_match, 0, 2)
    assert response.status_code == 302 and response["Location"] == f"/matches/{stone_match.pk}/#board"
    page = web.get(f"/matches/{stone_match.pk}/")
    assert b"<header" in page.content and b'id="match-live"' in page.content and "HX-Replace-Url" not in page
    assert "HX-Request" in page["Vary"]


def test_a_refusal_in_place_keeps_the_values_and_offers_the_house_rule(web, stone_match):
    response = take(web, stone_match, 1, 2, **HTMX)  # Ana takes first
    assert response.status_code == 400
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="match-live"') and "Not recorded" in body
    assert 'name="house_rule"' in body and "Rule:" in body
    assert response["HX-Replace-Url"] == f"/matches/{stone_match.pk}/"
    assert EventRow.objects.filter(stream_id=stone_match.stream_id).count() == 0


def test_a_live_update_gets_the_fragment_and_a_clean_address(web, stone_match):
    take(web, stone_match, 0, 2)
    web.get(f"/matches/{stone_match.pk}/")  # the recorder's own page shows (and uses up) "Recorded move 1"
    response = web.get(f"/matches/{stone_match.pk}/?seen=0", **HTMX)
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="match-live"') and "New at the table" in body
    assert response["HX-Replace-Url"] == f"/matches/{stone_match.pk}/"  # ?seen= is not kept


def undo(web, match, **headers):
    fields = {"version": "1", "expected_version": "1", "confirm": "yes", "idempotency_key": "k-undo"}
    return web.post(f"/matches/{match.pk}/undo/", fields, **headers)


def test_an_undo_in_place_is_answered_with_the_fragment_at_once(web, stone_match):
    take(web, stone_match, 0, 2)
    response = undo(web, stone_match, **HTMX)
    assert response.status_code == 200  # no redirect: no #board added to the address
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="match-live"') and "<header" not in body
    assert "Undone: the last move" in body and "Ana</strong> to play" in body
    assert response["HX-Replace-Url"] == f"/matches/{stone_match.pk}/"
    rows = list(EventRow.objects.filter(stream_id=stone_match.stream_id).values_list("type", flat=True))
    assert rows == ["stones_taken", "event_voided"]


def test_without_htmx_the_undo_redirects_and_an_unconfirmed_one_asks(web, stone_match):
    take(web, stone_match, 0, 2)
    asked = web.post(f"/matches/{stone_match.pk}/undo/", {"version": "1", "expected_version": "1"})
    assert asked.status_code == 200 and "Undo this move?" in asked.content.decode()  # nothing written yet
    assert EventRow.objects.filter(stream_id=stone_match.stream_id).count() == 1
    response = undo(web, stone_match)
    assert response.status_code == 302 and response["Location"] == f"/matches/{stone_match.pk}/#board"
    assert "Undone: the last move" in web.get(response["Location"]).content.decode()
    assert EventRow.objects.filter(stream_id=stone_match.stream_id).count() == 2


def test_the_bone_wars_board_explains_its_own_refusal_in_its_panel(web, owner):
    from matches.services import match_create

    match = match_create(
        owner=owner, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}], options={"starting_money": 0}
    )
    fields = {"type": "card_played", "origin": "board", "seat": "0", "expand": "1", "expected_version": "0",
              "data.card.kind": "team", "data.card.name": "Stegosaurus", "data.card.cost": "3"}  # $3: Ana has $0  # fmt: skip
    response = web.post(f"/matches/{match.pk}/record/", fields, **HTMX)
    assert response.status_code == 400
    body = response.content.decode()
    assert body.count('id="problem"') == 1
    panel = body.index('class="bw-moves"')
    assert panel < body.index('class="bw-card-form') < body.index('id="problem"') < body.index('id="record"')
    assert 'value="Stegosaurus"' in body[panel : body.index('id="record"')]  # the board's form keeps what was typed


def test_other_requests_get_the_whole_page(web, stone_match):
    restore = web.get(f"/matches/{stone_match.pk}/", HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert b"<header" in restore.content  # a history restore swaps the whole body
    other_target = web.get(f"/matches/{stone_match.pk}/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="elsewhere")
    assert b"<header" in other_target.content


def test_the_footer_links_are_for_staff(web, owner):
    assert b'href="/admin/"' not in web.get("/").content
    owner.is_staff = True
    owner.save()
    assert b'href="/admin/"' in web.get("/").content
