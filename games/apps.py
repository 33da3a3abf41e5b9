from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the games' Celery tasks in every process, also where none is sent by a
        module that imports it (the tests and the admin name them), and tell /readyz and
        /metrics what the games know (games/observability.py)."""
        from common.health import readiness_check_register
        from common.metrics import scraped_register
        from games import observability, tasks  # noqa: F401

        readiness_check_register("daily_deal", observability.daily_deal_readiness)
        scraped_register(observability.scraped_metrics)
