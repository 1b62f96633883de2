"""Bone Wars' reducer: the state, its helpers, one effect per entry type, and what follows every entry.

The state is public (no hidden cards are tracked: hands stay at the table). The end of a round (every seat
passed) empties the slots, scores rounds 2 and 4 and, after round 4, finishes the game; every entry is
counted in the sitting it is recorded in (``settle``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from rulesets.base import Event, State
from rulesets.bone_wars.fields import (
    CARD_PLAYED,
    CARD_UPGRADED,
    CRANIUM_RECORDED,
    DEFAULT_SHELVES,
    DEFAULT_SLOTS,
    DEFAULT_STARTING_MONEY,
    GAME_CONCLUDED,
    LOYALTY_GAINED,
    MONEY_CHANGED,
    PAPER_DEBUNKED,
    PAPER_PUBLISHED,
    PASSED,
    PATRON_FLIPPED,
    PATRON_NAMES,
    ROUNDS,
    RP_GAINED,
    SCORING_ROUNDS,
    SIDES,
    SLOT_UPGRADED,
    SPECIES_ARCHIVED,
    TABLE_PAUSED,
    TURN_ENDED,
)
from rulesets.versions import recorded_before

# the frame's note, on the clone, of what the state held before the entry (its round and every seat's RP):
# read and dropped by ``settle`` to count the entry in its sitting; never part of a state that is kept
BEFORE_KEY = "_before"


# -- words -----------------------------------------------------------------------------------------------
def seat_label(seat: int) -> str:
    """How messages and prompts name a seat (pages put the player's name in its place)."""
    return f"Seat {seat}"


def money_text(amount: int) -> str:
    """An amount of money as players read it: ``$3``, ``$0``, a debt ``−$2`` (a minus sign, never ``$-2``)."""
    return f"${amount}" if amount >= 0 else f"\u2212${-amount}"


def rp_text(amount: int) -> str:
    """A number of RP as players read it: ``3 RP``, below 0 (only after an override) ``−3 RP``."""
    return f"{amount} RP" if amount >= 0 else f"\u2212{-amount} RP"


def together(labels: Iterable[str]) -> str:
    """Names joined as a sentence does: "Seat 0", "Seat 0 and Seat 1", "Seat 0, Seat 1 and Seat 2"."""
    items = list(labels)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


# -- the state -------------------------------------------------------------------------------------------
def default_patrons(seat_count: int) -> list[str]:
    """Marsh, Cope, Marsh, … in seat order."""
    return [SIDES[i % 2] for i in range(seat_count)]


def empty_slot(slot: dict[str, Any]) -> dict[str, Any]:
    """A board slot as the state keeps it: its cost and icon, no card, no prize."""
    return {"cost": slot["cost"], "icon": slot["icon"], "card": None, "prize": False}


def new_state(options: dict[str, Any], seat_count: int, first: int) -> State:
    """Round 1, ``first`` to play (seat 0 when it is not a seat of the match), every seat with the starting
    money and patron, empty boards."""
    patrons = options.get("patrons") or []
    patrons = [*patrons[:seat_count], *default_patrons(seat_count)[len(patrons) :]]
    slots = options.get("slots") or DEFAULT_SLOTS
    money = options.get("starting_money")
    return {
        "round": 1,
        "finished": False,
        "concluded": False,
        "first_seat": first if 0 <= first < seat_count else 0,
        "turn": first if 0 <= first < seat_count else 0,
        "card_played": False,
        "shelves": options.get("shelves") or DEFAULT_SHELVES,
        "credibility": {side: 0 for side in SIDES},
        "players": [
            {
                "money": DEFAULT_STARTING_MONEY if money is None else money,
                "patron": patrons[seat],
                "loyalty": {side: 0 for side in SIDES},
                "rp": 0,
                "archive": [],
                "slots": [empty_slot(s) for s in slots],
                "passed": False,
                "cranial_circumference": None,
            }
            for seat in range(seat_count)
        ],
        "scorings": [],
        "sittings": [],
    }


def next_slot(player: dict[str, Any]) -> int | None:
    """Index of the seat's leftmost empty action slot, None when every slot holds a card."""
    return next((i for i, s in enumerate(player["slots"]) if s["card"] is None), None)


def products(player: dict[str, Any], credibility: dict[str, int]) -> dict[str, int]:
    """What a scoring now would give the seat: loyalty × credibility per side, and their sum ``gain``."""
    out = {side: player["loyalty"][side] * credibility[side] for side in SIDES}
    out["gain"] = out["marsh"] + out["cope"]
    return out


def current_sitting(state: State) -> dict[str, Any] | None:
    """The sitting being played (None before the first entry and after a pause)."""
    sittings = state["sittings"]
    return sittings[-1] if sittings and not sittings[-1]["paused"] else None


def paused_words(state: State) -> str:
    """ "; the table paused at the end of sitting 1: the next move opens sitting 2" while the last sitting is
    paused, "" otherwise."""
    sittings = state["sittings"]
    if not sittings or not sittings[-1]["paused"]:
        return ""
    n = sittings[-1]["number"]
    return f"; the table paused at the end of sitting {n}: the next move opens sitting {n + 1}"


def standing(state: State) -> tuple[tuple[int, ...], str, str]:
    """Who is ahead of a finished game: ``(winners, reason, decided)``. ``reason`` is the outcome's ("most RP
    (12)"), ``decided`` what settled it in a few words for the winner's line ("most RP")."""
    players = state["players"]
    scores = {seat: p["rp"] for seat, p in enumerate(players)}
    best = max(scores.values())
    tied = [s for s, rp in scores.items() if rp == best]
    if len(tied) == 1:
        return (tied[0],), f"most RP ({best})", "most RP"
    species = {s: len(players[s]["archive"]) for s in tied}
    most = max(species.values())
    level = [s for s in tied if species[s] == most]
    if len(level) == 1:
        reason = f"tied on {best} RP; most species in the archive ({most})"
        return (level[0],), reason, f"tied on RP; most species in the archive: {most}"
    sizes = {s: players[s]["cranial_circumference"] for s in level}
    if any(v is None for v in sizes.values()):
        reason = (
            f"tied on {best} RP and {most} archived species; a cranial circumference is missing, "
            "so the tied players win together"
        )
        return tuple(level), reason, "tied on RP and species; a cranial circumference is missing"
    largest = max(v for v in sizes.values() if v is not None)
    heads = [s for s in level if sizes[s] == largest]
    if len(heads) == 1:
        reason = f"tied on {best} RP and {most} archived species; largest cranial circumference ({largest:g} cm)"
        return (heads[0],), reason, f"tied on RP and species; largest cranial circumference: {largest:g} cm"
    reason = f"tied on {best} RP, {most} archived species and {largest:g} cm: the tied players win together"
    return tuple(heads), reason, "tied on RP, species and cranial circumference"


def circumference_counts(state: State) -> bool:
    """Whether a cranial circumference recorded now could change who wins: the seats ahead are level on RP
    and on archived species."""
    players = state["players"]
    best = max(p["rp"] for p in players)
    tied = [p for p in players if p["rp"] == best]
    most = max(len(p["archive"]) for p in tied)
    return sum(1 for p in tied if len(p["archive"]) == most) > 1


def entry_version(state: State, event: Event) -> int:
    """The stream version ``event`` is recorded at; played by hand (tests, ``version`` None), entries are
    numbered one after another from the sittings of ``state``."""
    if event.version is not None:
        return event.version
    return state["sittings"][-1]["to_version"] + 1 if state["sittings"] else 1


def _floor(state: State, n: int) -> int:
    """A number as an overridden entry leaves it: as recorded, below 0 too; version 1 (a match recorded under
    it) clamped it at 0."""
    return max(0, n) if recorded_before(state, 2) else n


def _player(new: State, event: Event) -> dict[str, Any] | None:
    """The acting seat's part of the state, None when the entry names no seat of the match."""
    seat = event.seat
    players = new["players"]
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else None


def _pass_turn(state: State, seat: int) -> None:
    """The next seat in order (by seat index, wrapping) that has not passed; ``seat`` itself if alone."""
    players = state["players"]
    count = len(players)
    state["card_played"] = False
    for step in range(1, count + 1):
        candidate = (seat + step) % count
        if not players[candidate]["passed"]:
            state["turn"] = candidate
            return


def _end_round(state: State, version: int) -> None:
    """Empty every slot, score rounds 2 and 4, start the next round at the first seat (or end the game)."""
    finished_round = state["round"]
    for player in state["players"]:
        player["passed"] = False
        for slot in player["slots"]:
            slot["card"] = None
            slot["prize"] = False
    if finished_round in SCORING_ROUNDS:
        cred = dict(state["credibility"])
        seats = [products(p, cred) for p in state["players"]]
        for player, got in zip(state["players"], seats, strict=True):
            player["rp"] += got["gain"]
        state["scorings"].append(
            {
                "round": finished_round,
                "name": SCORING_ROUNDS[finished_round],
                "version": version,
                "credibility": cred,
                "seats": seats,
            }
        )
    state["card_played"] = False
    if finished_round >= ROUNDS:
        state["finished"] = True
        state["turn"] = None
    else:
        state["round"] = finished_round + 1
        state["turn"] = state["first_seat"]


def _record_sitting(state: State, kind: str, version: int, round_before: int | None, rp_before: list[int]) -> None:
    """Count the entry at ``version`` in the current sitting (opening one after a pause): versions, rounds
    and RP gained per seat. ``round_before`` is None for an entry recorded after the last pass (an award, a
    pause, the confirmation, a circumference): it plays no round, but its RP count in this sitting."""
    sittings = state["sittings"]
    current = current_sitting(state)
    if current is None:
        current = {
            "number": len(sittings) + 1,
            "from_version": version,
            "to_version": version,
            "rounds": [],
            "rp": [0] * len(rp_before),
            "paused": False,
        }
        sittings.append(current)
    current["to_version"] = version
    if kind != TABLE_PAUSED and round_before is not None and round_before not in current["rounds"]:
        current["rounds"].append(round_before)
    for seat, (player, was) in enumerate(zip(state["players"], rp_before, strict=True)):
        current["rp"][seat] += player["rp"] - was
    if kind == TABLE_PAUSED:
        current["paused"] = True


# -- the frame -------------------------------------------------------------------------------------------
def clone(state: State) -> State:
    """A deep copy of ``state`` for the effects to edit, noting (``BEFORE_KEY``) the round being played (None
    after the last pass) and every seat's RP, which ``settle`` needs to count the entry in its sitting."""
    new = copy.deepcopy(state)
    new[BEFORE_KEY] = {
        "round": None if state["finished"] else state["round"],
        "rp": [p["rp"] for p in state["players"]],
    }
    return new


def settle(new: State, event: Event) -> State:
    """Count the entry in its sitting (opening one after a pause) and drop the frame's note; returns ``new``."""
    before = new.pop(BEFORE_KEY)
    _record_sitting(new, event.type, entry_version(new, event), before["round"], before["rp"])
    return new


# -- one effect per entry type ----------------------------------------------------------------------------
def play_card(new: State, event: Event) -> None:
    """The card goes into the leftmost empty slot and the slot's cost plus the card's own is paid (an override
    may leave a debt); a species whose minor find matches the slot's icon earns the prize bonus."""
    player = _player(new, event)
    if player is None:
        return
    card = dict(event.data["card"])
    card.setdefault("cost", 0)
    index = next_slot(player)
    if index is None and recorded_before(new, 3):  # versions 1-2: one more slot like the rightmost
        player["slots"].append(empty_slot(player["slots"][-1]))
        index = len(player["slots"]) - 1
    if index is None:  # only under an override: there is no slot for it (no sixth slot is made up)
        raise ValueError(f"every action slot of {seat_label(event.seat)} already holds a card this round")
    slot = player["slots"][index]
    slot["card"] = card
    slot["prize"] = card["kind"] == "species" and card.get("minor_find") == slot["icon"]
    player["money"] = _floor(new, player["money"] - slot["cost"] - card["cost"])
    new["card_played"] = True


def change_money(new: State, event: Event) -> None:
    """Money gained or paid."""
    player = _player(new, event)
    if player is not None:
        player["money"] = _floor(new, player["money"] + event.data["amount"])


def gain_loyalty(new: State, event: Event) -> None:
    """Loyalty on the current patron's track."""
    player = _player(new, event)
    if player is not None:
        player["loyalty"][player["patron"]] += event.data["amount"]


def publish_paper(new: State, event: Event) -> None:
    """One more paper on a side of the bookshelf (under an override onto a full side: unplayable; version 1
    kept it)."""
    side = event.data["side"]
    if new["credibility"][side] >= new["shelves"] and not recorded_before(new, 2):
        raise ValueError(f"{PATRON_NAMES[side]}'s side has no empty shelf for another paper")
    new["credibility"][side] += 1


def debunk_paper(new: State, event: Event) -> None:
    """One paper fewer on a side of the bookshelf (under an override from an empty side: unplayable)."""
    side = event.data["side"]
    if new["credibility"][side] <= 0 and not recorded_before(new, 2):
        raise ValueError(f"{PATRON_NAMES[side]}'s side holds no paper to debunk")
    new["credibility"][side] = _floor(new, new["credibility"][side] - 1)


def flip_patron(new: State, event: Event) -> None:
    """The seat works for the other patron."""
    player = _player(new, event)
    if player is not None:
        player["patron"] = "cope" if player["patron"] == "marsh" else "marsh"


def archive_species(new: State, event: Event) -> None:
    """A species card into the seat's archive."""
    player = _player(new, event)
    if player is not None:
        player["archive"].append(event.data["name"])


def upgrade_slot(new: State, event: Event) -> None:
    """One more action slot at the right end of the seat's board."""
    player = _player(new, event)
    if player is not None:
        player["slots"].append(empty_slot(event.data))


def upgrade_card(new: State, event: Event) -> None:
    """A card in a slot is replaced by the new one, whose own cost is paid (a missing slot or card, only
    under an override: unplayable)."""
    player = _player(new, event)
    if player is None:
        return
    data = event.data
    if data["slot"] > len(player["slots"]):
        raise ValueError(f"{seat_label(event.seat)} has {len(player['slots'])} action slots, not {data['slot']}")
    slot = player["slots"][data["slot"] - 1]
    if slot["card"] is None:
        raise ValueError(f"slot {data['slot']} holds no card to upgrade")
    card = {**data["card"], "cost": data["card"].get("cost") or 0, "upgraded_from": slot["card"]["name"]}
    slot["card"] = card
    slot["prize"] = card["kind"] == "species" and card.get("minor_find") == slot["icon"]
    player["money"] -= card["cost"]


def gain_rp(new: State, event: Event) -> None:
    """RP gained (an overridden loss below 0: as the table said it)."""
    player = _player(new, event)
    if player is not None:
        player["rp"] = _floor(new, player["rp"] + event.data["amount"])


def conclude(new: State, event: Event) -> None:
    """The table confirms the end: the awards are in."""
    new["concluded"] = True


def end_turn(new: State, event: Event) -> None:
    """The next seat in order that has not passed plays."""
    if isinstance(event.seat, int):
        _pass_turn(new, event.seat)


def pass_round(new: State, event: Event) -> None:
    """The seat is out for the round, working for the chosen patron; the last pass ends the round."""
    player = _player(new, event)
    if player is None:
        return
    player["passed"] = True
    player["patron"] = event.data["patron"]
    if all(p["passed"] for p in new["players"]):
        _end_round(new, entry_version(new, event))
    else:
        _pass_turn(new, event.seat)


def record_cranium(new: State, event: Event) -> None:
    """The seat's cranial circumference, the last tie-break."""
    player = _player(new, event)
    if player is not None:
        player["cranial_circumference"] = event.data["cm"]


def pause(new: State, event: Event) -> None:
    """Nothing in the game changes: ``settle`` closes the sitting."""


EFFECTS = {
    CARD_PLAYED: play_card,
    MONEY_CHANGED: change_money,
    LOYALTY_GAINED: gain_loyalty,
    PAPER_PUBLISHED: publish_paper,
    PAPER_DEBUNKED: debunk_paper,
    PATRON_FLIPPED: flip_patron,
    SPECIES_ARCHIVED: archive_species,
    SLOT_UPGRADED: upgrade_slot,
    CARD_UPGRADED: upgrade_card,
    RP_GAINED: gain_rp,
    GAME_CONCLUDED: conclude,
    TURN_ENDED: end_turn,
    PASSED: pass_round,
    CRANIUM_RECORDED: record_cranium,
    TABLE_PAUSED: pause,
}
