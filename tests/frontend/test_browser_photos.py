"""A photo taken on a 390×844 phone: chosen in the match page's form (camera input), sent with its caption, and
seen in the match's history at its entry, its thumbnail loaded through the app (the CSP allows it)."""

from __future__ import annotations

import pytest

from matches.services import match_create, match_event_record
from tests.matches.photos.pictures import phone_jpeg

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_adds_a_photo_and_sees_it_in_the_history(signed_in_phone, live_server, keeper, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    match = match_create(owner=keeper, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}])
    match_event_record(match=match, user=keeper, type="points_scored", seat=0, data={"points": 7})
    page = signed_in_phone
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    picker = page.locator("#id_photo")
    assert picker.get_attribute("capture") == "environment" and picker.get_attribute("accept") == "image/*"
    picker.set_input_files({"name": "IMG_0001.jpg", "mimeType": "image/jpeg", "buffer": phone_jpeg(1200, 900)})
    page.get_by_label("Caption").fill("The board at the end")
    page.get_by_role("button", name="Add the photo").click()
    page.wait_for_url(f"{live_server.url}/matches/{match.pk}/#photos")
    assert "Photo added at entry 1: The board at the end" in page.content()
    page.goto(f"{live_server.url}/matches/{match.pk}/history/")
    entry = page.locator("#v2")
    assert "Photo added: The board at the end" in entry.inner_text()
    img = entry.locator("img")
    img.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=img.element_handle())
    assert img.get_attribute("loading") == "lazy"
    width, height = img.evaluate("img => [img.naturalWidth, img.naturalHeight]")
    assert (width, height) == (240, 320)  # the thumbnail, turned upright by the photo's orientation
    assert not [e for e in errors if "Content Security Policy" in e]
