"""Photos on the pages: the upload form (camera, caption), the match page, the history at the entry, the campaign
sheet, the Bone Wars "Set up the table" panel of a paused game (the last photo of that sitting first), every
refusal said on the page (4xx, nothing stored), and the pictures served only to a reader who may see the match."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from matches.models import Event as EventRow
from matches.models import Match
from matches.photos.services import photo_add, photos_of
from matches.services import match_create, match_event_record
from tests.matches.photos.pictures import NOT_AN_IMAGE, bomb, phone_jpeg

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    return tmp_path


def files(media: Path) -> list[Path]:
    return [p for p in media.rglob("*") if p.is_file()]


@pytest.fixture
def signed_in(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def sheet(owner):
    return match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}], is_public=True)


def post_photo(client: Any, url: str, data: bytes, caption: str = "") -> Any:
    return client.post(url, {"photo": SimpleUploadedFile("IMG.jpg", data, "image/jpeg"), "caption": caption})


def test_the_form_takes_a_photo_and_the_pages_show_it(signed_in, sheet, owner, media):
    page = signed_in.get(f"/matches/{sheet.pk}/").content.decode()
    assert 'type="file"' in page and 'accept="image/*"' in page and 'capture="environment"' in page
    assert 'enctype="multipart/form-data"' in page and 'name="caption"' in page
    match_event_record(match=sheet, user=owner, type="points_scored", seat=0, data={"points": 5})
    r = post_photo(signed_in, f"/matches/{sheet.pk}/photos/", phone_jpeg(), "Final board")
    assert r.status_code == 302 and r["Location"].endswith(f"/matches/{sheet.pk}/#photos")
    [photo] = photos_of(sheet.stream_id)
    page = signed_in.get(f"/matches/{sheet.pk}/").content.decode()
    thumb = f"/matches/{sheet.pk}/photos/{photo.id}/thumb.jpg"
    assert f'<img src="{thumb}" loading="lazy"' in page and "Final board" in page
    assert "Photo added as entry 2: Final board" in page
    history = signed_in.get(f"/matches/{sheet.pk}/history/").content.decode()
    entry = re.search(r'<li class="entry[^"]*" id="v2">(.*?)</li>', history, re.S).group(1)
    assert "Photo added: Final board" in entry and thumb in entry and 'loading="lazy"' in entry
    # a replay before the photo does not show it; at its entry it does
    assert thumb not in signed_in.get(f"/matches/{sheet.pk}/?at=1").content.decode()
    assert thumb in signed_in.get(f"/matches/{sheet.pk}/?at=2").content.decode()
    got = signed_in.get(thumb)
    assert got.status_code == 200 and got["Content-Type"] == "image/jpeg"


@pytest.mark.parametrize(
    ("data", "status", "words"),
    [(NOT_AN_IMAGE, 400, "not a picture"), (bomb(), 400, "megapixels")],
)
def test_a_refused_upload_is_said_on_the_page_and_stores_nothing(signed_in, sheet, media, data, status, words):
    r = post_photo(signed_in, f"/matches/{sheet.pk}/photos/", data)
    assert r.status_code == status
    page = r.content.decode()
    assert 'id="photo-problem"' in page and words in page and "Nothing was stored." in page
    assert files(media) == [] and not EventRow.objects.filter(stream_id=sheet.stream_id).exists()


def test_no_file_and_too_big_are_refused_on_the_page(signed_in, sheet, media, settings):
    r = signed_in.post(f"/matches/{sheet.pk}/photos/", {"caption": "x"})
    assert r.status_code == 400 and "Choose a photo" in r.content.decode()
    settings.CHRONICLE_PHOTO_MAX_BYTES = 1500
    r = post_photo(signed_in, f"/matches/{sheet.pk}/photos/", phone_jpeg(800, 600))
    assert r.status_code == 413 and "the limit is" in r.content.decode()
    assert files(media) == []


def test_only_recorders_add_and_only_readers_see(client, sheet, stranger, owner, media):
    client.force_login(stranger)
    r = post_photo(client, f"/matches/{sheet.pk}/photos/", phone_jpeg())
    assert r.status_code == 403 and files(media) == []
    assert 'type="file"' not in client.get(f"/matches/{sheet.pk}/").content.decode()
    _, photo = photo_add(obj=sheet, user=owner, upload=phone_jpeg())
    url = f"/matches/{sheet.pk}/photos/{photo.id}/display.jpg"
    assert client.get(url).status_code == 200
    Match.objects.filter(pk=sheet.pk).update(is_public=False)  # made private: gone from other readers
    assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 404
    assert client.get(f"/matches/{sheet.pk}/photos/{photo.id}/original.jpg").status_code == 404
    # never a static or media URL: the stored file's own path is served by nobody
    client.force_login(owner)
    assert client.get(f"/media/{photo.display}").status_code == 404
    assert client.get(f"/static/{photo.display}").status_code == 404


def test_removal_from_the_page(signed_in, sheet, owner, media, django_capture_on_commit_callbacks):
    _, photo = photo_add(obj=sheet, user=owner, upload=phone_jpeg())
    page = signed_in.get(f"/matches/{sheet.pk}/").content.decode()
    assert f'action="/matches/{sheet.pk}/photos/{photo.id}/remove/"' in page and 'value="deleted"' in page
    r = signed_in.post(f"/matches/{sheet.pk}/photos/{photo.id}/remove/", {"reason": ""})
    assert r.status_code == 400 and "say why the photo is removed" in r.content.decode().lower()
    with django_capture_on_commit_callbacks(execute=True):
        r = signed_in.post(f"/matches/{sheet.pk}/photos/{photo.id}/remove/", {"reason": "blurred", "file": "deleted"})
    assert r.status_code == 302 and files(media) == []
    history = signed_in.get(f"/matches/{sheet.pk}/history/").content.decode()
    assert "Photo removed (file deleted): blurred" in history and photo.id not in history.split("Photo added")[1][:400]


def test_the_set_up_panel_of_a_paused_bone_wars_game_shows_the_last_photo_of_the_sitting(signed_in, owner):
    bones = match_create(owner=owner, game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo"}])
    team = {"card": {"kind": "team", "name": "Marsh's Team", "cost": 1}}
    match_event_record(match=bones, user=owner, type="card_played", seat=0, data=team)
    _, during = photo_add(obj=bones, user=owner, upload=phone_jpeg(), caption="mid sitting")
    match_event_record(match=bones, user=owner, type="turn_ended", seat=0, data={})
    page = signed_in.get(f"/matches/{bones.pk}/").content.decode()
    assert "bw-setup-photo" not in page  # not paused: no photo first
    match_event_record(match=bones, user=owner, type="table_paused", data={})
    _, left = photo_add(obj=bones, user=owner, upload=phone_jpeg(), caption="packed away")
    page = signed_in.get(f"/matches/{bones.pk}/").content.decode()
    setup = page.split('id="setup"')[1]
    figure = re.search(r'<figure class="bw-setup-photo">(.*?)</figure>', setup, re.S).group(1)
    assert f"/photos/{left.id}/display.jpg" in figure and "packed away" in figure
    assert setup.index("bw-setup-photo") < setup.index("bw-setup-seats")  # first in the panel
    # as of the pause itself (before the photo was taken), the sitting's photo taken during it
    at = signed_in.get(f"/matches/{bones.pk}/?at={left.version - 1}").content.decode().split('id="setup"')[1]
    assert f"/photos/{during.id}/display.jpg" in at


def test_the_campaign_sheet_shows_its_photos_and_takes_one(signed_in, owner, media):
    from campaigns.saltmarsh.services import campaign_create

    campaign = campaign_create(owner=owner, name="Saltmarsh", is_public=False)
    page = signed_in.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert 'capture="environment"' in page
    r = post_photo(signed_in, f"/campaigns/{campaign.pk}/photos/", phone_jpeg(), "The heroes' sheets")
    assert r.status_code == 302
    [photo] = photos_of(campaign.stream_id)
    page = signed_in.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f"/campaigns/{campaign.pk}/photos/{photo.id}/thumb.jpg" in page and "The heroes&#x27; sheets" in page
    history = signed_in.get(f"/campaigns/{campaign.pk}/history/").content.decode()
    assert f"/campaigns/{campaign.pk}/photos/{photo.id}/thumb.jpg" in history
    r = post_photo(signed_in, f"/campaigns/{campaign.pk}/photos/", NOT_AN_IMAGE)
    assert r.status_code == 400 and "not a picture" in r.content.decode() and len(photos_of(campaign.stream_id)) == 1
