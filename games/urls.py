from django.urls import path

from . import api

urlpatterns = [
    path("games", api.GameListCreateApi.as_view(), name="games"),
    path("games/<uuid:game_id>", api.GameDetailApi.as_view(), name="game"),
    path("games/<uuid:game_id>/moves", api.GameMovesApi.as_view(), name="game-moves"),
    path("games/<uuid:game_id>/undo", api.GameUndoApi.as_view(), name="game-undo"),
]
