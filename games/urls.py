from django.urls import path

from games.help import assist_api, replay_api
from games.play import api, export_api

urlpatterns = [
    path("games", api.GameListCreateApi.as_view(), name="games"),
    path("games/export", export_api.GameExportApi.as_view(), name="games-export"),
    path("games/offline", api.GameOfflineApi.as_view(), name="games-offline"),
    path("games/<uuid:game_id>", api.GameDetailApi.as_view(), name="game"),
    path("games/<uuid:game_id>/moves", api.GameMovesApi.as_view(), name="game-moves"),
    path("games/<uuid:game_id>/undo", api.GameUndoApi.as_view(), name="game-undo"),
    path("games/<uuid:game_id>/batch", api.GameBatchApi.as_view(), name="game-batch"),
    path("games/<uuid:game_id>/finish", api.GameFinishApi.as_view(), name="game-finish"),
    path("games/<uuid:game_id>/pause", api.GamePauseApi.as_view(), name="game-pause"),
    path("games/<uuid:game_id>/resume", api.GameResumeApi.as_view(), name="game-resume"),
    path("games/<uuid:game_id>/replay", replay_api.GameReplayApi.as_view(), name="game-replay"),
    path("games/<uuid:game_id>/hint", assist_api.GameHintApi.as_view(), name="game-hint"),
    path("games/<uuid:game_id>/winnable", assist_api.GameWinnableApi.as_view(), name="game-winnable"),
]
