from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = "Leaderboards and statistics"

    def ready(self) -> None:
        """Listen to the games' events (games never imports stats)."""
        from games import signals

        from . import receivers

        signals.game_won.connect(receivers.on_game_won, dispatch_uid="stats.on_game_won")
        signals.ranked_results_changed.connect(
            receivers.on_ranked_results_changed, dispatch_uid="stats.on_ranked_results_changed"
        )
