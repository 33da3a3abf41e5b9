from django.urls import path

from . import api

urlpatterns = [
    path("register", api.RegisterApi.as_view(), name="auth-register"),
    path("login", api.LoginApi.as_view(), name="auth-login"),
    path("logout", api.LogoutApi.as_view(), name="auth-logout"),
    path("me", api.MeApi.as_view(), name="auth-me"),
    path("tokens", api.TokensApi.as_view(), name="auth-tokens"),
    path("tokens/<int:token_id>", api.TokenApi.as_view(), name="auth-token"),
    path("settings", api.SettingsApi.as_view(), name="auth-settings"),
    path("password", api.PasswordApi.as_view(), name="auth-password"),
    path("password-reset", api.PasswordResetApi.as_view(), name="auth-password-reset"),
    path("email", api.EmailApi.as_view(), name="auth-email"),
    path("language", api.LanguageApi.as_view(), name="auth-language"),
    path("sessions", api.SessionsApi.as_view(), name="auth-sessions"),
]
