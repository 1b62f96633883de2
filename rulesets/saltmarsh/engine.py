"""The Saltmarsh campaign's reducer: the state, its helpers, and one effect per entry type.

An effect edits the clone in place and raises (``ValueError``, or a :class:`RuleViolation` for a name nobody
has) rather than place an entry it cannot place honestly: an overridden entry is then ``unplayable``
(docs/rules/ghosts-of-saltmarsh.md › Overrides bend rules, never the data).
"""

from __future__ import annotations

import copy
from typing import Any

from rulesets.base import Event, RuleViolation, State
from rulesets.saltmarsh.cards import treasure_card
from rulesets.saltmarsh.fields import (
    ADVANCEMENT_TOKEN_BOUGHT,
    ADVENTURE,
    ADVENTURE_COMPLETED,
    ADVENTURE_CONCLUDED,
    ADVENTURE_FAILED,
    ADVENTURE_STARTED,
    COMPLETED,
    FAILED,
    GOLD_GAINED,
    HERO_JOINED,
    HERO_RETIRED,
    IN_PROGRESS,
    ITEM_BOUGHT,
    ITEM_SOLD,
    LEVELED_UP,
    POWERS_SWAPPED,
    RULE_BUY,
    RULE_CAMPAIGN,
    RULE_CARRY,
    RULE_LEVEL,
    RULE_SELL,
    RULE_SWAP,
    RULE_TOKENS,
    RULE_TRACKER,
    RULE_TRADE,
    SHOP_REVEALED,
    TOWN,
    TRADE_MADE,
    TREASURE_GAINED,
    TREASURE_USED,
)
from rulesets.saltmarsh.sheet import norm
from rulesets.versions import recorded_before

# -- the state ----------------------------------------------------------------------------------------


def new_state(options: dict[str, Any]) -> State:
    """An empty campaign: no heroes, no adventures, in town."""
    return {
        "options": {
            "level_up_cost": int(options.get("level_up_cost", 2000)),
            "missed_adventure_gold": int(options.get("missed_adventure_gold", 200)),
            "max_level": int(options.get("max_level", 2)),
            "advancement_tokens": bool(options.get("advancement_tokens", True)),
        },
        "events_applied": 0,
        "phase": TOWN,
        "heroes": [],
        "adventures": [],
        "display": [],
    }


def clone(state: State) -> State:
    """A copy of ``state`` for the next entry's effect, that entry counted in ``events_applied`` (ledger rows
    carry the count)."""
    new = copy.deepcopy(state)
    new["events_applied"] = new.get("events_applied", 0) + 1
    return new


def gp(n: int) -> str:
    """An amount of gold in players' words ("2,000 gp")."""
    return f"{n:,} gp"


def find_hero(state: State, name: str) -> int | None:
    """Index of the active hero called ``name`` (case-insensitive), or None."""
    key = norm(name)
    for i, hero in enumerate(state["heroes"]):
        if not hero["retired"] and norm(hero["name"]) == key:
            return i
    return None


def require_hero(state: State, name: str, rule: str) -> int:
    """Index of the active hero called ``name``; ``hero_retired`` or ``unknown_hero`` (citing ``rule``) otherwise."""
    idx = find_hero(state, name)
    if idx is not None:
        return idx
    key = norm(name)
    if any(norm(h["name"]) == key for h in state["heroes"]):
        raise RuleViolation("hero_retired", f"{name} has retired from the campaign and can no longer act.", rule)
    raise RuleViolation("unknown_hero", f"No hero called {name} is in the campaign.", rule)


def current_adventure(state: State) -> dict[str, Any] | None:
    """The adventure in progress, or None in town."""
    if state["adventures"] and state["adventures"][-1]["result"] == IN_PROGRESS:
        return state["adventures"][-1]
    return None


def adventure_of_match(state: State, match: int) -> dict[str, Any] | None:
    """The adventure played as match ``match`` (its ``adventure_started`` named the match), or None."""
    for adventure in reversed(state["adventures"]):
        if adventure.get("match") == match:
            return adventure
    return None


def match_closed_reason(state: State, match: int) -> str | None:
    """Why match ``match`` can no longer change the campaign, or None while it still can.

    A match is open while its adventure is in progress, and while the adventure it concluded is still the
    campaign's latest one (a correction in the match then flows through). Once a later adventure has
    started, or when the campaign never linked this match, the match is closed.
    """
    adventure = adventure_of_match(state, match)
    if adventure is None:
        return f"No adventure of this campaign is played as match #{match}."
    if adventure is not state["adventures"][-1]:
        later = state["adventures"][-1]["adventure"]
        return (
            f"{adventure['adventure']} is {adventure['result']} on the campaign and {later} has started since: "
            f"match #{match} is closed and can no longer change the campaign."
        )
    return None


def find_item(items: list[dict[str, Any]], name: str) -> int | None:
    """Position of the first card called ``name`` in ``items``, or None."""
    key = norm(name)
    for i, item in enumerate(items):
        if norm(item["name"]) == key:
            return i
    return None


def sale_value(item: dict[str, Any]) -> int | None:
    """Gold a sold card brings: its sell value, else half its buy value rounded down, else None (no value)."""
    if item.get("sell") is not None:
        return int(item["sell"])
    if item.get("buy") is not None:
        return int(item["buy"]) // 2
    return None


def _take_card(hero: dict[str, Any], name: str) -> dict[str, Any]:
    """Remove and return the hero's card called ``name``; ``ValueError`` when the hero holds none."""
    pos = find_item(hero["items"], name)
    if pos is None:
        raise ValueError(f"{hero['name']} does not hold {name}")
    return hero["items"].pop(pos)


def _refuse_on_match(s: State) -> None:
    """An override bends rules, not data: a hand entry cannot reach into an adventure played as a match."""
    current = current_adventure(s)
    if current is not None and current.get("match") is not None:
        raise ValueError(f"{current['adventure']} is played as match #{current['match']}; record it there")


def _v1_accepts(s: State) -> bool:
    """Whether ``s`` is judged under version 1 (before commit e1068e1, version 2), whose reducer placed what an
    override let through without the checks version 2 added (docs/rules/ghosts-of-saltmarsh.md › Versions): a
    second hero of the same name, retiring a hero on the adventure, a second adventure, a result with no
    adventure in progress (the latest one gets it again), selling a card not held (the last card held goes)."""
    return recorded_before(s, 2)


def _concludable(s: State) -> dict[str, Any]:
    """The adventure a hand-recorded result concludes: the one in progress, not played as a match (version 1:
    the latest adventure, whatever its result)."""
    current = current_adventure(s)
    if current is None and _v1_accepts(s) and s["adventures"]:
        return s["adventures"][-1]
    if current is None:
        raise ValueError("no adventure is in progress to conclude")
    _refuse_on_match(s)
    return current


def _complete(s: State, adv: dict[str, Any], reward: int) -> None:
    adv["result"] = COMPLETED
    s["phase"] = TOWN
    missed = s["options"]["missed_adventure_gold"]
    for i, hero in enumerate(s["heroes"]):
        if hero["retired"]:
            continue
        if i in adv["hero_ids"]:
            _gold(s, i, reward, "adventure", f"Aftermath of {adv['adventure']}")
        else:
            _gold(s, i, missed, "missed_adventure", f"Missed {adv['adventure']}")


def _fail(s: State, adv: dict[str, Any]) -> None:
    adv["result"] = FAILED
    s["phase"] = TOWN


def _gold(s: State, idx: int, delta: int, cause: str, note: str) -> None:
    """Change a hero's gold and write the ledger row (rows are only written for non-zero changes).

    Raises ``ValueError`` rather than leave a hero below 0 gp (an overridden entry is then ``unplayable``);
    version 1 (a campaign recorded under it) let an overridden payment take the hero below 0 gp.
    """
    if delta == 0:
        return
    hero = s["heroes"][idx]
    if hero["gold"] + delta < 0 and not recorded_before(s, 2):
        raise ValueError(
            f"{hero['name']} has {gp(hero['gold'])} and cannot pay {gp(-delta)}: gold never goes below zero"
        )
    hero["gold"] += delta
    hero["ledger"].append(
        {"version": s["events_applied"], "delta": delta, "cause": cause, "note": note, "balance": hero["gold"]}
    )


# -- one effect per entry type ------------------------------------------------------------------------


def hero_joined(s: State, event: Event) -> None:
    """A hero at level 1 with no gold, items or powers; names tell active heroes apart."""
    data = event.data
    if (not data["hero"].strip() or find_hero(s, data["hero"]) is not None) and not _v1_accepts(s):
        raise ValueError(f"an active hero is already called {data['hero']!r} (names must tell heroes apart)")
    s["heroes"].append(
        {
            "name": " ".join(data["hero"].split()),
            "class": data["class"],
            "level": 1,
            "gold": 0,
            "items": [],
            "powers": [],
            "advancement_tokens": [],
            "retired": False,
            "ledger": [],
        }
    )


def hero_retired(s: State, event: Event) -> None:
    """The hero leaves (never while on the adventure in progress)."""
    idx = require_hero(s, event.data["hero"], RULE_TRACKER)
    current = current_adventure(s)
    if current is not None and idx in current["hero_ids"] and not _v1_accepts(s):
        raise ValueError(f"{s['heroes'][idx]['name']} is on {current['adventure']}, which is still in progress")
    s["heroes"][idx]["retired"] = True


def adventure_started(s: State, event: Event) -> None:
    """The party sets out; the shop's display goes back into the deck."""
    data = event.data
    current = current_adventure(s)
    if current is not None and not _v1_accepts(s):
        raise ValueError(f"{current['adventure']} is still in progress; only one adventure at a time")
    ids = [require_hero(s, name, RULE_CAMPAIGN) for name in data["heroes"]]
    if not ids:
        raise ValueError("an adventure needs at least one hero")
    if len(set(ids)) != len(ids) and not _v1_accepts(s):
        raise ValueError("a hero is listed twice for the adventure")
    match = data.get("match")
    if match is not None and adventure_of_match(s, match) is not None:
        raise ValueError(f"match #{match} already plays another adventure")
    s["adventures"].append(
        {
            "adventure": data["adventure"],
            "heroes": [s["heroes"][i]["name"] for i in ids],
            "hero_ids": ids,
            "result": IN_PROGRESS,
            "match": match,
            "conclusion": None,
        }
    )
    s["phase"] = ADVENTURE
    s["display"] = []


def treasure_gained(s: State, event: Event) -> None:
    """The hero holds the card (version 1: under the name as typed)."""
    idx = require_hero(s, event.data["hero"], RULE_CARRY)
    _refuse_on_match(s)
    card = treasure_card(event.data["item"])
    s["heroes"][idx]["items"].append({**card, "name": event.data["item"]["name"]} if _v1_accepts(s) else card)


def treasure_used(s: State, event: Event) -> None:
    """The card leaves the hero."""
    idx = require_hero(s, event.data["hero"], RULE_CARRY)
    _refuse_on_match(s)
    _take_card(s["heroes"][idx], event.data["item"])


def gold_gained(s: State, event: Event) -> None:
    """The gold goes to the hero (ledger: ``treasure``)."""
    idx = require_hero(s, event.data["hero"], RULE_CARRY)
    _refuse_on_match(s)
    adventure = s["adventures"][-1]["adventure"] if s["adventures"] else "the adventure"
    _gold(s, idx, event.data["amount"], "treasure", f"Gold found in {adventure}")


def adventure_completed(s: State, event: Event) -> None:
    """Aftermath gold to the party, missed-adventure gold to every other active hero; back in town."""
    _complete(s, _concludable(s), event.data["reward"])


def adventure_failed(s: State, event: Event) -> None:
    """Back in town; treasure and gold are kept."""
    _fail(s, _concludable(s))


def adventure_concluded(s: State, event: Event) -> None:
    """The match's cards, gold and result reach the campaign."""
    data = event.data
    adv = adventure_of_match(s, data["match"])
    if adv is None or adv["result"] != IN_PROGRESS:
        raise ValueError(f"match #{data['match']} has no adventure in progress on this campaign")
    for entry in data["heroes"]:
        idx = require_hero(s, entry["hero"], RULE_CARRY)
        hero = s["heroes"][idx]
        for name in entry["used"]:
            _take_card(hero, name)
        hero["items"].extend(treasure_card(card) for card in entry["found"])
        _gold(s, idx, entry["gold"], "treasure", f"Gold found in {adv['adventure']}")
    if data["result"] == "won":
        _complete(s, adv, data["reward"])
    else:
        _fail(s, adv)
    adv["conclusion"] = copy.deepcopy(data)


def powers_swapped(s: State, event: Event) -> None:
    """The hero's selected powers are the list."""
    s["heroes"][require_hero(s, event.data["hero"], RULE_SWAP)]["powers"] = list(event.data["powers"])


def item_sold(s: State, event: Event) -> None:
    """The card leaves the hero for its sale value."""
    idx = require_hero(s, event.data["hero"], RULE_SELL)
    hero = s["heroes"][idx]
    if _v1_accepts(s) and find_item(hero["items"], event.data["item"]) is None and hero["items"]:
        item = hero["items"].pop()  # version 1 sold the last card held
    else:
        item = _take_card(hero, event.data["item"])
    _gold(s, idx, sale_value(item) or 0, "sale", f"Sold {item['name']}")


def shop_revealed(s: State, event: Event) -> None:
    """The display is these cards (version 1: the name as typed, an Item only when flagged so)."""
    if _v1_accepts(s):
        s["display"] = [
            {**treasure_card(c), "name": c["name"], "item": bool(c.get("item"))} for c in event.data["cards"]
        ]
        return
    s["display"] = [treasure_card(c) for c in event.data["cards"]]


def item_bought(s: State, event: Event) -> None:
    """The card leaves the display for the hero, who pays its buy cost."""
    idx = require_hero(s, event.data["hero"], RULE_BUY)
    key = norm(event.data["item"])
    pos = next(
        (i for i, c in enumerate(s["display"]) if norm(c["name"]) == key and c["item"] and c.get("buy") is not None),
        None,
    )
    if pos is None:
        raise ValueError(f"{event.data['item']} is not an Item with a buy cost in the current display")
    card = s["display"].pop(pos)
    _gold(s, idx, -card["buy"], "purchase", f"Bought {card['name']}")
    s["heroes"][idx]["items"].append(card)


def trade_made(s: State, event: Event) -> None:
    """The cards and gold change hands (a barter: both ways, each side's cards as held before the trade)."""
    data = event.data
    giver = require_hero(s, data["from"], RULE_TRADE)
    taker = require_hero(s, data["to"], RULE_TRADE)
    g, t = s["heroes"][giver], s["heroes"][taker]
    back = [_take_card(t, name) for name in data.get("items_back", [])]  # a barter: cards held before it
    for name in data["items"]:
        t["items"].append(_take_card(g, name))
    g["items"].extend(back)
    _gold(s, giver, -data["gold"], "trade", f"Gave to {t['name']}")
    _gold(s, taker, data["gold"], "trade", f"Received from {g['name']}")
    _gold(s, taker, -data.get("gold_back", 0), "trade", f"Gave to {g['name']}")
    _gold(s, giver, data.get("gold_back", 0), "trade", f"Received from {t['name']}")


def leveled_up(s: State, event: Event) -> None:
    """One level more for the level-up cost."""
    idx = require_hero(s, event.data["hero"], RULE_LEVEL)
    s["heroes"][idx]["level"] += 1
    level = s["heroes"][idx]["level"]
    _gold(s, idx, -s["options"]["level_up_cost"], "level_up", f"Reached level {level}")


def advancement_token_bought(s: State, event: Event) -> None:
    """The hero holds the token and pays its cost."""
    idx = require_hero(s, event.data["hero"], RULE_TOKENS)
    s["heroes"][idx]["advancement_tokens"].append(event.data["token"])
    _gold(s, idx, -event.data["cost"], "advancement_token", f"Bought {event.data['token']}")


EFFECTS = {
    HERO_JOINED: hero_joined,
    HERO_RETIRED: hero_retired,
    ADVENTURE_STARTED: adventure_started,
    TREASURE_GAINED: treasure_gained,
    TREASURE_USED: treasure_used,
    GOLD_GAINED: gold_gained,
    ADVENTURE_COMPLETED: adventure_completed,
    ADVENTURE_FAILED: adventure_failed,
    ADVENTURE_CONCLUDED: adventure_concluded,
    POWERS_SWAPPED: powers_swapped,
    ITEM_SOLD: item_sold,
    SHOP_REVEALED: shop_revealed,
    ITEM_BOUGHT: item_bought,
    TRADE_MADE: trade_made,
    LEVELED_UP: leveled_up,
    ADVANCEMENT_TOKEN_BOUGHT: advancement_token_bought,
}
