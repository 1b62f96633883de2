"""Long-running streams on the same event store as matches: campaigns (Ghosts of Saltmarsh) and series."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Campaign(models.Model):
    """A named campaign stream with an owner, recorders and visibility."""

    stream = models.OneToOneField("matches.Stream", on_delete=models.PROTECT, related_name="campaign")
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=64)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_campaigns")
    recorders = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="recorded_campaigns")
    is_public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def game_name(self) -> str:
        """The game's name as printed, never its slug."""
        from matches.models import game_name

        return game_name(self.game)


class Series(models.Model):
    """A named series (league) of finished matches of one game, with standings; a stream of its own."""

    stream = models.OneToOneField("matches.Stream", on_delete=models.PROTECT, related_name="series")
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=64, help_text="the game of every match in the series")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_series")
    recorders = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="recorded_series")
    is_public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name

    @property
    def game_name(self) -> str:
        """The game's name as printed, never its slug."""
        from matches.models import game_name

        return game_name(self.game)


class CampaignAdventure(models.Model):
    """Read model kept by the ``campaign_stats`` projector: one row per concluded adventure of a campaign, with
    the party's gold right after it (the sum of the active heroes' gold), for the statistics pages.

    ``number`` counts the campaign's concluded adventures from 1; the visibility is the campaign's, copied."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="concluded_adventures")
    game = models.CharField(max_length=64)
    is_public = models.BooleanField(default=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveIntegerField()
    adventure = models.CharField(max_length=200)
    completed = models.BooleanField()
    party_gold = models.IntegerField()
    heroes = models.PositiveSmallIntegerField()
    concluded_at = models.DateTimeField()

    class Meta:
        ordering = ["campaign_id", "number"]
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="campaign_adventure_number_unique")]
        indexes = [models.Index(fields=["game", "concluded_at"], name="campaign_adv_game_time_idx")]

    def __str__(self) -> str:
        return f"{self.adventure} ({self.campaign_id} #{self.number})"
