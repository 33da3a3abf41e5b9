from django.urls import path

from . import account_views, pwa, views

urlpatterns = [
    path("", views.play, name="play"),
    path("daily", views.daily, name="daily"),
    path("leaderboards", views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:day>.png", views.board_image, name="board-image"),
    path("archive", views.archive, name="archive"),
    path("stats", views.stats, name="stats"),
    path("games", views.my_games, name="games"),
    path("replay/<uuid:game_id>", views.replay, name="replay"),
    path("login", views.login, name="login"),
    path("signup", views.signup, name="signup"),
    path("players/<str:username>", views.player, name="player"),
    path("clubs", views.clubs, name="clubs"),
    path("clubs/join/<str:invite>", views.club_join, name="club-join"),
    path("clubs/<slug:slug>", views.club, name="club"),
    path("account/delete", views.account_delete, name="account-delete"),
    path("account", account_views.account, name="account"),
    path("account/password-reset", account_views.password_reset, name="password-reset"),
    path("account/reset/<uidb64>/<token>", account_views.PasswordResetConfirm.as_view(), name="password-reset-confirm"),
    path("account/email/<str:token>", account_views.email_confirm, name="email-confirm"),
    path("account/email-undo/<str:token>", account_views.email_undo, name="email-undo"),
    path("language", views.language, name="language"),
    path("manifest.webmanifest", pwa.manifest, name="app-manifest"),
    path("sw.js", pwa.service_worker, name="app-worker"),
    path("offline", pwa.offline, name="app-offline"),
    path("app/icon-<str:purpose>-<int:size>.png", pwa.icon, name="app-icon"),
    path("app/engine-<str:digest>.zip", pwa.engine, name="app-engine"),
    path("jsi18n/<slug:lang>.js", views.js_catalog, name="js-catalog"),
]
