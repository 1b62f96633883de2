"""App configuration: registers the app's stream kind, read models, wake-up hook, the projector's health check
and the API's ``invalid`` answer when Django is ready."""

from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"

    def ready(self) -> None:
        # importing these registers the match stream kind, the read models (match summary, play_stats) and the
        # projector's wake-up after every commit (the store calls it through its hook, never by import)
        import matches.kinds
        import matches.projections.health  # /healthz's "projector" (config.health)
        import matches.projections.play_stats
        import matches.projections.projectors
        import matches.projections.tasks  # noqa: F401
        from config.api import register_invalid_input
        from matches.errors import InvalidInput
        from matches.store.live import sight_signals_connect

        register_invalid_input(InvalidInput)
        sight_signals_connect()  # a change of who may see a match tells its watching pages (the live table)  # a body with unstorable text: the API's own ``invalid`` answer
