from django.apps import AppConfig


class CommonConfig(AppConfig):
    name = "common"
    verbose_name = "Common API pieces"

    def ready(self) -> None:
        from . import checks  # noqa: F401 - registers the site's system checks
        from .metrics import task_signals_connect

        task_signals_connect()
