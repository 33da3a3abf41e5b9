from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "common"
    verbose_name = "Common API pieces"

    def ready(self) -> None:
        from .authentication import connect_token_cache_signals
        from .metrics import task_signals_connect

        connect_token_cache_signals()
        task_signals_connect()
