"""App configuration: registers the app's stream kinds when Django is ready."""

from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"

    def ready(self) -> None:
        import matches.kinds  # noqa: F401 (registers the stream kinds)
