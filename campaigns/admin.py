"""Django admin for campaigns."""

from django.contrib import admin

from campaigns.models import Campaign


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "game", "owner", "is_public", "updated_at")
    list_filter = ("game", "is_public")
    search_fields = ("name", "owner__username")
    # visibility is fixed at creation: the campaign statistics read model copies it
    readonly_fields = ("stream", "game", "is_public", "created_at", "updated_at")
    filter_horizontal = ("recorders",)
