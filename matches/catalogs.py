"""Catalogs: a group's own card lists (and board) for a game, typed once, copied into each new match's options.

Services (``catalog_create``, ``catalog_update``, ``catalog_import``, ``catalog_delete``) validate ``data``
against the game's options schema (only the catalog keys) and the ruleset's cross-field ``check_options``;
they raise :class:`InvalidInput` with ``errors`` keyed by the schema's paths (``attack_cards[2].attack``,
``board.centre``, ``name``, ``json``) and write nothing when anything is wrong. Selectors (``catalog_list``,
``catalog_get``) only ever show a user their own catalogs.

A match never refers to a catalog: ``catalog_options`` returns a copy that becomes the match's options, so
editing a catalog later does not change any recorded match.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from config.text import PROBLEM, unstorable_path
from matches.errors import InvalidInput, NotFound
from matches.models import Catalog
from rulesets import Field, Ruleset, SchemaError, UnknownGame, check_payload, get_ruleset

UserLike = AbstractBaseUser | AnonymousUser

# game slug → the option keys a catalog holds, each with whether a catalog must give it
CATALOG_KEYS: dict[str, dict[str, bool]] = {
    "salt-and-bones": {"attack_cards": True, "strategy_cards": True, "board": False},
    "the-first-spine": {"cards": True},
}
EXPORT_FORMAT = "chronicle-catalog"
EXPORT_VERSION = 1
NAME_MAX = 120
IMPORT_MAX_CHARS = 500_000


# -- schema ---------------------------------------------------------------------------------------------


def catalog_games() -> list[Ruleset]:
    """The rulesets that have catalogs."""
    return [get_ruleset(slug) for slug in CATALOG_KEYS]


def _ruleset(game: str) -> Ruleset:
    try:
        ruleset = get_ruleset(game)
    except UnknownGame:
        ruleset = None
    if ruleset is None or game not in CATALOG_KEYS:
        known = ", ".join(CATALOG_KEYS)
        raise InvalidInput({"game": [f"'{game}' has no card catalog. Games with catalogs: {known}."]})
    return ruleset


def catalog_fields(game: str) -> tuple[Field, ...]:
    """The option fields a catalog of ``game`` holds, in catalog order (required ones marked required)."""
    ruleset = _ruleset(game)
    by_name = {f.name: f for f in ruleset.options_schema}
    return tuple(dataclasses.replace(by_name[k], required=req) for k, req in CATALOG_KEYS[game].items())


def catalog_default(game: str) -> dict[str, Any]:
    """Fresh data for a new catalog of ``game``: the ruleset's default cards and board
    (:meth:`rulesets.base.Ruleset.catalog_defaults`)."""
    base = _ruleset(game).catalog_defaults()
    return {f.name: base[f.name] for f in catalog_fields(game)}


def _problem_key(problem: str, data: dict[str, Any]) -> str:
    """Where a cross-field problem belongs (a card row, a list, the board), for showing it next to it."""
    lists = [k for k, v in data.items() if isinstance(v, list)]
    for key in lists:
        kind = "" if key == "cards" else key.split("_")[0] + " "
        if problem.startswith(f"The {kind}card name"):
            return key
        for i, card in enumerate(data.get(key) or []):
            if isinstance(card, dict) and problem.startswith(f"{card.get('name')}:"):
                return f"{key}[{i}]"
    if " tile " in problem:
        return "board"
    return "data"


def catalog_clean(game: str, data: Any) -> dict[str, Any]:
    """``data`` checked against the game's catalog fields and cross-field rules; defaults filled in."""
    ruleset = _ruleset(game)
    if not isinstance(data, dict):
        raise InvalidInput({"data": ["A catalog must be a JSON object."]})
    try:
        cleaned = check_payload(catalog_fields(game), data)
    except SchemaError as exc:
        raise InvalidInput(exc.errors) from None
    problems = ruleset.check_options(cleaned)
    if problems:
        errors: dict[str, list[str]] = {}
        for problem in problems:
            errors.setdefault(_problem_key(problem, cleaned), []).append(problem)
        raise InvalidInput(errors)
    return cleaned


def _name_clean(name: Any) -> str:
    if not isinstance(name, str) or not " ".join(name.split()):
        raise InvalidInput({"name": ["Give the catalog a name."]})
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        raise InvalidInput({"name": [f"At most {NAME_MAX} characters."]})
    return name


def _name_taken(owner: Any, game: str, name: str, exclude: int | None = None) -> bool:
    qs = Catalog.objects.filter(owner=owner, game=game, name__iexact=name)
    if exclude is not None:
        qs = qs.exclude(pk=exclude)
    return qs.exists()


def _taken(name: str) -> InvalidInput:
    return InvalidInput({"name": [f"You already have a catalog called '{name}' for this game."]})


# -- services -------------------------------------------------------------------------------------------


def catalog_create(owner: AbstractBaseUser, game: str, name: str, data: Any = None) -> Catalog:
    """A new catalog of ``game`` for ``owner`` (the game's defaults when ``data`` is None)."""
    _ruleset(game)
    name = _name_clean(name)
    cleaned = catalog_clean(game, catalog_default(game) if data is None else data)
    if _name_taken(owner, game, name):
        raise _taken(name)
    try:
        with transaction.atomic():
            return Catalog.objects.create(owner=owner, game=game, name=name, data=cleaned)
    except IntegrityError:
        raise _taken(name) from None


def catalog_update(catalog: Catalog, user: UserLike, name: str | None = None, data: Any = None) -> Catalog:
    """Rename and/or replace the data of ``user``'s own ``catalog``; nothing changes when anything is wrong."""
    if not user or not user.is_authenticated or catalog.owner_id != user.pk:
        raise NotFound(f"No catalog {catalog.pk}.")
    errors: dict[str, list[str]] = {}
    new_name = catalog.name
    if name is not None:
        try:
            new_name = _name_clean(name)
        except InvalidInput as exc:
            errors.update(exc.errors)
        else:
            if _name_taken(catalog.owner_id, catalog.game, new_name, exclude=catalog.pk):
                errors.update(_taken(new_name).errors)
    cleaned = catalog.data
    if data is not None:
        try:
            cleaned = catalog_clean(catalog.game, data)
        except InvalidInput as exc:
            errors.update(exc.errors)
    if errors:
        raise InvalidInput(errors)
    catalog.name, catalog.data = new_name, cleaned
    try:
        with transaction.atomic():
            catalog.save(update_fields=["name", "data", "updated_at"])
    except IntegrityError:
        catalog.refresh_from_db()
        raise _taken(new_name) from None
    return catalog


def catalog_import(owner: AbstractBaseUser, game: str, name: str, json_text: Any) -> Catalog:
    """A new catalog from exported JSON (``catalog_export``'s shape) or from the bare data object.

    ``name`` may be blank to take the name stored in the JSON.
    """
    _ruleset(game)
    if isinstance(json_text, bytes):
        try:
            json_text = json_text.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidInput({"json": ["The file is not UTF-8 text."]}) from None
    if not isinstance(json_text, str) or not json_text.strip():
        raise InvalidInput({"json": ["Paste the catalog's JSON or choose a file."]})
    if len(json_text) > IMPORT_MAX_CHARS:
        raise InvalidInput({"json": [f"At most {IMPORT_MAX_CHARS} characters."]})
    try:
        parsed = json.loads(json_text)
    except ValueError as exc:
        raise InvalidInput({"json": [f"That is not valid JSON: {exc}."]}) from None
    if not isinstance(parsed, dict):
        raise InvalidInput({"json": ["The JSON must be an object."]})
    if unstorable_path(parsed) is not None:
        raise InvalidInput({"json": [PROBLEM]})
    data: Any = parsed
    if parsed.get("format") == EXPORT_FORMAT or "data" in parsed:
        if parsed.get("game", game) != game:
            raise InvalidInput({"game": [f"This JSON is a catalog of '{parsed.get('game')}', not of '{game}'."]})
        data = parsed.get("data")
        if not (isinstance(name, str) and name.strip()):
            name = parsed.get("name", "")
    return catalog_create(owner, game, name, data)


def catalog_export(catalog: Catalog) -> dict[str, Any]:
    """The catalog as a JSON-ready object that ``catalog_import`` reads back."""
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "game": catalog.game,
        "name": catalog.name,
        "data": copy.deepcopy(catalog.data),
    }


def catalog_delete(catalog: Catalog, user: UserLike) -> None:
    """Delete ``user``'s own catalog (matches created from it keep their copied options)."""
    if not user or not user.is_authenticated or catalog.owner_id != user.pk:
        raise NotFound(f"No catalog {catalog.pk}.")
    catalog.delete()


def catalog_options(catalog: Catalog) -> dict[str, Any]:
    """Option values for a new match: a copy of the catalog's data (the match never refers back to it)."""
    return copy.deepcopy(catalog.data)


# -- selectors ------------------------------------------------------------------------------------------


def catalog_list(owner: UserLike, game: str | None = None) -> QuerySet[Catalog]:
    """``owner``'s catalogs (of ``game`` when given), by game and name; none for anonymous users."""
    if not owner or not owner.is_authenticated:
        return Catalog.objects.none()
    qs = Catalog.objects.filter(owner=owner)
    if game:
        qs = qs.filter(game=game)
    return qs.order_by("game", "name", "pk")


def catalog_get(owner: UserLike, pk: Any) -> Catalog:
    """``owner``'s catalog ``pk``, else :class:`NotFound` (another user's catalog does not leak)."""
    try:
        key = int(pk)
    except (TypeError, ValueError):
        raise NotFound(f"No catalog {pk}.") from None
    catalog = catalog_list(owner).filter(pk=key).first()
    if catalog is None:
        raise NotFound(f"No catalog {pk}.")
    return catalog
