"""Bone Wars: 1–4 paleontologists play cards into action slots for Marsh or Cope over four rounds.

The state is public (no hidden cards are tracked: hands stay at the table). Each seat's turn is either a
card into its leftmost empty slot, followed by that action's effects and ``turn_ended``, or ``passed``.
When every seat has passed the round ends; rounds 2 and 4 are scored; after round 4 the game is over.
A table can pack the game away with ``table_paused``; the state keeps one entry per sitting.
After the last pass the table records the final awards (``rp_gained``, any seat) and confirms the end with
``game_concluded``; until then the outcome is provisional.

The package has the one shape (docs/ARCHITECTURE.md › How to add a game): ``fields.py`` (entries, options,
rule names), ``rules.py`` (the phase and turn checks, one check per entry type, the legal moves),
``engine.py`` (the state, one effect per entry type, the sittings), and this module, the ruleset object.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from rulesets.base import Event, EventType, Outcome, Ruleset, RuleViolation, State, TurnInfo, unknown_event
from rulesets.bone_wars import engine
from rulesets.bone_wars.engine import (
    EFFECTS,
    circumference_counts,
    next_slot,
    paused_words,
    rp_text,
    seat_label,
    standing,
    together,
)
from rulesets.bone_wars.fields import (
    CARD_PLAYED,
    CARD_UPGRADED,
    CRANIUM_RECORDED,
    EVENT_TYPES,
    GAME_CONCLUDED,
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
    RULE_OVERVIEW,
    RULE_VERSIONS,
    SLOT_UPGRADED,
    SPECIES_ARCHIVED,
    TABLE_PAUSED,
    TURN_ENDED,
)
from rulesets.bone_wars.rules import RULES, check_awards_phase, check_seat_turn, legal_moves
from rulesets.versions import recorded_before

__all__ = ["RULESET", "BoneWars"]

SWITCHES_PER_GAME = "patron switches per game"
SWITCHES_PER_PLAYER = "patron switches per player"


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
    score_unit = "RP"
    describe_uses_state = True
    start_option = "first_seat"
    start_rule = "Bone Wars › Overview: players act “in player order”; the rulebook leaves who begins to the table."
    options_schema = OPTIONS_SCHEMA
    event_types: dict[str, EventType] = EVENT_TYPES
    rules = RULES
    effects = EFFECTS
    over_rule = RULE_AWARDS
    turn_rule = RULE_OVERVIEW

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
        return engine.new_state(options, seat_count, self.start_seat(options))

    # -- the hooks of the one shape -------------------------------------------------------------------
    def check_over(self, state: State) -> None:
        """Nothing here: a cranial circumference (the last tie-break) may be recorded at any time, even after
        the end is confirmed, so the end is refused in :meth:`check_phase`, which sees the entry."""

    def check_phase(self, state: State, event: Event) -> None:
        """After the last pass: once the end is final (confirmed, or a version 1 match) every entry but a
        circumference is refused (``game_over``, naming the winner, never overridable: issue 46); until then
        only the awards, a pause and the confirmation (``rules.check_awards_phase``)."""
        if event.type == CRANIUM_RECORDED or not state["finished"]:
            return
        ended = self.outcome(state)
        if ended is not None and not ended.provisional:
            rule = RULE_VERSIONS if recorded_before(state, 2) else self.over_rule
            raise RuleViolation("game_over", self.over_words(state, ended), rule, overridable=False)
        check_awards_phase(state, event)

    def over_words(self, state: State, ended: Outcome) -> str:
        """Who won and with what; a version 1 match says how to reach the awards."""
        winners, _, decided = standing(state)
        rp = rp_text(state["players"][winners[0]]["rp"])
        won = "won" if len(winners) == 1 else "won together"
        why = (
            "This match keeps the rules it was recorded under (version 1), where the last pass ends the game; "
            "to record the awards, replay it under the current rules first. "
            if recorded_before(state, 2)
            else ""
        )
        return (
            f"The game is over: {together(seat_label(w) for w in winners)} {won} with {rp} ({decided}). "
            f"{why}Only a cranial circumference may still be recorded."
        )

    def check_entry(self, state: State, event: Event) -> EventType:
        """The base's check; an unknown entry's refusal does not list the known ones (as it always read)."""
        if event.type not in self.event_types:
            raise unknown_event(self.name, event.type)
        return super().check_entry(state, event)

    def check_turn(self, state: State, event: Event) -> None:
        """A seat that has passed is out for the round; then whose turn (``rules.check_seat_turn``)."""
        check_seat_turn(state, event)

    def clone(self, state: State) -> State:
        return engine.clone(state)

    def settle(self, new: State, event: Event) -> State:
        """Every entry is counted in its sitting (``engine.settle``)."""
        return engine.settle(new, event)

    # -- outcome ------------------------------------------------------------------------------------
    def outcome(self, state: State) -> Outcome | None:
        """After the final scoring: most RP, then most archived species, then the largest cranial
        circumference; seats still level (or level with a circumference missing) win together.

        ``provisional`` until the table confirms the end (``game_concluded``): the awards may still change it.
        """
        if not state["finished"]:
            return None
        winners, reason, _ = standing(state)
        scores = {seat: p["rp"] for seat, p in enumerate(state["players"])}
        # version 1 (a match recorded under it): the last pass ends the game, so its result is final
        provisional = not state.get("concluded", False) and not recorded_before(state, 2)
        return Outcome(winners=winners, reason=reason, scores=scores, provisional=provisional)

    def legal_moves(self, state: State) -> list[Event]:
        return legal_moves(state)

    # -- presentation ----------------------------------------------------------------------------------
    def turn(self, state: State) -> TurnInfo:
        """Whose turn and what the table must do next, never naming the seat on turn (``TurnInfo``); after
        the last pass the awards, then the winner."""
        if state["finished"]:
            winners, _, decided = standing(state)
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
        where = f" (round {state['round']} of {ROUNDS})" + paused_words(state)
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
            if before is not None and before.get("finished") and circumference_counts(before):
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


RULESET = BoneWars()
