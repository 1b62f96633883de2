"""Hidden information never reaches a reader who could not see it at the table, by any read.

For each game a match is played through the services and every read (``hidden_reads.match_reads``: state at
every version, log, legal moves, match, replay and history pages, recent activity, admin) is fetched as an
anonymous spectator, as the user at the other seat and as a staff user who is not a superuser.

Salt & Bones hides the names of INSTINCT cards placed face-down. Two twin matches differ only in the name of
the card seat 0 places face-down ("Overwhelm" in one, "Condescend" in the other; both names are public in
the card list): a reader who may not see it must get, from every read, exactly as many mentions of each
name in both twins. The recorder's reads are checked to differ, so the scan can fail.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from matches.services import match_create, match_event_record
from rulesets import get_ruleset
from tests.matches.hidden_reads import match_reads, read_all, readers

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def _table(game_dir: str) -> Any:
    """The ruleset tests' ``Table`` helper of a game (a recorder that validates and applies events)."""
    path = Path(__file__).resolve().parents[1] / "rulesets" / game_dir / "conftest.py"
    spec = importlib.util.spec_from_file_location(f"{game_dir}_table_conftest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Table


def _record_all(match: Any, user: Any, events: list[Any]) -> None:
    for event in events:
        match_event_record(match=match, user=user, type=event.type, seat=event.seat, data=event.data)


@pytest.fixture
def people(make_user: Any) -> dict[str, Any]:
    return {"owner": make_user("owner"), "bo": make_user("bo"), "staff": make_user("staffer")}


def _sb_match(people: dict[str, Any], secret: str) -> Any:
    """Seat 0 places ``secret`` face-down, seat 1 (Bo, a signed-up user) places Anticipation face-down; then
    combat starts and seat 0 (Momentum) plays an Attack card, so INSTINCT cards become playable."""
    table = _table("salt_and_bones")()
    table.to_combat(boards={0: [("instinct", secret)], 1: [("instinct", "Anticipation")]})
    attack = next(m for m in get_ruleset("salt-and-bones").legal_moves(table.state) if m.type == "attack_card_played")
    table.do(attack.type, attack.seat, **attack.data)
    match = match_create(
        owner=people["owner"], game="salt-and-bones", seats=[{"name": "Ana"}, {"name": "Bo", "user": people["bo"]}]
    )
    _record_all(match, people["owner"], table.events)
    match.refresh_from_db()
    return match


def _scan_twins(people: dict[str, Any], a: Any, b: Any, secrets: tuple[str, str]) -> None:
    """Twin matches ``a`` and ``b`` differ only in a hidden value (``secrets[0]`` in ``a``, ``secrets[1]`` in
    ``b``): every read by a reader who may not see it mentions each secret as often in both twins; the
    recorder's state differs (so the scan can fail)."""
    who = readers(owner=people["owner"], seat_user=people["bo"], staff_user=people["staff"])
    urls_a, urls_b = match_reads(a), match_reads(b)
    assert len(urls_a) == len(urls_b)
    for name, client in who.hiding().items():
        admin = client is who.staff
        bodies_a, bodies_b = read_all(client, urls_a, admin=admin), read_all(client, urls_b, admin=admin)
        for url_a, url_b in zip(urls_a, urls_b, strict=True):
            for secret in secrets:
                assert bodies_a[url_a].count(secret) == bodies_b[url_b].count(secret), (name, url_a, secret)
    state_a = who.recorder.get(f"/api/matches/{a.pk}/state/").content.decode()
    state_b = who.recorder.get(f"/api/matches/{b.pk}/state/").content.decode()
    assert state_a.count(secrets[0]) > state_b.count(secrets[0])


def test_salt_and_bones_face_down_instinct_cards_reach_no_other_reader(people, client_for):
    a, b = _sb_match(people, "Overwhelm"), _sb_match(people, "Condescend")
    _scan_twins(people, a, b, ("Overwhelm", "Condescend"))
    # the recorder sees the card in the log and among the legal moves too
    for url in ("events", "legal-moves"):
        seen_a = client_for(people["owner"]).get(f"/api/matches/{a.pk}/{url}/").content.decode()
        seen_b = client_for(people["owner"]).get(f"/api/matches/{b.pk}/{url}/").content.decode()
        assert seen_a.count("Overwhelm") > seen_b.count("Overwhelm"), url


def test_salt_and_bones_each_seat_sees_its_own_face_down_card_and_not_the_other(people, client_for):
    match = _sb_match(people, "Overwhelm")
    boards = lambda client: client.get(f"/api/matches/{match.pk}/state/").json()["state"]["boards"]  # noqa: E731
    mine = boards(client_for(people["bo"]))
    assert [c["name"] for c in mine[1]["instinct"]] == ["Anticipation"]
    assert [c["name"] for c in mine[0]["instinct"]] == [None]
    spectator = boards(client_for(None))
    assert [c["name"] for b in spectator for c in b["instinct"]] == [None, None]
    recorder = boards(client_for(people["owner"]))
    assert [c["name"] for b in recorder for c in b["instinct"]] == ["Overwhelm", "Anticipation"]
    # the log: Bo reads his own placement by name, Ana's as face-down
    log = client_for(people["bo"]).get(f"/api/matches/{match.pk}/events/").json()
    placed = {e["seat"]: e["data"]["card"] for e in log if e["type"] == "strategy_card_placed"}
    assert placed == {0: None, 1: "Anticipation"}
    # legal moves: Bo may play his Anticipation; for seat 0 he sees what any face-down INSTINCT could be
    # played as now (Overwhelm, the only one playable after one's own attack), as the recorder does
    moves = client_for(people["bo"]).get(f"/api/matches/{match.pk}/legal-moves/").json()
    played = {(m["seat"], m["data"]["card"]) for m in moves if m["type"] == "strategy_card_played"}
    assert played == {(1, "Anticipation"), (0, "Overwhelm")}
    twin = _sb_match(people, "Condescend")  # seat 0 holds a card it cannot play now; Bo cannot tell
    moves = client_for(people["bo"]).get(f"/api/matches/{twin.pk}/legal-moves/").json()
    assert {(m["seat"], m["data"]["card"]) for m in moves if m["type"] == "strategy_card_played"} == played
    recorder_moves = client_for(people["owner"]).get(f"/api/matches/{twin.pk}/legal-moves/").json()
    assert {(m["seat"], m["data"]["card"]) for m in recorder_moves if m["type"] == "strategy_card_played"} == {
        (1, "Anticipation")
    }


def test_a_recorder_may_ask_for_one_seats_view_and_a_spectator_may_not_ask_for_any(people, client_for):
    match = _sb_match(people, "Overwhelm")
    url = f"/api/matches/{match.pk}/state/?seat=0"
    as_seat0 = client_for(people["owner"]).get(url).json()["state"]["boards"]
    assert [c["name"] for b in as_seat0 for c in b["instinct"]] == ["Overwhelm", None]
    for client in (client_for(None), client_for(people["bo"])):
        assert "Overwhelm" not in json.dumps(client.get(url).json()["state"]["boards"])


def _first_spine_match(people: dict[str, Any], secret: str) -> Any:
    """Seat 0 chooses ``secret`` as its origin, seat 1 (Bo) the priest; seat 0 then refills and places a plain
    card (which reveals nothing)."""
    table = _table("the_first_spine")(2, board=[4, 5])
    table.setup(origins=(secret, "priest")).refill().place("Squire", [2, 2])
    match = match_create(
        owner=people["owner"], game="the-first-spine", options=table.options,
        seats=[{"name": "Ana"}, {"name": "Bo", "user": people["bo"]}],
    )  # fmt: skip
    _record_all(match, people["owner"], table.events)
    match.refresh_from_db()
    return match


def test_the_first_spine_secret_origins_reach_no_other_reader(people, client_for):
    a, b = _first_spine_match(people, "healer"), _first_spine_match(people, "architect")
    _scan_twins(people, a, b, ("healer", "architect"))
    players = client_for(people["bo"]).get(f"/api/matches/{a.pk}/state/").json()["state"]["players"]
    assert [p["origin"] for p in players] == [None, "priest"]  # Bo sees his own origin only


# -- games without hidden information: the filter takes nothing away -----------------------------------


def _last_stone(people: dict[str, Any]) -> tuple[Any, str]:
    match = match_create(owner=people["owner"], game="last-stone", options={"stones": 7},
                         seats=[{"name": "Zephyrine"}, {"name": "Bo", "user": people["bo"]}])  # fmt: skip
    for seat, count in [(0, 2), (1, 3)]:
        match_event_record(match=match, user=people["owner"], type="stones_taken", seat=seat, data={"count": count})
    return match, '"pile":2'


def _get_salty(people: dict[str, Any]) -> tuple[Any, str]:
    from matches import store

    match = match_create(
        owner=people["owner"], game="get-salty", seats=[{"name": "Ana"}, {"name": "Bo", "user": people["bo"]}]
    )
    ruleset = get_ruleset("get-salty")
    for _ in range(3):
        move = ruleset.legal_moves(store.head_load(match.stream_id, fresh=True).state)[0]
        match_event_record(match=match, user=people["owner"], type=move.type, seat=move.seat, data=move.data)
    return match, "attribute"


def _bone_wars(people: dict[str, Any]) -> tuple[Any, str]:
    from matches import store

    match = match_create(
        owner=people["owner"], game="bone-wars", seats=[{"name": "Ana"}, {"name": "Bo", "user": people["bo"]}]
    )
    ruleset = get_ruleset("bone-wars")
    for _ in range(2):
        move = ruleset.legal_moves(store.head_load(match.stream_id, fresh=True).state)[0]
        match_event_record(match=match, user=people["owner"], type=move.type, seat=move.seat, data=move.data)
    return match, "credibility"


def _adventure(people: dict[str, Any]) -> tuple[Any, str]:
    options = {"adventure": "Tammeraut's Fate", "heroes": [{"name": "Zephyrine", "class": "Rogue", "max_hp": 8},
                                                            {"name": "Brakk", "class": "Fighter", "max_hp": 10}]}  # fmt: skip
    match = match_create(owner=people["owner"], game="saltmarsh-adventure", options=options,
                         seats=[{"name": "Ana"}, {"name": "Bo", "user": people["bo"]}])  # fmt: skip
    match_event_record(
        match=match, user=people["owner"], type="monster_placed", data={"monster": "Sahuagin Quillmonger"}
    )
    return match, "Sahuagin Quillmonger"


@pytest.mark.parametrize(
    "build",
    [_last_stone, _get_salty, _adventure, _bone_wars],
    ids=["last-stone", "get-salty", "adventure", "bone-wars"],
)
def test_games_without_hidden_information_show_everyone_what_the_recorder_sees(people, build):
    match, planted = build(people)
    match.refresh_from_db()
    assert not get_ruleset(match.game).hides_information
    who = readers(owner=people["owner"], seat_user=people["bo"], staff_user=people["staff"])
    urls = [u for u in match_reads(match) if u.startswith("/api/")]
    recorder = read_all(who.recorder, urls)
    assert planted in recorder[f"/api/matches/{match.pk}/state/"]
    for name, client in who.hiding().items():
        seen = read_all(client, urls)
        for url in urls:
            assert seen[url] == recorder[url], (name, url)
    # pages and admin answer for everyone
    for client in who.hiding().values():
        read_all(client, match_reads(match), admin=client is who.staff)
