from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = "Leaderboards and statistics"

    def ready(self) -> None:
        """Listen to the games' one event (games never imports stats)."""
        from games import signals

        from . import receivers

        signals.results_changed.connect(receivers.on_results_changed, dispatch_uid="stats.on_results_changed")
