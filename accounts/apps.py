from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """The API tokens' cache follows their rows; the tasks registered (sent by name:
        :mod:`accounts.jobs`)."""
        from . import tasks  # noqa: F401
        from .authentication import connect_token_cache_signals

        connect_token_cache_signals()
