"""The API schema's parts drawn from the rulesets and the routes: each game's entries and the links between operations.

An entry posted to ``…/events/`` is judged by its game's own declarations (``event_types_with_meta``: the names, seats
and payload fields that validation and the web form read); this hook writes those same declarations into the
schema, so the body of each kind's event endpoint says exactly which entries its games take: per game a ``oneOf``
discriminated by ``type`` (``GetSaltyEntry``), one variant per entry type (``GetSaltyCrackerMovedEntry``) with its
``data`` schema (``rulesets.schema.json_schema``) and its seat's range, and the envelope fields of ``EventInput``.
A kind with several games (matches) takes ``anyOf`` their entries: the match's game decides which applies.

The links let a client (and schemathesis' stateful phase) follow an answer to the next request: a created match's
``id`` to every ``/api/matches/{match_id}/…`` operation, a photo's ``id``, a join link's ``token``, a seat's
``player_id``, an import job's ``job``.
"""

from __future__ import annotations

import copy
from typing import Any

from rulesets import Ruleset
from rulesets.registry import all_rulesets
from rulesets.replay import PHOTO_TYPES, event_types_with_meta
from rulesets.schema import check_payload, example_payload, json_schema, seat_word

ENVELOPE = "EventInputRequest"  # drf-spectacular's name for EventInput as a request body
EVENTS = "/api/{kind}/{{{lookup}}}/events/"
KINDS = {"match": ("matches", "match_id"), "campaign": ("campaigns", "campaign_id"), "series": ("series", "series_id")}


def _camel(text: str) -> str:
    return "".join(part.capitalize() for part in text.replace("-", "_").split("_") if part)


def _seat_schema(ruleset: Ruleset, required: bool) -> dict[str, Any]:
    """A seat index this game can have (0 … most seats − 1); null too unless the entry needs one."""
    most = max(ruleset.seats)
    if most == 0:  # a stream without seats (campaigns, series): heroes and matches are named in the data
        return {"type": "null", "description": "this stream has no seats"}
    seat = {"type": "integer", "minimum": 0, "maximum": most - 1, "description": "the acting seat (0 is the first)"}
    return seat if required else {"anyOf": [seat, {"type": "null"}], "description": seat["description"]}


def _opening_moves(ruleset: Ruleset) -> dict[str, dict[str, Any]]:
    """The first legal move of each type at the start of an example match (fewest seats, ``example_options``), as
    a body: ``{type: {"type", "seat", "data"}}``; empty for a game that does not list its moves."""
    state = ruleset.initial_state(
        check_payload(ruleset.options_schema, dict(ruleset.example_options)), ruleset.seats[0]
    )
    moves: dict[str, dict[str, Any]] = {}
    for move in ruleset.legal_moves(state) or []:
        moves.setdefault(move.type, {"type": move.type, "seat": move.seat, "data": move.data})
    return moves


def _example(name: str, spec: Any, opening: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """An entry of type ``name``: a legal opening move when there is one, else read off its fields (an entry of
    the right shape that the rules may still refuse now)."""
    body = opening.get(name) or {
        "type": name,
        "seat": 0 if spec.seat_required else None,
        "data": example_payload(spec.fields),
    }
    return {key: value for key, value in body.items() if value is not None}


def entry_variants(ruleset: Ruleset, envelope: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{component name: schema}`` of every entry a client may post for ``ruleset`` (photo entries come from the
    photo endpoints), each the ``envelope`` (EventInput's schema) with its ``type``, ``seat`` and ``data`` made exact,
    and an example (:func:`_example`)."""
    game = _camel(ruleset.slug)
    opening = _opening_moves(ruleset)
    variants = {}
    for name, spec in event_types_with_meta(ruleset).items():
        if name in PHOTO_TYPES:
            continue
        schema = copy.deepcopy(envelope)
        data = json_schema(spec.fields)
        data["description"] = spec.description or spec.label
        schema["properties"]["type"] = {"type": "string", "enum": [name], "description": spec.label}
        schema["properties"]["seat"] = _seat_schema(ruleset, spec.seat_required)
        schema["properties"]["data"] = data
        schema["required"] = [
            "type",
            *(["seat"] if spec.seat_required else []),
            *(["data"] if data["required"] else []),
        ]
        schema["description"] = f"{ruleset.name}: {spec.label}"
        schema["examples"] = [_example(name, spec, opening)]
        variants[f"{game}{_camel(name)}Entry"] = schema
    return variants


def _entries(ruleset: Ruleset, envelope: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    """Register ``ruleset``'s variants and its ``oneOf``; a ``$ref`` to the latter."""
    variants = entry_variants(ruleset, envelope)
    components.update(variants)
    mapping = {v["properties"]["type"]["enum"][0]: f"#/components/schemas/{k}" for k, v in variants.items()}
    name = f"{_camel(ruleset.slug)}Entry"
    components[name] = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
        "description": f"An entry of {ruleset.name}: its type decides its seat and data.",
    }
    return {"$ref": f"#/components/schemas/{name}"}


def add_entry_schemas(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular post-processing hook: each kind's ``POST …/events/`` body is its games' entries."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    envelope = components.get(ENVELOPE)
    if envelope is None:
        return result
    for kind, (prefix, lookup) in KINDS.items():
        operation = result.get("paths", {}).get(EVENTS.format(kind=prefix, lookup=lookup), {}).get("post")
        if operation is None:
            continue
        games = [_entries(r, envelope, components) for r in all_rulesets(kind)]
        body = games[0] if len(games) == 1 else {"anyOf": games}
        operation["requestBody"]["content"] = {"application/json": {"schema": body}}
    add_examples(components)
    add_links(result)
    require_bodies(result)
    return result


# Bodies no ruleset declares: one plain example each (the rulesets' own bodies are read off them in add_examples)
EXAMPLES = {
    "TokenLoginInputRequest": {"username": "ana", "password": "correct horse battery staple"},
    "JoinInputRequest": {"seat": 1},
    "JoinLinkInputRequest": {"new": False},
    "PhotoRemoveInputRequest": {"reason": "a stranger's face", "delete_file": False},
    "RecordersInputRequest": {"recorders": []},
    "RulesUpgradeInputRequest": {"expected_version": 0},
    "MergeInputRequest": {"into": 1, "reason": "the same person"},
    "ThisIsMeInputRequest": {"player": 1},
    "ClaimInputRequest": {"token": "the token of an invite link"},
}


def add_examples(components: dict[str, Any]) -> None:
    """Examples of the create bodies from the rulesets (each game with its fewest seats and ``example_options``)
    and :data:`EXAMPLES`; each create body's ``game`` is one of the games of its kind and a match's seats as many
    as some game allows (as the API enforces)."""
    matches, campaigns = all_rulesets("match"), all_rulesets("campaign")
    bodies = {
        "MatchCreateInputRequest": (matches, [
            {"game": r.slug, "seats": [{"name": seat_word(i)} for i in range(r.seats[0])], "options": r.example_options}
            for r in matches
        ]),
        "CampaignCreateInputRequest": (campaigns, [
            {"name": r.name, "game": r.slug, "options": r.example_options} for r in campaigns
        ]),
        "SeriesCreateInputRequest": (matches, [{"name": f"{r.name} league", "game": r.slug} for r in matches[:2]]),
    }  # fmt: skip
    for name, (games, examples) in bodies.items():
        if name in components:
            components[name]["properties"]["game"]["enum"] = [r.slug for r in games]
            components[name]["examples"] = examples
    seats = components.get("MatchCreateInputRequest", {}).get("properties", {}).get("seats")
    if seats is not None:  # as many as some game allows (the game decides within these)
        seats.update(minItems=min(min(r.seats) for r in matches), maxItems=max(max(r.seats) for r in matches))
    for name, example in EXAMPLES.items():
        if name in components:
            components[name]["examples"] = [example]


def require_bodies(result: dict[str, Any]) -> None:
    """Mark a request body required when its schema has required fields (the API refuses it missing): a client
    generator then makes ``body`` a required argument."""
    components = result.get("components", {}).get("schemas", {})
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody")
            if not body or body.get("required"):
                continue
            for media in body.get("content", {}).values():
                schema = media.get("schema", {})
                ref = schema.get("$ref", "")
                schema = components.get(ref.rsplit("/", 1)[1], {}) if ref else schema
                if schema.get("required") or "anyOf" in schema or "oneOf" in schema:
                    body["required"] = True


def _links_to(paths: dict[str, Any], prefix: str, skip: str = "", **parameters: str) -> dict[str, Any]:
    """A link to every operation under ``prefix`` (but those whose path holds ``skip``), with ``parameters``."""
    return {
        op["operationId"]: {"operationId": op["operationId"], "parameters": parameters}
        for path, ops in paths.items()
        if path.startswith(prefix) and not (skip and skip in path)
        for op in ops.values()
    }


def _add(paths: dict[str, Any], path: str, method: str, statuses: tuple[str, ...], links: dict[str, Any]) -> None:
    for status in statuses:
        response = paths.get(path, {}).get(method, {}).get("responses", {}).get(status)
        if response is not None and links:
            response.setdefault("links", {}).update(links)


def add_links(result: dict[str, Any]) -> None:
    """OpenAPI links from each answer that names something to the operations that take it."""
    paths = result.get("paths", {})
    for prefix, lookup in KINDS.values():
        created = _links_to(paths, f"/api/{prefix}/{{{lookup}}}/", "{photo_id}", **{lookup: "$response.body#/id"})
        _add(paths, f"/api/{prefix}/", "post", ("201",), created)
        photo = f"/api/{prefix}/{{{lookup}}}/photos/"
        added = _links_to(
            paths, f"{photo}{{", **{lookup: f"$request.path.{lookup}", "photo_id": "$response.body#/photo/id"}
        )
        _add(paths, photo, "post", ("201", "200"), added)
    join = _links_to(paths, "/api/join/{token}/", token="$response.body#/token")
    _add(paths, "/api/matches/{match_id}/join-link/", "post", ("201", "200"), join)
    seat = "$response.body#/seats/0/player_id"
    players = {
        **_links_to(paths, "/api/players/{", player_id=seat),
        **_links_to(paths, "/api/stats/players/{", player_id=seat),
    }
    _add(paths, "/api/matches/", "post", ("201",), players)
    job = _links_to(paths, "/api/import/jobs/{", id="$response.body#/job")
    for importer in ("/api/import/bgstats/", "/api/import/bgg/"):
        _add(paths, importer, "post", ("201", "202"), job)
