"""WSGI entry point: ``gunicorn yukon_site.wsgi``.

Django, behind :class:`games.fast_moves.FastMoves`, which answers the plain moves and undos of
token clients without the middleware stack and DRF (and hands everything else to Django).
"""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

django_application = get_wsgi_application()

from games.fast_moves import FastMoves  # noqa: E402 - needs the apps loaded

application = FastMoves(django_application)
