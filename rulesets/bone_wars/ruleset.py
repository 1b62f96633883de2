"""The Bone Wars ruleset: four rounds of cards played into action slots, patrons, papers and two scorings.

The state is public (no hidden cards are tracked: hands stay at the table). Each seat's turn is either a
card into its leftmost empty slot, followed by that action's effects and ``turn_ended``, or ``passed``.
When every seat has passed the round ends; rounds 2 and 4 are scored; after round 4 the game is over.
A table can pack the game away with ``table_paused``; the state keeps one entry per sitting.
After the last pass the table records the final awards (``rp_gained``, any seat) and confirms the end with
``game_concluded``; until then the outcome is provisional.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterable
from typing import Any

from rulesets.base import (
    Event,
    EventType,
    Outcome,
    Ruleset,
    RuleViolation,
    State,
    TurnInfo,
    payload_refusal,
    unknown_event,
    unknown_seat,
)
from rulesets.bone_wars.fields import (
    CARD_PLAYED,
    CARD_UPGRADED,
    CRANIUM_RECORDED,
    DEFAULT_SHELVES,
    DEFAULT_SLOTS,
    DEFAULT_STARTING_MONEY,
    EVENT_TYPES,
    GAME_CONCLUDED,
    ICONS,
    LOYALTY_GAINED,
    MONEY_CHANGED,
    OPTIONS_SCHEMA,
    PAPER_DEBUNKED,
    PAPER_PUBLISHED,
    PASSED,
    PATRON_FLIPPED,
    PATRON_NAMES,
    ROUNDS,
    RP_GAINED,
    RULE_AWARDS,
    RULE_CARDS,
    RULE_ENTRIES,
    RULE_LOYALTY,
    RULE_OVERVIEW,
    RULE_PLAYING,
    RULE_SITTINGS,
    RULE_TIES,
    RULE_VERSIONS,
    SCORING_ROUNDS,
    SIDES,
    SLOT_UPGRADED,
    SPECIES_ARCHIVED,
    TABLE_PAUSED,
    TURN_ENDED,
)
from rulesets.schema import SchemaError, check_payload
from rulesets.versions import recorded_before

SWITCHES_PER_GAME = "patron switches per game"
SWITCHES_PER_PLAYER = "patron switches per player"


def seat_label(seat: int) -> str:
    """How messages and prompts name a seat (pages put the player's name in its place)."""
    return f"Seat {seat}"


def default_patrons(seat_count: int) -> list[str]:
    """Marsh, Cope, Marsh, … in seat order."""
    return [SIDES[i % 2] for i in range(seat_count)]


def empty_slot(slot: dict[str, Any]) -> dict[str, Any]:
    """A board slot as the state keeps it: its cost and icon, no card, no prize."""
    return {"cost": slot["cost"], "icon": slot["icon"], "card": None, "prize": False}


def _as_recorded(n: int) -> int:
    return n


def _at_least_zero(n: int) -> int:
    return max(0, n)


def next_slot(player: dict[str, Any]) -> int | None:
    """Index of the seat's leftmost empty action slot, None when every slot holds a card."""
    return next((i for i, s in enumerate(player["slots"]) if s["card"] is None), None)


def products(player: dict[str, Any], credibility: dict[str, int]) -> dict[str, int]:
    """What a scoring now would give the seat: loyalty × credibility per side, and their sum ``gain``."""
    out = {side: player["loyalty"][side] * credibility[side] for side in SIDES}
    out["gain"] = out["marsh"] + out["cope"]
    return out


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


def _holds(seat: int, money: int) -> str:
    """What a seat holds, as a refusal says it: "Seat 0 has $3", after an overridden debt "Seat 0 owes $2"."""
    return f"{seat_label(seat)} has ${money}" if money >= 0 else f"{seat_label(seat)} owes ${-money}"


def _check_rp(state: State, seat: int, amount: int) -> None:
    """An RP entry changes something and a loss never takes a seat below 0 (Chronicle's own check: the
    rulebook has no line on RP below 0; an override records the loss as the table says it). A gain is always
    accepted, even by a seat an override left below 0: it takes nothing away."""
    if amount == 0:
        raise RuleViolation("zero_amount", "Gaining 0 RP changes nothing.", RULE_ENTRIES)
    rp = state["players"][seat]["rp"]
    if amount < 0 and rp + amount < 0:
        raise RuleViolation(
            "rp_below_zero",
            f"{seat_label(seat)} has {rp_text(rp)}; losing {-amount} would go below 0."
            if rp >= 0
            else f"{seat_label(seat)} has {rp_text(rp)} (below 0 after an override); a loss of {-amount} "
            "cannot be recorded, a gain can.",
            RULE_ENTRIES,
        )


def _paused_words(state: State) -> str:
    """ "; the table paused at the end of sitting 1: the next move opens sitting 2" while the last sitting is
    paused, "" otherwise."""
    sittings = state["sittings"]
    if not sittings or not sittings[-1]["paused"]:
        return ""
    n = sittings[-1]["number"]
    return f"; the table paused at the end of sitting {n}: the next move opens sitting {n + 1}"


def _current_sitting(state: State) -> dict[str, Any] | None:
    sittings = state["sittings"]
    return sittings[-1] if sittings and not sittings[-1]["paused"] else None


class BoneWars(Ruleset):
    slug = "bone-wars"
    name = "Bone Wars"
    seats = (1, 2, 3, 4)
    version = 3  # 3: gains and $0 prices in debt, no made-up slot, a pause before the awards (issue 32)
    # 2: awards after the last pass (``concluded``), card upgrades, no clamped numbers
    # kept by version for matches recorded under it (docs/rules/bone-wars.md › Rule versions): version 1's
    # last pass ends the game (no awards, a final result), its overridden numbers stop at 0 and its upgraded
    # slots take any cost; versions 1-2 add a slot for an overridden card played onto a full board
    rule_changes = {
        2: "the result would be withheld until the awards are confirmed; a number a house rule took below 0 would "
        "stay below 0; an upgraded slot cheaper than the one to its left would be refused",
        3: "an action card played under a house rule onto a full board would be refused",
    }
    provisional_words = "the result would be withheld until the awards are confirmed"
    rulebook = "bone-wars.txt"
    describe_uses_state = True
    start_option = "first_seat"
    start_rule = "Bone Wars › Overview: players act “in player order”; the rulebook leaves who begins to the table."
    options_schema = OPTIONS_SCHEMA
    event_types: dict[str, EventType] = EVENT_TYPES

    # -- setup -------------------------------------------------------------------------------------
    def check_options(self, options: dict[str, Any]) -> list[str]:
        """The slot costs must rise (or stay level) from left to right, as on the printed board."""
        slots = options.get("slots") or []
        costs = [s.get("cost") for s in slots if isinstance(s, dict)]
        if any(isinstance(a, int) and isinstance(b, int) and b < a for a, b in itertools.pairwise(costs)):
            return ["Slot costs rise to the right: each slot costs at least as much as the one to its left."]
        return []

    def check_setup(self, options: dict[str, Any], seat_count: int) -> list[str]:
        """``first_seat`` must be a seat of the match and ``patrons`` must name one patron per seat."""
        problems = []
        first = self.start_seat(options)
        if not 0 <= first < seat_count:
            problems.append(f"first_seat must be a seat of this match (0 to {seat_count - 1}); got {first}.")
        patrons = options.get("patrons")
        if patrons is not None and len(patrons) != seat_count:
            problems.append(f"patrons needs one patron per seat ({seat_count}); got {len(patrons)}.")
        return problems

    def start_with(self, state: State, seat: int) -> State:
        """``seat`` is the first player: it plays first in every round."""
        if not 0 <= seat < len(state["players"]):
            raise RuleViolation("unknown_seat", f"This match has no seat {seat}.", RULE_OVERVIEW)
        return {**state, "first_seat": seat, "turn": seat}

    def initial_state(self, options: dict[str, Any], seat_count: int = 2) -> State:
        """Round 1, the first seat to play, every seat with the starting money and patron, empty boards."""
        patrons = options.get("patrons") or []
        patrons = [*patrons[:seat_count], *default_patrons(seat_count)[len(patrons) :]]
        slots = options.get("slots") or DEFAULT_SLOTS
        money = options.get("starting_money")
        first = self.start_seat(options)
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

    # -- the rules ---------------------------------------------------------------------------------
    def validate(self, state: State, event: Event) -> None:
        """Raise RuleViolation unless ``event`` may be recorded now (game over → turn → the move)."""
        spec = self.event_types.get(event.type)
        if spec is None:
            raise unknown_event(self.name, event.type)
        try:
            data = check_payload(spec.fields, event.data)
        except SchemaError as exc:
            raise payload_refusal(spec.fields, event.data, exc) from None
        players = state["players"]
        seat = event.seat
        if spec.seat_required and not (
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players)
        ):
            raise unknown_seat(seat, len(players))
        if event.type == CRANIUM_RECORDED:
            if data["cm"] <= 0:
                raise RuleViolation(
                    "invalid_circumference", "A cranial circumference is a length above 0 cm.", RULE_TIES
                )
            return  # at any time, even after the game: it only breaks ties
        if state["finished"]:
            self._check_after_last_pass(state, event, data)
            return
        if event.type == GAME_CONCLUDED:
            raise RuleViolation(
                "game_not_over",
                f"The game lasts 4 rounds: round {state['round']} is still being played.",
                RULE_OVERVIEW,
            )
        if event.type == TABLE_PAUSED:
            if _current_sitting(state) is None:
                raise RuleViolation(
                    "nothing_to_pause",
                    "Nothing has been recorded since the table last paused (or since the start).",
                    RULE_SITTINGS,
                )
            return
        assert isinstance(seat, int)
        who = seat_label(seat)
        if players[seat]["passed"]:
            raise RuleViolation(
                "already_passed",
                f"{who} has passed and is out until round {state['round']} ends.",
                RULE_OVERVIEW,
            )
        if seat != state["turn"]:
            on_turn = seat_label(state["turn"])
            if state["card_played"]:  # the commonest slip at a table: the turn was never ended
                message = (
                    f"It is {on_turn}'s turn, and the action is not finished: record its effects, then end the turn."
                )
            else:
                message = f"It is {on_turn}'s turn."
            raise RuleViolation("not_your_turn", message, RULE_OVERVIEW)
        getattr(self, "_check_" + event.type)(state, seat, data)

    @staticmethod
    def _check_after_last_pass(state: State, event: Event, data: dict[str, Any]) -> None:
        """After the final scoring: awards (``rp_gained``, any seat), a pause and ``game_concluded`` until the
        table confirms the end; nothing at all once it has (a circumference is checked before this). Under
        version 1 (a match recorded under it) the last pass ended the game: nothing at all."""
        old_rules = recorded_before(state, 2)
        if old_rules or state.get("concluded", False):
            winners, _, decided = _standing(state)
            rp = rp_text(state["players"][winners[0]]["rp"])
            won = "won" if len(winners) == 1 else "won together"
            why = (
                "This match keeps the rules it was recorded under (version 1), where the last pass ends the game; "
                "to record the awards, replay it under the current rules first. "
                if old_rules
                else ""
            )
            raise RuleViolation(
                "game_over",
                f"The game is over: {together(seat_label(w) for w in winners)} {won} with {rp} ({decided}). "
                f"{why}Only a cranial circumference may still be recorded.",
                RULE_VERSIONS if old_rules else RULE_AWARDS,
            )
        if event.type == GAME_CONCLUDED:
            return
        if event.type == TABLE_PAUSED:  # packed away with the awards still to count
            if _current_sitting(state) is None:
                raise RuleViolation(
                    "nothing_to_pause",
                    "Nothing has been recorded since the table last paused.",
                    RULE_SITTINGS,
                )
            return
        if event.type == RP_GAINED:
            assert isinstance(event.seat, int)
            _check_rp(state, event.seat, data["amount"])
            return
        raise RuleViolation(
            "game_over",
            "Round 4 is over: only the final awards (RP with a reason) may be recorded now, then confirm the end "
            "of the game.",
            RULE_AWARDS,
        )

    def _check_card_played(self, state: State, seat: int, data: dict[str, Any]) -> None:
        if state["card_played"]:
            raise RuleViolation(
                "card_already_played",
                f"{seat_label(seat)} has already played a card this turn: record its effects, then end the turn.",
                RULE_PLAYING,
            )
        card = data["card"]
        if card["kind"] in ("species", "paleontologist") and card["cost"]:
            raise RuleViolation(
                "card_has_no_cost",
                f"A {card['kind']} card has no cost of its own (got ${card['cost']}); only the slot is paid.",
                RULE_PLAYING,
            )
        if card["kind"] == "species" and card.get("minor_find") is None:
            raise RuleViolation(
                "minor_find_required",
                "A species card shows a minor find icon (bug, footprint, fossil, hammer or plant): name it.",
                RULE_CARDS,
            )
        if card["kind"] != "species" and card.get("minor_find") is not None:
            raise RuleViolation(
                "minor_find_not_species",
                f"Only species cards show a minor find; a {card['kind']} card has none.",
                RULE_CARDS,
            )
        player = state["players"][seat]
        index = next_slot(player)
        if index is None:
            raise RuleViolation(
                "no_empty_slot",
                f"Every action slot of {seat_label(seat)} holds a card this round: {seat_label(seat)} must pass.",
                RULE_PLAYING,
            )
        slot_cost = player["slots"][index]["cost"]
        price = slot_cost + card["cost"]
        if price > 0 and price > player["money"]:  # a $0 price pays nothing: a debt does not stop it
            raise RuleViolation(
                "not_enough_money",
                f"Slot {index + 1} costs ${slot_cost} plus ${card['cost']} for the card: ${price}, "
                f"but {_holds(seat, player['money'])}.",
                RULE_PLAYING,
            )

    @staticmethod
    def _check_after_card(state: State, seat: int, what: str) -> None:
        if not state["card_played"]:
            raise RuleViolation(
                "card_not_played",
                f"{seat_label(seat)} must play a card before {what}.",
                RULE_PLAYING,
            )

    def _check_money_changed(self, state: State, seat: int, data: dict[str, Any]) -> None:
        self._check_after_card(state, seat, "the action changes money")
        amount = data["amount"]
        if amount == 0:
            raise RuleViolation("zero_amount", "A money change of $0 changes nothing.", RULE_ENTRIES)
        money = state["players"][seat]["money"]
        if amount < 0 and money + amount < 0:  # a gain takes nothing away, even from a seat in debt
            raise RuleViolation(
                "money_below_zero",
                f"{_holds(seat, money)}; paying ${-amount} would leave less than $0."
                if money >= 0
                else f"{_holds(seat, money)} (a debt recorded under an override): paying ${-amount} needs the "
                "money; a gain can be recorded.",
                RULE_ENTRIES,
            )

    def _check_loyalty_gained(self, state: State, seat: int, data: dict[str, Any]) -> None:
        self._check_after_card(state, seat, "gaining loyalty")

    def _check_paper_published(self, state: State, seat: int, data: dict[str, Any]) -> None:
        self._check_after_card(state, seat, "publishing a paper")
        side = data["side"]
        if state["credibility"][side] >= state["shelves"]:
            raise RuleViolation(
                "shelf_full",
                f"{PATRON_NAMES[side]}'s side of the bookshelf is full ({state['shelves']} papers).",
                RULE_LOYALTY,
            )

    def _check_paper_debunked(self, state: State, seat: int, data: dict[str, Any]) -> None:
        self._check_after_card(state, seat, "debunking a paper")
        side = data["side"]
        if state["credibility"][side] <= 0:
            raise RuleViolation(
                "shelf_empty",
                f"{PATRON_NAMES[side]}'s side of the bookshelf holds no paper to debunk.",
                RULE_LOYALTY,
            )

    def _check_patron_flipped(self, state: State, seat: int, data: dict[str, Any]) -> None:
        self._check_after_card(state, seat, "flipping the patron tile")

    def _check_species_archived(self, state: State, seat: int, data: dict[str, Any]) -> None:
        self._check_after_card(state, seat, "archiving a species")

    def _check_slot_upgraded(self, state: State, seat: int, data: dict[str, Any]) -> None:
        self._check_after_card(state, seat, "upgrading an action slot")
        left = state["players"][seat]["slots"][-1]
        if data["cost"] < left["cost"] and not recorded_before(state, 2):  # version 1 took any cost
            raise RuleViolation(
                "upgrade_cheaper",
                f"Slot costs rise to the right (“the slot’s cost ($0 to $3, rising to the right)”): the new slot "
                f"goes right of a ${left['cost']} slot, so it costs at least ${left['cost']}, not ${data['cost']}.",
                RULE_PLAYING,
            )

    def _check_card_upgraded(self, state: State, seat: int, data: dict[str, Any]) -> None:
        self._check_after_card(state, seat, "upgrading a card in a slot")
        player = state["players"][seat]
        number = data["slot"]
        if number > len(player["slots"]):
            raise RuleViolation(
                "no_such_slot", f"{seat_label(seat)} has {len(player['slots'])} action slots, not {number}.", RULE_CARDS
            )
        held = player["slots"][number - 1]["card"]
        if held is None:
            raise RuleViolation(
                "slot_empty",
                f"Slot {number} holds no card: only a card already in an action slot can be upgraded.",
                RULE_CARDS,
            )
        card = data["card"]
        if held["kind"] != "team" or card["kind"] != "team":
            raise RuleViolation(
                "upgrade_not_team",
                f"Only a team card is upgraded, to another team card (slot {number} holds a {held['kind']} card; "
                f"the new card is a {card['kind']} card).",
                RULE_CARDS,
            )
        if card.get("minor_find") is not None:
            raise RuleViolation("minor_find_not_species", "Only species cards show a minor find.", RULE_CARDS)
        if card["cost"] > 0 and card["cost"] > player["money"]:  # a $0 card pays nothing
            raise RuleViolation(
                "not_enough_money",
                f"The new card costs ${card['cost']} (the slot stays paid), but {_holds(seat, player['money'])}.",
                RULE_PLAYING,
            )

    def _check_rp_gained(self, state: State, seat: int, data: dict[str, Any]) -> None:
        self._check_after_card(state, seat, "gaining RP")
        _check_rp(state, seat, data["amount"])

    def _check_turn_ended(self, state: State, seat: int, data: dict[str, Any]) -> None:
        self._check_after_card(state, seat, "ending the turn (or pass instead)")

    def _check_passed(self, state: State, seat: int, data: dict[str, Any]) -> None:
        if state["card_played"]:
            raise RuleViolation(
                "card_already_played",
                f"{seat_label(seat)} played a card this turn: pass instead of playing, not after it. End the turn.",
                RULE_OVERVIEW,
            )

    # -- the reducer --------------------------------------------------------------------------------
    def apply(self, state: State, event: Event) -> State:
        """The state after ``event`` (input untouched); ends rounds, scores rounds 2 and 4, keeps sittings."""
        new = copy.deepcopy(state)
        version = event.version
        if version is None:  # played by hand (tests): entries numbered one after another
            version = state["sittings"][-1]["to_version"] + 1 if state["sittings"] else 1
        seat = event.seat
        data = event.data
        kind = event.type
        # version 1 (a match recorded under it) clamped an overridden number at 0 instead of keeping it
        floor = _at_least_zero if recorded_before(state, 2) else _as_recorded
        rp_before = [p["rp"] for p in new["players"]]
        round_before = None if new["finished"] else new["round"]  # after the last pass: no round is played
        player = new["players"][seat] if isinstance(seat, int) and 0 <= seat < len(new["players"]) else None
        if kind == CARD_PLAYED and player is not None:
            card = dict(data["card"])
            card.setdefault("cost", 0)
            index = next_slot(player)
            if index is None and recorded_before(state, 3):  # versions 1-2: one more slot like the rightmost
                player["slots"].append(empty_slot(player["slots"][-1]))
                index = len(player["slots"]) - 1
            if index is None:  # only under an override: there is no slot for it (no sixth slot is made up)
                raise ValueError(f"every action slot of {seat_label(seat)} already holds a card this round")
            slot = player["slots"][index]
            slot["card"] = card
            slot["prize"] = card["kind"] == "species" and card.get("minor_find") == slot["icon"]
            player["money"] = floor(player["money"] - slot["cost"] - card["cost"])  # an override may leave a debt
            new["card_played"] = True
        elif kind == MONEY_CHANGED and player is not None:
            player["money"] = floor(player["money"] + data["amount"])
        elif kind == LOYALTY_GAINED and player is not None:
            player["loyalty"][player["patron"]] += data["amount"]
        elif kind == PAPER_PUBLISHED:
            full = new["credibility"][data["side"]] >= new["shelves"]
            if full and not recorded_before(state, 2):  # only under an override: there is no shelf (version 1: kept)
                raise ValueError(f"{PATRON_NAMES[data['side']]}'s side has no empty shelf for another paper")
            new["credibility"][data["side"]] += 1
        elif kind == PAPER_DEBUNKED:
            if new["credibility"][data["side"]] <= 0 and not recorded_before(state, 2):  # only under an override
                raise ValueError(f"{PATRON_NAMES[data['side']]}'s side holds no paper to debunk")
            new["credibility"][data["side"]] = floor(new["credibility"][data["side"]] - 1)
        elif kind == PATRON_FLIPPED and player is not None:
            player["patron"] = "cope" if player["patron"] == "marsh" else "marsh"
        elif kind == SPECIES_ARCHIVED and player is not None:
            player["archive"].append(data["name"])
        elif kind == SLOT_UPGRADED and player is not None:
            player["slots"].append(empty_slot(data))
        elif kind == CARD_UPGRADED and player is not None:
            if data["slot"] > len(player["slots"]):  # only under an override: unplayable
                raise ValueError(f"{seat_label(seat)} has {len(player['slots'])} action slots, not {data['slot']}")
            slot = player["slots"][data["slot"] - 1]
            if slot["card"] is None:
                raise ValueError(f"slot {data['slot']} holds no card to upgrade")
            card = {**data["card"], "cost": data["card"].get("cost") or 0, "upgraded_from": slot["card"]["name"]}
            slot["card"] = card
            slot["prize"] = card["kind"] == "species" and card.get("minor_find") == slot["icon"]
            player["money"] -= card["cost"]
        elif kind == RP_GAINED and player is not None:
            player["rp"] = floor(player["rp"] + data["amount"])  # an overridden loss below 0: as the table said it
        elif kind == GAME_CONCLUDED:
            new["concluded"] = True
        elif kind == TURN_ENDED and isinstance(seat, int):
            _pass_turn(new, seat)
        elif kind == PASSED and player is not None:
            player["passed"] = True
            player["patron"] = data["patron"]
            if all(p["passed"] for p in new["players"]):
                _end_round(new, version)
            else:
                _pass_turn(new, seat)
        elif kind == CRANIUM_RECORDED and player is not None:
            player["cranial_circumference"] = data["cm"]
        _record_sitting(new, event.type, version, round_before, rp_before)
        return new

    # -- outcome ------------------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """After the final scoring: most RP, then most archived species, then the largest cranial
        circumference; seats still level (or level with a circumference missing) win together.

        ``provisional`` until the table confirms the end (``game_concluded``): the awards may still change it.
        """
        if not state["finished"]:
            return None
        winners, reason, _ = _standing(state)
        scores = {seat: p["rp"] for seat, p in enumerate(state["players"])}
        # version 1 (a match recorded under it): the last pass ends the game, so its result is final
        provisional = not state.get("concluded", False) and not recorded_before(state, 2)
        return Outcome(winners=winners, reason=reason, scores=scores, provisional=provisional)

    # -- listing moves --------------------------------------------------------------------------------
    def legal_moves(self, state: State) -> list[Event]:
        """The finite legal entries: passes, turn end, papers, patron flip, slot upgrades, table pause.

        Cards, money, loyalty, RP, species names and circumferences are what the table says (unbounded
        values), so they are never listed; every listed entry is accepted by ``validate``.
        """
        moves: list[Event] = []
        if state["finished"]:
            if not state.get("concluded", False) and not recorded_before(state, 2):
                moves.append(Event(GAME_CONCLUDED, None, {}))
                if _current_sitting(state) is not None:  # packing away before the awards are counted
                    moves.append(Event(TABLE_PAUSED, None, {}))
            return moves
        seat = state["turn"]
        if not state["card_played"]:
            moves.extend(Event(PASSED, seat, {"patron": side}) for side in SIDES)
        else:
            moves.append(Event(TURN_ENDED, seat, {}))
            moves.append(Event(PATRON_FLIPPED, seat, {}))
            cred = state["credibility"]
            moves.extend(Event(PAPER_PUBLISHED, seat, {"side": s}) for s in SIDES if cred[s] < state["shelves"])
            moves.extend(Event(PAPER_DEBUNKED, seat, {"side": s}) for s in SIDES if cred[s] > 0)
            left = state["players"][seat]["slots"][-1]["cost"]
            moves.extend(
                Event(SLOT_UPGRADED, seat, {"cost": cost, "icon": icon}) for cost in range(left, 4) for icon in ICONS
            )
        if _current_sitting(state) is not None:
            moves.append(Event(TABLE_PAUSED, None, {}))
        return moves

    # -- presentation ----------------------------------------------------------------------------------
    def turn(self, state: State) -> TurnInfo:
        """Whose turn and what the table must do next, never naming the seat on turn (``TurnInfo``); after
        the last pass the awards, then the winner."""
        if state["finished"]:
            winners, _, decided = _standing(state)
            rp = rp_text(state["players"][winners[0]]["rp"])
            names = together(seat_label(w) for w in winners)
            if state.get("concluded", False):
                verb = "wins" if len(winners) == 1 else "win together"
                return TurnInfo(seats=(), phase="over", prompt=f"{names} {verb} with {rp} ({decided}).")
            verb = "leads" if len(winners) == 1 else "lead together"
            prompt = (
                "Round 4 is over: record the final awards (RP with a reason), then confirm the end of the game. "
                f"For now {names} {verb} with {rp} ({decided})."
            )
            return TurnInfo(seats=(), phase="awards", prompt=prompt)
        seat = state["turn"]
        where = f" (round {state['round']} of {ROUNDS})" + _paused_words(state)
        if state["card_played"]:
            return TurnInfo(
                seats=(seat,),
                phase="action",
                prompt="finish the action (record its effects), then end the turn" + where,
            )
        player = state["players"][seat]
        index = next_slot(player)
        if index is None:
            return TurnInfo(seats=(seat,), phase="play", prompt="pass: every action slot holds a card" + where)
        cost = player["slots"][index]["cost"]
        if cost > 0 and cost > player["money"]:
            money = player["money"]
            left = f"only ${money} is left" if money >= 0 else f"nothing is left (a debt of ${-money})"
            prompt = f"pass: slot {index + 1} costs ${cost} and {left}" + where
            return TurnInfo(seats=(seat,), phase="play", prompt=prompt)
        prompt = f"play a card into slot {index + 1} (${cost}; a team card adds its own cost) or pass" + where
        return TurnInfo(seats=(seat,), phase="play", prompt=prompt)

    def describe(self, event: Event, seat_names: list[str], before: State | None = None) -> str:
        """One sentence naming the player; with ``before`` (the state the entry was played on) a card's
        slot, its price and a prize bonus are named too."""
        seat = event.seat
        who = seat_names[seat] if isinstance(seat, int) and 0 <= seat < len(seat_names) else "The table"
        data = event.data if isinstance(event.data, dict) else {}
        kind = event.type
        if kind == CARD_PLAYED:
            card = data.get("card") or {}
            name, cost = card.get("name", "a card"), card.get("cost") or 0
            player = before["players"][seat] if before and isinstance(seat, int) else None
            index = next_slot(player) if player is not None else None
            if player is None or index is None:
                return f"{who} played {name} ({card.get('kind', 'card')}, own cost {cost})"
            slot = player["slots"][index]
            text = f"{who} played {name} into slot {index + 1} (cost {slot['cost']}+{cost})"
            if card.get("kind") == "species" and card.get("minor_find") == slot["icon"]:
                text += ": prize bonus"
            return text
        side = PATRON_NAMES.get(data.get("side", ""), data.get("side"))
        amount = data.get("amount")
        if kind == MONEY_CHANGED:
            return f"{who} gained ${amount}" if (amount or 0) > 0 else f"{who} paid ${-(amount or 0)}"
        if kind == LOYALTY_GAINED:
            patron = before["players"][seat]["patron"] if before and isinstance(seat, int) else None
            track = f" on {PATRON_NAMES[patron]}'s track" if patron else ""
            return f"{who} gained {amount} loyalty{track}"
        if kind == PAPER_PUBLISHED:
            return f"{who} published a paper for {side}"
        if kind == PAPER_DEBUNKED:
            return f"{who} debunked a paper of {side}"
        if kind == PATRON_FLIPPED:
            return f"{who} flipped the patron tile"
        if kind == SPECIES_ARCHIVED:
            return f"{who} archived {data.get('name')}"
        if kind == SLOT_UPGRADED:
            return f"{who} added an action slot (${data.get('cost')}, {data.get('icon')})"
        if kind == CARD_UPGRADED:
            card = data.get("card") or {}
            slot = data.get("slot")
            held = None
            if (
                before
                and isinstance(seat, int)
                and isinstance(slot, int)
                and 0 < slot <= len(before["players"][seat]["slots"])
            ):
                held = before["players"][seat]["slots"][slot - 1]["card"]
            old = f" {held['name']} to" if held else ""
            return f"{who} upgraded{old} {card.get('name', 'a card')} in slot {slot} (cost {card.get('cost') or 0})"
        if kind == RP_GAINED:
            return f"{who} gained {amount} RP: {data.get('reason')}"
        if kind == GAME_CONCLUDED:
            text = "The table confirmed the end of the game: the awards are recorded"
            if before is not None and before.get("finished") and _circumference_counts(before):
                text += "; a cranial circumference can still change the winner"
            return text
        if kind == TURN_ENDED:
            return f"{who} ended the turn"
        if kind == PASSED:
            return f"{who} passed and returns to {PATRON_NAMES.get(data.get('patron', ''), data.get('patron'))}"
        if kind == CRANIUM_RECORDED:
            return f"{who}'s cranial circumference: {data.get('cm')} cm"
        if kind == TABLE_PAUSED:
            return "The table paused: end of the sitting"
        return super().describe(event, seat_names)

    def insights(self, state: State) -> dict[str, Any]:
        """What decided a finished game (RP, species, circumference, or a shared win) and how far apart the
        RP ended (the spread between the highest and lowest score, in bands of 10)."""
        outcome = self.outcome(state)
        if outcome is None:
            return {}
        reason = outcome.reason
        decided = (
            "shared win" if len(outcome.winners) > 1
            else "cranial circumference" if "circumference" in reason
            else "species in the archive" if "species" in reason
            else "most RP"
        )  # fmt: skip
        rps = [p["rp"] for p in state["players"]]
        band = (max(rps) - min(rps)) // 10 * 10
        return {"decided by": decided, "RP spread": f"{band}–{band + 9}"}

    numeric_insights = frozenset({SWITCHES_PER_GAME, SWITCHES_PER_PLAYER})

    def log_insights(self, steps: Iterable[tuple[Event, State, State]]) -> dict[str, Any]:
        """Replaying the log: how often the players switched patron (per game, per seat) and how (on a pass
        or by flipping the patron tile); definition in docs/rules/bone-wars.md, "Statistics"."""
        per_seat: list[int] = []
        ways: list[str] = []
        for event, before, after in steps:
            per_seat = per_seat or [0] * len(before["players"])
            for seat, (was, now) in enumerate(zip(before["players"], after["players"], strict=True)):
                if was["patron"] != now["patron"]:
                    per_seat[seat] += 1
                    ways.append("returning on a pass" if event.type == PASSED else "flipping the patron tile")
        return {SWITCHES_PER_GAME: sum(per_seat), SWITCHES_PER_PLAYER: per_seat, "patron switched by": ways}

    def warnings(self, state: State) -> list[str]:
        if not state["finished"]:
            return []
        result = self.outcome(state)
        missing = [
            seat_label(s)
            for s in (result.winners if result else ())
            if state["players"][s]["cranial_circumference"] is None
        ]
        if result and len(result.winners) > 1 and missing:
            return [f"Tied: measure the cranial circumference of {together(missing)} to break the tie."]
        return []


def _standing(state: State) -> tuple[tuple[int, ...], str, str]:
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


def _circumference_counts(state: State) -> bool:
    """Whether a cranial circumference recorded now could change who wins: the seats ahead are level on RP
    and on archived species."""
    players = state["players"]
    best = max(p["rp"] for p in players)
    tied = [p for p in players if p["rp"] == best]
    most = max(len(p["archive"]) for p in tied)
    return sum(1 for p in tied if len(p["archive"]) == most) > 1


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
    current = _current_sitting(state)
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


RULESET = BoneWars()
