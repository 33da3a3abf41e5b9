from django.apps import AppConfig


class FrontendConfig(AppConfig):
    """The browser game: HTML pages whose ES modules talk only to the JSON API."""

    name = "frontend"
    verbose_name = "Browser game"
