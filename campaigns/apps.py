"""App configuration: registers the app's stream kinds, read model and demo when Django is ready (``matches``
never imports ``campaigns``)."""

from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"

    def ready(self) -> None:
        # importing these registers the stream kinds, the demo campaign and series, the campaign_stats read model
        # and its part of the game dashboards
        import campaigns.kinds
        import campaigns.saltmarsh.demo
        import campaigns.saltmarsh.stats
        import campaigns.series.demo  # noqa: F401
