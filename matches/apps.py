"""App configuration: registers the app's stream kind and read models when Django is ready."""

from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"

    def ready(self) -> None:
        # importing these registers the match stream kind and the read models (match summary, play_stats)
        import matches.kinds
        import matches.projections
        import matches.stats_projection  # noqa: F401
