"""Django admin: matches and players editable; events strictly read-only; hidden information only for superusers."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from matches.models import Catalog, Event, Match, MatchSummary, Player, Seat, Stream
from matches.store.visibility import row_as_seen, viewer_for_stream
from rulesets import get_ruleset


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
    # visibility is fixed at creation: the statistics read models copy it (``PlayedMatch.is_public``, roll-ups)
    readonly_fields = ("stream", "game", "status", "is_public", "created_at", "updated_at")
    filter_horizontal = ("recorders",)
    inlines = [SeatInline]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a match's events are permanent


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "user", "created_at")
    search_fields = ("name", "owner__username", "user__username")
    list_filter = ("owner",)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # seats and statistics refer to players; a duplicate is merged (an event), never deleted


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Read-only: no add, change or delete, whoever asks."""

    list_display = ("position", "stream", "version", "type", "seat", "recorded_by", "recorded_at")
    list_filter = ("type",)
    search_fields = ("type", "request_id", "idempotency_key")
    ordering = ("-position",)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """Staff who are not superusers read ``data`` as matches.store.visibility shows it to them."""
        names = [f.name for f in Event._meta.fields]
        return names if request.user.is_superuser else ["data_as_seen" if n == "data" else n for n in names]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return self.get_fields(request, obj)

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Any:
        obj = super().get_object(request, object_id, from_field)
        if obj is not None and not request.user.is_superuser:
            obj.seen = row_as_seen(viewer_for_stream(request.user, obj.stream), obj)
        return obj

    @admin.display(description="data")
    def data_as_seen(self, obj: Event) -> Any:
        return obj.seen.data

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

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """Staff who are not superusers read ``state`` as matches.store.visibility shows it to them."""
        names = [f.name for f in Stream._meta.fields if f.name != "id"]
        return names if request.user.is_superuser else ["state_as_seen" if n == "state" else n for n in names]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return self.get_fields(request, obj)

    def get_object(self, request: HttpRequest, object_id: str, from_field: str | None = None) -> Any:
        obj = super().get_object(request, object_id, from_field)
        if obj is not None and not request.user.is_superuser:
            obj.seen_state = viewer_for_stream(request.user, obj).state(get_ruleset(obj.game), obj.state)
        return obj

    @admin.display(description="state")
    def state_as_seen(self, obj: Stream) -> Any:
        return obj.seen_state

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
