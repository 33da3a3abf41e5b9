"""WSGI entry point: ``granian --interface wsgi yukon_site.wsgi:application`` (``deploy/web.sh``)."""

import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

application = get_wsgi_application()

# The loaded application (Django, DRF, the URL and schema tables: a few hundred thousand objects)
# lives as long as the process: freeze it out of the garbage collector's full passes. Under load
# each full pass walked all of it and stopped the process for 30-100 ms (measured with
# gc.callbacks during `make loadtest`), which was most of the moves' p99.
gc.collect()
gc.freeze()
