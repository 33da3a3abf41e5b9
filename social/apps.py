from django.apps import AppConfig


class SocialConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "social"
    verbose_name = "Friends and clubs"

    def ready(self) -> None:
        """Listen to stats' board event (stats never imports social); the tasks registered (sent
        by name: :mod:`social.jobs`)."""
        from stats import signals

        from . import receivers, tasks  # noqa: F401

        signals.daily_result_changed.connect(receivers.on_daily_result_changed, dispatch_uid="social.on_result")
        signals.profile_viewed.connect(receivers.on_profile_viewed, dispatch_uid="social.on_profile_viewed")
