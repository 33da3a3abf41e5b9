from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "common"
    verbose_name = "Common API pieces"

    def ready(self) -> None:
        from .metrics import task_signals_connect

        task_signals_connect()
