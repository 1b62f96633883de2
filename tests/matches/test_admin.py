"""The admin lists matches, players and events; events cannot be added, changed or deleted there."""

import pytest

from matches.models import Event
from matches.services import match_event_record

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


@pytest.fixture
def admin_client_logged(client, django_user_model):
    django_user_model.objects.create_superuser("root", "root@example.com", "pass-word-123")
    client.login(username="root", password="pass-word-123")
    return client


def test_admin_pages_list_matches_players_events(admin_client_logged, stone_match, owner):
    match_event_record(match=stone_match, user=owner, type="stones_taken", seat=0, data={"count": 2})
    for url in ["/admin/matches/match/", "/admin/matches/player/", "/admin/matches/event/",
                f"/admin/matches/match/{stone_match.pk}/change/", "/admin/campaigns/campaign/"]:  # fmt: skip
        assert admin_client_logged.get(url).status_code == 200, url
    event = Event.objects.get()
    page = admin_client_logged.get(f"/admin/matches/event/{event.pk}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert admin_client_logged.get("/admin/matches/event/add/").status_code == 403
    assert admin_client_logged.get(f"/admin/matches/event/{event.pk}/delete/").status_code == 403
    admin_client_logged.post(f"/admin/matches/event/{event.pk}/change/", {"type": "x"})
    event.refresh_from_db()
    assert event.type == "stones_taken"


def test_visibility_is_fixed_and_players_are_merged_not_deleted(admin_client_logged, stone_match):
    """Read models copy a match's visibility and refer to players: the admin can change neither under them."""
    page = admin_client_logged.get(f"/admin/matches/match/{stone_match.pk}/change/").content.decode()
    assert 'name="is_public"' not in page  # shown read-only
    player = stone_match.seats.first().player
    assert admin_client_logged.get(f"/admin/matches/player/{player.pk}/delete/").status_code == 403
    admin_client_logged.post(
        "/admin/matches/player/", {"action": "delete_selected", "_selected_action": [player.pk], "post": "yes"}
    )
    player.refresh_from_db()  # still there
