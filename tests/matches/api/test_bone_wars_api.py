"""Bone Wars over the REST API: whole games entry by entry, both scorings checked by hand, every refusal
answered with its rule and nothing written, and a game played over two sittings."""

from __future__ import annotations

import re
from typing import Any

import pytest

from matches.models import Event as EventRow

pytestmark = [pytest.mark.one_db, pytest.mark.django_db]

OVERVIEW = "Bone Wars › Overview"
PLAYING = "Bone Wars › Playing a card"
CARDS = "Bone Wars › The three kinds of cards"
LOYALTY = "Bone Wars › Loyalty"
SITTINGS = "Chronicle › Sittings"
ENTRIES = "Chronicle › Entries"
AWARDS = "Chronicle › The final awards"


def team(name: str, cost: int = 0) -> dict[str, Any]:
    return {"kind": "team", "name": name, "cost": cost}


def species(name: str, find: str) -> dict[str, Any]:
    return {"kind": "species", "name": name, "minor_find": find}


def paleontologist(name: str) -> dict[str, Any]:
    return {"kind": "paleontologist", "name": name}


class Table:
    """A Bone Wars match driven through the API: ``ok`` records (201), ``no`` asserts a refusal."""

    def __init__(self, api: Any, names: list[str], **options: Any) -> None:
        self.api = api
        r = api.post(
            "/api/matches/",
            {"game": "bone-wars", "seats": [{"name": n} for n in names], "options": options},
            format="json",
        )
        assert r.status_code == 201, r.content
        self.id = r.json()["id"]
        self.version = 0

    def post(self, type_: str, seat: int | None, data: dict[str, Any]) -> Any:
        body = {"type": type_, "seat": seat, "data": data, "expected_version": self.version}
        return self.api.post(f"/api/matches/{self.id}/events/", body, format="json")

    def ok(self, type_: str, seat: int | None = None, **data: Any) -> dict[str, Any]:
        r = self.post(type_, seat, data)
        assert r.status_code == 201, (type_, seat, data, r.json())
        self.version += 1
        assert r.json()["version"] == self.version
        return r.json()

    def no(self, violation: str, rule: str, type_: str, seat: int | None = None, **data: Any) -> dict[str, Any]:
        """The entry is refused with 400 rule_violation naming ``violation`` and ``rule``; nothing is written."""
        before = self.get()
        count = EventRow.objects.count()
        r = self.post(type_, seat, data)
        assert r.status_code == 400, (type_, seat, data, r.content)
        body = r.json()
        assert body["code"] == "rule_violation" and body["violation"] == violation, body
        assert body["rule"] == rule and body["detail"], body
        assert not re.search(r"\b[Ss]eat \d", body["detail"]), "refusals name the player, not the seat"
        assert EventRow.objects.count() == count
        assert self.get() == before
        return body

    def get(self, at: int | None = None) -> dict[str, Any]:
        url = f"/api/matches/{self.id}/state/" + (f"?at={at}" if at is not None else "")
        r = self.api.get(url)
        assert r.status_code == 200
        return r.json()

    def state(self) -> dict[str, Any]:
        return self.get()["state"]

    def player(self, seat: int) -> dict[str, Any]:
        return self.state()["players"][seat]

    def log(self) -> list[str]:
        return [line["text"] for line in self.api.get(f"/api/matches/{self.id}/events/").json()["results"]]


def test_a_two_player_game_over_two_sittings(api):
    t = Table(api, ["Ana", "Bo"])  # defaults: $7 each, Ana works for Marsh, Bo for Cope, Ana starts
    # -- round 1 ------------------------------------------------------------------------------------------
    t.ok("card_played", 0, card=team("Marsh's Team", 1))  # slot 1 ($0) + $1 → $6
    t.ok("loyalty_gained", 0, amount=2)  # Marsh's track
    t.ok("paper_published", 0, side="marsh")
    t.ok("turn_ended", 0)
    t.ok("card_played", 1, card=species("Triceratops", "bug"))  # slot 1 shows a bug: prize bonus
    assert t.player(1)["slots"][0]["prize"] is True and t.player(1)["money"] == 7
    t.ok("loyalty_gained", 1, amount=3)  # Cope's track
    t.ok("paper_published", 1, side="cope")
    t.ok("money_changed", 1, amount=2)  # the prize: $2 → $9
    t.ok("turn_ended", 1)
    t.ok("card_played", 0, card=paleontologist("Hatcher"))  # slot 2 ($1) → $5
    t.ok("paper_published", 0, side="marsh")
    t.ok("turn_ended", 0)
    t.ok("passed", 1, patron="marsh")  # version 13: Bo returns to Marsh's university
    t.no("already_passed", OVERVIEW, "card_played", 1, card=team("Late"))
    t.ok("card_played", 0, card=team("Big Dig", 2))  # slot 3 ($1) + $2 → $2
    t.ok("species_archived", 0, name="Stegosaurus")
    t.ok("turn_ended", 0)  # Bo has passed: Ana plays again
    assert t.get()["turn"]["seats"] == [0]
    t.ok("passed", 0, patron="cope")  # version 17: round 1 ends
    s = t.state()
    assert s["round"] == 2 and s["turn"] == 0 and s["scorings"] == []
    turn = t.get()["turn"]
    assert turn["prompt"] == "play a card into slot 1 ($0; a team card adds its own cost) or pass (round 2 of 4)"
    assert (
        turn["line"]
        == "Ana to play — play a card into slot 1 ($0; a team card adds its own cost) or pass (round 2 of 4)"
    )
    assert [p["money"] for p in s["players"]] == [2, 9]
    assert all(slot["card"] is None for p in s["players"] for slot in p["slots"])
    # -- round 2 ------------------------------------------------------------------------------------------
    t.ok("card_played", 0, card=team("Cope crew"))  # slot 1 ($0)
    t.ok("loyalty_gained", 0, amount=1)  # Ana now works for Cope
    t.ok("paper_published", 0, side="cope")
    t.ok("turn_ended", 0)
    t.ok("card_played", 1, card=team("Bo's team", 1))  # $0 + $1 → $8
    t.ok("loyalty_gained", 1, amount=2)  # Bo works for Marsh
    t.ok("turn_ended", 1)
    t.ok("passed", 0, patron="marsh")
    t.ok("passed", 1, patron="cope")  # version 26: round 2 ends, mid-game scoring
    # Marsh 2 papers, Cope 2. Ana: loyalty Marsh 2, Cope 1 → 2×2 + 1×2 = 6. Bo: Marsh 2, Cope 3 → 4 + 6 = 10
    s = t.state()
    [mid] = s["scorings"]
    assert mid["name"] == "mid-game" and mid["version"] == 26 and mid["credibility"] == {"marsh": 2, "cope": 2}
    assert mid["seats"] == [{"marsh": 4, "cope": 2, "gain": 6}, {"marsh": 4, "cope": 6, "gain": 10}]
    assert [p["rp"] for p in s["players"]] == [6, 10]
    t.ok("table_paused")  # version 27: packed away for the night
    t.no("nothing_to_pause", SITTINGS, "table_paused")
    # -- round 3 (the second sitting) ----------------------------------------------------------------------
    t.ok("card_played", 0, card=species("Allosaurus", "bug"))  # prize again
    t.ok("rp_gained", 0, amount=3, reason="Allosaurus prize")
    t.ok("loyalty_gained", 0, amount=2)  # Marsh: 4
    t.ok("turn_ended", 0)
    t.ok("card_played", 1, card=paleontologist("Cope himself"))
    t.ok("paper_debunked", 1, side="marsh")  # Marsh 1
    t.ok("patron_flipped", 1)  # Bo: Cope → Marsh
    t.ok("loyalty_gained", 1, amount=1)  # Bo Marsh: 3
    t.no("upgrade_cheaper", PLAYING, "slot_upgraded", 1, cost=2, icon="plant")  # right of a $3 slot
    t.ok("slot_upgraded", 1, cost=3, icon="plant")
    t.ok("turn_ended", 1)
    t.ok("passed", 0, patron="marsh")
    t.ok("passed", 1, patron="cope")  # version 39: round 3 ends, no scoring
    assert len(t.player(1)["slots"]) == 6 and t.state()["round"] == 4
    # -- round 4 ------------------------------------------------------------------------------------------
    t.ok("card_played", 0, card=team("Final dig"))
    t.ok("paper_published", 0, side="marsh")  # Marsh 2
    t.ok("species_archived", 0, name="Allosaurus")
    t.ok("turn_ended", 0)
    t.ok("card_played", 1, card=team("Bo again"))
    t.ok("paper_published", 1, side="cope")  # Cope 3
    t.ok("loyalty_gained", 1, amount=2)  # Bo works for Cope again: Cope 5
    t.ok("turn_ended", 1)
    t.ok("passed", 0, patron="marsh")
    last = t.ok("passed", 1, patron="cope")  # version 49: the final scoring ends the game
    # Marsh 2, Cope 3. Ana: Marsh 4, Cope 1 → 8 + 3 = 11. Bo: Marsh 3, Cope 5 → 6 + 15 = 21
    s = last["state"]
    final = s["scorings"][1]
    assert final["name"] == "final" and final["credibility"] == {"marsh": 2, "cope": 3}
    assert final["seats"] == [{"marsh": 8, "cope": 3, "gain": 11}, {"marsh": 6, "cope": 15, "gain": 21}]
    assert [p["rp"] for p in s["players"]] == [6 + 3 + 11, 10 + 21]
    assert last["outcome"] == {
        "winners": [1], "draw": False, "reason": "most RP (31)", "scores": {"0": 20, "1": 31}, "provisional": True,
    }  # fmt: skip
    assert api.get(f"/api/matches/{t.id}/").json()["status"] == "in_progress"  # awards may still come
    t.no("game_over", AWARDS, "card_played", 0, card=team("After"))
    last = t.ok("game_concluded")
    assert last["outcome"]["provisional"] is False
    assert api.get(f"/api/matches/{t.id}/").json()["status"] == "finished"
    assert t.get()["turn"]["line"] == "Bo wins with 31 RP (most RP)."
    body = t.no("game_over", AWARDS, "card_played", 0, card=team("After"))
    assert body["detail"].startswith("The game is over: Bo won with 31 RP (most RP).")
    t.ok("cranial_circumference_recorded", 0, cm=57.5)  # still allowed: a tie-break
    # -- the two sittings ---------------------------------------------------------------------------------
    first, second = t.state()["sittings"]
    assert first == {"number": 1, "from_version": 1, "to_version": 27, "rounds": [1, 2], "rp": [6, 10], "paused": True}
    assert second == {
        "number": 2, "from_version": 28, "to_version": 51, "rounds": [3, 4], "rp": [14, 21], "paused": False,
    }  # fmt: skip
    at_pause = t.get(at=27)["state"]
    assert at_pause["sittings"] == [first] and at_pause["round"] == 3
    # -- the history names the players, the slots, the prices and the prize -------------------------------
    log = t.log()
    assert log[0] == "Ana played Marsh's Team into slot 1 (cost 0+1)"
    assert log[4] == "Bo played Triceratops into slot 1 (cost 0+0): prize bonus"
    assert log[13] == "Ana played Big Dig into slot 3 (cost 1+2)"
    assert log[26] == "The table paused: end of the sitting"


def test_a_four_player_game(api):
    t = Table(api, ["Ana", "Bo", "Cy", "Di"], first_seat=2, patrons=["marsh", "marsh", "cope", "cope"],
              starting_money=3, shelves=2)  # fmt: skip
    # -- round 1: Cy starts --------------------------------------------------------------------------------
    assert t.no("not_your_turn", OVERVIEW, "card_played", 0, card=team("Eager"))["detail"] == "It is Cy's turn."
    t.ok("card_played", 2, card=team("Cy's team"))
    t.ok("loyalty_gained", 2, amount=2)  # Cy: Cope 2
    t.ok("paper_published", 2, side="cope")
    t.ok("turn_ended", 2)
    t.ok("card_played", 3, card=species("Rex", "bug"))
    t.ok("paper_published", 3, side="cope")  # Cope's side is full (2 shelves)
    t.no("shelf_full", LOYALTY, "paper_published", 3, side="cope")
    t.ok("loyalty_gained", 3, amount=1)  # Di: Cope 1
    t.ok("turn_ended", 3)
    t.ok("card_played", 0, card=team("Ana's big team", 3))  # $0 + $3: Ana has $0 left
    t.ok("loyalty_gained", 0, amount=3)  # Ana: Marsh 3
    t.ok("paper_published", 0, side="marsh")
    t.ok("turn_ended", 0)
    t.ok("passed", 1, patron="cope")
    t.ok("passed", 2, patron="marsh")
    t.ok("passed", 3, patron="cope")
    t.no("not_enough_money", PLAYING, "card_played", 0, card=team("Broke"))  # slot 2 costs $1
    t.ok("passed", 0, patron="marsh")
    assert t.state()["round"] == 2 and t.get()["turn"]["seats"] == [2]
    # -- round 2 ------------------------------------------------------------------------------------------
    t.ok("card_played", 2, card=paleontologist("Lakes"))
    t.ok("loyalty_gained", 2, amount=1)  # Cy works for Marsh now: Marsh 1
    t.ok("turn_ended", 2)
    t.ok("card_played", 3, card=team("Di's team"))
    t.ok("paper_debunked", 3, side="cope")  # Cope 1
    t.ok("turn_ended", 3)
    t.ok("passed", 0, patron="marsh")
    t.ok("card_played", 1, card=team("Bo's team"))
    t.ok("loyalty_gained", 1, amount=4)  # Bo works for Cope: Cope 4
    t.ok("turn_ended", 1)
    t.ok("passed", 2, patron="cope")
    t.ok("passed", 3, patron="cope")
    t.ok("passed", 1, patron="cope")  # round 2 ends: mid-game scoring
    # Marsh 1, Cope 1. Ana 3×1 + 0 = 3; Bo 0 + 4×1 = 4; Cy 1×1 + 2×1 = 3; Di 0 + 1×1 = 1
    [mid] = t.state()["scorings"]
    assert [s["gain"] for s in mid["seats"]] == [3, 4, 3, 1]
    assert mid["seats"][2] == {"marsh": 1, "cope": 2, "gain": 3}
    # -- round 3: everybody passes -------------------------------------------------------------------------
    for seat in (2, 3, 0, 1):
        t.ok("passed", seat, patron=t.player(seat)["patron"])
    # -- round 4 ------------------------------------------------------------------------------------------
    t.ok("card_played", 2, card=team("Cy's last"))
    t.ok("paper_published", 2, side="marsh")  # Marsh 2
    t.ok("rp_gained", 2, amount=2, reason="award")
    t.ok("turn_ended", 2)
    t.ok("card_played", 3, card=team("Di's last"))
    t.ok("species_archived", 3, name="Rex")
    t.ok("turn_ended", 3)
    t.ok("card_played", 0, card=team("Ana's last"))  # slot 1 costs $0: Ana can play with $0
    t.ok("species_archived", 0, name="Dryptosaurus")
    t.ok("turn_ended", 0)
    for seat in (1, 2, 3):
        t.ok("passed", seat, patron=t.player(seat)["patron"])
    last = t.ok("passed", 0, patron="marsh")
    # Marsh 2, Cope 1. Ana 3×2 = 6; Bo 4×1 = 4; Cy 1×2 + 2×1 = 4; Di 1×1 = 1
    final = last["state"]["scorings"][1]
    assert [s["gain"] for s in final["seats"]] == [6, 4, 4, 1]
    assert [p["rp"] for p in last["state"]["players"]] == [9, 8, 9, 2]
    # Ana and Cy tie on 9 RP; Ana has a species in her archive, Cy none
    assert last["outcome"] == {
        "winners": [0],
        "draw": False,
        "reason": "tied on 9 RP; most species in the archive (1)",
        "scores": {"0": 9, "1": 8, "2": 9, "3": 2},
        "provisional": True,
    }


@pytest.fixture
def two(api) -> Table:
    return Table(api, ["Ana", "Bo"], starting_money=2)


def test_refusals_before_a_card(two):
    for effect, data in [("money_changed", {"amount": 1}), ("loyalty_gained", {"amount": 1}),
                         ("paper_published", {"side": "marsh"}), ("patron_flipped", {}),
                         ("species_archived", {"name": "Rex"}), ("slot_upgraded", {"cost": 1, "icon": "bug"}),
                         ("rp_gained", {"amount": 1, "reason": "x"})]:  # fmt: skip
        two.no("card_not_played", PLAYING, effect, 0, **data)
    two.no("card_not_played", PLAYING, "turn_ended", 0)
    two.no("not_your_turn", OVERVIEW, "passed", 1, patron="cope")
    body = two.no("card_has_no_cost", PLAYING, "card_played", 0, card={**species("Rex", "bug"), "cost": 1})
    assert "species card has no cost of its own" in body["detail"]
    two.no("card_has_no_cost", PLAYING, "card_played", 0, card={**paleontologist("Cope"), "cost": 2})
    two.no("minor_find_required", CARDS, "card_played", 0, card={"kind": "species", "name": "Rex"})
    two.no("minor_find_not_species", CARDS, "card_played", 0, card={**team("T"), "minor_find": "bug"})
    body = two.no("not_enough_money", PLAYING, "card_played", 0, card=team("Pricey", 3))
    assert body["detail"] == "Slot 1 costs $0 plus $3 for the card: $3, but Ana has $2."


def test_refusals_after_a_card(two):
    two.ok("card_played", 0, card=team("T"))
    two.no("card_already_played", PLAYING, "card_played", 0, card=team("Again"))
    two.no("card_already_played", OVERVIEW, "passed", 0, patron="marsh")
    two.no("not_your_turn", OVERVIEW, "paper_published", 1, side="cope")
    two.no("shelf_empty", LOYALTY, "paper_debunked", 0, side="cope")
    two.no("money_below_zero", ENTRIES, "money_changed", 0, amount=-3)
    two.no("zero_amount", ENTRIES, "money_changed", 0, amount=0)
    two.no("rp_below_zero", ENTRIES, "rp_gained", 0, amount=-1, reason="penalty")
    two.no("invalid_circumference", "Bone Wars › Overview › Ties", "cranial_circumference_recorded", 1, cm=0)
    body = two.no("not_your_turn", OVERVIEW, "card_played", 1, card=team("Eager"))
    assert body["detail"] == "It is Ana's turn, and the action is not finished: record its effects, then end the turn."


def test_no_empty_slot(api):
    t = Table(api, ["Ana"], starting_money=20)
    for n in range(5):
        t.ok("card_played", 0, card=team(f"Team {n}"))
        t.ok("turn_ended", 0)
    body = t.no("no_empty_slot", PLAYING, "card_played", 0, card=team("Sixth"))
    assert "must pass" in body["detail"]
    assert t.player(0)["money"] == 20 - 7


def test_malformed_entries_are_invalid_and_write_nothing(two):
    for type_, seat, data, field in [
        ("card_played", 0, {"card": {"kind": "fossil", "name": "X"}}, "data.card.kind"),
        ("card_played", 0, {"card": {"kind": "team", "name": "X", "cost": 4}}, "data.card.cost"),
        ("loyalty_gained", 0, {"amount": 0}, "data.amount"),
        ("paper_published", 0, {"side": "leidy"}, "data.side"),
        ("cranial_circumference_recorded", 0, {"cm": "big"}, "data.cm"),
        ("passed", None, {"patron": "marsh"}, "seat"),
    ]:
        r = two.post(type_, seat, data)
        assert r.status_code == 400 and r.json()["code"] == "invalid" and field in r.json()["errors"], r.json()
    assert EventRow.objects.count() == 0


def test_options_must_fit_the_seats(api):
    for options, message in [
        ({"first_seat": 2}, "first_seat must be a seat of this match (0 to 1); got 2."),
        ({"patrons": ["cope"]}, "patrons needs one patron per seat (2); got 1."),
        ({"slots": [{"cost": c, "icon": "bug"} for c in (3, 2, 1, 0, 0)]}, "Slot costs rise to the right"),
    ]:
        r = api.post("/api/matches/", {"game": "bone-wars", "seats": [{"name": "A"}, {"name": "B"}],
                                       "options": options}, format="json")  # fmt: skip
        assert r.status_code == 400 and r.json()["code"] == "invalid"
        assert r.json()["errors"]["options"][0].startswith(message)


def test_legal_moves_over_the_api(two):
    moves = two.api.get(f"/api/matches/{two.id}/legal-moves/").json()
    assert sorted((m["type"], m["data"].get("patron")) for m in moves) == [("passed", "cope"), ("passed", "marsh")]
    for move in moves[:1]:
        two.ok(move["type"], move["seat"], **move["data"])


def test_voiding_a_pause_joins_the_two_sittings(two):
    two.ok("card_played", 0, card=team("T"))
    two.ok("turn_ended", 0)
    two.ok("table_paused")
    two.ok("card_played", 1, card=team("U"))
    assert [(s["from_version"], s["to_version"]) for s in two.state()["sittings"]] == [(1, 3), (4, 4)]
    two.ok("event_voided", None, version=3, reason="we kept playing")
    assert [(s["from_version"], s["to_version"], s["paused"]) for s in two.state()["sittings"]] == [(1, 4, False)]


def test_a_limit_the_rulebook_sets_is_refused_naming_the_rule(two):
    """Issue 22 item 9: "$0 to $3", loyalty ≥ 1 and the two patrons are rulebook lines: the answer names the
    rule in plain words beside the field errors; other malformed data is explained by the fields' labels."""
    two.ok("card_played", 0, card=team("T"))
    for type_, data, rule, words in [
        ("card_upgraded", {"slot": 1, "card": team("Dear", 4)}, PLAYING, "A card's own cost is $0 to $3"),
        ("slot_upgraded", {"cost": 4, "icon": "bug"}, PLAYING, "An action slot costs $0 to $3"),
        ("loyalty_gained", {"amount": 0}, LOYALTY, "Loyalty is gained, never lost"),
        ("paper_published", {"side": "leidy"}, LOYALTY, "The bookshelf has two sides"),
    ]:
        r = two.post(type_, 0, data)
        body = r.json()
        assert r.status_code == 400 and body["code"] == "invalid" and body["rule"] == rule, body
        assert body["detail"].startswith(words) and "Must be" not in body["detail"], body
        assert body["errors"]
    r = two.post("species_archived", 0, {})
    assert r.json()["detail"] == "This entry does not fit: Species: this field is required."
    assert "rule" not in r.json()
    assert EventRow.objects.count() == 1


def test_an_overridden_rp_loss_is_recorded_as_the_table_said(two):
    """Issue 22 item 6: +2 then an overridden −5 gives −3, never a quiet 0."""
    two.ok("card_played", 0, card=team("T"))
    two.ok("rp_gained", 0, amount=2, reason="bonus")
    two.ok("rule_overridden", None, reason="house rule: RP may go negative")
    assert two.ok("rp_gained", 0, amount=-5, reason="penalty")["state"]["players"][0]["rp"] == -3


def test_a_card_already_in_a_slot_is_upgraded(two):
    """Issue 22 item 5 (the rulebook's FAQ): the slot keeps the new card, its own cost is paid."""
    two.ok("card_played", 0, card=team("Basic Team"))
    body = two.ok("card_upgraded", 0, slot=1, card=team("Advanced Team", 2))
    assert body["state"]["players"][0]["slots"][0]["card"]["name"] == "Advanced Team"
    assert body["state"]["players"][0]["money"] == 0
    assert two.log()[-1] == "Ana upgraded Basic Team to Advanced Team in slot 1 (cost 2)"


def test_options_outside_a_rulebook_limit_name_the_rule(api):
    """Issue 22 item 9: a slot costing $4 or a third patron in the options is refused naming the rule."""
    for options, rule, words in [
        ({"slots": [{"cost": c, "icon": "bug"} for c in (0, 1, 1, 2, 4)]}, PLAYING, "An action slot costs $0 to $3"),
        ({"patrons": ["marsh", "leidy"]}, LOYALTY, "The patrons are Othniel Marsh and Edward Cope"),
    ]:
        r = api.post("/api/matches/", {"game": "bone-wars", "seats": [{"name": "A"}, {"name": "B"}],
                                       "options": options}, format="json")  # fmt: skip
        body = r.json()
        assert r.status_code == 400 and body["code"] == "invalid" and body["rule"] == rule, body
        assert body["detail"].startswith(words) and body["errors"], body


def test_after_an_overridden_debt_a_gain_is_accepted_and_a_payment_is_not(api):
    """Issue 32, item 3: $0, a card, an overridden −$3, then +$1 was refused ("paying $-1")."""
    t = Table(api, ["Ana"], starting_money=0)
    t.ok("card_played", 0, card=team("T"))
    t.ok("rule_overridden", None, reason="house rule: debts")
    assert t.ok("money_changed", 0, amount=-3)["state"]["players"][0]["money"] == -3
    assert t.ok("money_changed", 0, amount=1)["state"]["players"][0]["money"] == -2
    body = t.no("money_below_zero", ENTRIES, "money_changed", 0, amount=-1)
    assert body["detail"] == (
        "Ana owes $2 (a debt recorded under an override): paying $1 needs the money; a gain can be recorded."
    )
    t.ok("turn_ended", 0)
    t.ok("passed", 0, patron="marsh")  # round 2: a $0 card into the $0 slot pays nothing
    assert t.ok("card_played", 0, card=team("Free"))["state"]["players"][0]["money"] == -2


def test_an_overridden_card_onto_a_full_board_is_unplayable(api):
    """Issue 32, item 4: no sixth slot is made up; the card is not written. Issue 46, item 3: the house rule
    that could not place it is spent (withdrawn by a void in the same request), the only entry written."""
    t = Table(api, ["Ana"], starting_money=20)
    for n in range(5):
        t.ok("card_played", 0, card=team(f"Team {n}"))
        t.ok("turn_ended", 0)
    t.ok("rule_overridden", None, reason="one more")
    before = t.get()
    count = EventRow.objects.count()
    r = t.post("card_played", 0, {"card": team("Sixth")})
    assert r.status_code == 400, r.content
    body = r.json()
    assert body["code"] == "rule_violation" and body["violation"] == "unplayable", body
    assert body["rule"] == "Chronicle › Corrections" and body["detail"], body
    assert not re.search(r"\b[Ss]eat \d", body["detail"]), "refusals name the player, not the seat"
    assert "every action slot of Ana already holds a card this round" in body["detail"]
    assert EventRow.objects.count() == count + 1  # the withdrawal of the house rule, not the card
    assert EventRow.objects.order_by("-position").values_list("type", flat=True).first() == "event_voided"
    assert t.get()["state"] == before["state"] and t.get()["version"] == before["version"] + 1
    assert len(t.player(0)["slots"]) == 5 and t.player(0)["money"] == 13


def test_a_pause_before_the_awards_gives_them_to_the_next_sitting(api):
    """Issue 32, item 5: ``table_paused`` after the last pass; the awards are counted at the next sitting."""
    t = Table(api, ["Ana", "Bo"])
    for _ in range(4):
        t.ok("passed", 0, patron="marsh")
        t.ok("passed", 1, patron="cope")
    t.ok("table_paused")  # version 9
    t.no("nothing_to_pause", SITTINGS, "table_paused")
    assert api.get(f"/api/matches/{t.id}/").json()["status"] == "in_progress"
    assert [m["type"] for m in api.get(f"/api/matches/{t.id}/legal-moves/").json()] == ["game_concluded"]
    t.ok("rp_gained", 1, amount=3, reason="discoverer award")
    t.ok("game_concluded")
    assert api.get(f"/api/matches/{t.id}/").json()["status"] == "finished"
    first, second = t.state()["sittings"]
    assert first == {"number": 1, "from_version": 1, "to_version": 9, "rounds": [1, 2, 3, 4], "rp": [0, 0],
                     "paused": True}  # fmt: skip
    assert second == {"number": 2, "from_version": 10, "to_version": 11, "rounds": [], "rp": [0, 3],
                      "paused": False}  # fmt: skip
