"""Django admin: matches and players editable; events strictly read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from matches.models import Catalog, Event, Match, MatchSummary, Player, Seat, Stream


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "player")
    readonly_fields = ("index",)
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "title", "owner", "status", "is_public", "created_at")
    list_filter = ("game", "status", "is_public")
    search_fields = ("title", "seats__player__name", "owner__username")
    readonly_fields = ("stream", "game", "status", "created_at", "updated_at")
    filter_horizontal = ("recorders",)
    inlines = [SeatInline]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a match's events are permanent; archive by making it private instead


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "user", "created_at")
    search_fields = ("name", "owner__username", "user__username")
    list_filter = ("owner",)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Read-only: no add, change or delete, whoever asks."""

    list_display = ("position", "stream", "version", "type", "seat", "recorded_by", "recorded_at")
    list_filter = ("type",)
    search_fields = ("type", "request_id", "idempotency_key")
    ordering = ("-position",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in Event._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Stream)
class StreamAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "game", "version", "ruleset_version", "updated_at")
    list_filter = ("kind", "game")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in Stream._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(MatchSummary)
class MatchSummaryAdmin(admin.ModelAdmin):
    list_display = ("match", "status", "winners", "events_count", "last_activity")
    list_filter = ("status",)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Catalog)
class CatalogAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "owner", "updated_at")
    list_filter = ("game",)
    search_fields = ("name", "owner__username")
