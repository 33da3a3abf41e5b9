"""Daily leaderboards (docs/daily.md), personal bests and statistics (docs/statistics.md), kept by
Celery tasks."""
