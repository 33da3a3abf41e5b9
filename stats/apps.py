from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = "Leaderboards and statistics"

    def ready(self) -> None:
        """Listen to the games' one event (games never imports stats); the tasks registered (sent
        by name: :mod:`stats.jobs`)."""
        from games import signals

        from . import receivers, tasks  # noqa: F401

        signals.results_changed.connect(receivers.on_results_changed, dispatch_uid="stats.on_results_changed")
