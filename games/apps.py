from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the games' Celery tasks in every process, also where none is sent by a
        module that imports it (the tests and the admin name them)."""
        from . import tasks  # noqa: F401
