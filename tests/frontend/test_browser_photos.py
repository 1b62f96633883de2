"""A photo taken on a 390×844 phone: chosen in the match page's form (camera input), sent with its caption, and
seen in the match's history at its entry, its thumbnail loaded through the app (the CSP allows it); taken
offline, it waits in the phone's queue with the entries, shrunk on the phone, and is sent once."""

from __future__ import annotations

import pytest

from matches.models import Event as EventRow
from matches.photos.services import photos_of
from matches.services import match_create, match_event_record
from tests.frontend.phones import PASSWORD, stream_refused, waiting
from tests.matches.photos.pictures import phone_jpeg

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_adds_a_photo_and_sees_it_in_the_history(signed_in_phone, live_server, keeper, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    match = match_create(owner=keeper, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}])
    match_event_record(match=match, user=keeper, type="points_scored", seat=0, data={"points": 7})
    page = signed_in_phone
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and not stream_refused(m) else None)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    picker = page.locator("#id_photo")
    assert picker.get_attribute("capture") == "environment" and picker.get_attribute("accept") == "image/*"
    picker.set_input_files({"name": "IMG_0001.jpg", "mimeType": "image/jpeg", "buffer": phone_jpeg(1200, 900)})
    page.get_by_label("Caption").fill("The board at the end")
    page.get_by_role("button", name="Add the photo").click()
    page.wait_for_url(f"{live_server.url}/matches/{match.pk}/#photos")
    assert "Photo added as entry 2: The board at the end" in page.content()
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


@pytest.mark.engine_prefetch  # waits for the engine's files kept, then goes offline
def test_a_photo_taken_offline_waits_with_its_entry_shrunk_and_is_sent_once(browser, live_server, django_user_model,
                                                                           settings, tmp_path):  # fmt: skip
    """Offline, a move and a photo wait on the phone in their order; the photo is made smaller on the phone
    (what is sent is far smaller than the file chosen); back online both reach the server once each, and a
    second sync (a reload) sends nothing more."""
    from tests.frontend.offline.test_browser_offline import keeper_at, points

    settings.MEDIA_ROOT = str(tmp_path)
    owner = django_user_model.objects.create_user(username="keeper", password=PASSWORD)
    match = match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Tomas"}])
    big = noisy_jpeg(3000, 2000)
    with keeper_at(browser, live_server, match) as (context, page, _url):
        page.wait_for_function("() => document.documentElement.dataset.offlineRules === 'cached'")
        context.set_offline(True)
        page.reload()
        points(page, "Ana", 5)
        page.locator("#id_photo").set_input_files({"name": "IMG_0003.jpg", "mimeType": "image/jpeg", "buffer": big})
        page.get_by_label("Caption").fill("Packed away")
        page.get_by_role("button", name="Add the photo").click()
        waiting(page, 2)
        assert "Photo: Packed away" in page.locator("#offline-waiting").inner_text()
        sent: list[int] = []
        page.on(
            "request", lambda r: sent.append(len(r.post_data_buffer or b"")) if r.url.endswith("/photos/") else None
        )
        context.set_offline(False)
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
        waiting(page, 0)
        rows = list(EventRow.objects.filter(stream_id=match.stream_id).order_by("version").values_list("type", "data"))
        assert [t for t, _ in rows] == ["points_scored", "photo_added"]
        assert rows[1][1]["caption"] == "Packed away" and rows[1][1]["at"] == 1
        assert sent and max(sent) < len(big) / 2, (sent, len(big))  # shrunk on the phone before it was sent
        page.reload()
        page.wait_for_selector("#photos img")
        assert EventRow.objects.filter(stream_id=match.stream_id).count() == 2  # sent once
        assert len(photos_of(match.stream_id)) == 1


def noisy_jpeg(width: int, height: int) -> bytes:
    """A camera-like JPEG that is big (grain), to see it made smaller on the phone."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.effect_noise((width, height), 60).convert("RGB").save(buf, "JPEG", quality=95)
    return buf.getvalue()
