"""Daily leaderboards, personal bests and statistics (SPEC section 6), kept by Celery tasks."""
