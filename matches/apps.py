"""App configuration: registers the app's stream kind, read models and wake-up hook when Django is ready."""

from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"

    def ready(self) -> None:
        # importing these registers the match stream kind, the read models (match summary, play_stats) and the
        # projector's wake-up after every commit (the store calls it through its hook, never by import)
        import matches.kinds
        import matches.projections.play_stats
        import matches.projections.projectors
        import matches.projections.tasks  # noqa: F401
