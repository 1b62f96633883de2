"""Photos of the table through the API: upload on a match (any game) and a campaign, every refusal (4xx, a clear
sentence, nothing stored: neither file nor entry), who may add and remove, access by reader and after a match
goes private, removal with the file deleted or kept, and the history and replay around a photo."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from matches.models import Event as EventRow
from matches.models import Match
from matches.photos.services import photos_of
from matches.services import match_create, match_event_record
from matches.store import events as store
from tests.matches.photos.pictures import NOT_AN_IMAGE, bomb, fake_jpeg, heic, phone_jpeg

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    return tmp_path


def stored(media: Path) -> list[Path]:
    return sorted(p for p in media.rglob("*") if p.is_file())


def upload(client, match_id, data=None, caption="The board at the end", name="IMG_0001.jpg", kind="matches"):
    body = {"caption": caption}
    if data is not None:
        body["file"] = SimpleUploadedFile(name, data, content_type="image/jpeg")
    return client.post(f"/api/{kind}/{match_id}/photos/", body, format="multipart")


@pytest.fixture
def sheet(owner):
    return match_create(owner=owner, game="scoresheet", seats=[{"name": "Ana"}, {"name": "Bo"}], is_public=True)


def test_upload_on_a_score_sheet_is_an_entry_and_the_file_has_no_gps(api, sheet, media, client_for):
    match_event_record(match=sheet, user=api.handler._force_user, type="points_scored", seat=0, data={"points": 4})
    r = upload(api, sheet.pk, phone_jpeg())
    assert r.status_code == 201, r.content
    photo = r.json()["photo"]
    assert r.json()["version"] == 2 and photo["at"] == 1 and photo["caption"] == "The board at the end"
    row = EventRow.objects.get(stream_id=sheet.stream_id, version=2)
    assert row.type == "photo_added" and row.data["photo"] == photo["id"] and row.recorded_by_id == sheet.owner_id
    assert set(row.data) >= {"display", "thumb", "bytes", "width", "height"}
    files = stored(media)
    assert len(files) == 2 and all(photo["id"] in f.name for f in files)
    for f in files:  # the stored files themselves: no EXIF (so no GPS) at all
        assert len(Image.open(f).getexif()) == 0 and b"Exif" not in f.read_bytes()
    # the state of the game is as before the photo; the history says it
    assert store.head_load(sheet.stream_id, fresh=True).state == store.position_at(sheet.stream_id, 1).state
    log = client_for(None).get(f"/api/matches/{sheet.pk}/events/").json()["results"]
    assert log[-1]["type"] == "photo_added" and log[-1]["text"] == "Photo added: The board at the end"
    # the picture is served by the app to a reader who may see the match (a public one: anyone)
    got = client_for(None).get(photo["urls"]["thumb"])
    assert got.status_code == 200 and got["Content-Type"] == "image/jpeg"
    assert got["Cache-Control"] == "private, no-cache"
    assert Image.open(io.BytesIO(b"".join(got.streaming_content))).size == (160, 320)  # turned upright
    again = client_for(None).get(photo["urls"]["thumb"], HTTP_IF_NONE_MATCH=got["ETag"])
    assert again.status_code == 304


def test_a_photo_is_accepted_after_the_end_and_keeps_a_pending_override(api, owner, stone_match):
    match_event_record(match=stone_match, user=owner, type="rule_overridden", data={"reason": "house rule"})
    assert upload(api, stone_match.pk, phone_jpeg()).status_code == 201
    head = store.head_load(stone_match.stream_id, fresh=True)
    assert head.override_pending and head.version == 2
    sheet = match_create(owner=owner, game="scoresheet", seats=[{"name": "A"}, {"name": "B"}])
    match_event_record(match=sheet, user=owner, type="points_scored", seat=0, data={"points": 3})
    match_event_record(match=sheet, user=owner, type="game_ended", data={})
    assert upload(api, sheet.pk, phone_jpeg()).status_code == 201  # the winning board goes into the record


def test_heic_upload(api, sheet, media):
    r = upload(api, sheet.pk, heic(), name="IMG_0002.HEIC")
    assert r.status_code == 201, r.content
    assert all(Image.open(f).format == "JPEG" for f in stored(media))


@pytest.mark.parametrize(
    ("data", "status", "reason", "words"),
    [
        (NOT_AN_IMAGE, 400, "not_an_image", "not a picture"),
        (fake_jpeg(), 400, "not_an_image", "damaged or not really a picture"),
        (bomb(), 400, "too_many_pixels", "megapixels"),
        (None, 400, "no_file", "Choose a photo"),
    ],
)
def test_refusals_store_nothing(api, sheet, media, data, status, reason, words):
    r = upload(api, sheet.pk, data)
    assert r.status_code == status, r.content
    assert r.json()["reason"] == reason and words in r.json()["detail"]
    assert stored(media) == [] and not EventRow.objects.filter(stream_id=sheet.stream_id).exists()


def test_over_the_byte_limit_says_the_limit(api, sheet, media, settings):
    settings.CHRONICLE_PHOTO_MAX_BYTES = 2000
    r = upload(api, sheet.pk, phone_jpeg(800, 600))
    assert r.status_code == 413
    assert r.json()["reason"] == "too_large" and "the limit is" in r.json()["detail"]
    assert stored(media) == [] and not EventRow.objects.filter(stream_id=sheet.stream_id).exists()


def test_more_than_n_photos_per_entry(api, sheet, media, settings):
    settings.CHRONICLE_PHOTOS_PER_ENTRY = 2
    assert upload(api, sheet.pk, phone_jpeg()).status_code == 201
    assert upload(api, sheet.pk, phone_jpeg()).status_code == 201
    r = upload(api, sheet.pk, phone_jpeg())
    assert r.status_code == 400 and r.json()["reason"] == "too_many_photos" and "at most 2" in r.json()["detail"]
    assert len(stored(media)) == 4 and EventRow.objects.filter(stream_id=sheet.stream_id).count() == 2
    match_event_record(match=sheet, user=sheet.owner, type="points_scored", seat=0, data={"points": 1})
    assert upload(api, sheet.pk, phone_jpeg()).status_code == 201  # the next entry may have its own


def test_a_long_caption_is_refused(api, sheet, media):
    r = upload(api, sheet.pk, phone_jpeg(), caption="x" * 301)
    assert r.status_code == 400 and "300" in r.json()["detail"]
    assert stored(media) == []


def test_photo_entries_cannot_be_typed_into_the_event_endpoint(api, sheet):
    for type_ in ("photo_added", "photo_removed"):
        r = api.post(f"/api/matches/{sheet.pk}/events/", {"type": type_, "data": {}}, format="json")
        assert r.status_code == 400 and "uploading or removing a photo" in r.json()["detail"]
    assert not EventRow.objects.filter(stream_id=sheet.stream_id).exists()


def test_who_may_add_and_see(owner, stranger, make_user, client_for, media):
    recorder = make_user("recorder")
    private = match_create(owner=owner, game="scoresheet", seats=[{"name": "A"}, {"name": "B"}], recorders=[recorder])
    assert upload(client_for(stranger), private.pk, phone_jpeg()).status_code == 404  # existence not leaked
    assert upload(client_for(None), private.pk, phone_jpeg()).status_code in (401, 403)
    r = upload(client_for(recorder), private.pk, phone_jpeg())  # whoever may record may add one
    assert r.status_code == 201
    url = r.json()["photo"]["urls"]["display"]
    assert client_for(owner).get(url).status_code == 200
    assert client_for(stranger).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 404
    assert client_for(stranger).get(f"/api/matches/{private.pk}/photos/").status_code == 404
    public = match_create(owner=owner, game="scoresheet", seats=[{"name": "A"}, {"name": "B"}])
    public_url = url.replace(f"/matches/{private.pk}/", f"/matches/{public.pk}/")
    assert client_for(owner).get(public_url).status_code == 404  # a photo is served only from its own stream
    assert len(stored(media)) == 2


def test_a_match_made_private_hides_its_photos(api, sheet, client_for, stranger):
    url = upload(api, sheet.pk, phone_jpeg()).json()["photo"]["urls"]["thumb"]
    assert client_for(stranger).get(url).status_code == 200
    Match.objects.filter(pk=sheet.pk).update(is_public=False)
    assert client_for(stranger).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 404
    assert api.get(url).status_code == 200


def test_removal_deletes_or_keeps_the_file(
    api, owner, sheet, media, make_user, client_for, django_capture_on_commit_callbacks
):
    recorder = make_user("recorder")
    sheet.recorders.add(recorder)
    one = upload(api, sheet.pk, phone_jpeg()).json()["photo"]
    two = upload(api, sheet.pk, phone_jpeg()).json()["photo"]
    rec = client_for(recorder)
    r = rec.post(
        f"/api/matches/{sheet.pk}/photos/{one['id']}/remove/", {"reason": "blurred", "delete_file": True}, format="json"
    )
    assert r.status_code == 403 and "owner" in r.json()["detail"]  # the owner chooses to delete
    r = rec.post(f"/api/matches/{sheet.pk}/photos/{one['id']}/remove/", {"reason": ""}, format="json")
    assert r.status_code == 400 and "why" in r.json()["detail"]
    r = rec.post(f"/api/matches/{sheet.pk}/photos/{one['id']}/remove/", {"reason": "blurred"}, format="json")
    assert r.status_code == 201
    assert len(stored(media)) == 4  # kept
    assert api.get(one["urls"]["thumb"]).status_code == 404  # no longer shown
    with django_capture_on_commit_callbacks(execute=True):  # the file goes once the entry is committed
        r = api.post(
            f"/api/matches/{sheet.pk}/photos/{two['id']}/remove/", {"reason": "a stranger's face", "delete_file": True},
            format="json",
        )  # fmt: skip
    assert r.status_code == 201
    assert len(stored(media)) == 2 and not any(two["id"] in p.name for p in stored(media))
    rows = list(EventRow.objects.filter(stream_id=sheet.stream_id, type="photo_removed").values_list("data", flat=True))
    assert [d["file"] for d in rows] == ["kept", "deleted"] and rows[0]["reason"] == "blurred"
    again = api.post(f"/api/matches/{sheet.pk}/photos/{two['id']}/remove/", {"reason": "x"}, format="json")
    assert again.status_code == 404
    assert photos_of(sheet.stream_id) == []
    assert api.get(f"/api/matches/{sheet.pk}/photos/").json() == []


def test_an_undone_photo_is_no_longer_shown(api, owner, sheet):
    photo = upload(api, sheet.pk, phone_jpeg()).json()
    match_event_record(match=sheet, user=owner, type="event_voided", data={"version": photo["version"], "reason": "x"})
    assert api.get(photo["photo"]["urls"]["thumb"]).status_code == 404


def test_an_upload_repeated_with_its_key_stores_one_photo(api, sheet, media):
    body = {"caption": "", "file": SimpleUploadedFile("a.jpg", phone_jpeg(), content_type="image/jpeg")}
    first = api.post(f"/api/matches/{sheet.pk}/photos/", body, format="multipart", HTTP_IDEMPOTENCY_KEY="k1")
    body["file"] = SimpleUploadedFile("a.jpg", phone_jpeg(), content_type="image/jpeg")
    second = api.post(f"/api/matches/{sheet.pk}/photos/", body, format="multipart", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201 and second.status_code == 200
    assert first.json()["photo"]["id"] == second.json()["photo"]["id"]
    assert len(stored(media)) == 2 and EventRow.objects.filter(stream_id=sheet.stream_id).count() == 1


def test_a_campaign_takes_photos(api, owner, media):
    from campaigns.saltmarsh.services import campaign_create

    campaign = campaign_create(owner=owner, name="Saltmarsh", is_public=False)
    r = upload(api, campaign.pk, phone_jpeg(), caption="The map of the marsh", kind="campaigns")
    assert r.status_code == 201, r.content
    assert photos_of(campaign.stream_id)[0].caption == "The map of the marsh"
    assert api.get(r.json()["photo"]["urls"]["display"]).status_code == 200


def test_a_camera_sized_upload_passes_the_api_body_limit(api, sheet, media, settings):
    """A photo is far bigger than the API's JSON body limit (CHRONICLE_MAX_BODY): the photo limit is its own."""
    big = io.BytesIO()
    Image.effect_noise((2400, 1800), 60).convert("RGB").save(big, "JPEG", quality=95)
    assert big.tell() > 4 * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    r = upload(api, sheet.pk, big.getvalue())
    assert r.status_code == 201, r.content
    assert r.json()["photo"]["width"] == 1600
