from django.apps import AppConfig


class FrontendConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "frontend"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from frontend.views.joins import take_kept_seat

        # a seat picked on a join page while signed out is taken by the sign-in (or sign-up) that follows
        user_logged_in.connect(take_kept_seat, dispatch_uid="chronicle-take-kept-seat")
