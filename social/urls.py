from django.urls import path

from . import api

urlpatterns = [
    path("players/<str:username>/follow", api.FollowApi.as_view(), name="player-follow"),
    path("me/following", api.FollowingApi.as_view(), name="me-following"),
    path("daily/<str:day>/friends", api.FriendsBoardApi.as_view(), name="daily-friends"),
]
