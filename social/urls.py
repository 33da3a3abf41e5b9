from django.urls import path

from . import api

urlpatterns = [
    path("players/<str:username>/follow", api.FollowApi.as_view(), name="player-follow"),
    path("me/following", api.FollowingApi.as_view(), name="me-following"),
    path("me/privacy", api.PrivacyApi.as_view(), name="me-privacy"),
    path("daily/<str:day>/friends", api.FriendsBoardApi.as_view(), name="daily-friends"),
    path("clubs", api.ClubsApi.as_view(), name="clubs"),
    path("clubs/join", api.ClubJoinApi.as_view(), name="clubs-join"),
    path("clubs/<str:slug>", api.ClubDetailApi.as_view(), name="club"),
    path("clubs/<str:slug>/invite", api.ClubInviteApi.as_view(), name="club-invite"),
    path("clubs/<str:slug>/members/<str:username>", api.ClubMemberApi.as_view(), name="club-member"),
    path("clubs/<str:slug>/removed/<str:username>", api.ClubRemovedApi.as_view(), name="club-removed"),
    path("clubs/<str:slug>/daily/<str:day>", api.ClubDayApi.as_view(), name="club-daily"),
    path("clubs/<str:slug>/week/<str:week>", api.ClubWeekApi.as_view(), name="club-week"),
]
