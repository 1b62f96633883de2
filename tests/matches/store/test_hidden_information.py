"""Hidden information reaches only who could see it at the table, by every read (``matches.store.visibility``).

Two players each hold a seat with their own account, and both may record; the owner holds no seat (the phone
passed round the table). For each game with hidden information three matches are played through the services:
a base match and two twins, each differing from it only in one seat's secret (seat 0's in one, seat 1's in
the other). Every read (``hidden_reads.match_reads``: state at every version, log, legal moves, the match,
replay and history pages, the live update and its news, recent activity, exports, admin) is fetched by each
reader: both seat holders, the seatless recorder (showing nothing, and showing seat 0's secrets on request),
an anonymous spectator and a staff user. A reader who may not see a seat's secret must get, from every read,
exactly as many mentions of each secret in both twins; a reader who may see it must get a difference, so
the scan can fail.

Salt & Bones hides the names of INSTINCT cards placed face-down; The First Spine hides each seat's origin.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from matches.services import match_create, match_event_record
from matches.store import events as store
from rulesets import get_ruleset
from tests.matches.hidden_reads import Reader, body_of, match_reads, read_all, signed_in, table

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]


def _table(game_dir: str) -> Any:
    """The ruleset tests' ``Table`` helper of a game (a recorder that validates and applies events)."""
    path = Path(__file__).resolve().parents[2] / "rulesets" / game_dir / "conftest.py"
    spec = importlib.util.spec_from_file_location(f"{game_dir}_table_conftest", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Table


@pytest.fixture
def people(make_user: Any) -> dict[str, Any]:
    return {"owner": make_user("owner"), "ana": make_user("ana"), "bo": make_user("bo"), "staff": make_user("staffer")}


@dataclass
class Played:
    """A match played through the services (the last two entries posted to the API, by the seatless owner
    and then by Bo, a seat holder who records) and the answers those two posts got."""

    match: Any
    answers: dict[str, str]


def _play(
    people: dict[str, Any], game: str, options: dict[str, Any], events: list[Any], finish: bool,
    table_seat: int | None = None,
) -> Played:  # fmt: skip
    """Ana (seat 0) and Bo (seat 1) hold the seats with their accounts and record; the owner holds none.
    ``table_seat``: that seat is held by no account (a friend without a phone): the owner records its entries.
    Each seat's entries are recorded by whoever may (its holder: a seat's secrets are its holder's alone,
    ``matches.store.visibility``), the table's by the owner; the last two are posted to the API by the owner
    and by Bo. ``finish``: the table then records the result (the match joins the owner's exports)."""
    holders = {0: people["ana"], 1: people["bo"]}
    holders.pop(table_seat, None)
    seats = [{"name": name, **({"user": holders[i]} if i in holders else {})} for i, name in enumerate(("Ana", "Bo"))]
    match = match_create(is_public=True,
        owner=people["owner"], game=game, options=options, recorders=[people["ana"], people["bo"]], seats=seats,
    )  # fmt: skip
    for event in events[:-2]:
        user = holders.get(event.seat, people["owner"])
        match_event_record(match=match, user=user, type=event.type, seat=event.seat, data=event.data)
    answers = {}
    for who, event in zip(("owner", "bo"), events[-2:], strict=True):
        body = {"type": event.type, "seat": event.seat, "data": event.data}
        response = signed_in(people[who]).post(
            f"/api/matches/{match.pk}/events/", json.dumps(body), content_type="application/json"
        )
        assert response.status_code == 201, response.content
        answers[who] = response.content.decode()
    if finish:
        match_event_record(match=match, user=people["owner"], type="result_recorded", data={"winners": [0]})
    match.refresh_from_db()
    return Played(match, answers)


def _salt_and_bones(
    people: dict[str, Any], secrets: tuple[str, str], finish: bool = False, table_seat: int | None = None
) -> Played:
    """Seat 0 places ``secrets[0]`` face-down in INSTINCT, seat 1 ``secrets[1]``; then combat starts and seat
    0 (Momentum) plays an Attack card, so INSTINCT cards become playable."""
    table_ = _table("salt_and_bones")()
    table_.to_combat(boards={0: [("instinct", secrets[0])], 1: [("instinct", secrets[1])]})
    attack = next(m for m in get_ruleset("salt-and-bones").legal_moves(table_.state) if m.type == "attack_card_played")
    table_.do(attack.type, attack.seat, **attack.data)
    return _play(people, "salt-and-bones", {}, table_.events, finish, table_seat)


def _first_spine(people: dict[str, Any], secrets: tuple[str, str], finish: bool = False) -> Played:
    """Seat 0 chooses ``secrets[0]`` as its origin, seat 1 ``secrets[1]``; seat 0 then refills, places a
    plain card (which reveals nothing) and ends its turn; seat 1 refills (Bo posts his own entry)."""
    table_ = _table("the_first_spine")(2, board=[4, 5])
    table_.setup(origins=secrets).refill().place("Squire", [2, 2]).end().refill()
    return _play(people, "the-first-spine", table_.options, table_.events, finish)


GAMES = {
    # game: (builder, base secrets, seat 0's other secret, seat 1's other secret); secrets per seat (0, 1)
    "salt-and-bones": (_salt_and_bones, ("Overwhelm", "Anticipation"), "Condescend", "Condescend"),
    "the-first-spine": (_first_spine, ("healer", "priest"), "architect", "blacksmith"),
}


def _is_shared(url: str, match: Any) -> bool:
    """A read that is not of one match (recent activity, exports): the same body for every twin."""
    return f"/{match.pk}/" not in url and f"/{match.stream_id}/" not in url


def _scan(people: dict[str, Any], game: str, *, finish: bool) -> None:
    build, base_secrets, other0, other1 = GAMES[game]
    base = build(people, base_secrets, finish)
    twin = {0: build(people, (other0, base_secrets[1]), finish), 1: build(people, (base_secrets[0], other1), finish)}
    secret_of = {  # (match, seat) → its secret
        (base.match.pk, 0): base_secrets[0], (base.match.pk, 1): base_secrets[1],
        (twin[0].match.pk, 0): other0, (twin[0].match.pk, 1): base_secrets[1],
        (twin[1].match.pk, 0): base_secrets[0], (twin[1].match.pk, 1): other1,
    }  # fmt: skip
    readers = table(owner=people["owner"], seat_users=[people["ana"], people["bo"]], staff_user=people["staff"])
    urls = {p.match.pk: match_reads(p.match, brief=finish) for p in (base, *twin.values())}
    for reader in readers:
        bodies: dict[int, dict[str, str]] = {}
        shared: dict[str, str] = {}  # recent activity and exports: read once
        for played in (base, *twin.values()):
            reader.reveal_on(played.match)
            bodies[played.match.pk] = read_all(reader.client, urls[played.match.pk], admin=reader.admin, done=shared)
            shared.update({u: b for u, b in bodies[played.match.pk].items() if _is_shared(u, played.match)})
        for seat, other in twin.items():
            pair = (base_secrets[seat], other0 if seat == 0 else other1)
            seen = 0
            for url_a, url_b in zip(urls[base.match.pk], urls[other.match.pk], strict=True):
                if _is_shared(url_a, base.match):
                    continue
                a, b = bodies[base.match.pk][url_a], bodies[other.match.pk][url_b]
                if seat in reader.sees(url_a):
                    seen += a.count(pair[0]) > b.count(pair[0])
                    continue
                for secret in pair:
                    assert a.count(secret) == b.count(secret), (reader.name, url_a, secret)
            # the scan can fail: whoever may see the secret on some read sees it there
            assert bool(seen) == any(seat in reader.sees(u) for u in urls[base.match.pk]), (reader.name, seat)
        _check_shared(reader, bodies, secret_of, {p.match.pk: p.match for p in (base, *twin.values())})


def _check_shared(
    reader: Reader, bodies: dict[int, dict[str, str]], secret_of: dict[tuple[int, int], str], matches: dict[int, Any]
) -> None:
    """Reads of no one match (recent activity, exports) name no secret that this reader may see nowhere. A read
    of one match (its id or its stream's id in the address, e.g. the admin's stream page) is judged against its
    twin instead: it may show a card name that the game's catalog lists anyway."""
    seen = {s for (_, seat), s in secret_of.items() if seat in reader.sees("/")}
    hidden = {s for (_, seat), s in secret_of.items() if seat not in reader.sees("/")} - seen
    for match_id, by_url in bodies.items():
        for url, body in by_url.items():
            if not _is_shared(url, matches[match_id]):
                continue
            for secret in hidden:
                assert secret not in body, (reader.name, url, secret)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_secrets_reach_only_their_seat_or_a_phone_it_reveals_them_on_by_every_read(people, game):
    _scan(people, game, finish=False)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_secrets_stay_hidden_in_finished_matches_and_their_exports(people, game):
    _scan(people, game, finish=True)
    export = json.loads(body_of(signed_in(people["owner"]).get("/api/export/bgstats/")))
    assert len(export["plays"]) == 3  # the scan read the exports with the three finished matches in them


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_answer_to_an_append_shows_the_recorders_view_only(people, game):
    """The owner (no seat) and Bo (seat 1, a recorder) post the last two entries: each answer's state is what
    that recorder may see, in twins differing in seat 0's secret."""
    build, base_secrets, other0, _ = GAMES[game]
    a, b = build(people, base_secrets), build(people, (other0, base_secrets[1]))
    for who in ("owner", "bo"):
        for secret in (base_secrets[0], other0):
            assert a.answers[who].count(secret) == b.answers[who].count(secret), (who, secret)
    # Bo's answer shows his own secret: twins differing in seat 1's secret differ there
    c = build(people, (base_secrets[0], GAMES[game][3]))
    assert a.answers["bo"].count(base_secrets[1]) > c.answers["bo"].count(base_secrets[1])


def test_salt_and_bones_each_seat_sees_its_own_face_down_card_and_not_the_other(people):
    match = _salt_and_bones(people, ("Overwhelm", "Anticipation")).match
    url = f"/api/matches/{match.pk}/state/"

    def names(client: Any) -> list[Any]:
        return [c["name"] for b in client.get(url).json()["state"]["boards"] for c in b["instinct"]]

    assert names(signed_in(people["ana"])) == ["Overwhelm", None]
    assert names(signed_in(people["bo"])) == [None, "Anticipation"]  # he records too: still his seat only
    owner = signed_in(people["owner"])
    assert names(owner) == [None, None]  # no seat: the phone passed round the table shows no secret
    assert names(signed_in(people["staff"])) == [None, None]
    # the log: Bo reads his own placement by name, Ana's as face-down
    log = signed_in(people["bo"]).get(f"/api/matches/{match.pk}/events/").json()["results"]
    placed = {e["seat"]: e["data"]["card"] for e in log if e["type"] == "strategy_card_placed"}
    assert placed == {0: None, 1: "Anticipation"}
    # legal moves: Bo may play his Anticipation; for seat 0 he sees what any face-down INSTINCT could be
    # played as now (Overwhelm, the only one playable after one's own attack)
    moves = signed_in(people["bo"]).get(f"/api/matches/{match.pk}/legal-moves/").json()
    played = {(m["seat"], m["data"]["card"]) for m in moves if m["type"] == "strategy_card_played"}
    assert played == {(1, "Anticipation"), (0, "Overwhelm")}
    twin = _salt_and_bones(people, ("Condescend", "Anticipation")).match  # seat 0 holds a card it can't play now
    moves = signed_in(people["bo"]).get(f"/api/matches/{twin.pk}/legal-moves/").json()
    assert {(m["seat"], m["data"]["card"]) for m in moves if m["type"] == "strategy_card_played"} == played


def test_the_first_spine_each_seat_sees_its_own_origin_only(people):
    match = _first_spine(people, ("healer", "priest")).match
    url = f"/api/matches/{match.pk}/state/"
    origins = lambda client: [p["origin"] for p in client.get(url).json()["state"]["players"]]  # noqa: E731
    assert origins(signed_in(people["ana"])) == ["healer", None]
    assert origins(signed_in(people["bo"])) == [None, "priest"]
    assert origins(signed_in(people["owner"])) == [None, None]
    assert origins(Client()) == [None, None]  # anonymous


def test_only_a_seatless_recorder_may_ask_the_api_for_one_seats_view(people):
    """Of a seat no account holds (Ana without a phone); a seat an account holds is that account's alone."""
    match = _salt_and_bones(people, ("Overwhelm", "Anticipation"), table_seat=0).match
    url = f"/api/matches/{match.pk}/state/?seat=0"
    boards = lambda client: json.dumps(client.get(url).json()["state"]["boards"])  # noqa: E731
    as_seat0 = json.loads(boards(signed_in(people["owner"])))
    assert [c["name"] for b in as_seat0 for c in b["instinct"]] == ["Overwhelm", None]
    for client in (signed_in(people["bo"]), signed_in(people["staff"]), Client()):
        assert "Overwhelm" not in boards(client)


def test_no_recorder_reads_a_seat_an_account_holds(people, make_user):
    """Issue 41 item 2: the owner, and a second account of the owner's named as a recorder, ask for Ana's view of
    a match where Ana holds seat 0 with her own account: they read what a spectator reads."""
    match = _salt_and_bones(people, ("Overwhelm", "Anticipation")).match
    second = make_user("owner-too")
    match.recorders.add(second)
    for client in (signed_in(people["owner"]), signed_in(second)):
        for seat in (0, 1):
            boards = client.get(f"/api/matches/{match.pk}/state/?seat={seat}").json()["state"]["boards"]
            assert [c["name"] for b in boards for c in b["instinct"]] == [None, None], seat


# -- the phone passed round the table: one seat's secrets on request, hidden by the next entry ---------------


def _page(client: Any, match: Any) -> str:
    response = client.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def _origin_buttons(html: str) -> list[str]:
    """The one-click origin choices the First Spine board offers ("Ana: Healer (secret)")."""
    import re

    return re.findall(r">((?:Ana|Bo): [A-Z][a-z]+ \(secret\))<", html)


def test_a_shared_phone_lists_no_secret_choice_until_one_player_shows_their_own(people):
    """The First Spine setup on the owner's phone (no seat): no origin is offered by name until Ana shows her
    own; then only hers, and her choice, once recorded, hides them again."""
    table_ = _table("the_first_spine")(2, board=[4, 5])
    match = match_create(is_public=True, owner=people["owner"], game="the-first-spine", options=table_.options,
                         seats=[{"name": "Ana", "user": people["ana"]}, {"name": "Bo"}])  # fmt: skip
    phone = signed_in(people["owner"])
    html = _page(phone, match)
    assert _origin_buttons(html) == []
    assert "Show Ana's origin" not in html and "Show Bo's origin" in html  # Ana's seat is her account's
    assert phone.post(f"/matches/{match.pk}/reveal/", {"seat": 1}).status_code == 302
    html = _page(phone, match)
    assert _origin_buttons(html) == ["Bo: Healer (secret)", "Bo: Architect (secret)", "Bo: Priest (secret)",
                                     "Bo: Blacksmith (secret)"]  # fmt: skip
    assert "Showing Bo's origin" in html
    move = {"type": "origin_chosen", "seat": 1, "data": {"origin": "priest"}}
    assert (
        phone.post(f"/matches/{match.pk}/record/", {"move": json.dumps(move), "expected_version": 0}).status_code == 302
    )
    html = _page(phone, match)
    assert "Showing Bo" not in html and _origin_buttons(html) == []
    players = phone.get(f"/api/matches/{match.pk}/state/").json()["state"]["players"]
    assert [p["origin"] for p in players] == [None, None] and players[1]["origin_chosen"]
    # Ana holds seat 0 and may not record here: her phone shows her choices' seat only, and no reveal (a
    # recorder holding a seat may show a table seat's: test_an_owner_holding_a_seat_…)
    match.recorders.remove(people["ana"])
    ana = signed_in(people["ana"])
    assert "Show Bo" not in _page(ana, match)
    assert ana.post(f"/matches/{match.pk}/reveal/", {"seat": 1}).status_code == 403


def test_a_reveal_ends_with_the_next_entry_from_any_phone_or_on_request(people):
    """Bo plays without a phone (seat 1 is the table's); Ana holds seat 0 with her account."""
    played = _salt_and_bones(people, ("Overwhelm", "Anticipation"), table_seat=1)
    match = played.match
    phone = signed_in(people["owner"])
    url = f"/api/matches/{match.pk}/state/"
    names = lambda: [c["name"] for b in phone.get(url).json()["state"]["boards"] for c in b["instinct"]]  # noqa: E731
    phone.post(f"/matches/{match.pk}/reveal/", {"seat": 1})
    assert names() == [None, "Anticipation"]  # the API on the same device honours the reveal
    log = phone.get(f"/api/matches/{match.pk}/events/").json()["results"]
    assert [e["data"]["card"] for e in log if e["type"] == "strategy_card_placed"] == [None, "Anticipation"]
    phone.post(f"/matches/{match.pk}/reveal/", {"hide": "1"})
    assert names() == [None, None]
    assert phone.post(f"/matches/{match.pk}/reveal/", {"seat": 0}).status_code == 403  # Ana's: hers alone
    assert names() == [None, None]
    phone.post(f"/matches/{match.pk}/reveal/", {"seat": 1})
    assert names() == [None, "Anticipation"]
    # another phone records an entry: this one shows nothing again
    ruleset = get_ruleset("salt-and-bones")
    move = next(m for m in ruleset.legal_moves(store.head_load(match.stream_id, fresh=True).state)
                if m.type != "strategy_card_played")  # fmt: skip
    match_event_record(match=match, user=people["bo"], type=move.type, seat=move.seat, data=move.data)
    assert names() == [None, None]


def test_who_may_reveal(people, make_user):
    """Only a recorder holding no seat may show a seat's secrets, of a seat that exists, in a game with any."""
    match = _salt_and_bones(people, ("Overwhelm", "Anticipation")).match
    reveal = f"/matches/{match.pk}/reveal/"
    assert signed_in(people["bo"]).post(reveal, {"seat": 0}).status_code == 403  # he holds a seat
    assert signed_in(make_user("stranger")).post(reveal, {"seat": 0}).status_code == 403
    assert signed_in(people["owner"]).post(reveal, {"seat": 2}).status_code == 400
    assert signed_in(people["owner"]).post(reveal, {"seat": "x"}).status_code == 400
    assert signed_in(people["owner"]).get(reveal).status_code == 405
    stones = match_create(is_public=True, owner=people["owner"], game="last-stone", options={"stones": 7},
                          seats=[{"name": "Ana"}, {"name": "Bo"}])  # fmt: skip
    assert signed_in(people["owner"]).post(f"/matches/{stones.pk}/reveal/", {"seat": 0}).status_code == 400


def test_an_owner_holding_a_seat_sees_that_seats_view_and_reveals_only_the_tables_seats(people):
    """Issue 41: Ana's phone is also the table's phone for Bo, who plays without an account: she may show his
    origin on it (then it shows Bo's view, hers hidden) until the next entry; never her own seat's by reveal,
    and ``?seat=`` on the API stays the seatless recorder's reveal."""
    table_ = _table("the_first_spine")(2, board=[4, 5])
    table_.setup(origins=("healer", "priest"))
    match = match_create(is_public=True, owner=people["ana"], game="the-first-spine", options=table_.options,
                         seats=[{"name": "Ana", "user": people["ana"]}, {"name": "Bo"}])  # fmt: skip
    for event in table_.events:
        match_event_record(match=match, user=people["ana"], type=event.type, seat=event.seat, data=event.data)
    ana = signed_in(people["ana"])
    players = ana.get(f"/api/matches/{match.pk}/state/?seat=1").json()["state"]["players"]
    assert [p["origin"] for p in players] == ["healer", None]
    assert "Show Bo" in _page(ana, match) and "Show Ana" not in _page(ana, match)
    assert ana.post(f"/matches/{match.pk}/reveal/", {"seat": 0}).status_code == 403  # her own: not a table seat
    assert ana.post(f"/matches/{match.pk}/reveal/", {"seat": 1}).status_code == 302
    players = ana.get(f"/api/matches/{match.pk}/state/").json()["state"]["players"]
    assert [p["origin"] for p in players] == [None, "priest"]
    assert ana.post(f"/matches/{match.pk}/reveal/", {"hide": "1"}).status_code == 302
    players = ana.get(f"/api/matches/{match.pk}/state/").json()["state"]["players"]
    assert [p["origin"] for p in players] == ["healer", None]


# -- games without hidden information: the filter takes nothing away -----------------------------------


def _last_stone(people: dict[str, Any]) -> tuple[Any, str]:
    match = match_create(is_public=True, owner=people["owner"], game="last-stone", options={"stones": 7},
                         seats=[{"name": "Zephyrine"}, {"name": "Bo", "user": people["bo"]}])  # fmt: skip
    for seat, count in [(0, 2), (1, 3)]:
        match_event_record(match=match, user=people["owner"], type="stones_taken", seat=seat, data={"count": count})
    return match, '"pile":2'


def _get_salty(people: dict[str, Any]) -> tuple[Any, str]:
    from matches.store import events as store

    match = match_create(
        is_public=True,
        owner=people["owner"],
        game="get-salty",
        seats=[{"name": "Ana"}, {"name": "Bo", "user": people["bo"]}],
    )
    ruleset = get_ruleset("get-salty")
    for _ in range(3):
        move = ruleset.legal_moves(store.head_load(match.stream_id, fresh=True).state)[0]
        match_event_record(match=match, user=people["owner"], type=move.type, seat=move.seat, data=move.data)
    return match, "attribute"


def _bone_wars(people: dict[str, Any]) -> tuple[Any, str]:
    from matches.store import events as store

    match = match_create(
        is_public=True,
        owner=people["owner"],
        game="bone-wars",
        seats=[{"name": "Ana"}, {"name": "Bo", "user": people["bo"]}],
    )
    ruleset = get_ruleset("bone-wars")
    for _ in range(2):
        move = ruleset.legal_moves(store.head_load(match.stream_id, fresh=True).state)[0]
        match_event_record(match=match, user=people["owner"], type=move.type, seat=move.seat, data=move.data)
    return match, "credibility"


def _adventure(people: dict[str, Any]) -> tuple[Any, str]:
    options = {"adventure": "Tammeraut's Fate", "heroes": [{"name": "Zephyrine", "class": "Rogue", "max_hp": 8},
                                                            {"name": "Brakk", "class": "Fighter", "max_hp": 10}]}  # fmt: skip
    match = match_create(is_public=True, owner=people["owner"], game="saltmarsh-adventure", options=options,
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
    readers = table(owner=people["owner"], seat_users=[people["bo"]], staff_user=people["staff"])
    urls = [u for u in match_reads(match) if u.startswith(f"/api/matches/{match.pk}/")]
    recorder = read_all(signed_in(people["owner"]), urls)
    assert planted in recorder[f"/api/matches/{match.pk}/state/"]
    for reader in readers:
        seen = read_all(reader.client, urls)
        for url in urls:
            assert seen[url] == recorder[url], (reader.name, url)
    # pages and admin answer for everyone
    for reader in readers:
        if reader.shows is None:
            read_all(reader.client, match_reads(match), admin=reader.admin)
