"""App configuration: connects the sign-in that takes a kept seat and registers the site's error page."""

from django.apps import AppConfig


class FrontendConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "frontend"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from config.errors import register_error_page
        from frontend.views.errors import error_page
        from frontend.views.joins import take_kept_seat

        # a seat picked on a join page while signed out is taken by the sign-in (or sign-up) that follows
        user_logged_in.connect(take_kept_seat, dispatch_uid="chronicle-take-kept-seat")
        register_error_page(error_page)  # Django's 404/500 and config's refusals on web pages draw the site's page
