"""The adventure board: heroes' HP and conditions, the party's surges and XP, monsters in play."""

import pytest

from matches.services import match_create, match_event_record

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def test_board_shows_heroes_conditions_monsters_and_the_outcome(client, owner):
    match = match_create(is_public=True,
        owner=owner, game="saltmarsh-adventure", seats=[{"name": "Ana"}, {"name": "Bo"}],
        options={"adventure": "Dunwater", "heroes": [{"name": "Vistra", "class": "Fighter", "max_hp": 10},
                                                     {"name": "Quinn", "class": "Wizard", "max_hp": 6}]},
    )  # fmt: skip

    def rec(type_, seat=None, **data):
        match_event_record(match=match, user=owner, type=type_, seat=seat, data=data)

    rec("hero_phase_started", 0)
    rec("damage_taken", 0, amount=4)
    rec("condition_gained", 0, target="hero", condition="poisoned")
    rec("monster_placed", monster="Sahuagin")
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Vistra" in page and "6 / 10 HP" in page and "Poisoned" in page and "Sahuagin" in page
    assert 'aria-valuenow="6"' in page and "hero phase" in page
    assert "played by Ana" in page and "seat 0" not in page  # the person at the seat, not a seat number
    rec("hero_moved", 0)
    assert "done: move" in client.get(f"/matches/{match.pk}/").content.decode()
    rec("adventure_won")
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Won by Ana and Bo" in page and ".." not in page.split("Won by")[1].split("</p>")[0]
    assert "10 / 10 HP" in client.get(f"/matches/{match.pk}/?at=1").content.decode()  # before the damage
