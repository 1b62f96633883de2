"""Salt & Bones over the REST API: the rulebook's three endings, played entry by entry, end the same way."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from rulesets.names import name_all
from rulesets.salt_and_bones import RULESET

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

HERE = Path(__file__).resolve().parents[2] / "rulesets" / "salt_and_bones"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"sb_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _scenario(test_name: str):
    """Play a ruleset scenario test and return the tables it built (options and events)."""
    table_cls = _load("conftest").Table
    built = []

    class Recording(table_cls):
        def __init__(self, **options):
            super().__init__(**options)
            built.append(self)

    getattr(_load("test_end"), test_name)(Recording, RULESET)
    return built


@pytest.mark.parametrize(
    "scenario",
    ["test_complete_game_from_the_first_field_card_to_a_win", "test_second_wind_then_a_winner", "test_exhaustion_draw"],
)
def test_ending_recorded_through_the_api(api, scenario):
    for table in _scenario(scenario):
        r = api.post("/api/matches/", {"game": "salt-and-bones", "seats": [{"name": "Ana"}, {"name": "Bo"}],
                                       "options": table.options}, format="json")  # fmt: skip
        assert r.status_code == 201, r.content
        mid = r.json()["id"]
        for version, event in enumerate(table.events):
            body = {**event.to_dict(), "expected_version": version}
            posted = api.post(f"/api/matches/{mid}/events/", body, format="json")
            assert posted.status_code == 201, (version, event, posted.content)
        final = api.get(f"/api/matches/{mid}/state/").json()
        # the API names the seats where the ruleset wrote seat tokens
        names = ["Ana", "Bo"]
        assert final["state"] == name_all(table.state, names)
        expected = RULESET.outcome(table.state)
        assert final["outcome"] == (name_all(expected.to_dict(), names) if expected else None)
        assert "Seat 0" not in json.dumps(final) and "Seat 1" not in json.dumps(final)
        if final["outcome"]:
            assert api.get(f"/api/matches/{mid}/").json()["status"] == "finished"
        # the log explains every point of damage
        log = final["state"]["log"]
        assert any("damage" in line for line in log)
