"""App configuration: registers the app's stream kinds when Django is ready."""

from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "campaigns"

    def ready(self) -> None:
        import campaigns.kinds  # noqa: F401 (registers the stream kinds)
