from django.urls import path

from . import api, standing_api

urlpatterns = [
    path("daily", api.DailyTodayApi.as_view(), name="daily"),
    path("daily/archive", standing_api.DailyArchiveApi.as_view(), name="daily-archive"),
    path("daily/<str:day>", api.DailyDayApi.as_view(), name="daily-day"),
    path("daily/<str:day>/standing", standing_api.DailyStandingApi.as_view(), name="daily-standing"),
    path("leaderboards/daily/<str:day>", api.DailyLeaderboardApi.as_view(), name="leaderboard-daily"),
    path("me/stats", api.MyStatsApi.as_view(), name="my-stats"),
    path("players/<str:username>/stats", api.PlayerStatsApi.as_view(), name="player-stats"),
]
