from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "common"
    verbose_name = "Common API pieces"

    def ready(self) -> None:
        from .authentication import connect_token_cache_signals

        connect_token_cache_signals()
